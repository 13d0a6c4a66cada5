"""Accessibility and phone width, in Chromium: axe-core (npm ``axe-core``, pinned in tools.py, injected
by the test, never shipped) finds no serious or critical violation on the lab, a lesson step and the
embed, in both languages and both colour schemes; the scrubber speaks "Frame 4 of 8: after …"; a
lesson's revealed results reach a polite live region; ``prefers-reduced-motion`` stops every animation
and transition; at 390 × 844 nothing is wider than the screen, after boot and after a run.

Cheap: one booted lab page and one booted lesson page for the whole module."""

from collections.abc import Iterator

import pytest
from browser_harness import BOOT_TIMEOUT_S, wait_until_ready
from lab_page import button, open_lab, press, settle, start
from playwright.sync_api import Page, expect
from tools import fetch_axe_core

AXE = fetch_axe_core().read_text()
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LESSON_STEP = "/learn/en/checkpoints/input/"  # a predict step with an action, and no setup to replay

RUN_AXE = """async () => {
  // axe measures the resting page: a row's arrival flash (a finite animation) is ended first, or the
  // contrast it sees depends on how far into the flash it looks. Endless ones (a running node) stay.
  for (const animation of document.getAnimations()) {
    if (animation.effect?.getComputedTiming().iterations !== Infinity) animation.finish();
  }
  const result = await axe.run(document, {
    resultTypes: ["violations"],
    rules: { "label-content-name-mismatch": { enabled: true } },  // experimental: off by default
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): `
      + v.nodes.map((n) => `${n.target.join(" ")} - ${n.failureSummary}`).join("; "));
}"""

# The page's width against the screen's, and every element that sticks out of the screen without a
# scrolling (or deliberately clipping, with an ellipsis) box around it.
OVERFLOW = """() => {
  const boxed = (e) => {
    for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth,
    wider: [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5 && !boxed(e))
      .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`),
  };
}"""

# At phone width the graph follows the case panel (Step, Run, Approve), ahead of the crash panel.
PHONE_ORDER = ["panel-case", "panel-graph", "panel-crash", "panel-executions", "panel-activity"]
PANEL_BOXES = f"""() => {PHONE_ORDER}.map((id) => {{
  const box = document.getElementById(id).getBoundingClientRect();
  return {{ id, left: box.left, top: box.top, bottom: box.bottom }};
}})"""

# Elements that animate or transition right now (computed style).
MOVING = """() => [...document.querySelectorAll("*")].filter((e) => {
  const s = getComputedStyle(e);
  const moves = (d) => d.split(",").some((x) => parseFloat(x) > 0);
  return (s.animationName !== "none" && moves(s.animationDuration)) || moves(s.transitionDuration);
}).map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute("class")}`)"""


def serious_violations(target) -> list[str]:
    """axe-core's serious and critical violations on the page (or frame) ``target``, one line each."""
    if not target.evaluate("() => typeof window.axe === 'object'"):
        target.evaluate(AXE + ";0")  # evaluated by the debugger protocol: the site's CSP does not apply
    return target.evaluate(RUN_AXE)


def assert_fits(page: Page, when: str) -> None:
    settle(page)
    measured = page.evaluate(OVERFLOW)
    assert measured["scrollWidth"] <= measured["innerWidth"], (when, measured)
    assert measured["wider"] == [], (when, measured)


@pytest.fixture(scope="module")
def lab(browser, warm_profile, site) -> Iterator[Page]:
    """One lab page for the module, opened at phone width (a test that needs the desktop resizes it)."""
    with warm_profile.context(browser.browser_type, viewport=PHONE) as context:
        page = context.pages[0]
        open_lab(page, site)
        yield page


@pytest.fixture(scope="module")
def lesson(browser, warm_profile, site) -> Iterator[Page]:
    with warm_profile.context(browser.browser_type, viewport=PHONE) as context:
        page = context.pages[0]
        page.goto(site + LESSON_STEP)
        section = page.locator("section[data-step]")
        expect(section).to_have_attribute("data-ready", "true", timeout=BOOT_TIMEOUT_S * 1000)
        yield page


def test_the_lab_at_phone_width_is_one_column_without_sideways_scroll(lab):
    lab.set_viewport_size(PHONE)
    assert_fits(lab, "after boot")
    start(lab, variant="misplaced")
    press(lab, "Run")
    assert_fits(lab, "after a run to the interrupt")
    boxes = lab.evaluate(PANEL_BOXES)
    assert len({box["left"] for box in boxes}) == 1, boxes  # stacked: one column
    assert [box["id"] for box in sorted(boxes, key=lambda box: box["top"])] == PHONE_ORDER, boxes
    case, graph = boxes[0], boxes[1]
    assert 0 <= graph["top"] - case["bottom"] < 32, boxes  # the graph right under Step / Run / Approve


def test_the_lab_has_no_serious_axe_violation(lab):
    if lab.evaluate("() => !window.labView.session"):
        start(lab, variant="misplaced")
        press(lab, "Run")
    for viewport in (PHONE, DESKTOP):
        lab.set_viewport_size(viewport)
        settle(lab)
        assert serious_violations(lab) == [], viewport
    lab.emulate_media(color_scheme="dark")
    lab.get_by_role("combobox", name="Language").select_option("zh")
    expect(lab.locator("html")).to_have_attribute("lang", "zh-CN")
    settle(lab)
    try:
        assert serious_violations(lab) == [], "dark, 简体中文"
    finally:
        lab.emulate_media(color_scheme="light")
        lab.get_by_role("combobox", name="语言").select_option("en")
        expect(lab.locator("html")).to_have_attribute("lang", "en")


def test_the_scrubber_says_which_frame_and_what_made_it(lab):
    if lab.evaluate("() => !window.labView.session"):
        start(lab, variant="misplaced")
        press(lab, "Run")
    lab.set_viewport_size(DESKTOP)
    scrubber = lab.get_by_role("slider", name="Frame")
    expect(scrubber).to_have_attribute("aria-valuetext", "Frame 6 of 6: after draft_sar · step 4")
    button(lab, "First").click()
    expect(scrubber).to_have_attribute("aria-valuetext", "Frame 1 of 6: the input · step -1")
    for _ in range(3):
        button(lab, "Next").click()
    expect(scrubber).to_have_attribute(
        "aria-valuetext", "Frame 4 of 6: after fetch_transactions, screen_sanctions · step 2"
    )
    lab.get_by_role("combobox", name="Language").select_option("zh")
    expect(lab.get_by_role("slider", name="帧")).to_have_attribute(
        "aria-valuetext", "第 4 / 6 帧：fetch_transactions, screen_sanctions 之后 · 第 2 步"
    )
    lab.get_by_role("combobox", name="语言").select_option("en")
    button(lab, "Last").click()


def test_reduced_motion_stops_every_animation_and_transition(lab):
    lab.emulate_media(reduced_motion="no-preference")
    settle(lab)
    assert lab.evaluate(MOVING) != []  # the lab does move: the check below can fail
    lab.emulate_media(reduced_motion="reduce")
    settle(lab)
    try:
        assert lab.evaluate(MOVING) == []
    finally:
        lab.emulate_media(reduced_motion="no-preference")


def test_a_lesson_step_at_phone_width_announces_what_it_reveals(lesson):
    assert_fits(lesson, "after boot")
    assert serious_violations(lesson) == []
    announcer = lesson.locator("[data-announcer]")
    expect(announcer).to_have_attribute("aria-live", "polite")
    section = lesson.locator("section[data-step]")
    choices = section.locator("[data-choice]")
    right = next(i for i in range(choices.count()) if lesson_answer_is(lesson, i))
    wrong = next(i for i in range(choices.count()) if i != right)
    choices.nth(wrong).click()
    expect(announcer).to_have_text(section.locator("[data-hint]").inner_text())
    choices.nth(right).click()
    expect(announcer).to_have_text(section.locator("[data-correct]").inner_text())
    section.locator("[data-control]").click()
    expect(section).to_have_attribute("data-done", "true", timeout=BOOT_TIMEOUT_S * 1000)
    expect(announcer).to_contain_text(section.locator("details[data-why] > p").inner_text())
    assert_fits(lesson, "after the step ran")
    assert serious_violations(lesson) == []
    lesson.emulate_media(color_scheme="dark")
    assert serious_violations(lesson) == [], "dark"


def lesson_answer_is(page: Page, index: int) -> bool:
    """Whether choice ``index`` is the step's answer, as the lesson's data (the file the page names) says."""
    return page.evaluate(
        """async (index) => {
          const section = document.querySelector("[data-lesson]");
          const lesson = await (await fetch(section.dataset.lessonFile)).json();
          const step = lesson.steps.find((s) => s.id === section.dataset.step);
          return step.predict.answer === index;
        }""",
        index,
    )


def test_the_embed_has_no_serious_axe_violation(page, site):
    page.goto(f"{site}/embed?delay=0.05")
    wait_until_ready(page)
    expect(page.get_by_role("combobox", name="Case", exact=True)).to_be_visible()
    assert serious_violations(page) == []
    page.goto(f"{site}/embed?lesson=crash&lang=zh")
    expect(page.get_by_role("button", name="开始本课")).to_be_visible()
    assert serious_violations(page) == []
