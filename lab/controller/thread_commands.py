"""The page's commands on whole threads: a link checked, a damaged thread dropped, a thread written
to a file and read back (issue 10, items 6 and 7). Each command is a function of the controller
(``lab``), listed in :mod:`lab.controller.command_table`.

LangGraph's nearest tools are ``delete_thread`` and ``copy_thread`` (within one saver); it has no
links and no files. Here every rule stays in Python: which link parts are refused and why
(:mod:`lab.controller.validation`), which saved thread no longer loads (a
:class:`~lab.checkpoint.errors.CorruptRecordError` names the record), what a thread file must hold
(:mod:`lab.controller.thread_file`). The page only shows the messages (``say``).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import asdict
from typing import Any

from lab.checkpoint.delta import DELTA
from lab.controller import session_commands
from lab.controller import thread_reading as read
from lab.controller.messages import Message, message
from lab.controller.profile import GraphProfile
from lab.controller.session import (
    DEFAULT_STORAGE,
    DURABILITIES,
    LabError,
    Session,
    choices,
    said,
    validate_thread_id,
)
from lab.controller.state import Lab
from lab.controller.thread_file import (
    ThreadFile,
    ThreadFileError,
    already_exists,
    check_file_size,
    export_thread,
    import_thread,
    read_thread_file,
)
from lab.controller.validation import BadInputError, check_url_frame, check_url_thread_id, shown

FILE_SUFFIX = ".cklab"
"""A thread file's name ends so: ``<thread id>.cklab``."""


def file_name(thread_id: str) -> str:
    """A file name for ``thread_id`` that any file system takes (the id itself may hold anything)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", thread_id)[:64] + FILE_SUFFIX


def imported_session(thread_file: ThreadFile, profile: GraphProfile) -> dict[str, str]:
    """The case, variant, durability and storage the file's thread was run with, if this lab has
    them (a file without a storage that holds delta sentinels was made when the lab's lists were
    deltas by default)."""
    saved = thread_file.session or {}
    try:
        profile.case_input(saved.get("case_id") if isinstance(saved.get("case_id"), str) else "")
    except KeyError:
        raise ThreadFileError(
            "The file's thread belongs to a case this lab does not have", "file.unknown_case"
        ) from None
    storage = saved.get("storage", "delta" if stores_deltas(thread_file) else DEFAULT_STORAGE)
    if (
        saved.get("variant") not in profile.variants
        or saved.get("durability") not in DURABILITIES
        or storage not in profile.storages
    ):
        raise ThreadFileError(
            "The file's thread names a variant or durability this lab does not have", "file.unknown_setting"
        )
    return choices({**saved, "storage": storage})


def check_operations(thread_file: ThreadFile, profile: GraphProfile) -> None:
    """Refuse a file whose ledger holds a request of an operation this lab's graph does not make."""
    kinds = [operation.kind for operation in profile.operations]
    for position, entry in enumerate(thread_file.ledger):
        if entry["kind"] not in kinds:
            raise ThreadFileError(
                "{where} is a request of kind {kind}, which this graph does not make (it makes: {kinds})",
                "file.unknown_operation",
                where=f"ledger[{position}]",
                kind=repr(entry["kind"]),
                kinds=", ".join(kinds) or "none",
            )


def stores_deltas(thread_file: ThreadFile) -> bool:
    return any(tuple(blob["value"]) == DELTA for blob in thread_file.blobs)


# -- links ---------------------------------------------------------------------------------------------


async def link(
    lab: Lab, thread: str | None = None, frame: str | None = None, branch: str | None = None
) -> dict[str, Any]:
    """Open what a link names: ``thread`` (opened if saved here), then ``frame`` (a checkpoint id
    or a frame number, 0 = the first) and ``branch`` (its leaf's checkpoint id) on it. Each part
    that cannot be followed is explained in ``notices``; the lab stays where it was for it."""
    notices: list[Message] = []
    followed = thread is None or await follow_thread(lab, thread, notices)
    checkpoint_id = branch_id = None
    if followed and lab.state.session is not None and (frame is not None or branch is not None):
        ids = [shown_frame["checkpoint_id"] for shown_frame in await read.frames(lab)]
        checkpoint_id = None if frame is None else linked_frame(frame, ids, notices)
        if branch is not None and branch in ids:
            branch_id = branch
        elif branch is not None:
            notices.append(
                message(
                    "link.unknown_branch",
                    "The link's branch {shown} is not a checkpoint of this thread; the head's "
                    "branch is shown",
                    shown=shown(str(branch)),
                )
            )
    current = lab.state.session.thread_id if lab.state.session else None
    return {"thread_id": current, "checkpoint_id": checkpoint_id, "branch": branch_id, "notices": notices}


async def follow_thread(lab: Lab, thread: Any, notices: list[Message]) -> bool:
    """Open the link's thread if it is saved here; else say why not in ``notices``."""
    try:
        thread_id = check_url_thread_id(thread)
    except BadInputError as bad:
        notices.append(bad.say)
        return False
    if lab.state.session is not None and lab.state.session.thread_id == thread_id:
        return True
    if await session_commands.saved_session(lab, thread_id) is None:
        notices.append(
            message(
                "link.no_such_thread",
                "The link names thread {thread}, which is not saved in this browser",
                thread=thread_id,
            )
        )
        return False
    try:
        await session_commands.open_thread(lab, thread_id)
    except LabError as refusal:
        notices.append(refusal.say or message("link.not_opened", "{reason}", reason=str(refusal)))
        return False
    return True


def linked_frame(frame: Any, ids: list[str], notices: list[Message]) -> str | None:
    if frame in ids:
        return frame
    try:
        return ids[check_url_frame(frame, len(ids))]
    except BadInputError as bad:
        notices.append(bad.say)
        return None


# -- damaged threads -------------------------------------------------------------------------------------


async def drop(lab: Lab, thread_id: str) -> dict[str, Any]:
    """Delete a saved thread: its checkpoints, values and writes, and its journal (the way out
    of a thread whose records no longer load). The ledger keeps its rows: money spent stays spent."""
    thread_id = validate_thread_id(thread_id)
    if await session_commands.saved_session(lab, thread_id) is None:
        raise said("thread.not_saved_drop", "No saved thread {thread} to drop", thread=repr(thread_id))
    if lab.state.session is not None and lab.state.session.thread_id == thread_id:
        await lab.driver.close_run()
        lab.state.session = None
    await lab.saver.adelete_thread(thread_id)
    await lab.journal.forget(thread_id)
    await lab.emit({"type": "dropped", "dropped": thread_id})
    return {"dropped": thread_id}


# -- thread files ------------------------------------------------------------------------------------


async def export(lab: Lab, thread_id: str | None = None) -> dict[str, Any]:
    """``export_thread``: the file of a thread (default: the open one), base64: checkpoints, writes,
    journal, ledger."""
    thread_id = read.require_session(lab).thread_id if thread_id is None else validate_thread_id(thread_id)
    saved = await session_commands.saved_session(lab, thread_id)
    data = await export_thread(
        lab.saver.reader,
        thread_id,
        session=None if saved is None else choices(saved),
        journal=await lab.journal.records(thread_id),
        ledger=[row for row in await lab.world.entries() if row.get("thread_id") == thread_id],
    )
    encoded = base64.b64encode(data).decode("ascii")
    return {"thread_id": thread_id, "file_name": file_name(thread_id), "size": len(data), "data": encoded}


async def import_file(lab: Lab, data: str, size: int | None = None) -> dict[str, Any]:
    """``import_thread``: validate a thread file (``data``: its bytes, base64; ``size``: the file's
    whole size, when the page sent only the first bytes of a file over the limit), store it all,
    open its thread. A refused file stores nothing."""
    if isinstance(size, int):
        check_file_size(size)
    if not isinstance(data, str):
        raise ThreadFileError("The page sent no file", "file.none_sent")
    try:
        thread_file = read_thread_file(base64.b64decode(data, validate=True))
    except binascii.Error:
        raise ThreadFileError(
            "The file did not arrive whole (it is not valid base64)", "file.not_base64"
        ) from None
    session = imported_session(thread_file, lab.profile)
    check_operations(thread_file, lab.profile)
    thread_id = validate_thread_id(thread_file.thread_id)
    if await session_commands.saved_session(lab, thread_id) is not None:
        raise already_exists(thread_id)
    await lab.driver.close_run()
    await import_thread(lab.saver.writer(), thread_file)
    for record in thread_file.journal:
        await lab.journal.append(thread_id, record)
    await lab.world.add_entries(thread_file.ledger)
    await session_commands.become(lab, Session(thread_id, **session))
    return {
        "session": asdict(lab.state.session),
        "graph": read.diagram(lab),
        "imported": {
            "checkpoints": len(thread_file.checkpoints),
            "journal": len(thread_file.journal),
            "ledger": len(thread_file.ledger),
        },
    }
