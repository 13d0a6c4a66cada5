"""The package's layers: the checkpoint savers (like ``langgraph.checkpoint``, a package of its own
in LangGraph) depend on nothing else in ``lab``; in particular not on the worker code in
``lab.browser`` - the IndexedDB saver is handed an open database. And the lab controller knows no
particular graph: the AML investigation is one graph profile among any (``lab.aml`` imports the
controller, never the other way)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

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


def test_lab_controller_imports_nothing_of_the_aml_investigation() -> None:
    """The controller serves any graph: what is the AML investigation's (its cases, words, business
    operations) reaches it only through the graph profile ``lab.aml.profile`` hands it."""
    aml = imports_of("controller", lambda module: module == "lab.aml" or module.startswith("lab.aml."))
    assert aml == set()
