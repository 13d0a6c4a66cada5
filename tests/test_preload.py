"""``lab.preload``: the modules a Pyodide memory snapshot may hold are exactly those that never reach
``js`` or ``pyodide``, directly, through another module, or through a parent package; of those, it
holds all but a package imported on demand (``PRELOADED = False``: the AML investigation, which only
the lab page's worker opens) and what imports it."""

import sys
from pathlib import Path

from lab import preload


def write_package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for relative, source in files.items():
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return package


def test_javascript_is_reached_directly_through_imports_and_through_parent_packages(tmp_path):
    package = write_package(tmp_path, {
        "__init__.py": "",
        "pure.py": "import json\nfrom pkg import helpers\n",
        "helpers.py": "def f():\n    import asyncio\n",
        "direct.py": "from js import indexedDB\n",
        "lazy.py": "def later():\n    from pyodide.ffi import to_js\n",  # inside a function still counts
        "through.py": "from pkg.direct import indexedDB\n",
        "via_from.py": "from pkg import direct\n",
        "web/__init__.py": "import js\n",
        "web/child.py": "x = 1\n",  # importing it runs web/__init__.py
    })  # fmt: skip
    assert preload.snapshot_safe_modules(package) == ["pkg", "pkg.helpers", "pkg.pure"]


def test_the_lab_keeps_its_browser_modules_out_of_the_snapshot():
    safe = preload.snapshot_safe_modules()
    assert {"lab.pregel.loop", "lab.checkpoint.core", "lab.aml.graph", "lab.controller"} <= set(safe)
    assert not {"lab.browser.worker_api", "lab.browser.idb", "lab.checkpoint.indexeddb"} & set(safe)


def test_a_package_imported_on_demand_stays_out_with_what_imports_it(tmp_path):
    package = write_package(tmp_path, {
        "__init__.py": "",
        "core.py": "X = 1\n",
        "graph/__init__.py": "PRELOADED = False\n",
        "graph/nodes.py": "from pkg import core\n",
        "page.py": "def later():\n    from pkg.graph import nodes\n",  # inside a function still counts
        "other/__init__.py": "PRELOADED = True\n",
        "other/leaf.py": "PRELOADED = False  # a module's own variable, not its package's __init__\n",
    })  # fmt: skip
    assert preload.preloaded_modules(package) == ["pkg", "pkg.core", "pkg.other", "pkg.other.leaf"]
    assert preload.snapshot_safe_modules(package) == [
        "pkg", "pkg.core", "pkg.graph", "pkg.graph.nodes", "pkg.other", "pkg.other.leaf", "pkg.page"
    ]  # fmt: skip


def test_the_snapshot_every_page_restores_holds_the_lab_but_not_the_aml_investigation():
    held = set(preload.preloaded_modules())
    assert {"lab.pregel.loop", "lab.controller", "lab.playground.session", "lab.lessons.commands"} <= held
    aml = {name for name in preload.snapshot_safe_modules() if name.split(".")[:2] == ["lab", "aml"]}
    assert {"lab.aml.graph", "lab.aml.lab_page"} <= aml and not aml & held


def test_preload_imports_the_safe_modules(tmp_path, monkeypatch):
    package = write_package(tmp_path, {"__init__.py": "", "a.py": "VALUE = 1\n", "b.py": "import js\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert preload.preload(package) == ["pkg", "pkg.a"]
        assert sys.modules["pkg.a"].VALUE == 1 and "pkg.b" not in sys.modules
    finally:
        for name in ("pkg", "pkg.a"):
            sys.modules.pop(name, None)
