"""Fast deep links: a late step's page imports the step's seed (the threads the earlier steps made,
recorded at build time) instead of replaying every earlier move, and the step completes as a
clicked-through one does; a second visit, whose browser already holds those threads, replays the
moves as before and completes too."""

from playwright.sync_api import expect
from test_lesson_runner import FAST, take_step


def test_a_late_step_opens_from_its_seed_and_a_second_visit_replays(page, site) -> None:
    url = f"{site}/learn/en/idempotency/business-key-crash/{FAST}"
    for seeded in ("true", "false"):
        page.goto(url)
        section = page.locator('section[data-step="business-key-crash"]')
        expect(section).to_have_attribute("data-seeded", seeded, timeout=120_000)
        take_step(page, "en", "idempotency", "business-key-crash")
        expect(section).to_have_attribute("data-done", "true")
