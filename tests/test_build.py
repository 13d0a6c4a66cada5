"""``build.py``: the built folder references no outside host, its ``_headers`` parse, it fits Cloudflare
Pages' limits, and the build is cached and deterministic: a rerun with nothing changed makes nothing again."""

import base64
import gzip
import hashlib
import html as html_module
import json
import logging
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # build.py lives at the repository root, not in an installed package

import build  # noqa: E402
import site_build.bytecode  # noqa: E402
import site_build.cache  # noqa: E402
import site_build.limits  # noqa: E402
import site_build.offline  # noqa: E402
import site_build.pinned  # noqa: E402
from dev_server.serve import headers_for, parse_headers  # noqa: E402
from site_build.bytecode import PYODIDE_SITE_PACKAGES, compile_bytecode, pyc_path  # noqa: E402
from site_build.cache import BuildError  # noqa: E402
from site_build.headers import IMMUTABLE  # noqa: E402
from site_build.lesson_seeds import SEEDS  # noqa: E402
from site_build.limits import PAGES_MAX_FILE_BYTES, PAGES_MAX_FILES, check_pages_limits  # noqa: E402
from site_build.offline import (  # noqa: E402
    NOT_PRECACHED,
    build_id,
    offline_files,
    precache_list,
    url_path,
    write_service_worker,
)
from site_build.pinned import (  # noqa: E402
    PACKAGES,
    PYDANTIC_WHEELS,
    PYODIDE_RUNTIME_FILES,
    PYODIDE_VERSION,
    fetch_pinned_wheel,
    fetch_pyodide,
)
from site_build.snapshot import SNAPSHOTS  # noqa: E402
from site_build.wheels import PIP_WHEELS, build_lab_wheel  # noqa: E402

# Hosts a built file may name without being fetched: XML namespaces (SVG), and loopback.
NEUTRAL_HOSTS = {"www.w3.org", "127.0.0.1", "localhost"}

# Pyodide's own files name a few hosts. Each exception is checked to still exist, so a Pyodide upgrade
# brings them back for review. Runtime fetches are checked separately: test_boot asserts that every
# request the page and its worker make goes to the site itself.
PYODIDE_EXCEPTIONS = {
    # `cdnUrl` defaults to the jsDelivr CDN, but pyodide.asm.mjs only reads it under Node
    # (`IN_NODE ? cdnUrl : packageBaseUrl`); pyodide-boot.mjs also sets packageBaseUrl to our own folder.
    ("pyodide/314.0.7/pyodide.mjs", "cdn.jsdelivr.net"),
}

# What a browser parses as text. Archives (python_stdlib.zip, the wheels) and the WebAssembly binary
# are not scanned: URLs inside them are Python docstrings and comments, not things the page loads.
TEXT_SUFFIXES = {".html", ".mjs", ".js", ".css", ".json", ".svg", ".txt"}
URL = re.compile(r"https?://([A-Za-z0-9.-]+)")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> build.BuildResult:
    return build.build(tmp_path_factory.mktemp("site") / "dist")


def test_no_reference_to_an_outside_host(built):
    dist = built.dist
    found = set()
    for path in dist.rglob("*"):
        if path.is_file() and (path.suffix in TEXT_SUFFIXES or path.name == "_headers"):
            for host in URL.findall(path.read_text(errors="replace")):
                found.add((path.relative_to(dist).as_posix(), host))
    outside = {(file, host) for file, host in found if host not in NEUTRAL_HOSTS}
    assert outside == PYODIDE_EXCEPTIONS


def test_the_pyodide_exception_is_only_the_default_cdn_url(built):
    source = (built.dist / "pyodide/314.0.7/pyodide.mjs").read_text()
    assert re.findall(r"https?://[^`\"' ]+", source) == ["https://cdn.jsdelivr.net/pyodide/v${U}/full/"]
    assert "IN_NODE?(this.installBaseUrl=" in (built.dist / "pyodide/314.0.7/pyodide.asm.mjs").read_text()
    assert "packageBaseUrl: PYODIDE_INDEX_URL" in (built.dist / "pyodide-boot.mjs").read_text()


def test_headers_file_parses_within_pages_limits(built):
    text = (built.dist / "_headers").read_text()
    rules = parse_headers(text)
    assert len(rules) <= 100 and all(len(line) <= 2000 for line in text.splitlines())
    assert all(rule.pattern.count("*") <= 1 for rule in rules)
    site_wide = headers_for(rules, "/")
    assert "'wasm-unsafe-eval'" in site_wide["Content-Security-Policy"]
    assert headers_for(rules, "/embed")["Content-Security-Policy"].endswith("frame-ancestors *")
    assert headers_for(rules, "/pyodide/314.0.7/pyodide.asm.wasm")["Cache-Control"] == IMMUTABLE


def test_matching_header_rules_merge_join_and_detach():
    rules = parse_headers(
        "# comment\n/*\n  X-A: 1\n  X-B: site\n/docs/:page\n  x-a: 2\n  ! X-B\n/docs/*\n  X-C: 3\n"
    )
    assert headers_for(rules, "/docs/intro") == {"X-A": "1, 2", "X-C": "3"}
    assert headers_for(rules, "/docs/a/b") == {"X-A": "1", "X-B": "site", "X-C": "3"}
    with pytest.raises(ValueError, match="line 1"):
        parse_headers("  X-A: header before any rule\n")


def test_every_file_fits_pages_limits(built):
    files = [path for path in built.dist.rglob("*") if path.is_file()]
    assert len(files) == built.files < PAGES_MAX_FILES
    assert max(path.stat().st_size for path in files) < PAGES_MAX_FILE_BYTES


def test_limit_check_fails_with_a_clear_message(tmp_path, monkeypatch):
    with (tmp_path / "huge.bin").open("wb") as huge:
        huge.truncate(26 * 2**20)  # sparse: no 26 MiB are written
    (tmp_path / "small.txt").write_text("ok")
    monkeypatch.setattr(site_build.limits, "PAGES_MAX_FILES", 1)
    with pytest.raises(BuildError) as failure:
        check_pages_limits(tmp_path)
    message = str(failure.value)
    assert "huge.bin is 26.0 MiB; Cloudflare Pages serves files up to 25 MiB" in message
    assert "the site has 2 files; Cloudflare Pages (Free plan) deploys at most 1" in message


def test_assets_are_versioned_or_content_hashed(built):
    dist = built.dist
    assert sorted(p.name for p in (dist / "pyodide" / PYODIDE_VERSION).iterdir()) == sorted(
        PYODIDE_RUNTIME_FILES
    )
    wheels = [p.relative_to(dist / "wheels").as_posix() for p in (dist / "wheels").rglob("*") if p.is_file()]
    assert sorted(re.sub(r"^[0-9a-f]{16}/", "", wheel) for wheel in wheels) == [
        "checkpoint_lab-0.1.0-py3-none-any.tar.gz",  # each wheel's files with their bytecode
        "msgpack-1.2.4-py3-none-any.tar.gz",  # pure Python: Pyodide cannot load msgpack's C extension
    ]
    manifest = (dist / "build-manifest.mjs").read_text()
    assert all(f'url("./wheels/{wheel}")' in manifest for wheel in wheels)


def test_the_memory_snapshot_is_shipped_gzipped_under_its_content_hash(built):
    """The snapshot a first visit restores: a Pyodide memory image (31 MB, over Pages' 25 MiB per file
    unless compressed), gzipped, under a folder named by its hash, named by the manifest, cached forever."""
    (snapshot,) = (built.dist / SNAPSHOTS).rglob("*.gz")
    packed = snapshot.read_bytes()
    assert snapshot.parent.name == hashlib.sha256(packed).hexdigest()[:16]
    assert len(gzip.decompress(packed)) > 20 * 2**20 > len(packed)
    path = snapshot.relative_to(built.dist).as_posix()
    assert f'MEMORY_SNAPSHOT = url("./{path}")' in (built.dist / "build-manifest.mjs").read_text()
    assert f"/{SNAPSHOTS}/*\n  Cache-Control: {IMMUTABLE}" in (built.dist / "_headers").read_text()


def test_lab_wheel_is_deterministic_and_complete(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    wheel = build_lab_wheel(first)
    assert wheel.read_bytes() == build_lab_wheel(second).read_bytes()
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "lab/browser/worker_api.py" in names and "lab/browser/idb.py" in names
        info = "checkpoint_lab-0.1.0.dist-info"
        assert {f"{info}/METADATA", f"{info}/WHEEL", f"{info}/RECORD"} <= set(names)
        record = zf.read(f"{info}/RECORD").decode().splitlines()
        assert len(record) == len(names)  # every file is listed, RECORD itself included
        assert "Tag: py3-none-any" in zf.read(f"{info}/WHEEL").decode()


def boot_archives(dist: Path) -> dict[str, dict[str, bytes]]:
    """The archives the worker unpacks at boot: archive name -> {path inside: bytes}, in archive order."""
    archives = {}
    for path in sorted((dist / "wheels").rglob("*.tar.gz")):
        with tarfile.open(path) as tar:
            archives[path.name] = {entry.name: tar.extractfile(entry).read() for entry in tar.getmembers()}
    return archives


def is_unchecked_pyc_of_python_314(pyc: bytes) -> bool:
    """Python 3.14's magic number (3600 + x, then "\\r\\n"); flags 0b01: hash-based and never checked
    against the source, which an unpacked archive gives no reliable timestamp."""
    magic, flags = int.from_bytes(pyc[:2], "little"), int.from_bytes(pyc[4:8], "little")
    return 3600 <= magic < 3700 and pyc[2:4] == b"\r\n" and flags == 0b01


@pytest.fixture
def nothing_compiled(tmp_path, monkeypatch) -> None:
    """An empty cache for the bytecode (the pinned Pyodide still comes from the shared one)."""
    pyodide = fetch_pyodide()
    monkeypatch.setattr(site_build.cache, "CACHE", tmp_path)
    monkeypatch.setattr(site_build.bytecode, "CACHE", tmp_path)
    monkeypatch.setattr(site_build.bytecode, "fetch_pyodide", lambda: pyodide)


def test_the_pinned_pyodide_compiles_bytecode_in_node(nothing_compiled):
    """``site_build/compile_bytecode.mjs`` run by Node, with nothing cached: a .pyc for each source."""
    compiled = compile_bytecode({"lab/x.py": b"x = 1\n", "lab/y/z.py": b"def f():\n    return 2\n"})
    assert sorted(compiled) == ["lab/__pycache__/x.cpython-314.pyc", "lab/y/__pycache__/z.cpython-314.pyc"]
    assert all(is_unchecked_pyc_of_python_314(pyc) for pyc in compiled.values())


def test_the_boot_archives_carry_every_module_with_its_bytecode_for_pyodide(built):
    for name, files in boot_archives(built.dist).items():
        sources = [path for path in files if path.endswith(".py")]
        assert sources and all(pyc_path(path) in files for path in sources), name
        names = list(files)
        assert all(
            names[names.index(path) + 1] == pyc_path(path) for path in sources
        )  # each next to its source
        for path in sources:
            assert is_unchecked_pyc_of_python_314(files[pyc_path(path)]), path
    lab = boot_archives(built.dist)["checkpoint_lab-0.1.0-py3-none-any.tar.gz"]
    assert (
        lab["lab/browser/worker_api.py"] == (ROOT / "lab/browser/worker_api.py").read_bytes()
    )  # sources kept


# Pyodide in Node: unpack the archives into site-packages as pyodide-boot.mjs does, then import every
# snapshot-safe lab module while counting the modules Python had to compile from source.
IMPORT_FROM_BYTECODE_JS = """
const [indexURL, sitePackages, ...archives] = process.argv.slice(1);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + indexURL).href);
const { readFileSync } = await import("node:fs");
const pyodide = await loadPyodide({ indexURL });
for (const archive of archives) {
  pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "gztar", { extractDir: sitePackages });
}
try {
  console.log(pyodide.runPython(`
import importlib.machinery, json
compiled = []
compile_source = importlib.machinery.SourceFileLoader.source_to_code
def counting(self, data, path, *args, **kwargs):
    compiled.append(path)
    return compile_source(self, data, path, *args, **kwargs)
importlib.machinery.SourceFileLoader.source_to_code = counting
import lab.preload
json.dumps({"imported": lab.preload.preload(), "compiled": compiled})`));
} catch (error) {
  console.log(JSON.stringify({ error: error.message })); // not Node's report: a line of minified Pyodide
}
"""


def test_pyodide_imports_the_lab_from_its_bytecode_without_compiling(built):
    archives = [str(path) for path in sorted((built.dist / "wheels").rglob("*.tar.gz"))]
    pyodide = f"{fetch_pyodide()}/"
    done = subprocess.run(
        ["node", "--input-type=module", "-e", IMPORT_FROM_BYTECODE_JS, pyodide, PYODIDE_SITE_PACKAGES,
         *archives],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert "error" not in result, result["error"]
    assert len(result["imported"]) > 50 and result["compiled"] == []


def test_bytecode_needs_node_and_says_so(nothing_compiled, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no node on it
    with pytest.raises(BuildError, match="`node` is not installed"):
        compile_bytecode({"lab/x.py": b"x = 1\n"})


def test_a_rebuild_with_nothing_changed_makes_nothing_again(built, caplog, monkeypatch):
    """What a rebuild redoes, not how long it takes (timing is bench/'s): every download and every
    compilation comes from the cache, no outside command runs, and the site is the same."""

    def no_command(command: list[str], **_kwargs) -> None:
        raise AssertionError(f"a rebuild with nothing changed ran {command}")

    monkeypatch.setattr(subprocess, "run", no_command)  # every step runs its commands with cache.run
    before = service_worker_build(built.dist)["id"]
    with caplog.at_level(logging.DEBUG, logger="build"):
        build.build(built.dist)
    steps = [record.getMessage() for record in caplog.records if record.name == "build"]
    pydantic = [f"reused wheels/{name}" for name, _ in PYDANTIC_WHEELS]  # PyPI's, for /play
    assert [step.split(" ")[0] for step in steps] == ["reused"] * 12, steps
    assert steps[:7] == ["reused pyodide-314.0.7", "reused wheels/msgpack-1.2.4-py3-none-any.whl", *pydantic]
    assert all(re.fullmatch(r"reused bytecode/[0-9a-f]{32}\.zip", step) for step in steps[7:9]), steps
    assert re.fullmatch(r"reused snapshot/[0-9a-f]{32}\.gz", steps[9]), steps  # Pyodide's memory snapshot
    assert re.fullmatch(r"reused lesson-seeds-[0-9a-f]{16}\.json", steps[10]), steps  # deep links' seeds
    assert re.fullmatch(r"reused editor-[0-9a-f]{16}\.mjs", steps[11]), steps  # the /play editor bundle
    assert service_worker_build(built.dist)["id"] == before


# A build in a Python that sees only the standard library, jinja2 and markupsafe (jinja2's one dependency):
# site-packages is left off, and a folder holding links to those two packages takes its place.
BUILD_WITH_ONLY_JINJA2 = """
import sys
sys.path = [path for path in sys.path if "-packages" not in path] + [sys.argv[1]]
sys.path.insert(0, sys.argv[2])
import build
build.build(build.Path(sys.argv[3]))
"""


def test_a_fresh_machine_builds_the_site_with_only_jinja2_installed(tmp_path):
    """README: ``pip install jinja2 && python build.py serve``. The build imports ``lab`` (the pages'
    diagram), which imports msgpack; without one installed, the build's own pure-Python wheel serves."""
    import jinja2
    import markupsafe

    only = tmp_path / "site-packages"
    only.mkdir()
    for package in (jinja2, markupsafe):
        (only / package.__name__).symlink_to(Path(package.__file__).parent)
    done = subprocess.run(
        [sys.executable, "-c", BUILD_WITH_ONLY_JINJA2, str(only), str(ROOT), str(tmp_path / "dist")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "dist" / "index.html").is_file()


def service_worker_build(dist: Path) -> dict:
    """The ``{id, files}`` that the built ``sw.mjs`` imports (build.py wrote both)."""
    lines = (dist / "sw.mjs").read_text().splitlines()
    (line,) = [line for line in lines if line.startswith("import { BUILD } from ")]
    module = (dist / line.split('"')[1]).read_text().splitlines()
    (line,) = [line for line in module if line.startswith("export const BUILD = ")]
    return json.loads(line.removeprefix("export const BUILD = ").removesuffix(";"))


def test_the_service_worker_imports_its_file_list_from_a_content_hashed_module_cached_forever(built):
    """The browser fetches sw.mjs at every update check; the long list is fetched once."""
    dist = built.dist
    (imported,) = re.findall(
        r'^import \{ BUILD \} from "\./(sw-build/[0-9a-f]{16}\.mjs)";$', (dist / "sw.mjs").read_text(), re.M
    )
    module = (dist / imported).read_bytes()
    assert imported == f"sw-build/{hashlib.sha256(module).hexdigest()[:16]}.mjs"
    assert [p.name for p in (dist / "sw-build").iterdir()] == [imported.removeprefix("sw-build/")]
    rules = parse_headers((dist / "_headers").read_text())
    assert headers_for(rules, f"/{imported}")["Cache-Control"] == IMMUTABLE
    assert (dist / "sw.mjs").stat().st_size < 10_000 < len(module)


def file_for(dist: Path, url_path: str) -> Path:
    """The built file a URL path serves (pages by their pretty URL)."""
    relative = url_path.lstrip("/")
    if relative == "" or relative.endswith("/"):
        return dist / relative / "index.html"
    return dist / relative if (dist / relative).is_file() else dist / f"{relative}.html"


def test_service_worker_lists_every_file_of_the_build_with_its_hash(built):
    dist = built.dist
    lists = service_worker_build(dist)
    listed = dict(lists["precache"] + lists["onFirstUse"])
    for path, integrity in listed.items():
        data = file_for(dist, path).read_bytes()
        assert integrity == "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode(), path
    pages = {"/", "/embed", "/learn/en/", "/learn/zh/"}
    modules = {"/app.mjs", "/worker.mjs", "/build-manifest.mjs", "/offline.mjs", "/page-offline.mjs"}
    pyodide = {f"/pyodide/314.0.7/{name}" for name in PYODIDE_RUNTIME_FILES}
    assert pages | modules | pyodide <= listed.keys()
    assert len([path for path in listed if path.startswith("/wheels/")]) == 2  # msgpack, lab (with bytecode)
    assert not {"/_headers", "/sw.mjs", "/404", "/index", "/embed.html"} & listed.keys()
    (pip_wheel,) = (dist / PIP_WHEELS).rglob("*.whl")  # for pip, never loaded by the browser
    files = [p for p in dist.rglob("*") if p.is_file() and p.name not in NOT_PRECACHED and p != pip_wheel]
    assert len(listed) == len(files) - 1  # all but the list itself (sw-build/<hash>.mjs)


def test_lesson_seeds_are_cached_on_first_use_never_precached(built):
    """A first visit's offline copy leaves out the lessons' seeds (only a deep link fetches one, one
    step's file), pydantic's wheels and the shipped memory snapshot (7 MiB, downloaded only on a fast
    link), yet the worker knows their hashes: a file it fetches is checked, and cached for offline."""
    dist = built.dist
    lists = service_worker_build(dist)
    seeds = {url_path(path.relative_to(dist).as_posix()) for path in (dist / SEEDS).rglob("*.json")}
    assert len(seeds) > 30
    wheels = (dist / PACKAGES).rglob("*.whl")  # pydantic's: fetched only by a program importing it
    packages = {url_path(path.relative_to(dist).as_posix()) for path in wheels}
    assert len(packages) == len(PYDANTIC_WHEELS)
    (snapshot,) = {url_path(path.relative_to(dist).as_posix()) for path in (dist / SNAPSHOTS).rglob("*.gz")}
    assert dict(lists["onFirstUse"]).keys() == seeds | packages | {snapshot}
    assert not (seeds | packages | {snapshot}) & dict(lists["precache"]).keys()
    assert not seeds & precache_list(dist).keys()
    assert dict(lists["precache"]) == precache_list(dist)
    assert dict(lists["precache"] + lists["onFirstUse"]) == offline_files(dist)


def test_the_build_id_covers_the_files_cached_on_first_use(tmp_path):
    """A new seed is a new build: a worker never serves one build's seed beside another's pages."""
    site = tmp_path / "site"
    for relative in ("index.html", f"{SEEDS}/crash/resume.json"):
        (site / relative).parent.mkdir(parents=True, exist_ok=True)
        (site / relative).write_text("{}")
    before = build_id(offline_files(site))
    (site / SEEDS / "crash" / "resume.json").write_text('{"threads": []}')
    assert precache_list(site).keys() == {"/"}
    assert build_id(offline_files(site)) != before


def test_service_worker_and_manifest_name_the_same_build(built):
    build_id = service_worker_build(built.dist)["id"]
    assert re.fullmatch(r"[0-9a-f]{16}", build_id)
    assert f'export const BUILD_ID = "{build_id}";' in (built.dist / "build-manifest.mjs").read_text()


def test_build_id_changes_with_any_byte_of_any_file():
    files = {"/": "sha256-a", "/app.mjs": "sha256-b"}
    assert build_id(files) == build_id(dict(files))
    assert build_id(files) != build_id({**files, "/app.mjs": "sha256-c"})
    assert build_id(files) != build_id({**files, "/new.mjs": "sha256-b"})


def test_service_worker_is_never_cached_by_the_browser(built):
    rules = parse_headers((built.dist / "_headers").read_text())
    assert headers_for(rules, "/sw.mjs")["Cache-Control"] == "no-cache"
    assert "worker-src 'self'" in headers_for(rules, "/sw.mjs")["Content-Security-Policy"]


def test_service_worker_template_must_keep_its_build_line(tmp_path, monkeypatch):
    template = tmp_path / "sw.mjs"
    template.write_text("const BUILD = {};\n")
    monkeypatch.setattr(site_build.offline, "SERVICE_WORKER_TEMPLATE", template)
    with pytest.raises(BuildError, match="must contain the line"):
        write_service_worker(tmp_path, "0" * 16, {})


def test_the_pages_carry_the_graph_diagram_computed_at_build_time(built):
    """The lab's pages hold the AML graph's diagram before any script runs (issue 11): the data the page's
    SVG is drawn from (``describe_graph``, as the live controller describes it) and a list of its nodes."""
    from lab.aml.graph import VARIANTS, build_graph, describe_graph
    from lab.aml.texts import with_node_summaries
    from lab.world import MemoryWorld

    expected = with_node_summaries(describe_graph(build_graph(MemoryWorld(), VARIANTS[0])))
    names = [node["id"] for node in expected["nodes"] if node["kind"] == "node"]
    for page in ("index.html", "embed.html"):
        html = (built.dist / page).read_text()
        data = re.search(r'<figure id="boot-graph" class="boot-graph" data-graph="([^"]*)"', html)
        assert data, page
        assert json.loads(html_module.unescape(data.group(1))) == expected
        assert re.findall(r"<li><code>([a-z_]+)</code>", html) == names
        said = re.findall(r'</code> <span data-i18n="py\.node\.([a-z_]+)[."]', html)  # each node, by code
        assert said == names, said


def test_a_pinned_wheel_with_other_bytes_is_refused(tmp_path, monkeypatch):
    """pydantic's wheels come from PyPI by name and version; the build keeps them only with their pinned
    sha256."""
    name, _ = PYDANTIC_WHEELS[0]

    def fake_pip(command: list[str], **_kwargs) -> None:
        (Path(command[command.index("--dest") + 1]) / name).write_bytes(b"not the wheel")

    monkeypatch.setattr(site_build.cache, "CACHE", tmp_path)
    monkeypatch.setattr(site_build.pinned, "CACHE", tmp_path)
    monkeypatch.setattr(site_build.pinned, "run", fake_pip)
    with pytest.raises(BuildError, match=rf"{re.escape(name)} has sha256 [0-9a-f]{{64}}, not the pinned"):
        fetch_pinned_wheel(name, PYDANTIC_WHEELS[0][1])
    assert not (tmp_path / "wheels" / name).exists()
