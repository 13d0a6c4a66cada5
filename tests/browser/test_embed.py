"""Another site can frame ``/embed``; there the browser refuses IndexedDB (a cross-site iframe), and the
lab says plainly that checkpoints live in memory only. The full lab page refuses to be framed."""

import contextlib
import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import wait_until_ready
from lesson_walk import TIMEOUT_MS, next_name, take_step  # the learner's clicks through one step
from playwright.sync_api import Worker, expect
from test_accessibility import serious_violations

from lab.lessons import LESSONS, get_lesson


@contextlib.contextmanager
def host_page(html: str) -> Iterator[str]:
    """A page on another site (``localhost``, while the lab is on ``127.0.0.1``) that shows ``html``. It is
    served for real on loopback: Chromium's local-network checks block a page that Playwright fulfils
    itself (it counts as public) from framing a loopback server."""
    body = html.encode()

    class Embedder(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server dispatches to
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Embedder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://localhost:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def embedder(site) -> Iterator[str]:
    """Another site's page that frames ``/embed`` and ``/``."""
    with host_page(f'<iframe src="{site}/embed"></iframe><iframe src="{site}/"></iframe>') as url:
        yield url


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
    stats = lab.evaluate("() => lab.request('stats')")
    assert stats["storage"] == "memory"
    assert stats["event_loop"] == "BatchingWebLoop"  # the worker's asyncio loop (lab/browser/event_loop.py)
    assert lab.evaluate("() => lab.request('meta_set', {key: 'k', value: 1})")["durable"] is False
    assert lab.evaluate("() => lab.request('meta_get', {key: 'k'})")["value"] == 1

    # The lab page itself sends frame-ancestors 'self': Chromium refuses to show it in that frame.
    others = [frame.url for frame in page.frames if frame not in (page.main_frame, lab)]
    assert others == ["chrome-error://chromewebdata/"]
    assert any(f"Framing '{site}/' violates" in text and "frame-ancestors 'self'" in text for text in console)


EMBEDDED_LESSONS = ("crash", "interrupt")  # lesson 3 kills the worker for real; "Next lesson" goes on to 4
FAST = "0.05"  # seconds each node works (the lab's pace is 0.3 s): the crash waits on a seam, not on time
PACE = rf"(\?delay={FAST})?"  # links keep the pace


def test_embedded_lessons_boot_on_a_click_and_complete_in_memory_through_a_crash(page, site):
    """The README's snippet on another site: nothing boots until Start; the lesson's steps open in the
    frame, where the browser refuses IndexedDB (checked in the frame itself), so the lesson runs in
    memory and says so in one line. Lesson 3's crash is a real ``worker.terminate()``; the thread
    outlives it because the page keeps the records, so every step completes by clicking. Then "Next
    lesson" walks lesson 4 in the same frame, over the same boot."""
    lessons = [get_lesson(lesson_id) for lesson_id in EMBEDDED_LESSONS]
    snippet = README_SNIPPET.replace("https://checkpoint-lab.pages.dev", site)
    assert f'src="{site}/embed?lesson=interrupt&amp;lang=en"' in snippet
    snippet = snippet.replace("lesson=interrupt&amp;", f"lesson={lessons[0].id}&amp;delay={FAST}&amp;")
    terminated: list[str] = []  # the lab workers (not the snapshot's) that ended

    def watch(worker: Worker) -> None:
        if worker.url.endswith("/worker.mjs"):
            worker.on("close", lambda ended: terminated.append(ended.url))

    page.on("worker", watch)
    with host_page(snippet) as host:
        page.goto(host)
        frame = page.locator("iframe").element_handle().content_frame()
        frame.wait_for_url(
            re.compile(rf"/embed\?lesson={lessons[0].id}&delay={FAST}&lang=en$"), timeout=TIMEOUT_MS
        )
        start = frame.get_by_role("button", name="Start the lesson", exact=True)
        expect(start).to_be_visible()
        assert frame.evaluate("() => document.body.dataset.bootState ?? null") is None  # no Python yet
        assert frame.locator("#boot").is_hidden()
        start.click()
        frame.wait_for_url(
            re.compile(rf"/learn/en/{lessons[0].id}/{lessons[0].steps[0].id}/\?delay={FAST}$"),
            timeout=TIMEOUT_MS,
        )
        assert frame.evaluate(INDEXEDDB_REFUSED) is True  # the in-memory path is the only one here
        for number, lesson in enumerate(lessons):
            for index, step in enumerate(lesson.steps):
                take_step(frame, "en", lesson.id, step.id)
                expect(frame.locator("[data-storage-line]")).to_be_visible()
                expect(frame.locator("[data-storage-line]")).to_contain_text("this lesson runs in memory")
                tab = frame.locator("[data-storage-line] a")
                assert re.fullmatch(rf"/learn/en/{lesson.id}/{step.id}/{PACE}", tab.get_attribute("href"))
                assert tab.get_attribute("target") == "_blank"
                if number == index == 0:
                    assert serious_violations(frame) == []
                if index + 1 < len(lesson.steps):
                    frame.get_by_role("link", name="Next", exact=True).click()
                    frame.wait_for_url(
                        re.compile(rf"/learn/en/{lesson.id}/{lesson.steps[index + 1].id}/{PACE}$"),
                        timeout=TIMEOUT_MS,  # Playwright's default 30 s is a machine's speed
                    )
            if lesson.id == "crash":  # the crash was real: a lab worker was terminated, its successor resumed
                assert terminated, "no lab worker was terminated"
            if number + 1 < len(lessons):
                following = lessons[number + 1]
                frame.get_by_role("link", name=next_name("en", LESSONS.index(lesson) + 1), exact=True).click()
                frame.wait_for_url(
                    re.compile(rf"/learn/en/{following.id}/{following.steps[0].id}/{PACE}$"),
                    timeout=TIMEOUT_MS,
                )


def readme_snippet() -> str:
    """The iframe the README offers to copy."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    return re.search(r"```html\n(<iframe .*?</iframe>)\n```", readme, re.DOTALL)[1]


README_SNIPPET = readme_snippet()

# Whether this document's IndexedDB refuses to open a database (a cross-site frame under Chromium's
# third-party storage rules); true also when indexedDB is missing altogether.
INDEXEDDB_REFUSED = """async () => {
  try {
    const request = indexedDB.open("checkpoint-lab-probe");
    return await new Promise((resolve) => {
      request.onsuccess = () => { request.result.close(); resolve(false); };
      request.onerror = () => resolve(true);
    });
  } catch {
    return true;
  }
}"""


@pytest.mark.no_python
def test_a_framed_lesson_is_bare_and_its_links_out_open_a_new_tab(page, site):
    """A lesson step in another site's frame (where `/embed?lesson=` opens it): no site header, and
    every link that leaves the lessons ("Open the lab", "Open this thread in the full lab", the lesson
    list's sandbox link) opens a new tab instead of loading the lab, which refuses framing, into the
    frame; links between lesson pages stay in the frame. (The runner is not needed for that.)"""
    page.route("**/lesson/runner.mjs", lambda route: route.abort())
    frame_html = f'<iframe src="{site}/learn/en/interrupt/to-review/" width="1000" height="700"></iframe>'
    with host_page(frame_html) as host:
        page.goto(host)
        frame = page.frame(url=re.compile(r"/learn/en/interrupt/to-review/$"))
        assert frame is not None, [frame.url for frame in page.frames]
        expect(frame.locator("body")).to_have_attribute("data-framed", "true")
        expect(frame.locator("body > header")).to_be_hidden()
        expect(frame.get_by_role("heading", level=2)).to_be_visible()  # the step itself is there
        out = frame.locator('a[href="/"], a[data-sandbox]')
        expect(out).to_have_count(2)
        for link in out.all():
            assert (link.get_attribute("target"), link.get_attribute("rel")) == ("_blank", "noopener")
        for link in frame.locator('a[href^="/learn/"]').all():
            assert link.get_attribute("target") is None, link.get_attribute("href")
        frame.get_by_role("link", name="All lessons", exact=True).first.click()
        frame.wait_for_url(re.compile(r"/learn/en/$"), timeout=TIMEOUT_MS)
        expect(frame.locator("body > header")).to_be_hidden()
        sandbox = frame.locator('main a[href="/"]')
        assert (sandbox.get_attribute("target"), sandbox.get_attribute("rel")) == ("_blank", "noopener")
    # the same page, not framed, keeps its header and its links as they are
    page.goto(f"{site}/learn/en/interrupt/to-review/")
    expect(page.locator("body > header")).to_be_visible()
    assert page.locator('header a[href="/"]').get_attribute("target") is None


@pytest.mark.no_python
def test_an_unknown_lesson_says_which_lessons_exist(page, site):
    page.goto(f"{site}/embed?lesson=nope")
    expect(page.get_by_role("heading", name="No such lesson")).to_be_visible()
    every_lesson = ", ".join(lesson.id for lesson in LESSONS)  # (the course's order: lab.lessons)
    assert every_lesson.startswith("checkpoints, threads, crash, interrupt, idempotency, replay-fork")
    expect(page.locator("[data-embed-intro]")).to_have_text(
        f'There is no lesson "nope". The lessons are: {every_lesson}.'
    )
    assert page.locator("[data-embed-start]").is_hidden()
    assert page.evaluate("() => document.body.dataset.bootState ?? null") is None  # nothing booted
