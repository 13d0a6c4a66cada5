"""The presenter's thread, published into a class room: LangGraph's ``copy_thread``, from one saver to
another.

LangGraph copies a thread within one saver (``copy_thread``). A class room needs the teacher's thread
copied from their browser's saver (IndexedDB: the source of truth) into the room's (the saver core over
:class:`lab.browser.room_records.RoomRecords`, in D1), step after step, so that learners see it grow
(``room_frames``, :mod:`lab.browser.room_rpc`). :func:`publish_thread` sends what the room lacks, as
rows the saver stored (nothing is decided again):

1. the values (blobs) the new checkpoints name that the room's checkpoints do not;
2. the thread's pending writes (all of them, each time: LangGraph adds writes to a checkpoint after it
   is saved, and a put stores the same row again harmlessly);
3. the checkpoints the room does not have, oldest first: a learner never reads a checkpoint whose
   parent or values are missing.

Each request stays within what the room takes (:data:`BATCH_ROWS` rows, about :data:`BATCH_BYTES`).
A thread the room holds checkpoints of that this lab no longer has (dropped, then started again under
the same id) is replaced whole. A publish that fails halfway loses nothing: the lab's own saver is
untouched, and the next one finds what the room still lacks.

The command runs in the teacher's worker; :func:`publish_thread` and :func:`publish_threads` import
nothing from Pyodide, so CPython tests them against ``wrangler pages dev`` (and with the room out of
reach). Beside the saver's stores, the room keeps each
thread's session (case, variant, durability, storage): what a learner's lab needs to open a fork of
it (``room_fork``).

============  ========================================  ============================================
command       args                                      result
============  ========================================  ============================================
room_publish  ``{code, teacher_key, lesson, threads,     ``{threads: [{thread_id, sent, checkpoints}],
              open}``                                   refused}``: the open thread (unless ``open``
                                                        is false) and ``threads`` (those the journal
                                                        knows), into ``lesson``'s thread of the
                                                        room; ``refused``: ``{name, status, final}``
                                                        if the room refused (``final``: for good),
                                                        else ``null``
============  ========================================  ============================================

A room keeps a thread per lesson (the room follows the presenter from lesson to lesson): the page
names the lesson it publishes from, and, right after the presenter went on to another lesson, asks
for the threads that lesson's own events name only (``open`` false: the thread still open in the lab
is the lesson left's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from lab.browser.page_storage import PageStorage
from lab.browser.room_records import RoomRecords, RoomRecordsError
from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.storage import BlobRow, CheckpointRow
from lab.controller.session import choices
from lab.controller.thread_file import named_blobs

BATCH_ROWS = 100
"""Rows in one request (the room takes up to 200 changes)."""
BATCH_BYTES = 512 * 1024
"""About this many bytes of stored values in one request (the room takes bodies up to 1 MiB; a value
travels as base64, a third larger)."""

FINAL_REFUSALS = frozenset(("room_closed", "unknown_room", "bad_teacher_key", "missing_teacher_key"))
"""The room's refusals no later publish can mend: it is closed or expired, or the key is not its own."""

Row = TypeVar("Row")


def _size(row: Any) -> int:
    """A row's stored bytes, roughly: its values' bytes and a little for its keys."""
    return 200 + sum(len(value[1]) for value in row.values() if isinstance(value, tuple))


def batches(rows: Sequence[Row], size: Callable[[Any], int] = _size) -> Iterator[list[Row]]:
    """``rows`` in order, in lists of at most :data:`BATCH_ROWS` rows and about :data:`BATCH_BYTES`
    (a row bigger than that goes alone: the room names its refusal)."""
    batch: list[Row] = []
    total = 0
    for row in rows:
        if batch and (len(batch) == BATCH_ROWS or total + size(row) > BATCH_BYTES):
            yield batch
            batch, total = [], 0
        batch.append(row)
        total += size(row)
    if batch:
        yield batch


def _key(row: CheckpointRow) -> tuple[str, str]:
    return row["checkpoint_ns"], row["checkpoint_id"]


async def publish_thread(
    mine: CheckpointSaver, records: RoomRecords, thread_id: str, session: dict[str, Any]
) -> dict[str, Any]:
    """Send the room's ``records`` what they lack of ``thread_id`` from ``mine`` (and, for a thread new
    to the room, its ``session``): ``{thread_id, sent, checkpoints}`` (``sent``: the checkpoints new to
    the room; ``checkpoints``: how many the thread has)."""
    room = CheckpointSaver(PageStorage(records))
    ours = await mine.storage.checkpoints(thread_id, None)
    theirs = {_key(row) for row in await room.storage.checkpoints(thread_id, None)}
    if not theirs <= {_key(row) for row in ours}:  # another thread under the same id: replace it
        await room.storage.delete(threads=[thread_id])
        theirs = set()
    if not theirs:
        await records.keep_session(thread_id, session)
    new = sorted((row for row in ours if _key(row) not in theirs), key=lambda row: row["checkpoint_id"])
    held = named_blobs([row for row in ours if _key(row) in theirs])
    values = await mine.storage.blobs(sorted(named_blobs(new) - held, key=repr))
    blobs: list[BlobRow] = [
        {"thread_id": t, "checkpoint_ns": ns, "channel": channel, "version": version, "value": value}
        for (t, ns, channel, version), value in values.items()
    ]
    pending = await mine.storage.writes([(thread_id, *_key(row)) for row in ours])
    for batch in batches(blobs):
        await room.storage.put(blobs=batch)
    for batch in batches([{**row, "overwrite": True} for row in pending]):
        await room.storage.put(writes=batch)
    for batch in batches(new):
        await room.storage.put(checkpoints=batch)
    return {"thread_id": thread_id, "sent": len(new), "checkpoints": len(ours)}


def _thread_ids(args: dict[str, Any]) -> list[str]:
    threads = args.get("threads", [])
    if not (isinstance(threads, list) and all(isinstance(thread, str) for thread in threads)):
        raise ValueError("'threads' must be a list of thread ids")
    return threads


def _with_open_thread(args: dict[str, Any]) -> bool:
    with_open = args.get("open", True)
    if not isinstance(with_open, bool):
        raise ValueError("'open' must be true or false")
    return with_open


async def publish_threads(
    mine: CheckpointSaver, records: RoomRecords, sessions: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """Publish each thread of ``sessions`` (a thread id and the session it was run with), in order, from
    ``mine`` into the room's ``records``: ``{threads, refused}``, the answer of ``room_publish``. The
    room refusing or out of reach stops the publish there and is said (``refused``), not raised: what
    was sent stays sent, and the next publish finds what the room still lacks."""
    published = []
    try:
        for thread_id, session in sessions.items():
            published.append(await publish_thread(mine, records, thread_id, session))
    except RoomRecordsError as refusal:
        final = refusal.name in FINAL_REFUSALS
        return {
            "threads": published,
            "refused": {"name": refusal.name, "status": refusal.status, "final": final},
        }
    return {"threads": published, "refused": None}


async def room_publish(args: dict[str, Any]) -> dict[str, Any]:
    """Publish this lab's open thread (unless ``open`` is false), and the saved ``threads`` named, into
    room ``code``'s thread of ``lesson`` (the teacher's ``teacher_key``). The room refusing or out of
    reach is an answer (``refused``), not an error: the teacher's lesson goes on, and the next publish
    tries again."""
    from lab.browser import lab_rpc  # Pyodide only: CPython imports this module for publish_threads
    from lab.browser.room_rpc import room_records, text_arg

    code, key, named = text_arg(args, "code"), text_arg(args, "teacher_key"), _thread_ids(args)
    lesson = text_arg(args, "lesson")
    controller = lab_rpc.own_controller()
    saved = {session["thread_id"]: choices(session) for session in await controller.journal.sessions()}
    opened = controller.state.session if _with_open_thread(args) else None
    current = [opened.thread_id] if opened else []
    sessions = {
        thread_id: saved[thread_id] for thread_id in dict.fromkeys([*current, *named]) if thread_id in saved
    }
    room = room_records(code, teacher_key=key, lesson=lesson)
    return await publish_threads(lab_rpc.own_saver(), room, sessions)


COMMANDS = {"room_publish": room_publish}
