"""When boot fails, the page says so in words (no traceback) and its Retry button boots the lab again."""

import pytest
from browser_harness import wait_for_boot, wait_until_ready

pytestmark = pytest.mark.first_visit  # a failing download: a first visit's (no offline copy to serve)

WASM = "**/pyodide.asm.wasm"

# Two ways Pyodide's WebAssembly download fails, which Pyodide 314 reports differently: a dropped
# connection usually escapes as an unhandled rejection; an HTTP error is caught inside Pyodide, which
# only warns and never settles (the worker must notice the warning, or the page waits forever).
FAILURES = {
    "connection dropped": lambda route: route.abort("connectionfailed"),
    "HTTP 404": lambda route: route.fulfill(status=404, body="not here"),
}


@pytest.mark.parametrize("failure", FAILURES)
def test_failed_boot_shows_a_clear_error_and_retry_recovers(page, site, failure):
    page.context.route(WASM, FAILURES[failure])
    page.goto(site + "/")
    assert wait_for_boot(page) == "error"

    error_view = page.locator("#boot-error")
    assert error_view.is_visible()
    assert "Python (Pyodide) could not be downloaded or started" in page.inner_text("#boot-error-message")
    assert page.locator('#boot-stages [data-stage="runtime"]').get_attribute("data-state") == "error"
    assert page.locator("#boot-error-detail").is_hidden()  # folded away under "Technical details"
    assert "Traceback" not in page.inner_text("body")

    page.context.unroute(WASM)
    page.click("#boot-retry")
    wait_until_ready(page)
    assert error_view.is_hidden()
    assert page.evaluate("() => lab.request('ping')")["python"].startswith("3.14.")
