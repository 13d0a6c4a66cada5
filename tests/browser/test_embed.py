"""Another site can frame ``/embed``; there the browser refuses IndexedDB (a cross-site iframe), and the
lab says plainly that checkpoints live in memory only. The full lab page refuses to be framed."""

import http.server
import re
import threading
from collections.abc import Iterator

import pytest
from browser_harness import wait_until_ready


@pytest.fixture
def embedder(site) -> Iterator[str]:
    """A page on another site (``localhost``, while the lab is on ``127.0.0.1``) that frames ``/embed``
    and ``/``. It is served for real on loopback: Chromium's local-network checks block a page that
    Playwright fulfils itself (it counts as public) from framing a loopback server."""
    html = f'<iframe src="{site}/embed"></iframe><iframe src="{site}/"></iframe>'.encode()

    class Embedder(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server dispatches to
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(html)))
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, *_args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Embedder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://localhost:{server.server_port}/"
    server.shutdown()
    server.server_close()


def test_embed_boots_in_a_cross_site_frame_with_memory_storage(page, site, embedder):
    console = []
    page.on("console", lambda message: console.append(message.text))
    page.goto(embedder)
    lab = page.frame(url=re.compile(r"/embed$"))
    assert lab is not None, [frame.url for frame in page.frames]
    wait_until_ready(page, frame=lab)

    notice = lab.locator("#storage-notice")
    assert notice.is_visible()
    assert "Storage unavailable: checkpoints live in memory only and vanish on reload." in notice.inner_text()
    assert lab.locator("#storage-notice a").get_attribute("target") == "_blank"  # "open in a new tab"
    assert lab.evaluate("() => lab.request('stats')")["storage"] == "memory"
    assert lab.evaluate("() => lab.request('meta_set', {key: 'k', value: 1})")["durable"] is False
    assert lab.evaluate("() => lab.request('meta_get', {key: 'k'})")["value"] == 1

    # The lab page itself sends frame-ancestors 'self': Chromium refuses to show it in that frame.
    others = [frame.url for frame in page.frames if frame not in (page.main_frame, lab)]
    assert others == ["chrome-error://chromewebdata/"]
    assert any(f"Framing '{site}/' violates" in text and "frame-ancestors 'self'" in text for text in console)
