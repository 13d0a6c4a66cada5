"""The guided lessons in Chromium, clicked as a learner clicks: each step page boots the lab, rebuilds
the step's thread from empty storage, asks the prediction (one wrong pick first: the hint shows and the
choice stays open for a second try), sends the step's command from its control, and is done only when
Python's ``lesson_check`` says so. Every lesson in both languages (one page per language, one boot: the
lesson pages swap in place), and deep links from empty storage (on a first visit for one lesson per
language and the teacher's link)."""

import re
import sys
import tomllib
from pathlib import Path

import pytest
from browser_harness import BOOT_TIMEOUT_S, SAVED_WORK
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lab.lessons import LESSONS, get_lesson  # noqa: E402
from lab.lessons.model import predict_answer  # noqa: E402

TIMEOUT_MS = BOOT_TIMEOUT_S * 1000
SETUP_TIMEOUT_MS = 2 * TIMEOUT_MS  # a setup: a boot, and another when a move kills the worker
CJK = re.compile("[\u4e00-\u9fff]")
ENGLISH_PHRASE = re.compile(r"[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){2}")
FAST = "?delay=0.05"  # nodes work 50 ms (the lab's pace is 0.3 s): a lesson's crashes wait on seams, not time


def words(lang: str) -> dict:
    return tomllib.loads((ROOT / "narratives" / lang / "lessons" / "_page.toml").read_text())


def prose(lang: str, lesson_id: str) -> dict:
    return tomllib.loads((ROOT / "narratives" / lang / "lessons" / f"{lesson_id}.toml").read_text())


def step_texts(lang: str, lesson_id: str) -> dict:
    return prose(lang, lesson_id)["steps"]


def take_step(page, lang: str, lesson_id: str, step_id: str) -> None:
    """Predict (wrong, then right) and act, by the buttons' visible names; wait for Python's verdict."""
    lesson, say = get_lesson(lesson_id), words(lang)
    step, text = lesson.step(step_id), step_texts(lang, lesson_id)[step_id]
    section = page.locator(f'section[data-step="{step_id}"]')
    expect(section).to_have_attribute("data-ready", "true", timeout=SETUP_TIMEOUT_MS)
    expect_panels(section, lesson)
    # while the step is open, the lab's status line gives the step's own instruction (not "Press Run")
    status = section.locator("[data-lab-status]")
    asked = "[data-question]" if step.predict else "[data-instruction]"
    if step.predict or step.action:
        expect(status).to_have_attribute("data-source", "step")
        expect(status).to_have_text(section.locator(asked).inner_text())
    if step.predict:
        right = step.predict.choices.index(predict_answer(step))
        wrong = next(i for i in range(len(step.predict.choices)) if i != right)
        page.get_by_role("button", name=text["choices"][wrong], exact=True).click()
        expect(section.locator("[data-hint]")).to_be_visible()
        expect(page.get_by_role("button", name=text["choices"][right], exact=True)).to_be_enabled()
        page.get_by_role("button", name=text["choices"][right], exact=True).click()
        expect(section.locator("[data-correct]")).to_be_visible()
    if step.action:
        page.get_by_role("button", name=say["controls"][step.action.name], exact=True).click()
    expect(section).to_have_attribute("data-done", "true", timeout=TIMEOUT_MS)
    expect(section.locator("details[data-why]")).to_have_attribute("open", "")
    expect(status).to_have_attribute("data-source", "lab")  # done: Python's status sentence again
    if step.expects.get("double_causes"):  # the ledger flags the repeat, and the page brings it into view
        expect(section.locator(".double-charge")).to_be_in_viewport()


SHOWN_ALWAYS = {"graph", "status", "controls"}


def expect_panels(section, lesson) -> None:
    """The panels the lesson's text points at are beside the step, drawn by the lab's own views (the
    review shows only while the thread waits at an interrupt); no other panel is."""
    for panel in set(lesson.panels) - SHOWN_ALWAYS:
        holder = section.locator(f"[data-lab-{panel}]")
        expect(holder).to_have_count(1)
        if panel != "review":
            expect(holder).to_be_visible()
    named = set(lesson.panels) - SHOWN_ALWAYS
    expect(section.locator("[data-lab-panels] > section")).to_have_count(len(named))


def step_through_frames(page) -> None:
    """The frames panel: the scrubber's Previous selects the frame before the newest in the page, and
    Next selects the newest again; nothing is sent to Python (the checkpoint table stays as it is)."""
    frames = page.locator("[data-lab-frames]")
    rows = frames.locator("tbody tr")
    count = rows.count()
    expect(rows.nth(count - 1)).to_have_attribute("aria-current", "true")
    frames.locator('[data-action="prev"]').click()
    expect(rows.nth(count - 2)).to_have_attribute("aria-current", "true")
    expect(rows.nth(count - 1)).to_have_attribute("aria-current", "false")
    frames.locator('[data-action="next"]').click()
    expect(rows.nth(count - 1)).to_have_attribute("aria-current", "true")
    expect(rows).to_have_count(count)


def next_name(lang: str, number: int) -> str:
    """The visible name of the link after the last step of lesson ``number`` (1-based)."""
    title = prose(lang, LESSONS[number].id)["title"]
    return words(lang)["next_lesson"].format(n=number + 1, title=title)


def assert_in_language(page, lang: str) -> None:
    """Python's status sentence is shown in the page's language (node names and ids stay as they are):
    on a Chinese page no English phrase (three Latin words in a row, e.g. "SAR SAR-1 filed" or "A thread
    id") in the status line, a refusal, a node's reason or the ledger."""
    status = page.locator("[data-lab-status]")
    expect(status).not_to_be_empty()
    assert bool(CJK.search(status.inner_text())) == (lang == "zh"), status.inner_text()
    if lang == "zh":  # case data too: the ledger's purposes come from the catalogue (keys and ids stay)
        cells = page.locator("[data-lab-ledger] td").all_inner_texts()
        assert not {"transaction-graph query", "case-pack export"} & set(cells), cells
        shown = [status.inner_text(), *page.locator("[data-lab-nodes] li").all_inner_texts(), *cells]
        assert not [text for text in shown if ENGLISH_PHRASE.search(text)], shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_lesson_walked_by_clicking(page, site, lang):
    """Every lesson on one page, from lesson 1's first step to the last lesson's last, by what a learner
    clicks: "Next" keeps the same lab (no new boot), the next lesson's link starts its own case."""
    page.goto(f"{site}/learn/{lang}/{LESSONS[0].id}/{LESSONS[0].steps[0].id}/{FAST}")
    for number, lesson in enumerate(LESSONS, start=1):
        for index, step in enumerate(lesson.steps):
            take_step(page, lang, lesson.id, step.id)
            assert_in_language(page, lang)
            # the step list marks it done, in the page's language (the mark is added by progress.mjs)
            mark = page.locator(f'ol.lesson-steps [data-step-progress="{lesson.id}/{step.id}"]')
            expect(mark).to_have_text(f"✓ {words(lang)['lesson_done']}")
            if (lesson.id, step.id) == ("checkpoints", "fan-out"):
                step_through_frames(page)
            if (lesson.id, step.id) == ("crash", "arm"):  # lessons 1 and 2 paid, on threads of their own
                expect(page.locator("[data-lab-ledger] tbody tr")).to_have_count(0)  # the lesson's ledger
            if index + 1 < len(lesson.steps):
                page.get_by_role("link", name=words(lang)["next"], exact=True).click()
                following = f"{lesson.id}/{lesson.steps[index + 1].id}"
            elif number < len(LESSONS):
                page.get_by_role("link", name=next_name(lang, number), exact=True).click()
                following = f"{LESSONS[number].id}/{LESSONS[number].steps[0].id}"
            else:
                break
            expect(page).to_have_url(re.compile(f"/learn/{lang}/{following}/\\{FAST}$"))
    assert page.evaluate("() => performance.getEntriesByType('navigation').length") == 1  # one page load
    page.goto(f"{site}/learn/{lang}/")
    for lesson in LESSONS:
        progress = page.locator(f'[data-lesson-progress="{lesson.id}"]')
        expect(progress).to_have_text(f"{len(lesson.steps)}/{len(lesson.steps)} {words(lang)['lesson_done']}")


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
