"""A class in the room (docs/ROOM.md), in Chromium against ``wrangler pages dev`` with its local D1: a
teacher in presenter mode opens a room, five learners' own browsers join it at /join and vote by
predicting; their votes reach the presenter's tally beside the digit keys' votes, the teacher sees
them on their step, moves the room to a step (the learners' pages go there), and closes it. A site
without rooms (the static server) shows no room button and presents as before."""

import re

from browser_harness import BOOT_TIMEOUT_S
from playwright.sync_api import expect

SETUP_TIMEOUT_MS = 4 * BOOT_TIMEOUT_S * 1000  # six labs boot at once on a shared machine
LESSON = "checkpoints"  # step 0 ("input") asks with 3 choices; step 2 ("fan-out") with 2
PICKS = [0, 1, 2, 0, 1]  # each learner's first pick on step 0: their vote


def tally(page, choice: int):
    return page.locator(f'section[data-lesson] [data-choice="{choice}"] ~ [data-tally]')


def ready(page, step_id: str) -> None:
    section = page.locator(f'section[data-step="{step_id}"]')
    expect(section).to_have_attribute("data-ready", "true", timeout=SETUP_TIMEOUT_MS)


def test_a_teacher_and_five_learners_in_one_room(browser, wrangler_site):
    contexts = [browser.new_context() for _ in range(6)]
    try:
        teacher, *learners = (context.new_page() for context in contexts)
        teacher.goto(f"{wrangler_site}/learn/en/{LESSON}/input/?present=1&delay=0.05")
        teacher.get_by_role("button", name="Open a room").click()
        code = teacher.locator("[data-room-code]")
        expect(code).to_have_text(re.compile(r"^[A-HJ-NP-Z2-9]{6}$"))
        room = code.inner_text()
        expect(teacher.locator("[data-room]")).to_contain_text(
            f"{wrangler_site.removeprefix('http://')}/join"
        )

        for learner in learners:
            learner.goto(f"{wrangler_site}/join")
            learner.get_by_label("Room code").fill(room.lower())  # typed in either case
            learner.get_by_role("button", name="Join").click()
            expect(learner).to_have_url(re.compile(f"/learn/en/{LESSON}/input/\\?room={room}$"))
        for learner, pick in zip(learners, PICKS, strict=True):
            ready(learner, "input")
            learner.locator("[data-choice]").nth(pick).click()
            expect(learner.locator("[data-room-learner]")).to_have_attribute("data-voted", "1")

        ready(teacher, "input")
        people = teacher.locator("[data-room-learners]")
        expect(people).to_have_attribute("data-learners", "5")
        expect(people).to_have_attribute("data-on-step", "5,0,0,0")
        for choice, votes in enumerate([2, 2, 1]):  # the devices' votes, in the presenter's tally
            expect(tally(teacher, choice)).to_have_attribute("data-votes", str(votes))
        teacher.keyboard.press("3")  # a digit key still adds a vote from the room without devices
        expect(tally(teacher, 2)).to_have_attribute("data-votes", "2")
        teacher.keyboard.press("r")  # R reveals, as without a room
        expect(teacher.locator("[data-correct]")).to_be_visible()

        teacher.locator("[data-room-step]").select_option(index=2)
        teacher.locator("[data-room-move]").click()
        expect(teacher.locator("[data-room]")).to_have_attribute("data-room-at", "2")
        for learner in learners:  # the room moved them to step 3 ("fan-out")
            expect(learner).to_have_url(re.compile(f"/learn/en/{LESSON}/fan-out/\\?room={room}$"))
        expect(people).to_have_attribute("data-on-step", "0,0,5,0", timeout=SETUP_TIMEOUT_MS)

        teacher.get_by_role("button", name="Close the room").click()
        expect(teacher.locator("[data-room]")).to_have_attribute("data-closed", "true")
        for learner in learners:
            expect(learner.locator("[data-room-learner]")).to_have_attribute("data-closed", "true")
    finally:
        for context in contexts:
            context.close()


def test_join_refuses_an_unknown_code_by_name(page, wrangler_site):
    page.goto(f"{wrangler_site}/join?lang=zh")
    page.locator("[data-join-code]").fill("ZZZZZZ")
    page.get_by_role("button", name="加入").click()
    expect(page.locator("[data-join-status]")).to_contain_text("没有使用这个房间码的开放房间")


def test_a_site_without_rooms_shows_no_room_button_and_presents_as_before(page, site):
    page.goto(f"{site}/learn/en/{LESSON}/input/?present=1")
    expect(page.locator("body")).to_have_attribute("data-rooms", "false")
    expect(page.locator("[data-room-open]")).to_have_count(0)
    ready(page, "input")
    page.keyboard.press("2")
    expect(tally(page, 1)).to_have_attribute("data-votes", "1")
    page.keyboard.press("r")
    expect(page.locator("[data-correct]")).to_be_visible()
    page.goto(f"{site}/join")
    expect(page.locator("[data-join-status]")).to_have_text("This site has no class rooms.")
    expect(page.locator("[data-join]")).to_be_hidden()
