"""A first visit on a fast link restores Python from the memory snapshot the build shipped; on a slow link
(or where the browser does not say) it boots as before and never downloads it; return visits restore
the copy the browser stored after the first boot (the shipped one, or one made by a second boot); the
warm spare restores it too; and a snapshot that fails to restore falls back to the normal boot (a stored
one is deleted and made again)."""

import gzip

import pytest
from browser_harness import VISIT_SETTLED, claim_link, poll_until, wait_until_ready
from lab_page import wait_until

from site_build.offline import precache_list

# The size of this build's stored snapshot in bytes, or 0 when there is none.
SNAPSHOT_BYTES = """
async () => {
  const name = (await caches.keys()).find((key) => key.startsWith("checkpoint-lab-snapshot-"));
  const stored = name && (await (await caches.open(name)).match("/pyodide-memory-snapshot"));
  return stored ? (await stored.arrayBuffer()).byteLength : 0;
}
"""
# Replace the stored snapshot with bytes that are not one (the header's magic number is wrong).
BREAK_SNAPSHOT = """
async () => {
  const name = (await caches.keys()).find((key) => key.startsWith("checkpoint-lab-snapshot-"));
  const junk = new Uint8Array(1 << 20).fill(7);
  await (await caches.open(name)).put("/pyodide-memory-snapshot", new Response(junk));
}
"""
MIN_SNAPSHOT_BYTES = 20 * 2**20  # Pyodide's memory after boot is about 31 MB
# The link speeds (Mbit/s) the tests make navigator.connection report: above and below the lab's gate.
FAST_LINK, SLOW_LINK = 100, 2
# Whether pyodide-boot.mjs would download the shipped snapshot for this navigator.connection.
SHIPPED_SNAPSHOT_PAYS = """
async (connection) => (await import("/pyodide-boot.mjs")).shippedSnapshotPays(connection)
"""


def ready_event(page) -> dict:
    """The session's ready event, once the process is ready (after the page shows "ready")."""
    wait_until_ready(page)
    return wait_until(page, lambda: page.evaluate("() => lab.status.ready"), "the session is ready")


def snapshot_now(page) -> dict:
    """Ask the session for the memory snapshot now rather than once the lab is quiet (how soon that is
    depends on the machine's load); its ``snapshot`` event, once the snapshot is stored or failed."""
    return page.evaluate("() => lab.snapshotNow()")


def assert_a_snapshot_is_made_now(page) -> dict:
    made = snapshot_now(page)
    assert made["snapshot"] == "made" and made["bytes"] > MIN_SNAPSHOT_BYTES, made
    assert page.evaluate(SNAPSHOT_BYTES) == made["bytes"]  # stored whole
    return made


def run_a_step(page) -> dict:
    page.evaluate("() => lab.command('start', {case_id: 'S-1001', variant: 'misplaced'})")
    return page.evaluate("() => lab.command('step')")


@pytest.mark.first_visit  # the snapshot is made after a first boot
def test_snapshot_is_made_after_the_first_boot_and_restored_on_return(page, site):
    claim_link(page, FAST_LINK)
    page.goto(site + "/?delay=0.05")
    assert ready_event(page)["snapshot"] == "shipped"  # a first visit restores the build's snapshot
    assert assert_a_snapshot_is_made_now(page)["source"] == "shipped"  # stored, not made again

    page.reload()
    assert ready_event(page)["snapshot"] == "restored"
    assert page.evaluate("() => lab.request('ping')")["python"].startswith("3.14.")
    assert run_a_step(page)["status"] != "error"
    wait_until(page, lambda: page.evaluate("() => lab.status.spare") == "ready", "the spare is ready")
    replacement = page.evaluate("() => lab.kill()")
    assert (replacement["snapshot"], replacement["warm"]) == ("restored", True)
    assert replacement["restored"]["session"] is not None  # the thread, as IndexedDB has it


@pytest.mark.first_visit
def test_a_first_visit_on_a_slow_link_never_downloads_the_shipped_snapshot(page, site, dist):
    """It boots as before; a second boot makes the snapshot that return visits restore; the offline copy
    leaves the shipped one out too."""
    fetched = []
    page.context.route("**/snapshot/**", lambda route: (fetched.append(route.request.url), route.continue_()))
    claim_link(page, SLOW_LINK)
    page.goto(site + "/?delay=0.05")
    assert ready_event(page)["snapshot"] == "none"
    assert assert_a_snapshot_is_made_now(page)["source"] == "booted"
    paths = list(precache_list(dist))
    poll_until(page, lambda: page.evaluate(VISIT_SETTLED, paths), "the offline copy")

    page.reload()
    assert ready_event(page)["snapshot"] == "restored"
    assert run_a_step(page)["status"] != "error"
    assert fetched == []


@pytest.mark.no_python
@pytest.mark.parametrize(
    ("connection", "pays"),
    [
        ({"downlink": 10, "effectiveType": "4g", "saveData": False}, True),  # the most Chromium reports
        ({"downlink": 9.55, "effectiveType": "4g", "saveData": False}, False),  # 10 Mbit/s, with its noise
        ({"downlink": 10, "effectiveType": "4g", "saveData": True}, False),  # the learner saves data
        ({"downlink": 10, "effectiveType": "3g", "saveData": False}, False),
        (None, False),  # the browser does not say (Firefox, Safari)
    ],
    ids=["fast", "10 Mbit/s", "save data", "3g", "unknown"],
)
def test_the_shipped_snapshot_is_downloaded_only_where_the_browser_says_the_link_is_fast(
    page, site, connection, pays
):
    page.goto(site + "/404")
    assert page.evaluate(SHIPPED_SNAPSHOT_PAYS, connection) is pays


def test_a_broken_snapshot_falls_back_to_the_normal_boot_and_is_made_again(page, site):
    """A returning learner's browser (the warm profile), whose stored snapshot then breaks."""
    page.goto(site + "/?delay=0.05")
    assert ready_event(page)["snapshot"] == "restored"  # the snapshot an earlier visit made
    assert snapshot_now(page)["snapshot"] == "present"  # so this session makes none
    page.evaluate(BREAK_SNAPSHOT)

    page.reload()
    snapshot = ready_event(page)["snapshot"]
    assert snapshot.startswith("failed: ") and "magic" in snapshot, snapshot
    assert run_a_step(page)["status"] != "error"
    assert_a_snapshot_is_made_now(page)  # the broken one was deleted at boot


@pytest.mark.first_visit
@pytest.mark.parametrize(
    ("served", "why"),
    [
        (gzip.compress(bytes(1 << 20)), "magic"),  # a gzip of something that is not a snapshot
        (b"not gzip at all", "failed to fetch"),  # the browser cannot inflate it (and names it so)
    ],
    ids=["not a snapshot", "not gzip"],
)
def test_a_broken_shipped_snapshot_falls_back_to_the_normal_boot(browser, site, served, why):
    """The bytes reach Pyodide: without a service worker, which would refuse them (their integrity)."""
    context = browser.new_context(service_workers="block")
    context.route("**/snapshot/**", lambda route: route.fulfill(body=served))
    page = context.new_page()
    claim_link(page, FAST_LINK)
    page.goto(site + "/?delay=0.05")
    snapshot = ready_event(page)["snapshot"]
    assert snapshot.startswith("failed: ") and why in snapshot.lower(), snapshot
    assert page.evaluate("() => lab.request('ping')")["python"].startswith("3.14.")
    assert run_a_step(page)["status"] != "error"
    context.close()


@pytest.mark.first_visit
def test_the_service_worker_refuses_a_snapshot_that_is_not_the_builds(page, site):
    """Through the service worker, a tampered snapshot never reaches Pyodide: its integrity is checked."""
    page.context.route("**/snapshot/**", lambda route: route.fulfill(body=gzip.compress(bytes(1 << 20))))
    claim_link(page, FAST_LINK)
    page.goto(site + "/?delay=0.05")
    assert ready_event(page)["snapshot"] == "failed: Failed to fetch"
    assert run_a_step(page)["status"] != "error"
