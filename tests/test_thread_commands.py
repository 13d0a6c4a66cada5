"""The controller's commands for bad input, links, damaged threads and thread files (issue 10, items
6 and 7), on CPython: each refusal names what is wrong, carries its message code for the page, and
changes nothing."""

from __future__ import annotations

import base64

import pytest

from lab.controller.journal import MemoryJournal
from lab.controller.thread_file import MAX_FILE_BYTES
from lab.controller.validation import MAX_FORK_BYTES
from lab.world import MemoryWorld
from tests.controller_lab import Lab

pytestmark = pytest.mark.asyncio


async def waiting_thread(lab: Lab, variant: str = "misplaced") -> str:
    """A thread paused at the officer's review."""
    thread = (await lab.do("start", case_id="S-1001", variant=variant, durability="sync"))["session"][
        "thread_id"
    ]
    assert (await lab.do("run"))["status"] == "interrupted"
    return thread


def corrupt_metadata(lab: Lab, thread: str) -> None:
    """Make one checkpoint record's metadata bytes that are not msgpack (0xc1 is never used)."""
    rows = lab.saver.storage._checkpoints[thread][""]
    first = next(iter(rows))
    rows[first] = {**rows[first], "metadata": ("msgpack", b"\xc1")}


async def test_a_fork_of_the_wrong_type_is_refused_with_the_key_and_changes_nothing(lab: Lab) -> None:
    await waiting_thread(lab)
    frames = await lab.frames()
    error = await lab.fail(
        "fork", checkpoint_id=frames[1]["checkpoint_id"], values={"customer": "not an object"}
    )
    assert error["type"] == "BadInputError"
    assert error["say"]["code"] == "input.fork_wrong_type"
    assert error["say"]["params"]["key"] == "'customer'" and error["say"]["params"]["expected"] == "an object"
    big = {"alert": "x" * (MAX_FORK_BYTES + 1)}
    error = await lab.fail("fork", checkpoint_id=frames[1]["checkpoint_id"], values=big)
    assert error["say"]["code"] == "input.fork_too_big"
    assert await lab.frames() == frames


async def test_answering_when_nothing_waits_is_refused_with_its_code(lab: Lab) -> None:
    await lab.do("start", case_id="S-1001", variant="fixed", durability="sync")
    error = await lab.fail("answer", approve=True)
    assert error["say"]["code"] == "reason.nothing_to_answer"


async def test_a_link_is_checked_part_by_part(lab: Lab) -> None:
    first = await waiting_thread(lab)
    second = (await lab.do("start", case_id="S-1003", variant="fixed", durability="sync"))["session"][
        "thread_id"
    ]
    ids = [f["checkpoint_id"] for f in (await lab.do("open", thread_id=first)) and await lab.frames()]
    await lab.do("open", thread_id=second)

    followed = await lab.do("link", thread=first, frame="1")
    assert followed == {"thread_id": first, "checkpoint_id": ids[1], "branch": None, "notices": []}
    assert (await lab.do("link", frame=ids[2], branch=ids[-1]))["checkpoint_id"] == ids[2]

    for frame, code in [("-1", "not_number"), ("abc", "not_number"), ("999", "out_of_range")]:
        answer = await lab.do("link", thread=first, frame=frame)
        assert [n["code"] for n in answer["notices"]] == [f"input.link_frame_{code}"], frame
        assert answer["checkpoint_id"] is None and answer["thread_id"] == first
    assert "frames 0 to" in (await lab.do("link", frame="999"))["notices"][0]["text"]

    long = await lab.do("link", thread="a" * 20_000, frame="0")
    assert [n["code"] for n in long["notices"]] == ["input.link_thread_too_long"]
    assert len(long["notices"][0]["text"]) < 200 and long["thread_id"] == first  # the lab stays put
    unknown = await lab.do("link", thread="nobody-here")
    assert [n["code"] for n in unknown["notices"]] == ["link.no_such_thread"]
    markup = await lab.do("link", thread="<img src=x onerror=alert(1)>", branch="<b>")
    assert [n["code"] for n in markup["notices"]] == ["input.link_thread_chars"]
    assert (await lab.do("link", branch="<b>x</b>"))["notices"][0]["code"] == "link.unknown_branch"


async def test_a_damaged_thread_is_named_the_others_work_and_drop_deletes_it(lab: Lab) -> None:
    good = await waiting_thread(lab, "fixed")
    bad = await waiting_thread(lab)
    corrupt_metadata(lab, bad)
    await lab.controller.terminate()
    lab.controller = lab.boot()
    restored = await lab.do("restore")  # the lab's session was the damaged thread: it opens without it
    assert restored["session"] is None and restored["damaged"]["code"] == "thread.damaged"
    assert restored["damaged"]["params"]["thread"] == bad
    problem = restored["damaged"]["params"]["problem"]  # the saver's detail, as a message
    assert f"thread {bad!r}, checkpoint " in problem["text"]
    where, what = problem["params"]["where"], problem["params"]["problem"]
    assert (where["code"], where["params"]["thread"]) == ("record.place", repr(bad))
    assert where["params"]["part"]["code"] == "record.part.metadata"  # the record's names stay data
    assert what["code"] == "record.problem.not_msgpack"

    listed = {t["thread_id"]: t for t in (await lab.do("threads"))["threads"]}
    assert listed[bad]["damaged"]["code"] == "thread.damaged" and listed[good]["damaged"] is None
    assert (await lab.fail("open", thread_id=bad))["say"]["code"] == "thread.damaged"
    await lab.do("open", thread_id=good)
    assert (await lab.do("answer", approve=True))["status"] == "done"  # the other thread still works

    assert await lab.do("drop", thread_id=bad) == {"dropped": bad}
    assert [t["thread_id"] for t in (await lab.do("threads"))["threads"]] == [good]
    assert await lab.journal.records(bad) == []
    assert [s async for s in lab.saver.alist({"configurable": {"thread_id": bad}})] == []
    assert (await lab.fail("drop", thread_id=bad))["type"] == "LabError"


async def test_a_thread_file_opens_the_same_thread_in_another_lab(lab: Lab) -> None:
    thread = await waiting_thread(lab)
    exported = await lab.do("export_thread")
    assert exported["file_name"] == f"{thread}.cklab" and exported["size"] > 1000

    classroom = Lab()
    imported = await classroom.do("import_thread", data=exported["data"])
    assert imported["session"]["thread_id"] == thread and imported["imported"]["ledger"] == 2
    assert [f["checkpoint_id"] for f in await classroom.frames()] == [
        f["checkpoint_id"] for f in await lab.frames()
    ]
    assert await classroom.do("ledger") == await lab.do("ledger")
    assert await classroom.do("executions") == await lab.do("executions")
    again = await classroom.fail("import_thread", data=exported["data"])
    assert again["say"]["code"] == "file.exists"
    assert (await classroom.do("answer", approve=True))["status"] == "done"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("not base64!", "file.not_base64"),
        (base64.b64encode(b"\x91\x01").decode(), "file.not_ours"),
        (base64.b64encode(b"\x93\x01").decode(), "file.unreadable"),
    ],
)
async def test_a_refused_file_stores_nothing(lab: Lab, data: str, code: str) -> None:
    error = await lab.fail("import_thread", data=data)
    assert error["type"] == "ThreadFileError" and error["say"]["code"] == code, error
    assert (await lab.do("threads"))["threads"] == [] and await lab.world.entries() == []


async def test_a_file_over_the_limit_is_refused_by_its_size(lab: Lab) -> None:
    error = await lab.fail("import_thread", data="", size=MAX_FILE_BYTES + 1)
    assert error["say"]["code"] == "file.too_big"


async def test_worlds_and_journals_take_imported_rows() -> None:
    world, journal = MemoryWorld(), MemoryJournal()
    await world.add_entries([{"seq": 9, "kind": "charge"}])
    assert await world.entries() == [{"seq": 1, "kind": "charge"}]
    await journal.save_session({"thread_id": "t", "case_id": "c", "variant": "v", "durability": "d"})
    await journal.append("t", {"type": "run_start"})
    await journal.forget("t")
    assert (await journal.sessions(), await journal.session(), await journal.records("t")) == ([], None, [])
