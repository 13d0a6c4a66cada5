"""A cold visit downloads each file once: the warm spare worker boots only after the first is ready and
reads Pyodide from the service worker's cache, and the wheels download while Pyodide boots. Counted on
the server, so a request a cache answered does not count."""

from browser_harness import SiteServer, wait_until_ready
from lab_page import wait_until

from site_build.pinned import PYODIDE_RUNTIME_FILES

PYODIDE = "/pyodide/314.0.7/"


def test_cold_visit_requests_each_file_once(browser, dist):
    with SiteServer(dist) as server:
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.url + "/")
        wait_until_ready(page)
        wait_until(page, lambda: page.evaluate("() => lab.status.spare") == "ready", "the spare is ready")
        context.close()
    downloads = dict(server.requests)

    pyodide = {name: downloads.get(PYODIDE + name) for name in PYODIDE_RUNTIME_FILES}
    assert pyodide == dict.fromkeys(pyodide, 1)
    wheels = {path: count for path, count in downloads.items() if path.startswith("/wheels/")}
    assert len(wheels) == 2 and set(wheels.values()) == {1}, wheels  # msgpack, lab
    # Everything else once too, but the service worker's script: the browser checks it for an update
    # when a page or a worker starts through it (a few kB, `Cache-Control: no-cache`).
    assert downloads.pop("/sw.mjs") >= 1
    assert {path: count for path, count in downloads.items() if count > 1} == {}, downloads
