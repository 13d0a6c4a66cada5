"""Worker commands of a class room's shared thread (docs/ROOM.md): what a learner's page asks.

The teacher's thread lives in the room's records (:mod:`lab.browser.room_records`); a learner reads it
with the room's code alone: the list of frames from the checkpoints' rows (one request, every 3 s), a
fork through the same saver core as every lab saver. Forking a frame uses the
thread file, as handing out a thread does (:mod:`lab.controller.thread_file`): the room's thread is
exported, checked row by row as any imported file is, and imported whole into this lab's own saver
(IndexedDB) under a thread id of the learner's; the learner goes on from the frame's checkpoint there.
The session the teacher's lab published beside the thread (:mod:`lab.browser.room_publish`) lists the
copy among this lab's saved threads, so the lab page opens it at the frame.

===========  ======================================  ==========================================
command      args                                    result
===========  ======================================  ==========================================
room_frames  ``{code}``                              ``{frames: [{thread_id, checkpoint_id,
                                                     step, source, parent}]}``, newest first
room_fork    ``{code, thread_id, checkpoint_id}``    ``{thread_id, checkpoint_id, checkpoints,
                                                     copied, opens}``: the learner's copy
===========  ======================================  ==========================================
"""

from __future__ import annotations

from typing import Any

from lab.browser.page_storage import PageStorage
from lab.browser.room_records import RoomRecords, fetch_post
from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.serde import MsgpackSerializer
from lab.controller.thread_commands import imported_session
from lab.controller.thread_file import (
    ThreadFile,
    ThreadFileError,
    export_thread,
    import_thread,
    read_thread_file,
)

MAX_FRAMES = 100
"""The newest frames a learner's page lists."""
_SERDE = MsgpackSerializer()


def room_records(code: Any, teacher_key: str | None = None, lesson: str | None = None) -> RoomRecords:
    """The records of room ``code`` on this site: a learner's (no ``teacher_key``: they only read the
    thread of the lesson the room is on), or the teacher's (of ``lesson``, the one their lab is on)."""
    from js import location  # Pyodide only

    if not isinstance(code, str) or not code:
        raise ValueError("'code' must be the room's code")
    return RoomRecords(str(location.origin), code, teacher_key=teacher_key, lesson=lesson, post=fetch_post)


def text_arg(args: dict[str, Any], name: str) -> str:
    """The command's argument ``name``, which must be a non-empty string."""
    value = args.get(name)
    if not isinstance(value, str) or not value:
        raise ValueError(f"'{name}' must be a non-empty string")
    return value


async def room_frames(args: dict[str, Any]) -> dict[str, Any]:
    """The room's checkpoints (of the root graph), newest first: what the learner may fork."""
    return {"frames": await listed_frames(PageStorage(room_records(args.get("code"))))}


async def listed_frames(storage: PageStorage) -> list[dict[str, Any]]:
    """The newest :data:`MAX_FRAMES` root checkpoints of every thread in ``storage``: each one's thread,
    id, step, source and parent. Only the checkpoints' rows are read (one request), not their values
    or pending writes, which a list of frames does not show: every learner's page asks every 3 s."""
    rows = await storage.checkpoints(None, "", limit=MAX_FRAMES)
    metadatas = [_SERDE.loads_typed(row["metadata"]) for row in rows]  # through the allow-list
    return [
        {
            "thread_id": row["thread_id"],
            "checkpoint_id": row["checkpoint_id"],
            "step": metadata.get("step"),
            "source": metadata.get("source"),
            "parent": row["parent_checkpoint_id"],
        }
        for row, metadata in zip(rows, metadatas, strict=True)
    ]


def fork_thread_id(thread_id: str, checkpoint_id: str) -> str:
    """The learner's thread for a frame: the teacher's thread id and the frame's id's last 8 characters."""
    return f"{thread_id[:200]}-try-{checkpoint_id[-8:]}"


async def room_fork(args: dict[str, Any]) -> dict[str, Any]:
    """Copy the teacher's thread into this lab's saver, to go on from the frame ``checkpoint_id``; with
    the session the teacher's lab published, this lab's journal lists the copy among its saved threads
    (``opens``), so the lab page opens it (``/?thread=<copy>&frame=<checkpoint_id>``)."""
    thread_id, checkpoint_id = text_arg(args, "thread_id"), text_arg(args, "checkpoint_id")
    records = room_records(args.get("code"))
    room = CheckpointSaver(PageStorage(records))
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}
    if await room.aget_tuple(config) is None:
        raise ValueError(f"the room's thread {thread_id!r} has no checkpoint {checkpoint_id!r}")
    from lab.browser import lab_rpc  # Pyodide only: CPython imports this module for listed_frames

    mine = fork_thread_id(thread_id, checkpoint_id)
    saver = lab_rpc.own_saver()
    session = await records.session(thread_id)
    thread_file = read_thread_file(await export_thread(room, thread_id, session=session))
    copied = not await saver.storage.checkpoints(mine, None, limit=1)  # forked before: already here
    if copied:
        await import_thread(saver, thread_file, as_thread=mine)
    count = len(await saver.storage.checkpoints(mine, None))
    opens = await _remember_fork(thread_file, mine)
    return {
        "thread_id": mine,
        "checkpoint_id": checkpoint_id,
        "checkpoints": count,
        "copied": copied,
        "opens": opens,
    }


async def _remember_fork(thread_file: ThreadFile, thread_id: str) -> bool:
    """List the copy among this lab's saved threads (not opened: the lesson on the page keeps its own),
    if the room kept a session this lab can run (its case and variant); whether it did."""
    from lab.browser import lab_rpc

    controller = lab_rpc.own_controller()
    try:
        session = imported_session(thread_file, controller.profile)
    except ThreadFileError:  # no session published, or one of another lab's graph: stored, not listed
        return False
    await controller.journal.remember_session({"thread_id": thread_id, **session})
    return True


COMMANDS = {"room_frames": room_frames, "room_fork": room_fork}
