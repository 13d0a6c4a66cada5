"""The teacher's thread shared with the room (``functions/_room/thread.js``,
``lab/browser/room_records.py``, docs/ROOM.md), on ``wrangler pages dev`` over a fresh local D1: the
saver core over the room's records passes LangGraph's conformance suite (81 tests, a fresh room per
capability), both from CPython (urllib) and from Pyodide in Chromium (fetch); a learner with only the
code reads the teacher's checkpoints and forks one into a saver of their own through the thread-file
path; every refusal is named (unknown room, missing or wrong key, a closed room, an oversized or
malformed body), and nothing of one room's thread is read through another's code. The module has its
own wrangler (its own D1), as ``test_room_api`` does."""

from __future__ import annotations

import asyncio
import concurrent.futures
import operator
import re
from collections.abc import Iterator
from typing import Annotated, Any, TypedDict

import pytest
from browser_harness import BOOT_TIMEOUT_S, WranglerSite, wait_until_ready
from langgraph.checkpoint.conformance import checkpointer_test, validate
from playwright.sync_api import expect
from room_client import Room, call
from room_pages import OWN_CHECKPOINTS, STEP_TIMEOUT_MS, presented_step
from saver_adapter import PageBridge, RemoteSaver

from lab.browser import room_records
from lab.browser.page_storage import PageStorage
from lab.browser.room_publish import publish_thread, publish_threads
from lab.browser.room_records import RoomRecords, RoomRecordsError, urllib_post
from lab.browser.room_rpc import MAX_FRAMES, listed_frames
from lab.checkpoint import CheckpointSaver, InMemorySaver
from lab.checkpoint.base import empty_checkpoint
from lab.controller.thread_file import export_thread, import_thread, read_thread_file
from lab.graph import END, START, StateGraph
from tests.conformance_report import assert_full_conformance

SHAPE = [3, 0, 2]


@pytest.fixture(scope="module")
def rooms_site(dist, tmp_path_factory) -> Iterator[WranglerSite]:
    limit = {"ROOM_CREATIONS_PER_HOUR": "100"}  # a room per conformance capability, and more
    with WranglerSite(dist, tmp_path_factory.mktemp("thread"), limit) as server:
        yield server


def saver_of(room: Room, *, key: str | None = None) -> CheckpointSaver:
    """The saver core over room ``room``'s records: the teacher's with ``key``, a learner's without."""
    return CheckpointSaver(PageStorage(RoomRecords(room.base, room.code, teacher_key=key, post=urllib_post)))


def teacher_saver(room: Room) -> CheckpointSaver:
    return saver_of(room, key=room.key)


def run(coroutine: Any) -> Any:
    """Run ``coroutine`` to the end in a thread of its own (Playwright may hold this thread's loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_the_saver_over_a_rooms_records_passes_langgraph_conformance(rooms_site, capsys) -> None:
    @checkpointer_test(name="lab saver over a room's D1 records")
    async def room_saver():
        yield teacher_saver(Room.open(rooms_site.url, SHAPE))  # a fresh room per capability

    assert_full_conformance(run(validate(room_saver)), capsys)


def test_the_same_saver_in_pyodide_passes_conformance_through_fetch(browser, rooms_site, capsys) -> None:
    """The saver core over the room's records in the page's worker (``saver_open`` with a room): every
    request is the browser's ``fetch`` from Pyodide, async at the core, as the IndexedDB saver is."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(rooms_site.url + "/")
        wait_until_ready(page)
        bridge = PageBridge(page)
        rooms: list[Room] = []

        @checkpointer_test(name="lab saver over a room's D1 records, in Pyodide")
        async def room_saver_in_pyodide():
            rooms.append(Room.open(rooms_site.url, SHAPE))
            name = f"room-{rooms[-1].code}"
            room = {"code": rooms[-1].code, "teacher_key": rooms[-1].key}
            await bridge.arequest("saver_open", {"database": name, "room": room})
            yield RemoteSaver(bridge, name)
            await bridge.arequest("saver_close", {"database": name})

        report = bridge.run(validate(room_saver_in_pyodide))
        assert_full_conformance(report, capsys, f"  {bridge.calls} calls page -> worker -> fetch -> D1\n")
        assert len(rooms) == 8
    finally:
        context.close()


class Steps(TypedDict):
    visited: Annotated[list[str], operator.add]


def visit(name: str) -> Any:
    def node(state: Steps) -> dict[str, list[str]]:
        return {"visited": [name]}

    return node


def lesson_graph(saver: CheckpointSaver) -> Any:
    graph = StateGraph(Steps)
    for name in ("plan", "act"):
        graph.add_node(name, visit(name))
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "act")
    graph.add_edge("act", END)
    return graph.compile(checkpointer=saver)


TEACHER_THREAD = {"configurable": {"thread_id": "teacher"}}


def test_a_learner_reads_the_teachers_checkpoints_and_forks_one_into_their_own_saver(rooms_site) -> None:
    room = Room.open(rooms_site.url, SHAPE)

    async def story() -> tuple[list[Any], Any, list[str], list[Any]]:
        await lesson_graph(teacher_saver(room)).ainvoke({"visited": []}, TEACHER_THREAD)
        learner = saver_of(room)  # only the code
        history = await listed(learner, TEACHER_THREAD)
        frame = next(
            saved for saved in history if saved.checkpoint["channel_values"].get("visited") == ["plan"]
        )
        mine = InMemorySaver()  # the learner's own saver (IndexedDB in the browser)
        thread_file = read_thread_file(await export_thread(learner, "teacher"))
        await import_thread(mine, thread_file, as_thread="my-try")
        at_frame = {
            "configurable": {
                "thread_id": "my-try",
                "checkpoint_id": frame.config["configurable"]["checkpoint_id"],
            }
        }
        tried = await lesson_graph(mine).ainvoke(None, at_frame)
        return history, frame, tried["visited"], await listed(mine, {"configurable": {"thread_id": "my-try"}})

    history, frame, tried, mine = run(story())
    assert [saved.metadata["step"] for saved in history] == [2, 1, 0, -1]
    assert history[0].checkpoint["channel_values"]["visited"] == ["plan", "act"]
    assert tried == ["plan", "act"]  # resumed from the frame after "plan": only "act" ran again
    # As LangGraph 1.2 replays a past checkpoint: a "fork" checkpoint on the frame, then the step that ran.
    assert [(saved.metadata["step"], saved.metadata["source"]) for saved in mine[:2]] == [
        (3, "loop"),
        (2, "fork"),
    ]
    assert (
        mine[1].parent_config["configurable"]["checkpoint_id"]
        == frame.config["configurable"]["checkpoint_id"]
    )
    assert len(mine) == len(history) + 2  # the teacher's four, copied, and the learner's own two
    assert len(run(listed(teacher_saver(room), TEACHER_THREAD))) == 4  # the fork changed nothing in the room


async def listed(saver: CheckpointSaver, config: dict[str, Any] | None) -> list[Any]:
    return [saved async for saved in saver.alist(config)]


def ids(saved: list[Any]) -> list[str]:
    return [item.config["configurable"]["checkpoint_id"] for item in saved]


LESSON_SESSION = {"case_id": "S-1001", "variant": "misplaced", "durability": "sync", "storage": "full"}


def test_publishing_sends_the_room_what_it_lacks_and_replaces_a_thread_started_again(rooms_site) -> None:
    """``publish_thread`` copies the teacher's own saver into the room, step after step: the learner
    reads the same history (the same ids, values and writes), each publish sends only the checkpoints
    new to the room, in requests the room takes (here 132 checkpoints: more than one request's worth,
    and their values more keys than one read may name), and a thread dropped and started again under
    the same id replaces the room's copy."""
    room = Room.open(rooms_site.url, SHAPE)
    records = RoomRecords(room.base, room.code, teacher_key=room.key, post=urllib_post)
    mine = InMemorySaver()  # the teacher's own saver (IndexedDB in the browser)
    graph = lesson_graph(mine)

    async def story() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await graph.ainvoke({"visited": []}, TEACHER_THREAD)
        seen["first"] = await publish_thread(mine, records, "teacher", LESSON_SESSION)
        seen["again"] = await publish_thread(mine, records, "teacher", LESSON_SESSION)
        for _ in range(32):  # 4 checkpoints a run: 132 in all
            await graph.ainvoke({"visited": []}, TEACHER_THREAD)
        seen["many"] = await publish_thread(mine, records, "teacher", LESSON_SESSION)
        learner = saver_of(room)
        seen["history"] = await listed(learner, TEACHER_THREAD)
        seen["ours"] = await listed(mine, TEACHER_THREAD)
        seen["state"] = (await learner.aget_tuple(TEACHER_THREAD)).checkpoint["channel_values"]
        seen["session"] = await RoomRecords(room.base, room.code, post=urllib_post).session("teacher")
        await mine.adelete_thread("teacher")  # dropped, and started again under the same id
        await graph.ainvoke({"visited": ["again"]}, TEACHER_THREAD)
        seen["replaced"] = await publish_thread(mine, records, "teacher", LESSON_SESSION)
        seen["after"] = await listed(learner, TEACHER_THREAD)
        seen["ours_after"] = await listed(mine, TEACHER_THREAD)
        return seen

    seen = run(story())
    assert seen["first"] == {"thread_id": "teacher", "sent": 4, "checkpoints": 4}
    assert seen["again"] == {"thread_id": "teacher", "sent": 0, "checkpoints": 4}  # nothing new
    assert seen["many"] == {"thread_id": "teacher", "sent": 128, "checkpoints": 132}
    assert ids(seen["history"]) == ids(seen["ours"])
    assert [item.metadata for item in seen["history"]] == [item.metadata for item in seen["ours"]]
    assert len(seen["state"]["visited"]) == 66  # every value the newest checkpoint names reached the room
    assert seen["session"] == LESSON_SESSION
    assert seen["replaced"] == {"thread_id": "teacher", "sent": 4, "checkpoints": 4}
    assert ids(seen["after"]) == ids(seen["ours_after"])
    assert seen["after"][0].checkpoint["channel_values"]["visited"] == ["again", "plan", "act"]


def test_each_lesson_the_room_was_on_keeps_its_own_thread(rooms_site) -> None:
    """The room follows the presenter to another lesson: from then on learners read that lesson's thread
    only (no frame of the lesson left mixed in); a publish still under way from the lesson left lands in
    that lesson's thread, not in the new one's; going back to a lesson finds its thread."""
    room = Room.open(rooms_site.url, SHAPE)  # on lesson "crash"
    mine = InMemorySaver()
    first, second = {"configurable": {"thread_id": "first"}}, {"configurable": {"thread_id": "second"}}

    def published_from(lesson: str) -> RoomRecords:
        return RoomRecords(room.base, room.code, teacher_key=room.key, lesson=lesson, post=urllib_post)

    async def threads_seen() -> list[str]:
        return sorted(
            {item.config["configurable"]["thread_id"] for item in await listed(saver_of(room), None)}
        )

    async def story() -> dict[str, Any]:
        graph, seen = lesson_graph(mine), {}
        await graph.ainvoke({"visited": []}, first)
        await publish_thread(mine, published_from("crash"), "first", LESSON_SESSION)
        seen["crash"] = await threads_seen()
        await asyncio.to_thread(room.teacher, "lesson", {"lesson": "threads", "shape": [2]})
        seen["moved"] = await threads_seen()
        await graph.ainvoke({"visited": []}, first)  # a late publish of the lesson left ...
        seen["late"] = await publish_thread(mine, published_from("crash"), "first", LESSON_SESSION)
        await graph.ainvoke({"visited": []}, second)  # ... and the new lesson's thread
        await publish_thread(mine, published_from("threads"), "second", LESSON_SESSION)
        seen["threads"] = await threads_seen()
        seen["session"] = await RoomRecords(room.base, room.code, post=urllib_post).session("first")
        await asyncio.to_thread(room.teacher, "lesson", {"lesson": "crash", "shape": SHAPE})
        seen["back"] = ids(await listed(saver_of(room), first))
        seen["ours"] = ids(await listed(mine, first))
        return seen

    seen = run(story())
    assert (seen["crash"], seen["moved"], seen["threads"]) == (["first"], [], ["second"])
    assert seen["late"] == {"thread_id": "first", "sent": 4, "checkpoints": 8}  # stored under crash
    assert seen["session"] is None  # the new lesson's thread has no session of the lesson left's
    assert seen["back"] == seen["ours"] and len(seen["back"]) == 8  # crash's thread, with the late publish


def test_a_room_out_of_reach_is_said_not_raised_and_the_next_publish_sends_what_it_lacks(
    rooms_site, monkeypatch
) -> None:
    """The network goes mid-publish (every request after the first three gets no answer, as a failing
    ``fetch``): ``publish_threads`` says so (``refused``, not final: the presenter's line says it quietly
    and the next step tries again) and raises nothing; what was sent stays. The next publish, the room in
    reach again, sends what the room still lacks, and a learner reads the teacher's whole history. A
    closed room is a final refusal: publishing ends."""
    monkeypatch.setattr(room_records, "RETRY_PAUSE_S", 0.0)  # each request is still tried ATTEMPTS times
    room = Room.open(rooms_site.url, SHAPE)
    mine, left = InMemorySaver(), [3]  # the requests that still get through

    async def failing(url: str, body: dict[str, Any], key: str | None) -> tuple[int, Any]:
        if left[0] <= 0:
            return 0, {"error": "offline", "message": "Failed to fetch"}
        left[0] -= 1
        return await urllib_post(url, body, key)

    async def story() -> dict[str, Any]:
        await lesson_graph(mine).ainvoke({"visited": []}, TEACHER_THREAD)
        teacher = RoomRecords(room.base, room.code, teacher_key=room.key, post=failing)
        threads = {"teacher": LESSON_SESSION}
        seen = {"offline": await publish_threads(mine, teacher, threads)}
        seen["held"] = await listed(saver_of(room), TEACHER_THREAD)
        left[0] = 1000  # the room in reach again: the next step publishes
        seen["again"] = await publish_threads(mine, teacher, threads)
        seen["history"], seen["ours"] = (
            await listed(saver_of(room), TEACHER_THREAD),
            await listed(mine, TEACHER_THREAD),
        )
        await asyncio.to_thread(room.teacher, "close", {})
        seen["closed"] = await publish_threads(mine, teacher, threads)
        return seen

    seen = run(story())
    assert seen["offline"] == {"threads": [], "refused": {"name": "offline", "status": 0, "final": False}}
    assert seen["held"] == []  # the values and session went; no checkpoint whose values are missing
    assert seen["again"] == {
        "threads": [{"thread_id": "teacher", "sent": 4, "checkpoints": 4}],
        "refused": None,
    }
    assert ids(seen["history"]) == ids(seen["ours"])
    assert seen["history"][0].checkpoint["channel_values"] == {"visited": ["plan", "act"]}
    assert seen["closed"]["refused"] == {"name": "room_closed", "status": 410, "final": True}


def test_a_learners_list_of_frames_is_one_request_and_says_what_the_saver_says(rooms_site, capsys) -> None:
    """Every learner's page lists the frames every 3 s: ``listed_frames`` reads the checkpoints' rows
    in one request (not their values and writes, as the saver's ``alist`` does), and says of each
    frame what ``alist`` says: its thread, id, step, source and parent."""
    room = Room.open(rooms_site.url, SHAPE)
    mine = InMemorySaver()
    requests: list[str] = []

    async def counted(url: str, body: dict[str, Any], key: str | None) -> tuple[int, Any]:
        requests.append(url)
        return await urllib_post(url, body, key)

    async def story() -> tuple[list[dict[str, Any]], int, list[Any], int]:
        graph = lesson_graph(mine)
        for _ in range(26):  # 104 checkpoints: a learner's page lists the newest 100
            await graph.ainvoke({"visited": []}, TEACHER_THREAD)
        teacher = RoomRecords(room.base, room.code, teacher_key=room.key, post=urllib_post)
        await publish_thread(mine, teacher, "teacher", LESSON_SESSION)
        learner = PageStorage(RoomRecords(room.base, room.code, post=counted))
        frames = await listed_frames(learner)
        asked = len(requests)
        saved = [item async for item in CheckpointSaver(learner).alist(None, limit=MAX_FRAMES)]
        return frames, asked, saved, len(requests) - asked

    frames, asked, saved, asked_by_alist = run(story())
    assert asked == 1
    assert frames == [
        {
            "thread_id": "teacher",
            "checkpoint_id": item.config["configurable"]["checkpoint_id"],
            "step": item.metadata["step"],
            "source": item.metadata["source"],
            "parent": item.parent_config["configurable"]["checkpoint_id"] if item.parent_config else None,
        }
        for item in saved
    ]
    assert len(frames) == MAX_FRAMES
    with capsys.disabled():
        print(
            f"\n  a learner's list of {MAX_FRAMES} frames: {asked} request "
            f"(the saver's alist: {asked_by_alist})"
        )


def test_pending_writes_reach_the_room_after_their_checkpoint(rooms_site) -> None:
    """A node's writes saved on a checkpoint the room already has (the run stopped at an interrupt
    after it) reach the room at the next publish: a learner's copy resumes with them."""
    room = Room.open(rooms_site.url, SHAPE)
    records = RoomRecords(room.base, room.code, teacher_key=room.key, post=urllib_post)
    mine = InMemorySaver()

    async def story() -> tuple[Any, Any]:
        head = await mine.aput(
            {"configurable": {"thread_id": "teacher", "checkpoint_ns": ""}},
            empty_checkpoint(),
            {"source": "input", "step": -1},
            {},
        )
        await publish_thread(mine, records, "teacher", LESSON_SESSION)
        await mine.aput_writes(head, [("visited", ["plan"])], "task-1")
        await publish_thread(mine, records, "teacher", LESSON_SESSION)
        return await mine.aget_tuple(head), await saver_of(room).aget_tuple(head)

    ours, theirs = run(story())
    assert theirs.pending_writes == ours.pending_writes == [("task-1", "visited", ["plan"])]


def test_a_learners_page_lists_the_teachers_frames_and_forks_one_into_its_indexeddb(
    browser, rooms_site
) -> None:
    room = Room.open(rooms_site.url, SHAPE, lesson="checkpoints")
    run(lesson_graph(teacher_saver(room)).ainvoke({"visited": []}, TEACHER_THREAD))
    frames = run(listed(saver_of(room), TEACHER_THREAD))
    frame = next(saved for saved in frames if saved.metadata["step"] == 1)
    frame_id = frame.config["configurable"]["checkpoint_id"]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{rooms_site.url}/learn/en/checkpoints/input/?room={room.code}")
        panel = page.locator("[data-room-thread]")
        expect(panel).to_have_attribute("data-frames", "4", timeout=3 * BOOT_TIMEOUT_S * 1000)
        expect(panel.locator("li[data-frame]")).to_have_count(4)
        assert [item.get_attribute("data-step") for item in panel.locator("li[data-frame]").all()] == [
            "2",
            "1",
            "0",
            "-1",
        ]
        panel.locator(f'li[data-frame="{frame_id}"]').get_by_role(
            "button", name="Try this frame in my lab"
        ).click()
        status = page.locator("[data-room-fork]")
        mine = f"teacher-try-{frame_id[-8:]}"
        expect(status).to_have_attribute("data-forked", mine)
        expect(status).to_contain_text(f"Copied into your lab as thread {mine} (4 checkpoints)")
        expect(status.get_by_role("link")).to_have_count(0)  # no session in the room: the lab cannot open it
        teacher_ids = sorted(saved.config["configurable"]["checkpoint_id"] for saved in frames)
        assert sorted(page.evaluate(OWN_CHECKPOINTS, mine)) == teacher_ids  # in this browser's IndexedDB
        assert page.evaluate(OWN_CHECKPOINTS, "teacher") == []  # a copy of the learner's own
    finally:
        context.close()


def test_a_presenters_lesson_reaches_the_learners_page_and_a_fork_opens_in_their_lab(
    browser, rooms_site
) -> None:
    """The teacher presents a lesson in a room: each step's checkpoints, saved in the teacher's own
    IndexedDB, reach the room (room_publish); a learner's page lists exactly those frames; the learner
    forks one, and "Open it in the lab" opens the copy in the lab page at that frame. A room closed
    under the teacher never stops the lesson: the next step is taken, and publishing stops."""
    teacher_context, learner_context = browser.new_context(), browser.new_context()
    try:
        teacher = teacher_context.new_page()
        teacher.goto(f"{rooms_site.url}/learn/en/checkpoints/input/?present=1&delay=0.05")
        teacher.get_by_role("button", name="Open a room").click()
        code = teacher.locator("[data-room-code]")
        expect(code).to_have_text(re.compile(r"^[A-HJ-NP-Z2-9]{6}$"))
        published = teacher.locator("[data-room-publish]")
        presented_step(teacher, "input")
        expect(published).to_have_attribute("data-published", "1", timeout=STEP_TIMEOUT_MS)
        teacher.keyboard.press("ArrowRight")  # presenter mode's key for the next step, on the same lab
        presented_step(teacher, "start-node")
        expect(published).to_have_attribute("data-published", "2", timeout=STEP_TIMEOUT_MS)
        thread = published.get_attribute("data-thread")
        teacher_ids = sorted(teacher.evaluate(OWN_CHECKPOINTS, thread))
        assert len(teacher_ids) == 2

        learner = learner_context.new_page()
        learner.goto(f"{rooms_site.url}/learn/en/checkpoints/input/?room={code.inner_text()}")
        panel = learner.locator("[data-room-thread]")
        expect(panel).to_have_attribute("data-frames", "2", timeout=STEP_TIMEOUT_MS)
        frames = panel.locator("li[data-frame]")
        assert sorted(item.get_attribute("data-frame") for item in frames.all()) == teacher_ids
        assert [item.get_attribute("data-step") for item in frames.all()] == ["0", "-1"]  # newest first

        first = frames.nth(1).get_attribute("data-frame")  # the input checkpoint (step -1)
        frames.nth(1).get_by_role("button", name="Try this frame in my lab").click()
        mine = f"{thread}-try-{first[-8:]}"
        status = learner.locator("[data-room-fork]")
        expect(status).to_have_attribute("data-forked", mine, timeout=STEP_TIMEOUT_MS)
        assert sorted(learner.evaluate(OWN_CHECKPOINTS, mine)) == teacher_ids
        status.get_by_role("link", name="Open it in the lab").click()
        expect(learner).to_have_url(re.compile(r"/\?thread="))
        wait_until_ready(learner)
        expect(learner.locator("#inspector")).to_have_attribute(
            "data-checkpoint-id", first, timeout=STEP_TIMEOUT_MS
        )
        expect(learner.get_by_role("combobox", name="Saved threads")).to_have_value(mine)
        assert sorted(learner.evaluate(OWN_CHECKPOINTS, thread)) == []  # the copy is the learner's own

        # The room closes under the teacher (another device closed it): the lesson goes on, publishing stops.
        key = teacher.evaluate("JSON.parse(sessionStorage.getItem('checkpoint-lab.teacher-room')).key")
        assert (
            call(rooms_site.url, "POST", f"/api/rooms/{code.inner_text()}/close", {}, key=key).status == 200
        )
        teacher.keyboard.press("ArrowRight")
        presented_step(teacher, "fan-out")
        expect(published).to_have_attribute("data-publish", "stopped", timeout=STEP_TIMEOUT_MS)
        assert len(teacher.evaluate(OWN_CHECKPOINTS, thread)) > len(teacher_ids)  # saved in its own IndexedDB
    finally:
        teacher_context.close()
        learner_context.close()


def refused_by(coroutine: Any) -> RoomRecordsError:
    with pytest.raises(RoomRecordsError) as caught:
        run(coroutine)
    return caught.value


def test_refusals_are_named(rooms_site) -> None:
    room = Room.open(rooms_site.url, SHAPE)
    records = RoomRecords(room.base, room.code, teacher_key=room.key, post=urllib_post)
    change = {"do": "put", "store": "checkpoints", "key": ["t", "", "1"], "record": {"a": 1}}
    run(records.write([change]))

    learner = RoomRecords(room.base, room.code, post=urllib_post)
    assert refused_by(learner.write([change])).name == "missing_teacher_key"
    impostor = RoomRecords(
        room.base, room.code, teacher_key=Room.open(room.base, SHAPE).key, post=urllib_post
    )
    assert refused_by(impostor.write([change])).name == "bad_teacher_key"
    assert refused_by(
        RoomRecords(room.base, "ZZZZZZ", post=urllib_post).get("checkpoints", [["t"]])
    ).name == ("unknown_room")
    too_big = {**change, "record": {"text": "x" * (1024 * 1024)}}
    assert (refused_by(records.write([too_big])).name, refused_by(records.write([too_big])).status) == (
        "body_too_large",
        413,
    )
    assert refused_by(records.get("secrets", [["t"]])).name == "bad_field"
    assert refused_by(records.write([{**change, "do": "drop"}])).name == "bad_field"
    assert refused_by(records.write([{**change, "key": "t"}])).name == "bad_field"
    not_a_lesson = RoomRecords(room.base, room.code, teacher_key=room.key, lesson="Crash!", post=urllib_post)
    assert refused_by(not_a_lesson.write([change])).name == "bad_field"
    assert refused_by(not_a_lesson.get("checkpoints", [["t"]])).name == "bad_field"
    # All or nothing: a batch whose second change is malformed stores none of it.
    good = {**change, "key": ["t", "", "2"]}
    refused_by(records.write([good, {**change, "record": None}]))
    assert run(learner.get("checkpoints", [["t", "", "1"], ["t", "", "2"]])) == [{"a": 1}, None]

    assert (
        call(room.base, "POST", f"/api/rooms/{room.code}/thread/forget", {}).body["error"] == "unknown_action"
    )
    assert call(room.base, "GET", f"/api/rooms/{room.code}/thread/read").body["error"] == "method_not_allowed"
    answer = call(room.base, "POST", f"/api/rooms/{room.code}/thread/read", raw=b"{not json")
    assert (answer.status, answer.body["error"]) == (400, "malformed_json")

    assert call(room.base, "POST", f"/api/rooms/{room.code}/close", {}, key=room.key).status == 200
    assert refused_by(records.write([good])).name == "room_closed"
    assert run(learner.with_prefix("checkpoints", ["t"])) == [{"a": 1}]  # still readable until it expires


def test_keys_are_matched_by_prefix_whatever_their_characters(rooms_site) -> None:
    room = Room.open(rooms_site.url, SHAPE)
    records = RoomRecords(room.base, room.code, teacher_key=room.key, post=urllib_post)
    keys = [
        ["🧪 线程", "", "1"],
        ["🧪 线程", "ns", "2"],
        ['a","b', "", "3"],
        ["a", "", "4"],
        [1, "", "5"],
        [10, "", "6"],
    ]
    run(
        records.write(
            [{"do": "put", "store": "checkpoints", "key": key, "record": {"n": key[2]}} for key in keys]
        )
    )

    def found(prefix: list[Any]) -> list[str]:
        return [record["n"] for record in run(records.with_prefix("checkpoints", prefix))]

    assert found(["🧪 线程"]) == ["1", "2"]
    assert found(["🧪 线程", "ns"]) == ["2"]
    assert found(["a"]) == ["4"]  # not 'a","b', whose JSON text begins alike
    assert found([1]) == ["5"]  # not 10
    assert found([]) == ["1", "2", "3", "4", "5", "6"]  # in the order first stored
    run(records.write([{"do": "delete_prefix", "store": "checkpoints", "prefix": ["🧪 线程"]}]))
    assert found([]) == ["3", "4", "5", "6"]


def test_nothing_of_one_rooms_thread_is_read_through_another(rooms_site) -> None:
    room, other = Room.open(rooms_site.url, SHAPE), Room.open(rooms_site.url, SHAPE)
    run(lesson_graph(teacher_saver(room)).ainvoke({"visited": []}, TEACHER_THREAD))

    async def seen_through_other() -> tuple[Any, list[Any], list[Any]]:
        outsider = saver_of(other, key=other.key)
        records = RoomRecords(other.base, other.code, post=urllib_post)
        return (
            await outsider.aget_tuple(TEACHER_THREAD),
            await listed(outsider, None),
            await records.with_prefix("blobs", []),
        )

    assert run(seen_through_other()) == (None, [], [])
    # ... and the other room's teacher cannot delete it either: their key works on their room only.
    run(saver_of(other, key=other.key).adelete_thread("teacher"))
    assert run(saver_of(room).aget_tuple(TEACHER_THREAD)) is not None
