"""Packages a program loads when it imports them, as Pyodide's ``loadPackagesFromImports`` does.

Pyodide ships its packages apart from its core and loads one when code asks for it. The site keeps
the worker's boot small (the lab and msgpack) and serves pydantic's wheels (pydantic-core built for
Pyodide, 2 MB) beside it: when the program the playground loads imports ``pydantic``, the worker loads
them first, through Pyodide's package loader, from the site itself (``static/worker.mjs``:
``labLoadPackage``, which tells the page "loading pydantic (2.1 MB)…"); the service worker keeps them
for offline use from then on. An import inside a function counts too: the whole program is read.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from collections.abc import Awaitable, Callable

__all__ = ["LOADED_ON_IMPORT", "PackageUnavailable", "imported_packages", "load_imported_packages"]

LOADED_ON_IMPORT = ("pydantic",)
"""The packages the site serves for programs to import (``build.py``: ``LOADED_ON_IMPORT``)."""


def imported_packages(source: str) -> list[str]:
    """The packages of :data:`LOADED_ON_IMPORT` that ``source`` imports (none if it does not parse)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return [name for name in LOADED_ON_IMPORT if name in found]


class PackageUnavailable(Exception):
    """A package the program imports could not be loaded (its download failed: offline, say)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name} could not be loaded: {reason}")
        self.name, self.reason = name, reason


async def _from_the_site(name: str) -> None:
    """The worker's loader (``static/worker.mjs``): only the browser lacks a package of the list."""
    import js

    await js.labLoadPackage(name)


async def load_imported_packages(
    source: str, load: Callable[[str], Awaitable[None]] = _from_the_site
) -> list[str]:
    """Load each package ``source`` imports that this Python lacks yet (with ``load``); the names
    loaded. Raises :class:`PackageUnavailable` when one cannot be."""
    missing = [name for name in imported_packages(source) if importlib.util.find_spec(name) is None]
    for name in missing:
        try:
            await load(name)
        except Exception as error:  # a JsException from Pyodide's loader: a failed fetch, mostly
            raise PackageUnavailable(name, _last_line(error)) from error
        importlib.invalidate_caches()
        if importlib.util.find_spec(name) is None:
            raise PackageUnavailable(name, "not installed after loading")
    return missing


def _last_line(error: Exception) -> str:
    """The last line of an error's text: a JavaScript error's message, after Pyodide's traceback."""
    lines = str(error).strip().splitlines()
    return lines[-1] if lines else type(error).__name__
