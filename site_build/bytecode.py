"""Precompiled bytecode: the archives Pyodide unpacks carry each module's ``.pyc`` next to its source.

Pyodide's Python writes no bytecode, so without these it compiles every imported module from source
on every first visit (about 0.3 s of ``import lab.browser.worker_api``). Compiled by the pinned Pyodide
itself (its Python 3.14; the build's own Python may be older), in Node (``compile_bytecode.mjs``), as
unchecked-hash .pyc files: Python loads them without looking at the source's timestamp, which an
unpacked archive does not keep. PYTHONNODEBUGRANGES leaves out the column ranges (the ^^^ under a
traceback's line): a third smaller, and a traceback still names every file and line.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
import zipfile
from pathlib import Path

from site_build.cache import CACHE, cached, run
from site_build.pinned import PYODIDE_VERSION, fetch_pyodide
from site_build.wheels import fixed_time_entry

COMPILE_SCRIPT = Path(__file__).resolve().parent / "compile_bytecode.mjs"
PYODIDE_SITE_PACKAGES = "/lib/python3.14/site-packages"  # where pyodide-boot.mjs unpacks the archives
BYTECODE_TAG = "cpython-314"  # sys.implementation.cache_tag of the pinned Pyodide


def compile_bytecode(sources: dict[str, bytes]) -> dict[str, bytes]:
    """``{path.py: source}`` -> ``{path/__pycache__/name.cpython-314.pyc: bytecode}``, compiled by the pinned
    Pyodide in Node; cached under ``.cache/bytecode/`` by the sources' hash, so a rebuild with the same
    sources does not start Node. Raises BuildError when Node is missing or a module does not compile."""
    digest = hashlib.sha256(PYODIDE_VERSION.encode())
    for name, data in sorted(sources.items()):
        digest.update(f"{name}\0{len(data)}\0".encode() + data)

    def compile_in_pyodide(tmp: Path) -> Path:
        folder = tmp / "sources"
        for name, data in sources.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        run(["node", str(COMPILE_SCRIPT), f"{fetch_pyodide()}/", str(folder), PYODIDE_SITE_PACKAGES])
        compiled = tmp / "bytecode.zip"
        with zipfile.ZipFile(compiled, "w") as zf:
            for name in sorted(sources):
                zf.writestr(fixed_time_entry(pyc_path(name)), (folder / pyc_path(name)).read_bytes())
        return compiled

    with zipfile.ZipFile(
        cached(CACHE / "bytecode" / f"{digest.hexdigest()[:32]}.zip", compile_in_pyodide)
    ) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def pyc_path(source: str) -> str:
    """``lab/x.py`` -> ``lab/__pycache__/x.cpython-314.pyc``, where Python looks for a module's bytecode."""
    folder, _, name = source.rpartition("/")
    return f"{folder}/__pycache__/{name.removesuffix('.py')}.{BYTECODE_TAG}.pyc".lstrip("/")


def with_bytecode(wheel: Path, out_dir: Path) -> Path:
    """The wheel's files plus each module's bytecode, as ``<wheel name>.tar.gz`` (deterministic).

    A gzipped tar (ustar, which ``static/pyodide-boot.mjs`` reads), not a wheel: a zip compresses each
    file alone, while one gzip stream over a source followed by its bytecode shares their names and
    docstrings, so the archive grows by about half of what a wheel with the same .pyc files would
    (figure 3 of bench/RESULTS.md counts every byte of a first visit).
    """
    with zipfile.ZipFile(wheel) as zf:
        files = {name: zf.read(name) for name in zf.namelist()}
    bytecode = compile_bytecode({name: data for name, data in files.items() if name.endswith(".py")})
    ordered = []
    for name in sorted(files):  # each source right before its bytecode
        ordered.append(name)
        if name.endswith(".py"):
            ordered.append(pyc_path(name))
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w", format=tarfile.USTAR_FORMAT) as archive:  # tarFiles() reads it
        for name in ordered:
            data = files.get(name, bytecode.get(name))
            entry = tarfile.TarInfo(name)
            entry.size, entry.mode = len(data), 0o644
            archive.addfile(entry, io.BytesIO(data))
    packed = out_dir / f"{wheel.name.removesuffix('.whl')}.tar.gz"
    packed.write_bytes(gzip.compress(tar.getvalue(), compresslevel=9, mtime=0))
    return packed
