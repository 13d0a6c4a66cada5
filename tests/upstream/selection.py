"""Which of LangGraph's own tests use only its public API: the honest ceiling for ``lab``.

Read statically (``ast``, nothing imported), one test function at a time, together with what it reaches
in its file: the module-level functions, classes and values it names, the fixtures of the file it asks
for, and the names it imports from the suite's helper modules (``tests/any_str.py`` ...), followed to
their definitions. A test is **excluded** from the ceiling, with the reason, when what it reaches

- imports a private name of LangGraph: a module with a ``_``-segment (``langgraph.pregel._loop``,
  ``langgraph._internal._constants``), a ``_``-name (``langgraph.graph.message._messages_delta_reducer``)
  or the serializer's internals (``langgraph.checkpoint.serde``);
- reads a private builder object: ``.builder``, ``.nodes``, ``.channels``, ``.edges``, ``.branches``,
  ``.waiting_edges``, ``.schemas``, ``.managed`` or ``.*_channels`` of a builder or a compiled graph
  (the same names on what ``get_graph()`` returns are its public drawing), or any ``._name``
  (a named tuple's ``_replace``/``_asdict``/``_fields`` are public; ``self.``/``cls.`` are a
  helper class's own);
- patches LangGraph's internals (``patch("langgraph....")``);
- migrates an old checkpoint format (a file or test named ``*migrat*``).

Everything else is in the ceiling, including tests of features ``lab`` does not have: those fail, and
the report says what they lacked.
"""

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

BUILDER_ATTRS = frozenset(
    {
        "builder",
        "nodes",
        "channels",
        "edges",
        "branches",
        "waiting_edges",
        "schemas",
        "managed",
        "input_channels",
        "output_channels",
        "stream_channels",
        "trigger_to_nodes",
    }
)
"""Attributes of a ``StateGraph`` or a compiled graph that expose how LangGraph builds it inside."""

PUBLIC_UNDERSCORE_ATTRS = frozenset({"_replace", "_asdict", "_fields", "_make"})
"""Named-tuple methods: public API despite the underscore (``StateSnapshot._replace``)."""

OWN_OBJECT_NAMES = frozenset({"self", "cls"})
"""A helper class reading its own attributes (``self._runs``) reads nothing of LangGraph's."""

DRAWING_CALL = "get_graph"
"""The public call whose result's ``.nodes``/``.edges`` are a drawing, not the builder."""

HELPER_PACKAGE = "tests."


@dataclass(frozen=True)
class Verdict:
    """One upstream test function: ``excluded`` says why it is outside the ceiling (None: inside)."""

    file: str
    test: str
    excluded: str | None


def is_private_origin(origin: str) -> bool:
    """Whether an imported dotted name is LangGraph's private surface."""
    if origin != "langgraph" and not origin.startswith("langgraph."):
        return False
    if origin.startswith("langgraph.checkpoint.serde"):
        return True
    return any(part.startswith("_") and not part.startswith("__") for part in origin.split("."))


def migration_reason(file: str, test: str) -> str | None:
    """The migration exclusion, from the file's or the test's name."""
    if "migrat" in file or "migrat" in test:
        return "migrates an old checkpoint format"
    return None


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for an attribute chain on a plain name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def calls_drawing(node: ast.AST) -> bool:
    """Whether an expression contains a ``….get_graph(...)`` call."""
    return any(
        isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == DRAWING_CALL
        for sub in ast.walk(node)
    )


def drawing_names(node: ast.AST) -> set[str]:
    """Names assigned (anywhere in ``node``) from an expression that calls ``get_graph``."""
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assign) and calls_drawing(sub.value):
            names.update(target.id for target in sub.targets if isinstance(target, ast.Name))
    return names


def is_drawing(base: ast.expr, drawings: set[str]) -> bool:
    return calls_drawing(base) or (isinstance(base, ast.Name) and base.id in drawings)


def builder_read_reason(node: ast.AST) -> str | None:
    """The first private builder object or ``._name`` that ``node`` reads, as a reason."""
    drawings = drawing_names(node)
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Attribute):
            continue
        attr = sub.attr
        if isinstance(sub.value, ast.Name) and sub.value.id in OWN_OBJECT_NAMES:
            continue
        if attr in BUILDER_ATTRS and not is_drawing(sub.value, drawings):
            return f"reads private builder object .{attr}"
        if attr.startswith("_") and not attr.startswith("__") and attr not in PUBLIC_UNDERSCORE_ATTRS:
            return f"reads private attribute .{attr}"
    return None


def patch_reason(node: ast.AST) -> str | None:
    """A ``patch("langgraph....")`` / ``mocker.patch("langgraph....")`` in ``node``, as a reason."""
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call) or not sub.args:
            continue
        name = dotted(sub.func) or ""
        first = sub.args[0]
        if (
            name.split(".")[-1].startswith("patch")
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and first.value.startswith("langgraph")
        ):
            return f"patches LangGraph internals ({first.value})"
    return None


def imports_of(tree: ast.Module) -> dict[str, str]:
    """Module-level import bindings: local name -> dotted origin."""
    bindings: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                bindings[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                bindings[local] = alias.name if alias.asname else local
    return bindings


def definitions_of(tree: ast.Module) -> dict[str, ast.AST]:
    """Module-level definitions (functions, classes, assigned names) by name."""
    defined: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined[node.name] = node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        defined[sub.id] = node
    return defined


def names_read(node: ast.AST) -> set[str]:
    """Every plain name ``node`` mentions (a superset of what it reads; enough to follow references)."""
    return {sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name)}


def attribute_origins(node: ast.AST, bindings: dict[str, str]) -> Iterator[str]:
    """Dotted origins of attribute chains on imported modules (``langgraph.pregel._loop.X``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and (chain := dotted(sub)):
            head, _, rest = chain.partition(".")
            if head in bindings:
                yield f"{bindings[head]}.{rest}"


@dataclass
class ModuleFacts:
    """What one test or helper file imports and defines, and each definition's own findings."""

    path: Path
    bindings: dict[str, str]
    definitions: dict[str, ast.AST]
    fixtures: set[str] = field(default_factory=set)
    own_reason: dict[str, str | None] = field(default_factory=dict)


class Selector:
    """Classifies the test functions of LangGraph's test directory ``root`` (the ``tests`` package)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.modules: dict[Path, ModuleFacts] = {}

    def facts(self, path: Path) -> ModuleFacts:
        if path not in self.modules:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            facts = ModuleFacts(path, imports_of(tree), definitions_of(tree))
            facts.fixtures = {name for name, node in facts.definitions.items() if is_fixture(node)}
            self.modules[path] = facts
        return self.modules[path]

    def helper_path(self, origin: str) -> tuple[Path, str] | None:
        """``tests.any_str.AnyStr`` -> (``root/any_str.py``, ``AnyStr``) when that helper file exists."""
        if not origin.startswith(HELPER_PACKAGE):
            return None
        module, _, name = origin.rpartition(".")
        path = self.root.joinpath(*module.split(".")[1:]).with_suffix(".py")
        return (path, name) if path.is_file() else None

    def reason(self, path: Path, name: str, seen: set[tuple[Path, str]]) -> str | None:
        """Why what ``name`` in ``path`` reaches is private (None: public), following references."""
        if (path, name) in seen:
            return None
        seen.add((path, name))
        facts = self.facts(path)
        origin = facts.bindings.get(name)
        if origin is not None:
            return self.origin_reason(origin, seen)
        node = facts.definitions.get(name)
        if node is None:
            return None
        return self.node_reason(facts, node, seen)

    def origin_reason(self, origin: str, seen: set[tuple[Path, str]]) -> str | None:
        if is_private_origin(origin):
            return f"imports private {origin}"
        helper = self.helper_path(origin)
        return self.reason(*helper, seen) if helper else None

    def node_reason(self, facts: ModuleFacts, node: ast.AST, seen: set[tuple[Path, str]]) -> str | None:
        direct = builder_read_reason(node) or patch_reason(node)
        if direct:
            return direct
        for origin in attribute_origins(node, facts.bindings):
            if is_private_origin(origin):
                return f"imports private {origin}"
        referenced = names_read(node) | self.fixtures_asked(facts, node)
        for name in sorted(referenced):
            if found := self.reason(facts.path, name, seen):
                return found
        return None

    def fixtures_asked(self, facts: ModuleFacts, node: ast.AST) -> set[str]:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return set()
        return {arg.arg for arg in node.args.args if arg.arg in facts.fixtures}

    def verdicts(self, file: Path) -> list[Verdict]:
        """One verdict per test function of ``file`` (methods of ``Test*`` classes as ``Class::test``)."""
        facts = self.facts(file)
        found = []
        for test, node in tests_of(facts.definitions):
            excluded = migration_reason(file.name, test) or self.node_reason(facts, node, set())
            found.append(Verdict(file.name, test, excluded))
        return found


def is_fixture(node: ast.AST) -> bool:
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    return any("fixture" in ast.unparse(decorator) for decorator in node.decorator_list)


def is_test_function(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")


def tests_of(definitions: dict[str, ast.AST]) -> Iterable[tuple[str, ast.AST]]:
    """Test functions and ``Test*`` class methods, as pytest collects them by default."""
    for name, node in definitions.items():
        if is_test_function(node):
            yield name, node
        elif name.startswith("Test") and isinstance(node, ast.ClassDef):
            for member in node.body:
                if is_test_function(member):
                    yield f"{name}::{member.name}", node
