"""Walking the guided lessons in Chromium as a learner clicks (the walks are in ``test_lesson_runner.py``
and ``test_lesson_runner_zh.py``, a module per language so that CI's two browser workers walk them at
once): each step page boots the lab, rebuilds the step's thread from empty storage, asks the prediction
(one wrong pick first: the hint shows and the choice stays open for a second try), sends the step's
command from its control, and is done only when Python's ``lesson_check`` says so."""

import re
import sys
import tomllib
from pathlib import Path

from browser_harness import BOOT_TIMEOUT_S
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


def walk_every_lesson(page, site: str, lang: str) -> None:
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
