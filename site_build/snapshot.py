"""The memory snapshot a first visit on a fast link restores: a Pyodide that has booted and imported the
lab, made once by the build instead of in every learner's browser.

Pyodide 314 can copy a booted Python's whole memory (``makeMemorySnapshot``, private API) and start
from that copy (``_loadSnapshot``) in about a tenth of its boot. ``make_snapshot.mjs`` makes it with the
pinned Pyodide in Node, from the same boot wheels the worker unpacks, importing the modules
``lab/preload.py`` picks; the browser restores it (``static/pyodide-boot.mjs``), and falls back to the
normal boot if it does not restore. The snapshot is about 31 MB, over Pages' 25 MiB per file, and
mostly zeros: it is shipped gzipped (about 7 MB) as ``application/gzip``, which Pages sends as is, and
the worker inflates it with the browser's ``DecompressionStream`` (which knows gzip and deflate only,
no brotli). Those 7 MiB are more than bare Pyodide's whole compressed download, so a first visit
fetches it only where the browser says the link is fast, and the service worker never precaches it
(``offline.py``). Cached under ``.cache/snapshot/`` by its inputs (the Pyodide version, the script, the
wheels), and served under a content-hashed path.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
from pathlib import Path

from site_build.cache import CACHE, cached, run
from site_build.pinned import PYODIDE_VERSION, fetch_pyodide
from site_build.wheels import add_hashed

MAKE_SCRIPT = Path(__file__).resolve().parent / "make_snapshot.mjs"
SNAPSHOTS = "snapshot"  # the site's folder: /snapshot/<content hash>/pyodide-memory-snapshot.gz
SNAPSHOT_NAME = "pyodide-memory-snapshot.gz"


def memory_snapshot(boot_wheels: list[Path]) -> Path:
    """The gzipped memory snapshot of a Pyodide with ``boot_wheels`` (``.tar.gz`` archives, as
    ``bytecode.with_bytecode`` makes them) unpacked and the lab preloaded; made in Node, or reused from
    ``.cache/snapshot/`` when made before from the same inputs. Raises BuildError when Node fails."""
    digest = hashlib.sha256(f"{PYODIDE_VERSION}\0".encode() + MAKE_SCRIPT.read_bytes())
    for wheel in boot_wheels:
        digest.update(hashlib.sha256(wheel.read_bytes()).digest())

    def make_in_node(tmp: Path) -> Path:
        files = tmp / "site-packages"
        for wheel in boot_wheels:
            with tarfile.open(fileobj=io.BytesIO(gzip.decompress(wheel.read_bytes()))) as archive:
                archive.extractall(files, filter="data")
        raw = tmp / "snapshot.bin"
        run(["node", str(MAKE_SCRIPT), f"{fetch_pyodide()}/", str(files), str(raw)])
        packed = tmp / SNAPSHOT_NAME
        packed.write_bytes(gzip.compress(raw.read_bytes(), compresslevel=9, mtime=0))
        return packed

    return cached(CACHE / "snapshot" / f"{digest.hexdigest()[:32]}.gz", make_in_node)


def add_snapshot(boot_wheels: list[Path], site: Path) -> str:
    """Make (or reuse) the snapshot and copy it into the site; its path, relative to the site root."""
    return add_hashed(memory_snapshot(boot_wheels), site, SNAPSHOTS, SNAPSHOT_NAME)
