"""The lesson pages' layout and their own controls (issue 27, round two), asserted on element geometry:
every code box readable at 1280 px wide, the ledger in view at 1280x800 and a card per request at 390 px
wide, and "Reset my progress" on the lesson list and every lesson page."""

import json

import pytest
from lesson_walk import FAST, SETUP_TIMEOUT_MS, words
from playwright.sync_api import expect

from lab.lessons import LESSONS

KEY = "checkpoint-lab.lessons"  # static/lesson/progress.mjs
GEOMETRY = """(pre) => ({
  scroll: pre.scrollWidth, client: pre.clientWidth, right: pre.getBoundingClientRect().right,
})"""


def longest_code_steps(count: int) -> list[tuple[str, str]]:
    """The steps whose LangGraph code has the longest lines."""
    widths = [
        (max(len(line) for line in step.code.splitlines()), lesson.id, step.id)
        for lesson in LESSONS
        for step in lesson.steps
        if step.code
    ]
    return [(lesson_id, step_id) for _, lesson_id, step_id in sorted(widths, reverse=True)[:count]]


@pytest.mark.no_python
def test_code_boxes_are_fully_readable_at_1280_px(browser, site):
    """The steps with the longest code lines, their code shown (as after the vote): each box wraps
    inside the text's column, so nothing is cut off or scrolled away (the runner, not needed for the
    static text, is not loaded)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    page = context.new_page()
    page.route("**/lesson/runner.mjs", lambda route: route.abort())
    for lesson_id, step_id in longest_code_steps(4):
        page.goto(f"{site}/learn/en/{lesson_id}/{step_id}/")
        page.evaluate("() => document.querySelector('[data-after-vote]').hidden = false")
        box = page.locator(".lesson-code pre")
        geometry = box.evaluate(GEOMETRY)
        assert geometry["scroll"] <= geometry["client"], (lesson_id, step_id, geometry)
        assert geometry["right"] <= 1280, (lesson_id, step_id, geometry)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280
    context.close()


def test_the_ledger_is_in_view_at_1280x800_and_its_rows_are_cards_at_390_px(page, site):
    """A money lesson's step (replay-fork, after a finished case): at 1280x800 the ledger starts above
    the fold beside the step; at 390 px wide each request is a card whose cells span the card (not
    eleven columns a character wide), and nothing overflows the page sideways."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site}/learn/en/replay-fork/replay/{FAST}")
    section = page.locator("section[data-lesson]")
    expect(section).to_have_attribute("data-ready", "true", timeout=SETUP_TIMEOUT_MS)
    ledger = section.locator("[data-lab-ledger]")
    expect(ledger.locator("tbody tr")).not_to_have_count(0)
    assert ledger.bounding_box()["y"] < 800 - 60, ledger.bounding_box()  # its heading and verdict in view
    page.set_viewport_size({"width": 390, "height": 844})
    row = ledger.locator("tbody tr").first
    row_box = row.bounding_box()
    for cell in row.locator("td").all():
        box = cell.bounding_box()
        assert box["width"] >= 0.8 * row_box["width"], (box, row_box)  # a line of the card, not a column
        assert cell.evaluate("(td) => getComputedStyle(td, '::before').content") != "none"  # labelled
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


@pytest.mark.no_python
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reset_my_progress_clears_it_on_the_list_and_in_a_lesson(browser, site, lang):
    """Progress is in localStorage: the lesson list shows it, and "Reset my progress" there (and on a
    lesson's page) forgets it, in the page's language."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.route("**/lesson/runner.mjs", lambda route: route.abort())
    lesson = LESSONS[0]
    done = {f"{lesson.id}/{step.id}": True for step in lesson.steps[:2]}
    page.goto(f"{site}/learn/{lang}/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, json.dumps(done)])
    page.reload()
    progress = page.locator(f'[data-lesson-progress="{lesson.id}"]')
    expect(progress).to_have_text(f"2/{len(lesson.steps)} {words(lang)['lesson_done']}")
    page.get_by_role("button", name=words(lang)["reset_progress"], exact=True).click()
    expect(progress).to_have_text("")
    expect(page.locator("[data-reset-said]")).to_have_text(words(lang)["progress_reset"])
    assert page.evaluate("(key) => localStorage.getItem(key)", KEY) is None
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, json.dumps(done)])
    for path in (f"{lesson.id}/", f"{lesson.id}/{lesson.steps[2].id}/"):  # the lesson, and one of its steps
        page.goto(f"{site}/learn/{lang}/{path}")
        mark = page.locator(f'[data-step-progress="{lesson.id}/{lesson.steps[0].id}"]')
        expect(mark).to_have_attribute("data-done", "true")
        page.get_by_role("button", name=words(lang)["reset_progress"], exact=True).click()
        expect(mark).to_have_attribute("data-done", "false")
        page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, json.dumps(done)])
    context.close()
