"""No module of the project imports, directly or through others, a module that imports it back: not in
``lab``, and not in the build (``build.py``, ``site_build/``, ``narratives/``, ``gallery/``,
``dev_server/``), which imports ``lab`` but is never imported by it.

Imports are read with ``ast`` (nothing is executed), including imports inside functions and
under ``TYPE_CHECKING``: a cycle hidden in a function body is still a cycle a reader must untangle.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("lab", "site_build", "narratives", "gallery", "dev_server")
"""The project's packages (the tests and benchmarks aside: nothing imports them)."""
SCRIPTS = ("build.py",)


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, known: set[str], root: Path = ROOT) -> set[str]:
    """The project modules that ``path`` imports (``from lab.x import y`` counts ``lab.x.y`` if
    that is a module, else ``lab.x``)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return {module for module in found if module in known}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each project module under ``root`` -> the project modules it imports."""
    paths = [*(root / script for script in SCRIPTS if (root / script).exists())]
    paths += [path for package in PACKAGES for path in (root / package).rglob("*.py")]
    files = {module_name(path, root): path for path in paths}
    known = set(files)
    return {name: imported_modules(path, known, root) - {name} for name, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path ``[a, b, ..., a]``, or ``None``."""
    state: dict[str, str] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = "open"
        stack.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                return [*stack[stack.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[name] = "done"
        return None

    for name in sorted(graph):
        if name not in state and (cycle := visit(name)):
            return cycle
    return None


def test_the_checker_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_sees_lab_and_build_imports():
    graph = import_graph()
    assert "lab.pregel.algo" in graph["lab.pregel.loop"]
    assert "lab.checkpoint.base" in graph["lab.pregel.loop"]
    assert "site_build.cache" in graph["site_build.play"]
    assert "site_build.learn" in graph["build"]
    assert "narratives.pages" in graph["site_build.learn"]  # imported inside a function


def test_the_checker_finds_a_build_that_imports_itself_through_a_function(tmp_path):
    """As the build did before it had ``site_build/cache.py``: a step imported ``build`` in a function."""
    (tmp_path / "build.py").write_text("from site_build.play import write_play_files\n")
    (tmp_path / "site_build").mkdir()
    (tmp_path / "site_build" / "play.py").write_text("def editor():\n    from build import CACHE\n")
    assert find_cycle(import_graph(tmp_path)) == ["build", "site_build.play", "build"]


def test_the_project_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
