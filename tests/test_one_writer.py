"""One writer per thread: what a tab may do while another tab writes its thread (issue 10, item 5).

LangGraph assumes one writer per thread. In the browser the page holds a Web Lock per thread and
reports it to Python (``set_writer``); the rules here decide what that means: every writing action
disabled with its reason, the status line naming Take over, the controller refusing a writing
command sent anyway, and a tab that gets the lock continuing from the other tab's checkpoints. Two
controllers over one saver, world and journal are the two tabs.
"""

from __future__ import annotations

from typing import Any

import pytest

from lab.controller.actions import actions
from lab.controller.controller import WRITES
from lab.controller.facts import ThreadFacts
from lab.controller.status import status
from tests.controller_lab import Lab

SESSION = {"thread_id": "S-1001-t", "case_id": "S-1001", "variant": "fixed", "durability": "sync"}
WRITING_ACTIONS = ("step", "run", "resume", "approve", "reject", "replay", "fork", "checkout", "reset")
WRITING_ACTIONS += ("prune", "drop")


def enabled(view: dict[str, Any]) -> set[str]:
    return {name for name, action in view["actions"].items() if action["enabled"]}


def test_while_another_tab_writes_every_writing_action_is_disabled_with_that_reason():
    shown = actions(ThreadFacts(SESSION, writer="elsewhere"))
    for name in WRITING_ACTIONS:
        assert shown[name]["reason"]["code"] == "reason.writer_elsewhere", name
    assert shown["take_over"]["enabled"] and shown["start"]["enabled"]  # a new case is another thread
    line = status(ThreadFacts(SESSION, writer="elsewhere"))
    assert (line["phase"], line["action"]) == ("read_only", "take_over")
    assert "S-1001-t" in line["message"]["text"] and "Press Take over" in line["message"]["text"]


def test_the_writer_tab_cannot_take_over_and_without_a_case_there_is_nothing_to_take():
    here = actions(ThreadFacts(SESSION))
    assert here["take_over"]["reason"]["code"] == "reason.writer_here"
    assert {"run", "step"} <= {name for name, action in here.items() if action["enabled"]}
    assert actions(ThreadFacts(None, writer="elsewhere"))["take_over"]["reason"]["code"] == "reason.no_case"
    assert status(ThreadFacts(None, writer="elsewhere"))["phase"] == "no_case"


async def two_tabs() -> tuple[Lab, Lab]:
    """Tab A starts a case; tab B opens the same saved thread (same storage, its own controller)."""
    tab_a = Lab()
    tab_b = Lab()
    tab_b.saver, tab_b.world, tab_b.journal = tab_a.saver, tab_a.world, tab_a.journal
    tab_b.controller = tab_b.boot()
    thread = (await tab_a.do("start", case_id="S-1001", variant="fixed", durability="sync"))["session"]
    await tab_b.do("open", thread_id=thread["thread_id"])
    return tab_a, tab_b


async def test_a_read_only_tab_refuses_every_writing_command_and_still_sees_the_writers_frames():
    tab_a, tab_b = await two_tabs()
    await tab_b.do("set_writer", writer="elsewhere")
    await tab_a.do("step")
    await tab_a.do("run")  # the paused run goes on to human_review's interrupt
    view = await tab_b.view()
    assert view["frames"] == (await tab_a.view())["frames"]  # B reads A's checkpoints
    assert view["status"]["phase"] == "read_only" and enabled(view) & set(WRITING_ACTIONS) == set()
    head = view["frames"][-1]["checkpoint_id"]
    arguments = {"answer": {"approve": True}, "replay": {"checkpoint_id": head}}
    arguments |= {"fork": {"checkpoint_id": head, "values": {}}, "checkout": {"checkpoint_id": head}}
    arguments |= {"drop": {"thread_id": view["session"]["thread_id"]}}  # deleting a thread is writing it
    for name in WRITES:
        error = await tab_b.fail(name, **arguments.get(name, {}))
        assert error["message"] == view["actions"]["run"]["reason"]["text"], name
    assert len(await tab_b.frames()) == len(view["frames"])  # nothing was written


async def test_the_tab_that_takes_over_continues_from_the_other_tabs_last_checkpoint():
    tab_a, tab_b = await two_tabs()
    await tab_b.do("set_writer", writer="elsewhere")
    assert (await tab_a.do("run"))["status"] == "interrupted"
    await tab_a.do("set_writer", writer="elsewhere")  # B took the lock: A is told
    await tab_b.do("set_writer", writer="here")
    assert (await tab_a.view())["status"]["phase"] == "read_only"
    assert (await tab_b.do("answer", approve=True))["status"] == "done"
    frames = await tab_a.frames()
    assert frames[-1]["values"]["outcome"].startswith("SAR sar_")
    assert [f["parent_id"] for f in frames[1:]] == [f["checkpoint_id"] for f in frames[:-1]]  # one chain


async def test_losing_the_lock_closes_a_paused_run_and_refuses_while_a_run_is_live():
    tab_a, _tab_b = await two_tabs()
    assert (await tab_a.do("step"))["status"] == "paused"
    await tab_a.do("set_writer", writer="elsewhere")
    assert (await tab_a.view())["run"] is None
    answers: list[dict[str, Any]] = []

    async def lose_the_lock_mid_run(event: dict[str, Any]) -> None:
        if event["type"] == "seam" and not answers:
            answers.append(await tab_a.controller.dispatch("set_writer", {"writer": "elsewhere"}))

    await tab_a.do("set_writer", writer="here")
    tab_a.probe = lose_the_lock_mid_run
    assert (await tab_a.do("run"))["status"] == "interrupted"
    assert answers[0]["error"]["message"] == "A run is in progress; wait for it to pause or finish"
    assert tab_a.controller.state.writer == "here"  # refused: the page kills the process instead
    error = await tab_a.fail("set_writer", writer="nobody")
    assert "Unknown writer 'nobody'; choose one of: here, elsewhere" in error["message"]


async def test_a_run_that_died_in_the_other_tab_is_written_down_only_once_this_tab_holds_the_lock():
    tab_a, tab_b = await two_tabs()
    thread = (await tab_a.view())["session"]["thread_id"]
    await tab_b.do("set_writer", writer="elsewhere")
    assert (await tab_a.do("step"))["status"] == "paused"  # the journal says A's run is running
    before = await tab_b.journal.records(thread)
    await tab_b.controller.terminate()  # B's process dies and a new one comes up, as the page does it:
    tab_b.controller = tab_b.boot()
    await tab_b.do("restore", observe_only=True, thread_id=thread)  # read only, then told the writer
    await tab_b.do("set_writer", writer="elsewhere")
    assert await tab_b.journal.records(thread) == before  # A's run is alive: nothing written
    assert (await tab_b.view())["status"]["phase"] == "read_only"
    await tab_a.controller.terminate()  # A's tab closes mid-run: its lock goes to B
    await tab_b.do("set_writer", writer="here")
    view = await tab_b.view()
    assert view["status"]["phase"] == "crashed" and view["status"]["action"] == "resume"
    assert (await tab_b.do("resume"))["status"] == "interrupted"  # on to human_review


@pytest.mark.parametrize("remembered", ["this tab's", "another tab's"])
async def test_restore_picks_up_the_thread_this_tab_had(remembered):
    tab_a, tab_b = await two_tabs()
    mine = (await tab_a.view())["session"]["thread_id"]
    if remembered == "another tab's":
        await tab_b.do("start", case_id="S-1002", variant="fixed", durability="sync")  # the journal's now
    await tab_a.controller.terminate()
    tab_a.controller = tab_a.boot()
    restored = await tab_a.do("restore", thread_id=mine)
    assert restored["session"]["thread_id"] == mine
