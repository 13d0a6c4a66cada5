"""When boot fails, the page says so in words (no traceback) and its Retry button boots the lab again."""

from browser_harness import wait_for_boot, wait_until_ready

WASM = "**/pyodide.asm.wasm"


def test_failed_boot_shows_a_clear_error_and_retry_recovers(page, site):
    page.context.route(WASM, lambda route: route.abort("connectionfailed"))
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
