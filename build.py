"""Build Checkpoint Lab's static site into ``dist/``, and serve it like Cloudflare Pages does.

Usage::

    python build.py                  # build dist/
    python build.py serve [--port N] # build, then serve dist/ on http://127.0.0.1:N/

Every byte the site runs is served by the site itself. :func:`build` is the list of steps; each step is
a module of ``site_build/`` that makes one part of ``dist/``:

- ``pinned.py``: the pinned inputs, downloaded once and cached under ``.cache/`` (``cache.py``): the
  Pyodide core, from the npm package ``pyodide@314.0.7`` (``npm pack``), under the versioned path
  ``/pyodide/314.0.7/`` so it can be cached forever, and a pure-Python ``msgpack`` wheel (built with
  ``MSGPACK_PUREPYTHON=1``);
- ``wheels.py``: our own ``lab`` wheel (zipped without pip), served as itself under
  ``/python/<content hash>/`` for ``pip install`` (the lab page's "Export for LangGraph" names it; the
  browser never loads it, so the offline copy leaves it out); ``bytecode.py``: each wheel the worker
  boots, with its modules' bytecode compiled by the pinned Pyodide, under ``/wheels/<content hash>/``;
- ``static/``: the ES modules and the CSS copied as is; ``static_pages.py``: the HTML pages rendered
  with jinja2 (they share the partial ``_lab.html``, and the lab and the playground the macros of
  ``_lab_parts.html``);
- ``learn.py``: ``narratives/`` rendered with jinja2 to ``/learn/<lang>/``, with the lessons' data and
  their seeds (``lesson_seeds.py``); ``play.py``: the playground's editor bundle and gallery;
- ``snapshot.py``: the memory snapshot of a Pyodide that has imported the lab, made by the pinned
  Pyodide in Node (``make_snapshot.mjs``) and shipped gzipped under ``/snapshot/<content hash>/``, so
  a first visit on a fast link restores Python instead of booting it;
- generated files: ``_headers`` (``headers.py``: Cloudflare Pages' header rules, the
  Content-Security-Policy and the cache policy) and ``build-manifest.mjs`` (``manifest.py``: which
  Pyodide and which wheels the worker loads, and the build's id);
- ``offline.py``: ``sw.mjs``, the service worker, importing the build's id and every file's integrity
  hash from ``sw-build/<content hash>.mjs``, so the site works offline after one visit and each
  deployment is a new service worker, while the browser's update checks (a few per visit) download
  only ``sw.mjs``. The lessons' seeds are listed apart: cached when a page first fetches one, never
  precached.

The finished folder is checked against Cloudflare Pages' limits (``limits.py``) before it replaces
``dist/``.

``serve`` then serves ``dist/`` with the development server, ``dev_server/serve.py``, which applies
``_headers`` and Pages' pretty URLs like Pages does.

Only the standard library and jinja2 are used, so a fresh machine needs just ``pip install jinja2``
(or the project's ``[test]`` extra), ``npm`` and ``pip``.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from dev_server.serve import serve
from site_build.bytecode import with_bytecode
from site_build.cache import CACHE, ROOT, BuildError
from site_build.headers import headers_file
from site_build.learn import render_narratives
from site_build.limits import check_pages_limits
from site_build.manifest import write_manifest
from site_build.offline import build_id, offline_files, write_service_worker
from site_build.pinned import (
    PACKAGES,
    PYDANTIC_WHEELS,
    PYODIDE_VERSION,
    build_msgpack,
    fetch_pinned_wheel,
    fetch_pyodide,
    import_msgpack_from,
)
from site_build.play import write_play_files
from site_build.snapshot import add_snapshot
from site_build.static_pages import STATIC, render_static_pages
from site_build.wheels import PIP_WHEELS, add_hashed, build_lab_wheel

DIST = ROOT / "dist"


@dataclass
class BuildResult:
    """What a build produced: the folder, its file count and size, and how long it took."""

    dist: Path
    files: int
    bytes: int
    seconds: float


def build(dist: Path = DIST) -> BuildResult:
    """Build the site into ``dist`` (replacing it only once the new folder is complete and checked)."""
    started = time.perf_counter()
    CACHE.mkdir(exist_ok=True)
    pyodide = fetch_pyodide()
    msgpack = build_msgpack()
    import_msgpack_from(msgpack)  # the pages' diagram and the lessons import lab, and lab imports msgpack
    pydantic = [fetch_pinned_wheel(name, sha256) for name, sha256 in PYDANTIC_WHEELS]

    dist = dist.resolve()
    dist.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dist.parent, prefix=f".{dist.name}-") as tmp:
        site = Path(tmp) / "site"
        shutil.copytree(STATIC, site, ignore=shutil.ignore_patterns("_*", "*.html"))
        lab = build_lab_wheel(Path(tmp))
        render_static_pages(site, add_hashed(lab, site, PIP_WHEELS))
        shutil.copytree(pyodide, site / "pyodide" / PYODIDE_VERSION)
        boot_wheels = [with_bytecode(wheel, Path(tmp)) for wheel in (msgpack, lab)]
        snapshot = add_snapshot(boot_wheels, site)
        wheel_paths = [add_hashed(wheel, site) for wheel in boot_wheels]
        render_narratives(site)
        write_play_files(site)
        (site / "_headers").write_text(headers_file())
        on_import = {"pydantic": [add_hashed(wheel, site, PACKAGES) for wheel in pydantic]}
        this_build = build_id(offline_files(site))  # the manifest names it, so it cannot be listed yet
        write_manifest(site, this_build, wheel_paths, snapshot, on_import)
        write_service_worker(site, this_build, offline_files(site))
        check_pages_limits(site)

        if dist.exists():
            shutil.rmtree(dist)
        os.replace(site, dist)

    files = [p for p in dist.rglob("*") if p.is_file()]
    return BuildResult(
        dist=dist,
        files=len(files),
        bytes=sum(p.stat().st_size for p in files),
        seconds=time.perf_counter() - started,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command")
    serve_command = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_command.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # what a build made: cache.cached()

    try:
        result = build()
    except BuildError as error:
        print(f"build failed: {error}", file=sys.stderr)
        return 1
    print(
        f"built {result.dist.relative_to(ROOT)}/: {result.files} files, {result.bytes / 2**20:.1f} MiB "
        f"in {result.seconds:.2f} s"
    )
    if args.command == "serve":
        serve(result.dist, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
