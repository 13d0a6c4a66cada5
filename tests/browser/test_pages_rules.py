"""Cloudflare Pages' rules - the ``_headers`` policies, pretty URLs, MIME types, 404s - hold on
``wrangler pages dev`` (Cloudflare's own local runtime), and ``build.py serve`` behaves the same."""

import http.client
import re
import urllib.parse

import pytest

IMMUTABLE = "public, max-age=31536000, immutable"


def fetch(base: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    """GET ``path`` without following redirects: ``(status, lower-cased headers, body text)``."""
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(base).netloc, timeout=30)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        headers = {name.lower(): value for name, value in response.getheaders()}
        text = body.decode("utf-8", "replace") if "text/html" in headers.get("content-type", "") else ""
        return response.status, headers, text
    finally:
        connection.close()


def frame_ancestors(headers: dict[str, str]) -> list[str]:
    """Every frame-ancestors directive the response carries (a merged second policy would show here)."""
    return re.findall(r"frame-ancestors ([^;,]+)", headers.get("content-security-policy", ""))


def test_lab_page_has_the_csp_and_refuses_other_sites_frames(served):
    status, headers, html = fetch(served, "/")
    assert status == 200 and 'data-layout="page"' in html
    csp = headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp
    assert "'unsafe-eval'" not in csp and "'unsafe-inline'" not in csp
    assert frame_ancestors(headers) == ["'self'"]


def test_embed_page_is_served_at_its_pretty_url_and_may_be_framed_anywhere(served):
    status, headers, html = fetch(served, "/embed")
    assert status == 200 and 'data-layout="embed"' in html
    assert frame_ancestors(headers) == ["*"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in headers["content-security-policy"]


def test_lesson_steps_may_be_framed_anywhere_for_an_embedded_lesson(served):
    status, headers, html = fetch(served, "/learn/zh/interrupt/approve/")
    assert status == 200 and 'data-step="approve"' in html
    assert frame_ancestors(headers) == ["*"]  # one policy: the site-wide one was detached first
    assert "script-src 'self' 'wasm-unsafe-eval'" in headers["content-security-policy"]


@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/embed.html", "/embed"),
        ("/index.html", "/"),
        ("/learn/en", "/learn/en/"),
        ("/learn/zh/index.html", "/learn/zh/"),
    ],
)
def test_pretty_url_redirects(served, path, location):
    status, headers, _ = fetch(served, path)
    assert (status, headers["location"]) == (308, location)


def test_lessons_render_in_both_languages(served):
    for lang in ("en", "zh"):
        status, _, html = fetch(served, f"/learn/{lang}/")
        assert status == 200 and f'<html lang="{lang}">' in html


def test_unknown_path_is_a_404_page(served):
    status, _, html = fetch(served, "/no/such/page")
    assert status == 404 and "There is no page at this address" in html


def test_mime_types_and_cache_policy(served, dist):
    wheels = re.findall(r'url\("\./(wheels/[^"]+)"\)', (dist / "build-manifest.mjs").read_text())
    assert len(wheels) == 2  # msgpack, lab
    (build_list,) = re.findall(r'from "\./(sw-build/[0-9a-f]+\.mjs)"', (dist / "sw.mjs").read_text())
    expected = {
        "/app.mjs": ("application/javascript", "public, max-age=0, must-revalidate"),
        "/pyodide/314.0.7/pyodide.mjs": ("application/javascript", IMMUTABLE),
        "/pyodide/314.0.7/pyodide.asm.wasm": ("application/wasm", IMMUTABLE),
        "/pyodide/314.0.7/pyodide-lock.json": ("application/json", IMMUTABLE),
        "/sw.mjs": ("application/javascript", "no-cache"),  # a new deployment is seen at the next visit
        **{f"/{wheel}": ("application/gzip", IMMUTABLE) for wheel in wheels},  # with their bytecode
        f"/{build_list}": ("application/javascript", IMMUTABLE),  # sw.mjs's file list, named by its hash
    }
    for path, (content_type, cache_control) in expected.items():
        status, headers, _ = fetch(served, path)
        assert status == 200, path
        assert headers["content-type"].split(";")[0] == content_type, path
        assert headers["cache-control"] == cache_control, path
    for wheel in wheels:  # sent as they are, even to a browser: the worker ungzips them itself
        assert "content-encoding" not in fetch(served, f"/{wheel}", {"Accept-Encoding": "gzip, br"})[1], wheel


def test_dev_server_never_serves_the_headers_file(site):
    status, _, _ = fetch(site, "/_headers")
    assert status == 404  # Pages does not serve it either (wrangler answers 502 there)
