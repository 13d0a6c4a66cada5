"""The pinned inputs the build downloads: the Pyodide core and a pure-Python msgpack wheel, each cached
under ``.cache/`` by its version. Changing a version here is the only way these parts of the site change.
"""

from __future__ import annotations

import importlib.util
import sys
import tarfile
from pathlib import Path

from site_build.cache import CACHE, BuildError, cached, run

PYODIDE_VERSION = "314.0.7"
MSGPACK_VERSION = "1.2.4"

# The files of the npm package that a browser needs. Left out: the UMD build (pyodide.js), TypeScript
# types, source maps, package.json, README and the demo consoles (which load Pyodide from a CDN).
PYODIDE_RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",  # Pyodide always fetches it at boot; it must match the core
)


def fetch_pyodide() -> Path:
    """The Pyodide core's runtime files, from ``npm pack pyodide@<version>``; returns their folder."""

    def download(tmp: Path) -> Path:
        run(["npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}"], cwd=tmp)
        unpacked = tmp / "runtime"
        unpacked.mkdir()
        with tarfile.open(tmp / f"pyodide-{PYODIDE_VERSION}.tgz") as tgz:
            for name in PYODIDE_RUNTIME_FILES:
                member = tgz.getmember(f"package/{name}")
                (unpacked / name).write_bytes(tgz.extractfile(member).read())
        return unpacked

    return cached(CACHE / f"pyodide-{PYODIDE_VERSION}", download)


def build_msgpack() -> Path:
    """A pure-Python msgpack wheel, built from the sdist with ``MSGPACK_PUREPYTHON=1``.

    PyPI's msgpack wheels contain a C extension that Pyodide cannot load; without the C extension
    msgpack falls back to its pure-Python implementation, which is what the browser runs.
    """
    name = f"msgpack-{MSGPACK_VERSION}-py3-none-any.whl"

    def download(tmp: Path) -> Path:
        run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-binary=msgpack",
             "--no-cache-dir", "--wheel-dir", str(tmp), f"msgpack=={MSGPACK_VERSION}"],
            env={"MSGPACK_PUREPYTHON": "1"},
        )  # fmt: skip
        built = sorted(tmp.glob("*.whl"))
        if [wheel.name for wheel in built] != [name]:
            raise BuildError(f"expected the pure-Python wheel {name}, but pip built {built}")
        return built[0]

    return cached(CACHE / "wheels" / name, download)


def import_msgpack_from(wheel: Path) -> None:
    """Let this Python import msgpack from ``wheel`` when it has none installed.

    The build imports ``lab`` (the pages' diagram: ``site_build.static_pages.static_diagram``) and ``lab``
    imports msgpack, which a fresh machine that ran only ``pip install jinja2`` lacks. The pure-Python
    wheel the browser loads is a zip of modules, and Python imports from a zip on ``sys.path`` as it is.
    """
    if importlib.util.find_spec("msgpack") is None:
        sys.path.append(str(wheel))
