"""The guided lessons in Chromium, clicked as a learner clicks (``lesson_walk.py``): every lesson in
English (one page, one boot: the lesson pages swap in place; the Chinese walk is in
``test_lesson_runner_zh.py``), and deep links from empty storage (on a first visit for one lesson per
language and the teacher's link), presenter mode and the keyboard path."""

import re

import pytest
from browser_harness import SAVED_WORK
from lesson_walk import (
    FAST,
    SETUP_TIMEOUT_MS,
    TIMEOUT_MS,
    assert_in_language,
    step_texts,
    take_step,
    walk_every_lesson,
    words,
)
from playwright.sync_api import expect

from lab.lessons import LESSONS, get_lesson
from lab.lessons.model import predict_answer


def test_every_lesson_walked_by_clicking_in_english(page, site):
    walk_every_lesson(page, site, "en")


def test_a_step_without_its_lesson_file_says_which_file_failed(browser, site):
    """The step's text is static; when its lesson's data cannot be fetched, the status line says so in
    the page's language and names the file (no service worker here, so the route answers)."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.route("**/learn/data/*.json", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(f"{site}/learn/zh/crash/arm/")
    section = page.locator("section[data-lesson]")
    expect(section).to_have_attribute("data-failed", "true")
    failed = words("zh")["failed"]
    expect(section.locator("[data-lesson-status]")).to_have_text(f"{failed} /learn/data/crash.json: HTTP 404")
    expect(page.get_by_role("heading", level=2)).to_have_text(step_texts("zh", "crash")["arm"]["title"])
    context.close()


FIRST_VISIT_DEEP_LINKS = {"crash", "threads"}
"""The lessons whose deep link opens on a first visit (no HTTP cache, no service worker, no memory snapshot),
one per language: crash (English), whose setup kills the worker, so the spare boots cold too, and threads
(Chinese); the teacher's Chinese link below is a first visit as well. The other links open in a returning
learner's browser with nothing saved: their point is that the URL rebuilds the right step from empty
storage, which a copy of the warm profile shows as well, in a few seconds instead of a cold boot's 30."""


def middle_steps() -> list:
    """The middle step of every lesson, the languages taking turns (lesson 4's step 2 is also the
    teacher's link below). Among them: a setup that kills the worker for real (crash/resume), one the
    lab refuses as the step expects (threads/numeric-id), one where IndexedDB loses the checkpoint in
    flight as in CPython (durability/async-after), one with no action (interrupt/why)."""
    return [
        pytest.param(
            ("en", "zh")[number % 2],
            lesson.id,
            lesson.steps[len(lesson.steps) // 2].id,
            marks=[pytest.mark.first_visit] if lesson.id in FIRST_VISIT_DEEP_LINKS else [],
        )
        for number, lesson in enumerate(LESSONS)
    ]


@pytest.mark.parametrize(("lang", "lesson_id", "step_id"), middle_steps())
def test_a_deep_link_to_a_middle_step_rebuilds_it_from_empty_storage(page, site, lang, lesson_id, step_id):
    """A browser with no saved work (the issue: a deep link opened "in a fresh browser context with no
    storage"; a first visit for :data:`FIRST_VISIT_DEEP_LINKS`): the page rebuilds the step's thread and
    the step completes."""
    if lesson_id not in FIRST_VISIT_DEEP_LINKS:  # a returning learner's browser: nothing of the origin saved
        page.goto(f"{site}/favicon.svg")
        assert page.evaluate(SAVED_WORK) == []
    page.goto(f"{site}/learn/{lang}/{lesson_id}/{step_id}/{FAST}")
    expect(page.get_by_role("heading", level=2)).to_have_text(step_texts(lang, lesson_id)[step_id]["title"])
    take_step(page, lang, lesson_id, step_id)
    assert_in_language(page, lang)


def tally(section, choice: int):
    """The class's vote count shown after a choice."""
    return section.locator(f'[data-choice="{choice}"] ~ [data-tally]')


def present_step(page, lesson_id: str, step_id: str) -> None:
    """One step in presenter mode, by the keyboard alone: the class votes (two digits for a wrong
    choice, one for the right one) while the lab is on screen; the tally counts them and the answer
    stays hidden; R reveals it, and the choices, their tally and the answer stay on screen; Enter
    presses the highlighted control."""
    step = get_lesson(lesson_id).step(step_id)
    section = page.locator(f'section[data-step="{step_id}"]')
    expect(section).to_have_attribute("data-ready", "true", timeout=SETUP_TIMEOUT_MS)
    if step.predict:
        right = step.predict.choices.index(predict_answer(step))
        wrong = next(i for i in range(len(step.predict.choices)) if i != right)
        expect(section.locator("[data-lab-view]")).to_be_visible()  # the class votes looking at the lab
        for key in (wrong, wrong, right):
            page.keyboard.press(str(key + 1))
        expect(tally(section, wrong)).to_have_attribute("data-votes", "2")
        expect(tally(section, wrong)).to_contain_text("2")
        expect(tally(section, right)).to_have_attribute("data-votes", "1")
        expect(section.locator("[data-correct]")).to_be_hidden()
        expect(section.locator("[data-why]")).to_be_hidden()
        page.keyboard.press("r")
        expect(section.locator("[data-choice]").nth(right)).to_have_attribute("data-right", "true")
    if step.action:
        expect(section.locator("[data-control]")).to_be_focused()
        page.keyboard.press("Enter")
    expect(section).to_have_attribute("data-done", "true", timeout=TIMEOUT_MS)
    if step.predict:  # after R the choices, the tally and the answer are on screen
        expect(section.locator("[data-choice]").nth(right)).to_be_visible()
        expect(section.locator("[data-correct]")).to_be_visible()
        expect(tally(section, wrong)).to_have_attribute("data-votes", "2")
    expect(section.locator("[data-why]")).to_be_visible()
    expect(section.locator("[data-lab-graph] svg")).to_be_visible()  # the graph stays on screen


def present_to_the_end(page, lang: str, lesson_id: str, first: int) -> None:
    """From step ``first`` to the lesson's last step, → between steps; the URL keeps presenter mode."""
    lesson = get_lesson(lesson_id)
    for index in range(first, len(lesson.steps)):
        present_step(page, lesson_id, lesson.steps[index].id)
        if index + 1 < len(lesson.steps):
            page.keyboard.press("ArrowRight")
            following = lesson.steps[index + 1].id
            expect(page).to_have_url(re.compile(f"/learn/{lang}/{lesson_id}/{following}/\\?present=1"))
    expect(page.locator("body")).to_have_attribute("data-present", "true")


def test_presenter_mode_and_the_keyboard_path_through_a_lesson(page, site):
    """Lesson 3 from its list page's first step: P enters presenter mode (large type, the URL says so),
    the keys take the class through every step, P leaves it."""
    page.goto(f"{site}/learn/en/crash/arm/")
    expect(page.get_by_role("button", name=words("en")["present"])).to_be_visible()
    page.keyboard.press("p")
    expect(page).to_have_url(re.compile(r"/learn/en/crash/arm/\?present=1$"))
    assert page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)") >= 24
    expect(page.locator("[data-present-keys]")).to_have_text(words("en")["present_keys"])  # from words.json
    present_to_the_end(page, "en", "crash", 0)
    page.keyboard.press("p")
    expect(page.locator("body")).to_have_attribute("data-present", "false")
    expect(page.get_by_role("button", name=words("en")["present"])).to_have_attribute("aria-pressed", "false")


def test_a_teacher_presents_lesson_4_step_2_in_chinese_from_a_link_on_a_fresh_machine(browser, site):
    """The issue's done-when: a fresh browser (no storage, no cache) opens the link to lesson 4, step 2,
    in Chinese, in presenter mode, and the teacher presents to the end of the lesson by keyboard alone."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})  # a projector
    page = context.new_page()
    page.goto(f"{site}/learn/zh/interrupt/approve/?present=1")
    expect(page.locator("html")).to_have_attribute("lang", re.compile(r"^zh"))
    expect(page.locator("body")).to_have_attribute("data-present", "true")
    expect(page.get_by_role("button", name=words("zh")["present_leave"])).to_be_visible()
    expect(page.locator("[data-present-keys]")).to_have_text(words("zh")["present_keys"])
    expect(page.get_by_role("heading", level=2)).to_have_text("批准")  # readable before Python boots
    section = page.locator("section[data-lesson]")
    expect(section).to_have_attribute("data-ready", "true", timeout=SETUP_TIMEOUT_MS)
    # readable at projector size: the graph's labels scaled with the text (not ~11 px beside 26 px)
    text_px = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    label_px = page.locator("[data-lab-graph] svg .label").first.bounding_box()["height"]
    assert label_px >= 0.6 * text_px, (label_px, text_px)
    present_step(page, "interrupt", "approve")
    expect(page.locator("[data-why]")).to_contain_text("26.50")
    expect(page.locator("[data-lab-status]")).to_contain_text("SAR")  # view()'s status line: filed
    page.keyboard.press("ArrowRight")
    present_to_the_end(page, "zh", "interrupt", 2)
    assert_in_language(page, "zh")
    context.close()
