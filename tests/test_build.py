"""``build.py``: the built folder references no outside host, its ``_headers`` parse, it fits Cloudflare
Pages' limits, and the build is cached, deterministic and fast to rerun."""

import re
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # build.py lives at the repository root, not in an installed package

import build  # noqa: E402

# Hosts a built file may name without being fetched: XML namespaces (SVG), and loopback.
NEUTRAL_HOSTS = {"www.w3.org", "127.0.0.1", "localhost"}

# Pyodide's own files name a few hosts. Each exception is checked to still exist, so a Pyodide upgrade
# brings them back for review. Runtime fetches are checked separately: test_boot asserts that every
# request the page and its worker make goes to the site itself.
PYODIDE_EXCEPTIONS = {
    # `cdnUrl` defaults to the jsDelivr CDN, but pyodide.asm.mjs only reads it under Node
    # (`IN_NODE ? cdnUrl : packageBaseUrl`); worker.mjs also sets packageBaseUrl to our own folder.
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
    assert "packageBaseUrl: PYODIDE_INDEX_URL" in (built.dist / "worker.mjs").read_text()


def test_headers_file_parses_within_pages_limits(built):
    text = (built.dist / "_headers").read_text()
    rules = build.parse_headers(text)
    assert len(rules) <= 100 and all(len(line) <= 2000 for line in text.splitlines())
    assert all(rule.pattern.count("*") <= 1 for rule in rules)
    site_wide = build.headers_for(rules, "/")
    assert "'wasm-unsafe-eval'" in site_wide["Content-Security-Policy"]
    assert build.headers_for(rules, "/embed")["Content-Security-Policy"].endswith("frame-ancestors *")
    assert build.headers_for(rules, "/pyodide/314.0.7/pyodide.asm.wasm")["Cache-Control"] == build.IMMUTABLE


def test_matching_header_rules_merge_join_and_detach():
    rules = build.parse_headers(
        "# comment\n/*\n  X-A: 1\n  X-B: site\n/docs/:page\n  x-a: 2\n  ! X-B\n/docs/*\n  X-C: 3\n"
    )
    assert build.headers_for(rules, "/docs/intro") == {"X-A": "1, 2", "X-C": "3"}
    assert build.headers_for(rules, "/docs/a/b") == {"X-A": "1", "X-B": "site", "X-C": "3"}
    with pytest.raises(ValueError, match="line 1"):
        build.parse_headers("  X-A: header before any rule\n")


def test_every_file_fits_pages_limits(built):
    files = [path for path in built.dist.rglob("*") if path.is_file()]
    assert len(files) == built.files < build.PAGES_MAX_FILES
    assert max(path.stat().st_size for path in files) < build.PAGES_MAX_FILE_BYTES


def test_limit_check_fails_with_a_clear_message(tmp_path, monkeypatch):
    with (tmp_path / "huge.bin").open("wb") as huge:
        huge.truncate(26 * 2**20)  # sparse: no 26 MiB are written
    (tmp_path / "small.txt").write_text("ok")
    monkeypatch.setattr(build, "PAGES_MAX_FILES", 1)
    with pytest.raises(build.BuildError) as failure:
        build.check_pages_limits(tmp_path)
    message = str(failure.value)
    assert "huge.bin is 26.0 MiB; Cloudflare Pages serves files up to 25 MiB" in message
    assert "the site has 2 files; Cloudflare Pages (Free plan) deploys at most 1" in message


def test_assets_are_versioned_or_content_hashed(built):
    dist = built.dist
    assert sorted(p.name for p in (dist / "pyodide" / build.PYODIDE_VERSION).iterdir()) == sorted(
        build.PYODIDE_RUNTIME_FILES
    )
    wheels = [p.relative_to(dist / "wheels").as_posix() for p in (dist / "wheels").rglob("*.whl")]
    assert sorted(re.sub(r"^[0-9a-f]{16}/", "", wheel) for wheel in wheels) == [
        "checkpoint_lab-0.1.0-py3-none-any.whl",
        "micropip-0.11.1-py3-none-any.whl",
        "msgpack-1.2.4-py3-none-any.whl",  # pure Python: Pyodide cannot load msgpack's C extension
    ]
    manifest = (dist / "build-manifest.mjs").read_text()
    assert all(f'url("./wheels/{wheel}")' in manifest for wheel in wheels)


def test_lab_wheel_is_deterministic_and_complete(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    wheel = build.build_lab_wheel(first)
    assert wheel.read_bytes() == build.build_lab_wheel(second).read_bytes()
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "lab/browser/worker_api.py" in names and "lab/browser/idb.py" in names
        info = "checkpoint_lab-0.1.0.dist-info"
        assert {f"{info}/METADATA", f"{info}/WHEEL", f"{info}/RECORD"} <= set(names)
        record = zf.read(f"{info}/RECORD").decode().splitlines()
        assert len(record) == len(names)  # every file is listed, RECORD itself included
        assert "Tag: py3-none-any" in zf.read(f"{info}/WHEEL").decode()


def test_rebuild_with_nothing_changed_is_fast(built):
    started = time.perf_counter()
    build.build(built.dist)
    assert time.perf_counter() - started < 5
