"""Take the lab's three documentation screenshots into ``docs/`` (headless Chromium, a fresh build):

- ``docs/lab-crash-resume.png``: a crash inside screen_sanctions after fetch_transactions finished,
  then Resume - the crash report, the new process, restored vs re-run, the execution counts;
- ``docs/lab-time-travel-fork.png``: time travel after a fork with an edited state - the scrubber, the
  frame's diff, the branch tree with the head marked;
- ``docs/lab-double-charge.png``: the misplaced variant after approval - the ledger flags "charged ×2";
- ``docs/lesson-double-charge.png``: lesson 4, step 2 done - the focused lab beside the step, its
  ledger flagging the second charge;
- ``docs/lesson-presenter.png``: lesson 3's crash in presenter mode (Enter pressed Run): large type, the
  lab alone beside the step's text, fetch_transactions saved and screen_sanctions crashed;
- ``docs/playground-run-as-written.png``: the playground's seed (the five-minute chat) after Run, which
  runs it as written - its two invokes, two runs on one thread (six checkpoints), the second answering
  from the first turn, and what its script printed;
- ``docs/room-tally.png``: a class room in presenter mode: the room's code, twelve learners' votes
  (sent through the room's API, as their devices send them) in the tally, who is on which step;
- ``docs/lesson-zh.png``: lesson 3's resume step in Chinese - the lesson and Python's sentences in 简体中文
  (needs a CJK font, e.g. Debian's ``fonts-wqy-microhei``, or Chromium draws boxes).

Usage: ``python tests/browser/take_screenshots.py [out_dir [file name ...]]`` (default: ``docs/``, all).
"""

from __future__ import annotations

import re
import sys
import tempfile
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_harness import BOOT_TIMEOUT_S, ROOT, SiteServer, WranglerSite, launch_chromium  # noqa: E402
from lab_page import arm_crash, crash_and_reboot, open_lab, press, start, table_rows  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from room_client import Room, new_learner  # noqa: E402

import build  # noqa: E402  (browser_harness put the repository on sys.path)

VIEWPORT = {"width": 1500, "height": 1000}
LESSON_TIMEOUT_MS = 3 * BOOT_TIMEOUT_S * 1000  # a boot, a setup with a real worker kill, the step
DELAY_S = 0.3  # the lab's own pace


def crash_resume(page, base: str, out: Path) -> None:
    open_lab(page, base, delay=DELAY_S)
    start(page, variant="misplaced", durability="sync")
    arm_crash(page, "task_finish", "screen_sanctions")
    crash_and_reboot(page)
    press(page, "Resume")
    page.wait_for_timeout(400)
    box = page.evaluate(
        """() => {
          const y = (s, edge) => document.querySelector(s).getBoundingClientRect()[edge] + scrollY;
          return {top: y(".lab-bar", "top") - 8,
                  bottom: Math.max(y("#panel-executions", "bottom"), y("#panel-activity", "bottom")) + 8};
        }"""
    )
    clip = {"x": 0, "y": box["top"], "width": VIEWPORT["width"], "height": box["bottom"] - box["top"]}
    page.screenshot(path=out / "lab-crash-resume.png", full_page=True, clip=clip)


def time_travel_fork(page, base: str, out: Path) -> None:
    open_lab(page, base, delay=DELAY_S)
    start(page, variant="fixed", durability="sync")
    press(page, "Run")
    classified = next(r for r in table_rows(page) if r["next"] == "draft_sar")
    short = "-".join(classified["id"].split("-")[1:3])
    page.get_by_role("button", name=f"Show checkpoint {short}", exact=True).click()
    page.get_by_label("State values to write (JSON object)").fill('{"typology": "none", "risk": 20}')
    page.get_by_role("combobox", name="As node").select_option("classify_typology")
    press(page, "Fork")
    press(page, "Run")
    fork = next(r for r in table_rows(page) if r["source"] == "update")
    page.get_by_role(
        "button", name=f"Show checkpoint {'-'.join(fork['id'].split('-')[1:3])}", exact=True
    ).click()
    page.wait_for_timeout(400)
    panel = page.locator("#panel-travel")
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=out / "lab-time-travel-fork.png")


def double_charge(page, base: str, out: Path) -> None:
    open_lab(page, base, delay=DELAY_S)
    start(page, variant="misplaced", durability="sync")
    press(page, "Run")
    press(page, "Approve")
    page.wait_for_timeout(300)
    ledger = page.locator("#panel-ledger")
    ledger.scroll_into_view_if_needed()
    ledger.screenshot(path=out / "lab-double-charge.png")


THIS_STEP = """async () => {
  const section = document.querySelector("[data-lesson]");
  const lesson = await (await fetch(section.dataset.lessonFile)).json();
  return lesson.steps.find((step) => step.id === section.dataset.step);
}"""


def finish_lesson_step(page, base: str, path: str, present: bool = False) -> None:
    """Open a lesson step (50 ms per node), answer its question and press its control: by the
    keyboard in presenter mode (R, Enter), else by clicks; wait until Python says it is done."""
    page.goto(f"{base}/learn/{path}?delay=0.05{'&present=1' if present else ''}")
    section = page.locator("section[data-lesson]")
    expect(section).to_have_attribute("data-ready", "true", timeout=LESSON_TIMEOUT_MS)
    step = page.evaluate(THIS_STEP)
    if step["predict"] and present:
        page.keyboard.press("r")
    elif step["predict"]:
        page.locator("[data-choice]").nth(step["predict"]["answer"]).click()
    if step["action"] and present:
        page.keyboard.press("Enter")
    elif step["action"]:
        page.locator("[data-control]").click()
    expect(section).to_have_attribute("data-done", "true", timeout=LESSON_TIMEOUT_MS)


def lesson_double_charge(page, base: str, out: Path) -> None:
    finish_lesson_step(page, base, "en/interrupt/approve/")
    page.locator("section[data-lesson]").screenshot(path=out / "lesson-double-charge.png")


def lesson_presenter(page, base: str, out: Path) -> None:
    finish_lesson_step(page, base, "en/crash/crash/", present=True)
    page.screenshot(path=out / "lesson-presenter.png", full_page=True)


def lesson_zh(page, base: str, out: Path) -> None:
    finish_lesson_step(page, base, "zh/crash/resume/")
    page.locator("section[data-lesson]").screenshot(path=out / "lesson-zh.png")


def play_run_as_written(page, base: str, out: Path) -> None:
    page.goto(f"{base}/play")
    expect(page.locator("body[data-ready='true']")).to_be_attached(timeout=LESSON_TIMEOUT_MS)
    page.locator("#play-run").click()
    status = page.locator("#play-run-status")
    expect(status).to_contain_text("Your program's script ran: 2 run(s)", timeout=LESSON_TIMEOUT_MS)
    expect(page.locator("#checkpoints tbody tr")).to_have_count(6)
    top = page.locator(".play-layout").bounding_box()
    table = page.locator("#checkpoints").bounding_box()
    bottom = table["y"] + table["height"]
    clip = {"x": top["x"], "y": top["y"], "width": top["width"], "height": bottom - top["y"]}
    page.screenshot(path=out / "playground-run-as-written.png", full_page=True, clip=clip)


def room_tally(page, base: str, out: Path) -> None:
    page.goto(f"{base}/learn/en/checkpoints/input/?present=1")
    page.get_by_role("button", name="Open a room").click()
    code = page.locator("[data-room-code]")
    expect(code).to_have_text(re.compile(r"^\w{6}$"))
    key = page.evaluate("() => JSON.parse(sessionStorage.getItem('checkpoint-lab.teacher-room')).key")
    room = Room(base, code.inner_text(), key)
    for index, choice in enumerate([0] * 3 + [1] * 7 + [2] * 2):
        learner = new_learner()
        room.join(learner)
        room.vote(learner, 0, choice)
        if index % 4 == 0:
            room.learner("progress", {"learner": learner, "step": 1, "finished": False})
    section = page.locator("section[data-lesson]")
    expect(section).to_have_attribute("data-ready", "true", timeout=LESSON_TIMEOUT_MS)
    expect(page.locator('[data-choice="1"] ~ [data-tally]')).to_have_attribute("data-votes", "7")
    expect(page.locator("[data-room-learners]")).to_have_attribute("data-learners", "12")
    page.set_viewport_size({"width": VIEWPORT["width"], "height": 1300})  # the room's panel and the tally
    page.screenshot(path=out / "room-tally.png")


SHOTS = {
    crash_resume: "lab-crash-resume.png",
    time_travel_fork: "lab-time-travel-fork.png",
    double_charge: "lab-double-charge.png",
    lesson_double_charge: "lesson-double-charge.png",
    lesson_presenter: "lesson-presenter.png",
    lesson_zh: "lesson-zh.png",
    play_run_as_written: "playground-run-as-written.png",
    room_tally: "room-tally.png",
}
ROOMS = {room_tally}
"""The shots served by ``wrangler pages dev`` (with its local D1): a class room needs the functions."""


def main(out: Path, only: list[str]) -> None:
    """Take every screenshot, or only those whose file names are in ``only``."""
    shots = {shoot: name for shoot, name in SHOTS.items() if not only or name in only}
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        dist = build.build(Path(tmp) / "dist").dist
        rooms = WranglerSite(dist, Path(tmp)) if ROOMS & shots.keys() else None
        with SiteServer(dist) as server, rooms or nullcontext(), sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for shoot in shots:
                context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, color_scheme="light")
                shoot(context.new_page(), rooms.url if shoot in ROOMS else server.url, out)
                context.close()
            browser.close()
    for name in shots.values():
        print(out / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs", sys.argv[2:])
