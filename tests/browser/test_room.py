"""A class in the room (docs/ROOM.md), in Chromium against ``wrangler pages dev`` with its local D1: a
teacher in presenter mode opens a room, five learners' own browsers join it at /join and vote by
predicting; their votes reach the presenter's tally beside the digit keys' votes, the teacher sees
them on their step, moves the room to a step (the learners' pages go there), and closes it. When the
presenter goes on to the next lesson, the room follows: the learners' pages move to it, their votes
there are that lesson's, and their list of frames is that lesson's thread. A site without rooms (the
static server) shows no room button and presents as before."""

import re

from browser_harness import BOOT_TIMEOUT_S
from playwright.sync_api import expect
from room_client import Room, call
from room_pages import OWN_CHECKPOINTS, presented_step

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


def joined(learner, site: str, room: str) -> None:
    learner.goto(f"{site}/join")
    learner.get_by_label("Room code").fill(room)
    learner.get_by_role("button", name="Join").click()


def test_the_room_follows_the_presenter_to_the_next_lesson(browser, wrangler_site):
    """The teacher presents the last step of "checkpoints" in a room, two learners vote there, then
    the teacher's "Next" goes on to "threads" on the same lab: the room moves with it. The learners'
    pages go to its first step, their list of frames becomes the teacher's thread of "threads" (none of
    the lesson left's), their votes on a step of it are that lesson's tally (none of the votes cast
    before), and a learner who joins afterwards lands on "threads". When the teacher opens a lesson by
    its address (a fresh page), the room follows there too, and finds that lesson's votes."""
    contexts = [browser.new_context() for _ in range(4)]
    try:
        teacher, *learners, late = (context.new_page() for context in contexts)
        teacher.goto(f"{wrangler_site}/learn/en/checkpoints/pending-writes/?present=1&delay=0.05")
        teacher.get_by_role("button", name="Open a room").click()
        code = teacher.locator("[data-room-code]")
        expect(code).to_have_text(re.compile(r"^[A-HJ-NP-Z2-9]{6}$"))
        room = code.inner_text()
        for learner in learners:
            joined(learner, wrangler_site, room)
            expect(learner).to_have_url(re.compile(f"/learn/en/checkpoints/pending-writes/\\?room={room}$"))
        for learner, pick in zip(learners, (0, 1), strict=True):
            ready(learner, "pending-writes")
            learner.locator("[data-choice]").nth(pick).click()
            expect(learner.locator("[data-room-learner]")).to_have_attribute("data-voted", "1")
        ready(teacher, "pending-writes")
        for choice in (0, 1):  # a vote each, on the lesson's last step
            expect(tally(teacher, choice)).to_have_attribute("data-votes", "1")
        frames = learners[0].locator("[data-room-thread] li[data-frame]")
        expect(frames.first).to_be_attached(timeout=SETUP_TIMEOUT_MS)  # the lesson left's thread, listed
        left = {frame.get_attribute("data-frame") for frame in frames.all()}

        presented_step(teacher, "pending-writes")
        teacher.keyboard.press("ArrowRight")  # "Next": the next lesson's first step, on the same lab
        expect(teacher).to_have_url(re.compile(r"/learn/en/threads/first-thread/\?present=1"))
        panel = teacher.locator("[data-room]")
        for learner in learners:
            expect(learner).to_have_url(
                re.compile(f"/learn/en/threads/first-thread/\\?room={room}$"), timeout=SETUP_TIMEOUT_MS
            )
        people = teacher.locator("[data-room-learners]")
        expect(people).to_have_attribute("data-on-step", "2,0,0,0,0,0,0", timeout=SETUP_TIMEOUT_MS)
        joined(late, wrangler_site, room)  # after the move: the room's lesson now
        expect(late).to_have_url(re.compile(f"/learn/en/threads/first-thread/\\?room={room}$"))
        late.close()

        presented_step(teacher, "first-thread")
        published = teacher.locator("[data-room-publish]")
        expect(published).to_have_attribute("data-publish", "sent", timeout=SETUP_TIMEOUT_MS)
        thread = published.get_attribute("data-thread")
        ours = sorted(teacher.evaluate(OWN_CHECKPOINTS, thread))
        expect(published).to_have_attribute("data-published", str(len(ours)), timeout=SETUP_TIMEOUT_MS)
        for learner in learners:  # the learners' frames: exactly the teacher's thread of this lesson
            listed = learner.locator("[data-room-thread]")
            expect(listed).to_have_attribute("data-frames", str(len(ours)), timeout=SETUP_TIMEOUT_MS)
            shown = sorted(
                frame.get_attribute("data-frame") for frame in listed.locator("li[data-frame]").all()
            )
            assert shown == ours
            assert not left & set(shown)

        panel.locator("[data-room-step]").select_option(index=2)  # "go-back": three choices
        panel.locator("[data-room-move]").click()
        for learner, pick in zip(learners, (2, 2), strict=True):
            expect(learner).to_have_url(re.compile(f"/learn/en/threads/go-back/\\?room={room}$"))
            ready(learner, "go-back")
            learner.locator("[data-choice]").nth(pick).click()
            expect(learner.locator("[data-room-learner]")).to_have_attribute("data-voted", "1")
        key = teacher.evaluate("JSON.parse(sessionStorage.getItem('checkpoint-lab.teacher-room')).key")
        counted = call(wrangler_site, "GET", f"/api/rooms/{room}/tally", key=key).body
        assert counted["lesson"] == "threads"
        assert counted["votes"] == [[], [], [0, 0, 2], [], [], [0, 0], [0, 0]]  # only this lesson's votes
        teacher.goto(f"{wrangler_site}/learn/en/threads/go-back/?present=1&delay=0.05")  # the teacher follows
        expect(tally(teacher, 2)).to_have_attribute("data-votes", "2", timeout=SETUP_TIMEOUT_MS)
        expect(tally(teacher, 0)).to_have_attribute("data-votes", "0")

        teacher.goto(f"{wrangler_site}/learn/en/checkpoints/input/?present=1&delay=0.05")  # by its address
        for learner in learners:  # a fresh page of another lesson: the room follows it too
            expect(learner).to_have_url(re.compile(f"/learn/en/checkpoints/input/\\?room={room}$"))
        expect(teacher.locator("[data-room]")).to_have_attribute(
            "data-room-at", "0", timeout=SETUP_TIMEOUT_MS
        )
        counted = call(wrangler_site, "GET", f"/api/rooms/{room}/tally", key=key).body
        assert counted["votes"] == [[0, 0, 0], [], [0, 0], [1, 1]]  # this lesson's votes, as cast before
    finally:
        for context in contexts:
            context.close()


def test_join_refuses_an_unknown_code_by_name(page, wrangler_site):
    page.goto(f"{wrangler_site}/join?lang=zh")
    page.locator("[data-join-code]").fill("ZZZZZZ")
    page.get_by_role("button", name="加入").click()
    expect(page.locator("[data-join-status]")).to_contain_text("没有使用这个房间码的开放房间")


def test_a_busy_room_server_is_asked_again_and_an_answer_not_its_own_is_named(page, wrangler_site):
    """A class's burst of first visits can make ``wrangler pages dev`` (or Cloudflare) answer a join with
    a 503 page that is not the room's JSON (CI saw one): the page asks again; if the server stays busy,
    the learner reads the status, never "undefined"."""
    room = Room.open(wrangler_site, [3, 0, 2], lesson=LESSON)
    joins: list[int] = []

    def busy_twice(route) -> None:
        joins.append(1)
        if len(joins) <= 2:
            route.fulfill(status=503, content_type="text/html", body="<h1>Service Unavailable</h1>")
        else:
            route.continue_()

    page.route("**/api/rooms/*/join", busy_twice)
    page.goto(f"{wrangler_site}/join?code={room.code}")
    page.get_by_role("button", name="Join").click()
    expect(page).to_have_url(re.compile(f"/learn/en/{LESSON}/input/\\?room={room.code}$"))
    assert len(joins) >= 3  # two busy answers, then the join that went through (the lesson's page joins too)

    page.goto("about:blank")  # nothing of the lesson's page asks any more
    page.unroute("**/api/rooms/*/join")
    joins.clear()

    def always_busy(route) -> None:
        joins.append(1)
        route.fulfill(status=503, body="busy")

    page.route("**/api/rooms/*/join", always_busy)
    page.goto(f"{wrangler_site}/join?code={room.code}")
    page.get_by_role("button", name="Join").click()
    status = page.locator("[data-join-status]")
    expect(status).to_have_text("The room server refused: HTTP 503 Service Unavailable")
    assert len(joins) == 4  # the first try and three more
    assert call(wrangler_site, "GET", f"/api/rooms/{room.code}/tally", key=room.key).body["learners"] == 1


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
