"""Worker commands of a class room's shared thread (docs/ROOM.md): what a learner's page asks.

The teacher's thread lives in the room's records (:mod:`lab.browser.room_records`); a learner reads it
with the room's code alone, through the same saver core as every lab saver. Forking a frame uses the
thread file, as handing out a thread does (:mod:`lab.controller.thread_file`): the room's thread is
exported, checked row by row as any imported file is, and imported whole into this lab's own saver
(IndexedDB) under a thread id of the learner's; the learner goes on from the frame's checkpoint there.

===========  ======================================  ==========================================
command      args                                    result
===========  ======================================  ==========================================
room_frames  ``{code}``                              ``{frames: [{thread_id, checkpoint_id,
                                                     step, source, parent}]}``, newest first
room_fork    ``{code, thread_id, checkpoint_id}``    ``{thread_id, checkpoint_id, checkpoints,
                                                     copied}``: the learner's copy
===========  ======================================  ==========================================
"""

from __future__ import annotations

from typing import Any

from lab.browser import lab_rpc
from lab.browser.page_storage import PageStorage
from lab.browser.room_records import RoomRecords, fetch_post
from lab.checkpoint.core import CheckpointSaver
from lab.controller.thread_file import export_thread, import_thread, read_thread_file

MAX_FRAMES = 100
"""The newest frames a learner's page lists."""


def _room_saver(code: Any) -> CheckpointSaver:
    """A learner's saver over room ``code``'s records (no teacher key: it only reads)."""
    from js import location  # Pyodide only

    if not isinstance(code, str) or not code:
        raise ValueError("'code' must be the room's code")
    return CheckpointSaver(PageStorage(RoomRecords(str(location.origin), code, post=fetch_post)))


def _text(args: dict[str, Any], name: str) -> str:
    value = args.get(name)
    if not isinstance(value, str) or not value:
        raise ValueError(f"'{name}' must be a non-empty string")
    return value


async def room_frames(args: dict[str, Any]) -> dict[str, Any]:
    """The room's checkpoints (of the root graph), newest first: what the learner may fork."""
    saver = _room_saver(args.get("code"))
    frames = []
    async for saved in saver.alist(None, limit=MAX_FRAMES):
        if saved.config["configurable"]["checkpoint_ns"]:
            continue
        parent = saved.parent_config["configurable"]["checkpoint_id"] if saved.parent_config else None
        frames.append(
            {
                "thread_id": saved.config["configurable"]["thread_id"],
                "checkpoint_id": saved.config["configurable"]["checkpoint_id"],
                "step": saved.metadata.get("step"),
                "source": saved.metadata.get("source"),
                "parent": parent,
            }
        )
    return {"frames": frames}


def fork_thread_id(thread_id: str, checkpoint_id: str) -> str:
    """The learner's thread for a frame: the teacher's thread id and the frame's id's last 8 characters."""
    return f"{thread_id[:200]}-try-{checkpoint_id[-8:]}"


async def room_fork(args: dict[str, Any]) -> dict[str, Any]:
    """Copy the teacher's thread into this lab's saver, to go on from the frame ``checkpoint_id``."""
    thread_id, checkpoint_id = _text(args, "thread_id"), _text(args, "checkpoint_id")
    room = _room_saver(args.get("code"))
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}
    if await room.aget_tuple(config) is None:
        raise ValueError(f"the room's thread {thread_id!r} has no checkpoint {checkpoint_id!r}")
    mine = fork_thread_id(thread_id, checkpoint_id)
    saver = lab_rpc.own_saver()
    copied = not await saver.storage.checkpoints(mine, None, limit=1)  # forked before: already here
    if copied:
        await import_thread(saver, read_thread_file(await export_thread(room, thread_id)), as_thread=mine)
    count = len(await saver.storage.checkpoints(mine, None))
    return {"thread_id": mine, "checkpoint_id": checkpoint_id, "checkpoints": count, "copied": copied}


COMMANDS = {"room_frames": room_frames, "room_fork": room_fork}
