"""The project's layers, bottom up: what a layer imports is below it or beside it, never above it
(:data:`LAYERS`; imports inside functions count). The checkpoint savers (like ``langgraph.checkpoint``, a
package of its own in LangGraph) depend on nothing else in ``lab``; in particular not on the worker code
in ``lab.browser`` - the IndexedDB saver is handed an open database. And the lab controller knows no
particular graph: the AML investigation is one graph profile among any (``lab.aml`` imports the
controller, never the other way). ``tests/test_import_cycles.py`` checks that no modules, of one layer
or of several, import each other in a loop."""

from __future__ import annotations

import ast
import re
import typing
from collections.abc import Callable
from pathlib import Path

from tests.test_import_cycles import import_graph

LAB = Path(__file__).resolve().parents[1] / "lab"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def imports_of(package: str, forbidden: Callable[[str], bool]) -> set[str]:
    """``"<file> imports <module>"`` for each module a file of ``lab/<package>`` imports that is
    ``forbidden``."""
    files = sorted((LAB / package).glob("*.py"))
    assert files, f"lab/{package} has no modules?"
    return {
        f"{path.name} imports {module}"
        for path in files
        for module in imported_modules(path)
        if forbidden(module)
    }


def test_lab_checkpoint_imports_only_itself_from_lab() -> None:
    outside = imports_of(
        "checkpoint", lambda module: module.split(".")[0] == "lab" and not module.startswith("lab.checkpoint")
    )
    assert outside == set()


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from lab.browser import idb\n")
    assert imported_modules(module) == {"lab.browser"}


def is_aml(module: str) -> bool:
    """Whether ``module`` is the AML investigation's (``lab.aml`` or a module of it)."""
    return module == "lab.aml" or module.startswith("lab.aml.")


def test_lab_controller_imports_nothing_of_the_aml_investigation() -> None:
    """The controller serves any graph: what is the AML investigation's (its cases, words, business
    operations) reaches it only through the graph profile ``lab.aml.profile`` hands it."""
    assert imports_of("controller", is_aml) == set()


def test_the_worker_imports_nothing_of_the_aml_investigation() -> None:
    """The worker serves any page: the lab page names its graph (``lab.aml.lab_page``), imported by that
    name when its worker opens the lab (``lab.browser.lab_rpc.page_graph``); /play's worker, which names
    none, never imports the AML investigation."""
    assert imports_of("browser", is_aml) == set()


LAYERS: tuple[tuple[str, ...], ...] = (
    # savers, config; errors, interrupts, the refusal by name and the id hash (leaves)
    ("lab.checkpoint", "lab.cache", "lab.config", "lab.plain_messages"),
    ("lab.errors", "lab.interrupts", "lab.graph.unsupported", "lab.pregel.xxh3", "lab.store"),
    ("lab.plain_message_utils",),  # LangChain's message functions' twins (lab.messages gives them)
    # the values a graph passes around, and the chat models that make them
    ("lab.messages", "lab.runtime", "lab.runnables", "lab.chat_models", "lab.plain_chat_models"),
    ("lab.pregel", "lab.types"),  # the runtime (``interrupt()`` in lab.types reads the running task)
    # building graphs (and entrypoints, tools, prebuilt agents), compiled to lab.pregel
    ("lab.graph", "lab.channels", "lab.diagram", "lab.func", "lab.tools", "lab.plain_tools", "lab.prebuilt"),
    ("lab.world",),  # the outside world a graph calls: one decider, its recorders (reads the run's config)
    ("lab.controller",),  # the lab controller, for any compiled graph
    ("lab.aml", "lab.lessons", "lab.playground", "lab.interop"),  # on the controller
    ("lab.browser", "lab.preload", "lab"),  # the worker's Python
    ("narratives", "gallery"),  # the site's content: the lessons' prose, the playground's programs
    ("site_build", "dev_server"),  # the build's steps and the development server
    ("build",),  # the build: a list of steps
)
"""Each project module's layer is the one naming the longest prefix of it (``lab`` holds only what no
other names: its ``__init__``)."""


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer ``module`` belongs to."""
    owners = [
        (len(prefix), index)
        for index, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    assert owners, f"{module} is in no layer: add it to LAYERS"
    return max(owners)[1]


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every ``(importer, imported)`` of ``graph`` whose imported module lies in a higher layer."""
    return {
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(module)
    }


def test_every_module_of_the_project_is_in_a_layer() -> None:
    graph = import_graph()
    assert {layer_of(module) for module in graph} == set(range(len(LAYERS)))


def test_the_check_finds_a_lower_layer_importing_a_higher_one() -> None:
    graph = {"lab.pregel.loop": {"lab.controller.state", "lab.checkpoint.base"}, "lab.checkpoint.base": set()}
    assert upward_imports(graph) == {("lab.pregel.loop", "lab.controller.state")}
    assert upward_imports({"narratives.pages": {"site_build.lesson_seeds"}}) == {
        ("narratives.pages", "site_build.lesson_seeds")
    }


def test_no_layer_imports_a_higher_one() -> None:
    assert upward_imports(import_graph()) == set(), "imports that run up a layer"


# -- the AML investigation's words stay in lab/aml --------------------------------------------------------

GENERIC_WORDS = {"alert", "case_id", "charges", "log", "outcome", "review"}
"""Fields of the AML case that are also words of any graph (an ARIA ``role="alert"``, a profile's case, a
run's log and outcome, an interrupt's review, the playground's own ``charge`` service): not the AML's."""

NOT_AML_AWARE = ("lab/controller", "lab/world", "static")
"""The code for any graph: the controller, the outside world, the page (its translation catalogues
``static/i18n/`` excepted: they say every message Python sends, the AML profile's included)."""


def aml_words() -> set[str]:
    """The AML investigation's own names: its nodes (every variant's), its case fields (the graph's
    state), its operation kinds, as ``lab.aml`` defines them, less :data:`GENERIC_WORDS`."""
    from lab.aml import VARIANT_INFO, build_graph, describe_graph
    from lab.aml.graph import CaseState
    from lab.aml.world import AML_OPERATIONS
    from lab.world import PROGRAM_OPERATIONS, MemoryWorld

    nodes = {
        node["id"]
        for variant in VARIANT_INFO
        for node in describe_graph(build_graph(MemoryWorld(), variant))["nodes"]
        if node.get("kind") == "node"
    }
    kinds = {operation.kind for operation in AML_OPERATIONS} - {o.kind for o in PROGRAM_OPERATIONS}
    return (nodes | set(typing.get_type_hints(CaseState)) | kinds | {"SAR"}) - GENERIC_WORDS


def aml_words_in(project: Path, roots: tuple[str, ...], words: set[str]) -> set[str]:
    """``"<file>: <word>"`` for each of ``words`` a source file under ``roots`` of ``project`` names (its
    text, comments and docstrings included, as a whole word; the i18n catalogues excepted)."""
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b")
    files = [
        path
        for root in roots
        for path in sorted((project / root).rglob("*"))
        if path.suffix in (".py", ".mjs", ".js", ".html", ".css") and "i18n" not in path.parts
    ]
    assert files, f"no source files under {roots}?"
    return {
        f"{path.relative_to(project)}: {word}" for path in files for word in pattern.findall(path.read_text())
    }


def test_the_aml_words_are_the_investigations_own() -> None:
    words = aml_words()
    assert {"customer", "typology", "transactions", "sar", "file_sar", "human_review", "intake"} <= words
    assert GENERIC_WORDS.isdisjoint(words)


def test_the_check_finds_an_aml_word_in_generic_code(tmp_path: Path) -> None:
    (tmp_path / "lab" / "controller").mkdir(parents=True)
    (tmp_path / "lab" / "controller" / "view.py").write_text(
        'rows = [r for r in rows if r["kind"] == "sar"]\n'
    )
    (tmp_path / "lab" / "controller" / "ok.py").write_text("sarcastic = 'a charge'  # an operation\n")
    assert aml_words_in(tmp_path, ("lab/controller",), {"sar"}) == {"lab/controller/view.py: sar"}


def test_the_code_for_any_graph_names_nothing_of_the_aml_investigation() -> None:
    """Issue 35's bar: ``lab/controller``, ``lab/world`` and ``static/`` know "an operation", a case, a
    node - never the AML investigation's (its words reach the page as the profile's data)."""
    assert aml_words_in(LAB.parent, NOT_AML_AWARE, aml_words()) == set()
