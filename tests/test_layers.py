"""The package's layers: the checkpoint savers (like ``langgraph.checkpoint``, a package of its own
in LangGraph) depend on nothing else in ``lab``; in particular not on the worker code in
``lab.browser`` - the IndexedDB saver is handed an open database."""

from __future__ import annotations

import ast
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


def test_lab_checkpoint_imports_only_itself_from_lab() -> None:
    files = sorted((LAB / "checkpoint").glob("*.py"))
    assert files, "lab/checkpoint has no modules?"
    outside = {
        f"{path.name} imports {module}"
        for path in files
        for module in imported_modules(path)
        if module.split(".")[0] == "lab" and not module.startswith("lab.checkpoint")
    }
    assert outside == set()


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from lab.browser import idb\n")
    assert imported_modules(module) == {"lab.browser"}
