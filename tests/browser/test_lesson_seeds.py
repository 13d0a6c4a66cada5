"""Fast deep links: a late step's page imports the step's seed (the threads the earlier steps made,
recorded at build time) instead of replaying every earlier move, and the step completes as a
clicked-through one does; a second visit, whose browser already holds those threads, replays the
moves as before and completes too; inside another site's frame (threads kept in the page) a seeded
step completes as well."""

import re

from lesson_walk import FAST, take_step
from playwright.sync_api import expect
from test_embed import host_page


def test_a_late_step_opens_from_its_seed_and_a_second_visit_replays(page, site) -> None:
    url = f"{site}/learn/en/idempotency/business-key-crash/{FAST}"
    for seeded in ("true", "false"):
        page.goto(url)
        section = page.locator('section[data-step="business-key-crash"]')
        expect(section).to_have_attribute("data-seeded", seeded, timeout=120_000)
        take_step(page, "en", "idempotency", "business-key-crash")
        expect(section).to_have_attribute("data-done", "true")


def test_a_framed_late_step_opens_from_its_seed_in_memory_and_completes(page, site) -> None:
    """Inside another site's frame the lesson keeps its threads in the page (no IndexedDB): the seed's
    threads are imported there, and the resume after the recorded crash completes the step."""
    frame_html = f'<iframe src="{site}/learn/en/crash/resume/{FAST}" width="1000" height="900"></iframe>'
    with host_page(frame_html) as host:
        page.goto(host)
        frame = page.frame(url=re.compile(r"/learn/en/crash/resume/"))
        assert frame is not None, [frame.url for frame in page.frames]
        section = frame.locator('section[data-step="resume"]')
        expect(section).to_have_attribute("data-seeded", "true", timeout=120_000)
        take_step(frame, "en", "crash", "resume")
        expect(section).to_have_attribute("data-done", "true")
