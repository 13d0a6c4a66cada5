"""Which of the lab's modules a Pyodide memory snapshot can hold (a platform concern; no LangGraph concept).

The lab's browser worker boots faster by restoring a memory snapshot of a Python that has already
imported the lab (the build makes it: ``site_build/snapshot.py``). Pyodide can only snapshot a Python
that holds no reference to a JavaScript object, so the snapshot may import only modules that never
reach ``js`` or ``pyodide`` - directly or through another lab module they import (a parent package
counts, since importing ``a.b`` runs ``a/__init__.py``). The others (``lab.browser``,
``lab.checkpoint.indexeddb``) are imported after the restore.

The snapshot is every page's, so it also leaves out a package whose ``__init__`` says
``PRELOADED = False``: a graph only the page that names it opens (``lab.aml``: the lab page's, never
``/play``'s), imported by that page's worker after the restore. Nothing else the snapshot holds may
import such a package, or the snapshot would hold it after all.

This reads the sources with :mod:`ast` and imports nothing to decide; :func:`preload` then imports the
modules it picks. Any import statement counts, even one inside a function: when in doubt, leave it out.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
JAVASCRIPT_MODULES = ("js", "pyodide")


def module_name(path: Path, root: Path = PACKAGE_ROOT) -> str:
    """``lab/pregel/loop.py`` -> ``lab.pregel.loop``; a package's ``__init__.py`` -> the package."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def parent_packages(name: str) -> set[str]:
    """``lab.pregel.loop`` -> ``{"lab", "lab.pregel"}``: what importing it runs first."""
    parts = name.split(".")
    return {".".join(parts[:end]) for end in range(1, len(parts))}


def imported_names(source: str) -> set[str]:
    """Every module an import statement in ``source`` may load (``from a import b`` may load ``a.b``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def import_graph(root: Path = PACKAGE_ROOT) -> dict[str, set[str]]:
    """Each module of the package -> the modules it imports, its parent packages included."""
    graph = {}
    for path in sorted(root.rglob("*.py")):
        name = module_name(path, root)
        graph[name] = imported_names(path.read_text()) | parent_packages(name)
    return graph


def reaches_javascript(graph: dict[str, set[str]]) -> set[str]:
    """The modules that import ``js``/``pyodide``, directly or through other modules of the graph."""
    return reaching(
        graph,
        {
            name
            for name, imports in graph.items()
            if any(i.split(".")[0] in JAVASCRIPT_MODULES for i in imports)
        },
    )


def reaching(graph: dict[str, set[str]], touching: set[str]) -> set[str]:
    """``touching`` and every module of the graph that imports one of them, directly or through others."""
    grew = True
    while grew:
        reached = {name for name, imports in graph.items() if imports & touching} - touching
        touching |= reached
        grew = bool(reached)
    return touching


def snapshot_safe_modules(root: Path = PACKAGE_ROOT) -> list[str]:
    """The package's modules a memory snapshot may hold, in an order that imports parents first."""
    graph = import_graph(root)
    return sorted(set(graph) - reaches_javascript(graph))


def not_preloaded(source: str) -> bool:
    """Whether a package's ``__init__`` source says ``PRELOADED = False`` at its top level."""
    return any(
        isinstance(node, ast.Assign)
        and any(isinstance(target, ast.Name) and target.id == "PRELOADED" for target in node.targets)
        and isinstance(node.value, ast.Constant)
        and node.value.value is False
        for node in ast.parse(source).body
    )


def on_demand_modules(graph: dict[str, set[str]], root: Path = PACKAGE_ROOT) -> set[str]:
    """The modules of the packages that say ``PRELOADED = False``, and every module that imports one."""
    packages = {
        module_name(path, root) for path in root.rglob("__init__.py") if not_preloaded(path.read_text())
    }
    inside = {name for name in graph if any(name == p or name.startswith(p + ".") for p in packages)}
    return reaching(graph, inside)


def preloaded_modules(root: Path = PACKAGE_ROOT) -> list[str]:
    """The modules the snapshot holds: the safe ones, less those of a package imported on demand."""
    graph = import_graph(root)
    return sorted(set(graph) - reaches_javascript(graph) - on_demand_modules(graph, root))


def preload(root: Path = PACKAGE_ROOT) -> list[str]:
    """Import every module the snapshot holds (:func:`preloaded_modules`); return their names."""
    names = preloaded_modules(root)
    for name in names:
        importlib.import_module(name)
    return names
