"""The pinned inputs the build downloads: the Pyodide core, a pure-Python msgpack wheel and pydantic's
wheels for Pyodide, each cached under ``.cache/`` by its version. Changing a version here is the only way
these parts of the site change.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import tarfile
from pathlib import Path

from site_build.cache import CACHE, BuildError, cached, run

PYODIDE_VERSION = "314.0.7"
MSGPACK_VERSION = "1.2.4"

# Pydantic for /play, loaded only when a program imports it (lab/browser/packages.py): PyPI's wheels, with
# pydantic-core's build for Pyodide's Python 3.14 (cp314, the pyemscripten_2026_0 ABI that pyodide-lock.json
# names), each checked against its sha256. The npm package ships no package files; PyPI has these.
PYDANTIC_WHEELS = (
    ("typing_extensions-4.16.0-py3-none-any.whl",
     "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8"),
    ("annotated_types-0.8.0-py3-none-any.whl",
     "f072f4d804ea359e4eaf198b1af7a8b0943881a87f31bb764f8bf219bb9419e0"),
    ("typing_inspection-0.4.5-py3-none-any.whl",
     "bc210535442b39e1bf2805e0c7a17dfd6a4ace760c84c7f7d16245d23a6b1c39"),
    ("pydantic_core-2.50.5-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
     "b2910ec0fa5aeb9bef70156f2b79f4783978fdcfaa7b2f1b5d1814458d2e79a1"),
    ("pydantic-2.14.4-py3-none-any.whl",
     "653a2ad9f6d8858529c77c72717d0ea991d6c6837fe683246b2f4b2bbfc3fadc"),
)  # fmt: skip
PACKAGES = "packages"
"""The folder of the wheels a program loads when it imports them (cached on first use, never precached)."""

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


def fetch_pinned_wheel(name: str, sha256: str) -> Path:
    """The wheel ``name`` from PyPI (``pip download``, for Pyodide's platform where it is not pure
    Python), refused unless its bytes have the pinned ``sha256``."""
    project, version = name.split("-")[:2]
    platform = name.removesuffix(".whl").split("-")[-1]

    def download(tmp: Path) -> Path:
        for_pyodide = (
            []
            if platform == "any"
            else ["--platform", platform, "--python-version", "3.14"]
            + ["--implementation", "cp", "--abi", "cp314"]
        )
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
             "--no-cache-dir", "--dest", str(tmp), *for_pyodide, f"{project}=={version}"])  # fmt: skip
        wheel = tmp / name
        if not wheel.exists():
            raise BuildError(f"pip did not download {name}: {sorted(p.name for p in tmp.iterdir())}")
        if (digest := hashlib.sha256(wheel.read_bytes()).hexdigest()) != sha256:
            raise BuildError(f"{name} has sha256 {digest}, not the pinned {sha256}")
        return wheel

    return cached(CACHE / "wheels" / name, download)
