"""After one visit the lab boots and runs with the network cut, and so do the lessons; the lessons' seeds
are cached on first use, never precached; a new deployment shows "update available" and is never mixed
with the old one; resetting the lab deletes the offline copy.
"""

import re
import shutil

import pytest
from browser_harness import BOOT_TIMEOUT_S, SiteServer, wait_until_ready
from lab_page import wait_until
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from site_build.offline import build_id, offline_files, precache_list, write_service_worker

first_visit = pytest.mark.first_visit  # the offline copy is made by a first visit

# Whether the service worker's one cache holds every precached file (``paths``): what it cached on first
# use (a seed, the shipped memory snapshot on a fast link) may be there too.
ALL_CACHED = """
async (paths) => {
  const names = (await caches.keys()).filter((name) => name.startsWith("checkpoint-lab-site-"));
  if (names.length !== 1) return false;
  const cache = await caches.open(names[0]);
  return (await Promise.all(paths.map((path) => cache.match(path)))).every(Boolean);
}
"""
LAB_CACHES = "async () => (await caches.keys()).filter((name) => name.startsWith('checkpoint-lab-'))"
IN_CACHE = "async (path) => Boolean(await caches.match(path))"
SEEDS = "/learn/data/seeds/"


def visit_until_cached(page, url: str, dist) -> None:
    """Open the lab and wait until Python is ready and the whole build is in the offline cache."""
    page.goto(url)
    wait_until_ready(page)
    paths = list(precache_list(dist))
    wait_until(page, lambda: page.evaluate(ALL_CACHED, paths), f"all {len(paths)} files are cached")


def run_a_step(page) -> dict:
    page.evaluate("() => lab.command('start', {case_id: 'S-1001', variant: 'misplaced'})")
    return page.evaluate("() => lab.command('step')")


@first_visit
def test_lab_and_lessons_work_offline_after_one_visit(page, served, dist):
    visit_until_cached(page, served + "/?delay=0.05", dist)

    page.context.set_offline(True)
    page.reload()
    wait_until_ready(page)
    outcome = run_a_step(page)
    assert outcome["status"] in ("paused", "interrupted", "done"), outcome
    assert page.evaluate("() => lab.command('frames')")  # the step's checkpoints are there

    for lang in ("en", "zh"):
        page.goto(f"{served}/learn/{lang}/")
        html = (dist / "learn" / lang / "index.html").read_text()
        heading = re.search(r"<h1[^>]*>(.+?)</h1>", html, re.DOTALL)[1].strip()
        assert page.locator("html").get_attribute("lang") == lang
        assert page.inner_text("h1") == heading and page.locator("article").inner_text().strip()
    # A step page fetches its lesson's data and its words (JSON files of the build): offline too.
    page.goto(f"{served}/learn/zh/interrupt/approve/?delay=0.05")
    expect(page.locator("section[data-lesson]")).to_have_attribute(
        "data-ready", "true", timeout=BOOT_TIMEOUT_S * 1000
    )
    expect(page.locator("[data-choice]").first).to_be_enabled()
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.goto(served + "/no/such/page")  # not part of the build: the network (cut) would answer


def test_reset_deletes_the_offline_copy(page, site, dist):
    """A returning learner's browser (the warm profile): the offline copy one visit made is there."""
    visit_until_cached(page, site + "/?delay=0.05", dist)
    # the warm spare fetches its files through the service worker: reset once the lab is quiet
    wait_until(page, lambda: page.evaluate("() => lab.status.spare") == "ready", "the spare is ready")
    assert page.evaluate(LAB_CACHES)
    page.evaluate("() => lab.reset()")
    assert page.evaluate(LAB_CACHES) == []


@pytest.fixture
def deployment(dist, tmp_path):
    """A copy of the build behind its own server, so a test can deploy a new version over it."""
    copy = tmp_path / "dist"
    shutil.copytree(dist, copy)
    with SiteServer(copy) as server:
        yield copy, server


def deploy_a_change(site) -> None:
    """Change one file, then give the build a new id and the service worker its new list, as a build would."""
    manifest = site / "build-manifest.mjs"
    (old_id,) = re.findall(r'BUILD_ID = "(\w+)"', manifest.read_text())
    with (site / "style.css").open("a") as css:
        css.write("\n/* the next deployment */\n")
    new_id = build_id(offline_files(site))
    manifest.write_text(manifest.read_text().replace(old_id, new_id))
    write_service_worker(site, new_id, offline_files(site))


@first_visit  # its own server: a new origin, which the warm profile never visited
def test_new_deployment_prompts_and_never_mixes(page, deployment):
    site, server = deployment
    visit_until_cached(page, server.url + "/?delay=0.05", site)
    old_caches = page.evaluate(LAB_CACHES)
    server.requests.clear()

    deploy_a_change(site)
    page.reload()
    wait_until_ready(page)
    prompt = page.locator("#update-prompt")
    wait_until(page, prompt.is_visible, "the update prompt shows")
    # Until the learner accepts, the page gets the old build's files only.
    assert "the next deployment" not in page.evaluate("() => fetch('/style.css').then((r) => r.text())")
    # The new service worker copied the unchanged files from the old cache: Pyodide is not downloaded again.
    downloaded = [path for path in server.requests if path.startswith(("/pyodide/", "/wheels/"))]
    assert downloaded == [], server.requests

    with page.expect_navigation():
        prompt.get_by_role("button").click()  # the new service worker takes over, then the page reloads
    wait_until_ready(page)
    assert "the next deployment" in page.evaluate("() => fetch('/style.css').then((r) => r.text())")
    new_caches = page.evaluate(LAB_CACHES)
    site_caches = [name for name in new_caches if name.startswith("checkpoint-lab-site-")]
    assert len(site_caches) == 1 and not set(old_caches) & set(new_caches), (old_caches, new_caches)


def seeds_fetched(server) -> dict[str, int]:
    """The lessons' seeds that reached the server, with how many times each did."""
    return {path: count for path, count in server.requests.items() if path.startswith(SEEDS)}


@first_visit  # its own server, which counts what reaches the network
def test_a_seed_is_cached_on_first_use_never_precached(page, deployment):
    """The offline copy a first visit makes leaves out the lessons' seeds (2 MB that a learner who never
    deep-links would download for nothing); a deep link fetches its step's seed once, and the service
    worker serves it from its cache afterwards, offline too. Offline, a step whose seed was never
    fetched replays its moves instead."""
    site, server = deployment
    visit_until_cached(page, server.url + "/?delay=0.05", site)
    seed = f"{SEEDS}idempotency/business-key-crash.json"
    assert seeds_fetched(server) == {} and not page.evaluate(IN_CACHE, seed)

    page.goto(server.url + "/learn/en/idempotency/business-key-crash/?delay=0.05")
    section = page.locator("section[data-lesson]")
    expect(section).to_have_attribute("data-seeded", "true", timeout=BOOT_TIMEOUT_S * 1000)
    assert seeds_fetched(server) == {seed: 1} and page.evaluate(IN_CACHE, seed)

    page.context.set_offline(True)
    threads = page.evaluate("(path) => fetch(path).then((r) => r.json()).then((seed) => seed.threads)", seed)
    assert threads and seeds_fetched(server) == {seed: 1}
    page.goto(server.url + "/learn/en/interrupt/approve/?delay=0.05")  # its seed was never fetched
    expect(section).to_have_attribute("data-ready", "true", timeout=BOOT_TIMEOUT_S * 1000)
    assert section.get_attribute("data-seeded") == "false"
    expect(page.locator("[data-choice]").first).to_be_enabled()
