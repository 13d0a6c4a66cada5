"""Build Checkpoint Lab's static site into ``dist/``, and serve it like Cloudflare Pages does.

Usage::

    python build.py                  # build dist/
    python build.py serve [--port N] # build, then serve dist/ on http://127.0.0.1:N/

Every byte the site runs is served by the site itself. The build assembles ``dist/`` from pinned
inputs, downloaded once and cached under ``.cache/``:

- the Pyodide core, from the npm package ``pyodide@314.0.7`` (``npm pack``), under the versioned path
  ``/pyodide/314.0.7/`` so it can be cached forever;
- wheels: a pure-Python ``msgpack`` (built with ``MSGPACK_PUREPYTHON=1``) and our own ``lab`` package
  (zipped by :func:`build_lab_wheel`), each under ``/wheels/<content hash>/``; the ``lab`` wheel also as
  itself under ``/python/<content hash>/``, for ``pip install`` (the lab page's "Export for LangGraph"
  names it; the browser never loads it, so the offline copy leaves it out);
- pydantic's wheels from PyPI (pydantic-core's build for Pyodide), under ``/packages/<content hash>/``,
  which the worker loads only when a program imports pydantic (cached on first use, never precached);
- ``static/``: the ES modules and the CSS copied as is, the HTML pages rendered with jinja2 (they share
  the partial ``_lab.html``, and the lab and the playground the macros of ``_lab_parts.html``);
- ``narratives/`` rendered with jinja2 to ``/learn/<lang>/``;
- two generated files: ``build-manifest.mjs`` (which Pyodide and which wheels the worker loads, and the
  build's id) and ``_headers`` (Cloudflare Pages' header rules: the Content-Security-Policy and the
  cache policy);
- ``sw.mjs``, the service worker, importing the build's id and every file's integrity hash from
  ``sw-build/<content hash>.mjs``, so the site works offline after one visit and each deployment is a
  new service worker, while the browser's update checks (a few per visit) download only ``sw.mjs``.
  The lessons' seeds (files for fast deep links) are listed apart: cached when a page first fetches
  one, never precached.

The finished folder is checked against Cloudflare Pages' limits before it replaces ``dist/``.

``serve`` then serves ``dist/`` with the development server, ``dev_server/serve.py``, which applies
``_headers`` and Pages' pretty URLs like Pages does.

Only the standard library and jinja2 are used, so a fresh machine needs just ``pip install jinja2``
(or the project's ``[test]`` extra), ``npm`` and ``pip``.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import importlib.util
import io
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

from dev_server.serve import serve
from site_build.lesson_seeds import SEEDS
from site_build.play import lab_differences, write_play_files

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / ".cache"
DIST = ROOT / "dist"
STATIC = ROOT / "static"
NARRATIVES = ROOT / "narratives"
LAB_PACKAGE = ROOT / "lab"

# Pinned inputs. Changing one of these is the only way the downloaded parts of the site change.
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

# Cloudflare Pages limits (cloudflare-docs: pages/platform/limits).
PAGES_MAX_FILE_BYTES = 25 * 1024 * 1024
PAGES_MAX_FILES = 20_000

IMMUTABLE = "public, max-age=31536000, immutable"
CSP_SOURCES = (
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",  # Pyodide compiles WebAssembly; no 'unsafe-eval' needed
    "worker-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
)


def content_security_policy(frame_ancestors: str) -> str:
    """The site's CSP; only ``frame-ancestors`` differs between the lab and its embeddable page."""
    return "; ".join((*CSP_SOURCES, f"frame-ancestors {frame_ancestors}"))


log = logging.getLogger("build")


class BuildError(Exception):
    """A build step failed; the message says what to do about it."""


# --------------------------------------------------------------------------------------------------
# Pinned inputs, cached under .cache/
# --------------------------------------------------------------------------------------------------


def run(command: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    """Run a command; on failure raise a BuildError that shows the command and its output."""
    try:
        done = subprocess.run(
            command, cwd=cwd, env=env and {**os.environ, **env}, capture_output=True, text=True
        )
    except FileNotFoundError as error:
        raise BuildError(f"`{command[0]}` is not installed, and the build needs it: {error}") from None
    if done.returncode != 0:
        raise BuildError(
            f"`{' '.join(command)}` failed with exit code {done.returncode}:\n{done.stdout}{done.stderr}"
        )


def cached(path: Path, make) -> Path:
    """Return ``path`` if it exists, else call ``make(tmp_dir) -> file`` and move the file there.

    The result only appears in the cache once it is complete, so an interrupted build never leaves
    half a download behind. Each call logs which it did (``reused <entry>`` at DEBUG, ``made <entry>``
    at INFO, the entry relative to ``.cache/``): the command line shows what a build had to download
    or compile, and a test can see that a rebuild with nothing changed made nothing again.
    """
    entry = path.relative_to(CACHE).as_posix()
    if path.exists():
        log.debug("reused %s", entry)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        os.replace(make(Path(tmp)), path)
    log.info("made %s", entry)
    return path


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


def fetch_pinned_wheel(name: str, sha256: str) -> Path:
    """The wheel ``name`` from PyPI (``pip download``, for Pyodide's platform where it is not pure
    Python), refused unless its bytes have the pinned ``sha256``."""
    project, version = name.split("-")[:2]
    platform = name.removesuffix(".whl").split("-")[-1]

    def download(tmp: Path) -> Path:
        for_pyodide = (
            []
            if platform == "any"
            else [
                "--platform",
                platform,
                "--python-version",
                "3.14",
                "--implementation",
                "cp",
                "--abi",
                "cp314",
            ]
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


def import_msgpack_from(wheel: Path) -> None:
    """Let this Python import msgpack from ``wheel`` when it has none installed.

    The build imports ``lab`` (the pages' diagram: :func:`static_diagram`) and ``lab`` imports msgpack,
    which a fresh machine that ran only ``pip install jinja2`` lacks. The pure-Python wheel the browser
    loads is a zip of modules, and Python imports from a zip on ``sys.path`` as it is.
    """
    if importlib.util.find_spec("msgpack") is None:
        sys.path.append(str(wheel))


# --------------------------------------------------------------------------------------------------
# Our own wheel
# --------------------------------------------------------------------------------------------------


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def build_lab_wheel(out_dir: Path) -> Path:
    """Zip ``lab/**.py`` into a pure-Python wheel, without pip (a wheel is a zip with three metadata files).

    The name and version come from pyproject.toml. The zip is deterministic (sorted entries, fixed
    timestamps), so the same sources give the same bytes and thus the same content-hashed URL.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    dist_name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    version = project["version"]
    info = f"{dist_name}-{version}.dist-info"

    sources = sorted(
        path
        for path in LAB_PACKAGE.rglob("*.py")
        if "__pycache__" not in path.parts and not path.name.startswith(".")
    )
    files = {path.relative_to(ROOT).as_posix(): path.read_bytes() for path in sources}
    requires = "".join(f"Requires-Dist: {dep}\n" for dep in project.get("dependencies", []))
    for extra, deps in project.get("optional-dependencies", {}).items():
        requires += f"Provides-Extra: {extra}\n"
        requires += "".join(f'Requires-Dist: {dep}; extra == "{extra}"\n' for dep in deps)
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {version}\n"
        f"Summary: {project.get('description', '')}\n{requires}"
    ).encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: checkpoint-lab build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in files.items())
    files[f"{info}/RECORD"] = f"{record}{info}/RECORD,,\n".encode()

    wheel = out_dir / f"{dist_name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(fixed_time_entry(name), data, compress_type=zipfile.ZIP_DEFLATED)
    return wheel


# --------------------------------------------------------------------------------------------------
# Precompiled bytecode: the archives Pyodide unpacks carry each module's .pyc next to its source
# --------------------------------------------------------------------------------------------------

# Pyodide's Python writes no bytecode, so without these it compiles every imported module from source
# on every first visit (about 0.3 s of `import lab.browser.worker_api`). Compiled by the pinned Pyodide
# itself (its Python 3.14; the build's own Python may be older), as unchecked-hash .pyc files: Python
# loads them without looking at the source's timestamp, which an unpacked archive does not keep.
# PYTHONNODEBUGRANGES leaves out the column ranges (the ^^^ under a traceback's line): a third
# smaller, and a traceback still names every file and line.
COMPILE_BYTECODE_JS = """
const [indexURL, folder, sitePackages] = process.argv.slice(1);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + indexURL).href);
const pyodide = await loadPyodide({ indexURL, env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.mkdirTree("/compile");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/compile");
const compiled = pyodide.runPython(`
import compileall, py_compile
compileall.compile_dir("/compile", ddir="${sitePackages}", quiet=1,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)`);
if (!compiled) throw new Error("compileall failed");
"""
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
        pyodide = fetch_pyodide()
        run(["node", "--input-type=module", "-e", COMPILE_BYTECODE_JS, f"{pyodide}/", str(folder),
             PYODIDE_SITE_PACKAGES])  # fmt: skip
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


def fixed_time_entry(name: str) -> zipfile.ZipInfo:
    """A zip entry with a fixed timestamp and mode, so the same bytes always give the same archive."""
    entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    entry.external_attr = 0o644 << 16
    return entry


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


# --------------------------------------------------------------------------------------------------
# Assembling dist/
# --------------------------------------------------------------------------------------------------


def add_hashed(wheel: Path, site: Path, folder: str = "wheels") -> str:
    """Copy a wheel to ``<folder>/<sha256 prefix>/<name>`` and return that path, relative to the site root.

    The hash goes in the folder, not the file name, so the file keeps its standard wheel name (which
    Pyodide reads) while any change to its bytes gives a new URL that no cache has seen.
    """
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()[:16]
    target = site / folder / digest / wheel.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(wheel, target)
    return f"./{folder}/{digest}/{wheel.name}"


def _templates(folder: Path):
    """A jinja2 environment for the templates in ``folder``: HTML-escaped, failing on undefined names."""
    import jinja2  # the build's only third-party dependency

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def render_static_pages(site: Path, pip_wheel: str) -> None:
    """Render ``static/*.html`` with jinja2, so the lab and embed pages share ``_lab.html`` (which
    names ``pip_wheel``, the ``lab`` wheel for ``pip install``, relative to the site root), and it and
    the playground the panels of ``_lab_parts.html``.

    Files whose name starts with ``_`` are partials: included by pages, never copied on their own.
    """
    from narratives.pages import embed_lessons  # what /embed?lesson=<id> may open

    env = _templates(STATIC)
    diagram = static_diagram()
    for page in sorted(STATIC.glob("*.html")):
        if not page.name.startswith("_"):
            (site / page.name).write_text(
                env.get_template(page.name).render(
                    static_graph=diagram,
                    static_graph_json=json.dumps(diagram),
                    embed_lessons=embed_lessons(),
                    lab_differences=lab_differences(ROOT / "README.md"),  # /play's "see what differs"
                    pip_wheel=pip_wheel.removeprefix("."),
                )
            )


def static_diagram() -> dict:
    """The AML graph's diagram, computed now with the lab's own drawing code (``describe_graph`` over
    ``lab.graph.drawing``): the page shows it while Python boots (a list without JavaScript, the SVG of
    ``static/views/graph.mjs`` with it), and the live diagram replaces it once Python is ready."""
    from lab.aml.graph import VARIANTS, build_graph, describe_graph
    from lab.aml.texts import with_node_summaries
    from lab.controller.world import InMemoryWorld

    return with_node_summaries(describe_graph(build_graph(InMemoryWorld(), VARIANTS[0])))


def render_narratives(site: Path) -> None:
    """Render ``narratives/<lang>/*.html`` (jinja2 templates) to ``/learn/<lang>/``, and the lessons
    to ``/learn/<lang>/<lesson>/<step>/`` (``narratives/pages.py``), with the JSON files their runner
    fetches (each lesson's data, each language's words).

    Files whose name starts with ``_`` are shared templates (the layout), not pages.
    """
    from narratives.course import render_course_pages
    from narratives.pages import index_context, render_lesson_pages, without_indentation, write_lesson_files

    env = _templates(NARRATIVES)
    languages = sorted(p.name for p in NARRATIVES.iterdir() if p.is_dir() and not p.name.startswith("_"))
    for lang in languages:
        for page in sorted((NARRATIVES / lang).glob("*.html")):
            context = index_context(env, lang)
            html = env.get_template(f"{lang}/{page.name}").render(lang=lang, languages=languages, **context)
            target = site / "learn" / lang / page.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(without_indentation(html))
        render_lesson_pages(env, site, lang, languages)
        render_course_pages(env, site, lang, languages)
    write_lesson_files(site, languages)


def write_manifest(
    site: Path, build_id: str, boot_wheels: list[str], on_import: dict[str, list[str]] | None = None
) -> None:
    """Write ``build-manifest.mjs``: the only place where the worker learns versions and wheel URLs
    (``on_import``: the wheels each package a program may import is loaded from, in order)."""
    pyodide_dir = f"./pyodide/{PYODIDE_VERSION}/"

    def urls(paths: list[str]) -> str:
        return "".join(f"  url({json.dumps(path)}),\n" for path in paths)

    (site / "build-manifest.mjs").write_text(
        "// Generated by build.py from its pinned inputs. Do not edit; rebuild instead.\n"
        f'export {{ loadPyodide }} from "{pyodide_dir}pyodide.mjs";\n\n'
        "/** This build's id (a hash of its files): the memory snapshot is cached under it. */\n"
        f"export const BUILD_ID = {json.dumps(build_id)};\n\n"
        "const url = (path) => new URL(path, import.meta.url).href;\n\n"
        "/** Pyodide's own files (core, stdlib, lock file); the path is versioned and cached forever. */\n"
        f"export const PYODIDE_INDEX_URL = url({json.dumps(pyodide_dir)});\n\n"
        "/** Wheels the worker loads at boot, in order, each with its bytecode as a .tar.gz; content-hashed\n"
        " * URLs, cached forever. */\n"
        f"export const BOOT_WHEELS = [\n{urls(boot_wheels)}];\n\n"
        "/** Packages loaded when a program imports them: their wheels (content-hashed URLs, cached on\n"
        " * first use) and their size in bytes. */\n"
        "export const LOADED_ON_IMPORT = {\n"
        + "".join(
            f"  {json.dumps(name)}: {{ bytes: {sum((site / path).stat().st_size for path in paths)}, "
            f"urls: [\n{urls(paths)}  ] }},\n"
            for name, paths in (on_import or {}).items()
        )
        + "};\n"
    )


def headers_file() -> str:
    """The text of ``_headers``: Cloudflare Pages' header rules, also applied by the dev server.

    Matching rules merge, and a header set by two rules would be joined with ", " - for a CSP that
    means *two* policies, both enforced. So the embed page first detaches the site-wide CSP
    (``! Content-Security-Policy``) and then sets its own, which lets any site frame it; so do the
    lesson pages, which an embedded lesson opens in its frame.
    """
    site_csp = content_security_policy("'self'")
    embed_csp = content_security_policy("*")
    rules = [
        ("/*", [f"Content-Security-Policy: {site_csp}",
                "X-Content-Type-Options: nosniff",
                "Referrer-Policy: strict-origin-when-cross-origin"]),
        ("/embed", ["! Content-Security-Policy", f"Content-Security-Policy: {embed_csp}"]),
        ("/embed.html", ["! Content-Security-Policy", f"Content-Security-Policy: {embed_csp}"]),
        # The lessons, too: /embed?lesson=<id> opens a lesson's steps inside the embedding frame.
        ("/learn/*", ["! Content-Security-Policy", f"Content-Security-Policy: {embed_csp}"]),
        ("/pyodide/*", [f"Cache-Control: {IMMUTABLE}"]),
        ("/wheels/*", [f"Cache-Control: {IMMUTABLE}"]),
        (f"/{PIP_WHEELS}/*", [f"Cache-Control: {IMMUTABLE}"]),
        (f"/{SERVICE_WORKER_BUILDS}/*", [f"Cache-Control: {IMMUTABLE}"]),  # content-hashed names
        # The browser checks for a new service worker on every visit; it must never get a cached one.
        (f"/{SERVICE_WORKER}", ["Cache-Control: no-cache"]),
    ]  # fmt: skip
    lines = [
        "# Generated by build.py: Cloudflare Pages header rules, also applied by `python build.py serve`."
    ]
    for path, headers in rules:
        lines += [path, *(f"  {header}" for header in headers)]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------------
# Offline: the service worker's list of the build's files
# --------------------------------------------------------------------------------------------------

SERVICE_WORKER = "sw.mjs"
SERVICE_WORKER_BUILD_LINE = 'const BUILD = { id: "unbuilt", precache: [], onFirstUse: [] };'
SERVICE_WORKER_BUILDS = "sw-build"  # the folder of the build lists sw.mjs imports (part of the worker itself)
NOT_PRECACHED = {"_headers", "_redirects", "404.html", SERVICE_WORKER}
PIP_WHEELS = "python"
"""The folder of the wheels for ``pip install``: served, never precached (the browser never loads them)."""


def url_path(relative: str) -> str:
    """The URL path that serves a file of the site: pages by their pretty URL, as Pages serves them."""
    if relative == "index.html" or relative.endswith("/index.html"):
        return "/" + relative.removesuffix("index.html")
    return "/" + relative.removesuffix(".html")


def subresource_integrity(data: bytes) -> str:
    """``sha256-<base64>``, the form ``fetch(..., {integrity})`` checks."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


CACHED_ON_FIRST_USE = (f"{SEEDS}/", f"{PACKAGES}/")
"""Folders of files the service worker caches only once a page fetches one, never precaches: the lessons'
seeds (``site_build/lesson_seeds.py``), 2 MB that only a deep link into a lesson fetches, one step's file;
the packages a program loads when it imports them (pydantic, 2 MB)."""


def offline_files(site: Path) -> dict[str, str]:
    """Every file the service worker serves from its cache: URL path -> integrity, sorted by path."""
    files = sorted(p for p in site.rglob("*") if p.is_file())
    return {
        url_path(relative): subresource_integrity(path.read_bytes())
        for path in files
        if (relative := path.relative_to(site).as_posix()) not in NOT_PRECACHED
        and not relative.startswith((f"{SERVICE_WORKER_BUILDS}/", f"{PIP_WHEELS}/"))
    }


def cached_on_first_use(path: str) -> bool:
    """Whether the service worker leaves the file at URL ``path`` out of its precache."""
    return path.removeprefix("/").startswith(CACHED_ON_FIRST_USE)


def precache_list(site: Path) -> dict[str, str]:
    """The files the service worker caches after a first visit: :func:`offline_files` but the seeds."""
    files = offline_files(site)
    return {path: integrity for path, integrity in files.items() if not cached_on_first_use(path)}


def build_id(files: dict[str, str]) -> str:
    """A short hash of the build's files and their contents: it changes whenever any byte does."""
    listing = "".join(f"{path} {integrity}\n" for path, integrity in files.items())
    return hashlib.sha256(listing.encode()).hexdigest()[:16]


def write_service_worker(site: Path, build_id: str, files: dict[str, str]) -> None:
    """Write the build's id and its ``files`` (:func:`offline_files`) to ``sw-build/<hash>.mjs`` and make
    ``sw.mjs`` import it. The files come in two lists: ``precache`` and ``onFirstUse`` (the seeds).

    ``sw.mjs`` changes with the list's name, so every deployment is a new service worker; the list
    itself is cached forever (``_headers``), so the browser's update checks, which fetch ``sw.mjs``
    each time a page or worker starts through it, fetch the list only once.
    """
    template = (STATIC / SERVICE_WORKER).read_text()
    if template.count(SERVICE_WORKER_BUILD_LINE) != 1:
        raise BuildError(f"static/{SERVICE_WORKER} must contain the line {SERVICE_WORKER_BUILD_LINE!r} once")
    lists: dict[str, list[list[str]]] = {"precache": [], "onFirstUse": []}
    for path, integrity in files.items():
        lists["onFirstUse" if cached_on_first_use(path) else "precache"].append([path, integrity])
    build = json.dumps({"id": build_id, **lists}, separators=(",", ":"))
    module = (
        f"// Generated by build.py for {SERVICE_WORKER}: this build's files.\nexport const BUILD = {build};\n"
    )
    name = f"{SERVICE_WORKER_BUILDS}/{hashlib.sha256(module.encode()).hexdigest()[:16]}.mjs"
    (site / name).parent.mkdir(exist_ok=True)
    (site / name).write_text(module)
    imported = f'import {{ BUILD }} from "./{name}";'
    (site / SERVICE_WORKER).write_text(template.replace(SERVICE_WORKER_BUILD_LINE, imported))


def check_pages_limits(site: Path) -> None:
    """Fail with a clear message if the folder breaks a Cloudflare Pages limit (file size, file count)."""
    files = [p for p in site.rglob("*") if p.is_file()]
    too_big = [(p, p.stat().st_size) for p in files if p.stat().st_size > PAGES_MAX_FILE_BYTES]
    problems = [
        f"{p.relative_to(site)} is {size / 2**20:.1f} MiB; Cloudflare Pages serves files up to "
        f"{PAGES_MAX_FILE_BYTES / 2**20:.0f} MiB"
        for p, size in too_big
    ]
    if len(files) > PAGES_MAX_FILES:
        problems.append(
            f"the site has {len(files)} files; Cloudflare Pages (Free plan) deploys at most {PAGES_MAX_FILES}"
        )
    if problems:
        raise BuildError("the site breaks Cloudflare Pages' limits:\n  - " + "\n  - ".join(problems))


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
    import_msgpack_from(msgpack)
    pydantic = [fetch_pinned_wheel(name, sha256) for name, sha256 in PYDANTIC_WHEELS]

    dist = dist.resolve()
    dist.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dist.parent, prefix=f".{dist.name}-") as tmp:
        site = Path(tmp) / "site"
        shutil.copytree(STATIC, site, ignore=shutil.ignore_patterns("_*", "*.html"))
        lab = build_lab_wheel(Path(tmp))
        render_static_pages(site, add_hashed(lab, site, PIP_WHEELS))
        shutil.copytree(pyodide, site / "pyodide" / PYODIDE_VERSION)
        boot_wheels = [add_hashed(with_bytecode(wheel, Path(tmp)), site) for wheel in (msgpack, lab)]
        render_narratives(site)
        write_play_files(site)  # the playground's editor bundle and gallery (site_build/play.py)
        (site / "_headers").write_text(headers_file())
        on_import = {"pydantic": [add_hashed(wheel, site, PACKAGES) for wheel in pydantic]}
        this_build = build_id(offline_files(site))  # the manifest names it, so it cannot be listed yet
        write_manifest(site, this_build, boot_wheels, on_import)
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


# --------------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command")
    serve_command = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_command.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # what a build made: cached()

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
