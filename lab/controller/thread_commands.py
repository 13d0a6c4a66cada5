"""The page's commands on whole threads: a link checked, a damaged thread dropped, a thread written
to a file and read back (issue 10, items 6 and 7). A part of ``LabController``.

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

from lab.aml.cases import get_case
from lab.aml.graph import VARIANTS, describe_graph
from lab.checkpoint.errors import CorruptRecordError
from lab.controller.commands import command, validate_thread_id
from lab.controller.messages import Message, message
from lab.controller.record_texts import corrupt_record_message
from lab.controller.session import DURABILITIES, Session, refused, said
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


def damage(thread_id: str, error: CorruptRecordError) -> Message:
    """What the page says about a saved thread whose records no longer load."""
    return message(
        "thread.damaged",
        "Thread {thread} cannot be read: {problem}. Drop it to delete its saved rows; the other "
        "threads are not affected.",
        thread=thread_id,
        problem=corrupt_record_message(error),  # names the record: thread, checkpoint, channel or write
    )


def file_name(thread_id: str) -> str:
    """A file name for ``thread_id`` that any file system takes (the id itself may hold anything)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", thread_id)[:64] + FILE_SUFFIX


def imported_session(thread_file: ThreadFile) -> dict[str, str]:
    """The case, variant and durability the file's thread was run with, if this lab has them."""
    saved = thread_file.session or {}
    try:
        get_case(saved.get("case_id") if isinstance(saved.get("case_id"), str) else "")
    except KeyError:
        raise ThreadFileError(
            "The file's thread belongs to a case this lab does not have", "file.unknown_case"
        ) from None
    if saved.get("variant") not in VARIANTS or saved.get("durability") not in DURABILITIES:
        raise ThreadFileError(
            "The file's thread names a variant or durability this lab does not have", "file.unknown_setting"
        )
    return {key: saved[key] for key in ("case_id", "variant", "durability")}


class ThreadCommands:
    """``link``, ``drop``, ``export_thread``, ``import_thread`` (a part of ``LabController``)."""

    # -- links ---------------------------------------------------------------------------------------
    @command
    async def link(
        self, thread: str | None = None, frame: str | None = None, branch: str | None = None
    ) -> dict[str, Any]:
        """Open what a link names: ``thread`` (opened if saved here), then ``frame`` (a checkpoint id
        or a frame number, 0 = the first) and ``branch`` (its leaf's checkpoint id) on it. Each part
        that cannot be followed is explained in ``notices``; the lab stays where it was for it."""
        notices: list[Message] = []
        followed = thread is None or await self._follow_thread(thread, notices)
        checkpoint_id = branch_id = None
        if followed and self.session is not None and (frame is not None or branch is not None):
            ids = [shown_frame["checkpoint_id"] for shown_frame in await self._frames()]
            checkpoint_id = None if frame is None else self._linked_frame(frame, ids, notices)
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
        current = self.session.thread_id if self.session else None
        return {"thread_id": current, "checkpoint_id": checkpoint_id, "branch": branch_id, "notices": notices}

    async def _follow_thread(self, thread: Any, notices: list[Message]) -> bool:
        try:
            thread_id = check_url_thread_id(thread)
        except BadInputError as bad:
            notices.append(bad.say)
            return False
        if self.session is not None and self.session.thread_id == thread_id:
            return True
        if thread_id not in {saved["thread_id"] for saved in await self.journal.sessions()}:
            notices.append(
                message(
                    "link.no_such_thread",
                    "The link names thread {thread}, which is not saved in this browser",
                    thread=thread_id,
                )
            )
            return False
        opened = await self.open(thread_id)
        if not opened["ok"]:
            reason = opened["error"]["message"]
            notices.append(
                opened["error"].get("say") or message("link.not_opened", "{reason}", reason=reason)
            )
        return opened["ok"]

    @staticmethod
    def _linked_frame(frame: Any, ids: list[str], notices: list[Message]) -> str | None:
        if frame in ids:
            return frame
        try:
            return ids[check_url_frame(frame, len(ids))]
        except BadInputError as bad:
            notices.append(bad.say)
            return None

    # -- damaged threads -------------------------------------------------------------------------------
    async def _listed(self, saved: dict[str, Any], current: str | None) -> dict[str, Any]:
        """A saved thread as ``threads()`` lists it; ``damaged``: why it cannot be read, if so."""
        thread_id = saved["thread_id"]
        try:
            count, damaged = await self._checkpoint_count(thread_id), None
        except CorruptRecordError as error:
            count, damaged = 0, damage(thread_id, error)
        return {**saved, "checkpoints": count, "current": thread_id == current, "damaged": damaged}

    async def _refuse_damaged(self, thread_id: str) -> None:
        """Refuse to open a thread whose records no longer load, naming the record."""
        try:
            await self._checkpoint_count(thread_id)  # loads every checkpoint, its values and writes
        except CorruptRecordError as error:
            raise refused(damage(thread_id, error)) from None

    @command
    async def drop(self, thread_id: str) -> dict[str, Any]:
        """Delete a saved thread: its checkpoints, values and writes, and its journal (the way out
        of a thread whose records no longer load). The ledger keeps its rows: money spent stays spent."""
        thread_id = validate_thread_id(thread_id)
        if thread_id not in {saved["thread_id"] for saved in await self.journal.sessions()}:
            raise said("thread.not_saved_drop", "No saved thread {thread} to drop", thread=repr(thread_id))
        if self.session is not None and self.session.thread_id == thread_id:
            await self._close_run()
            self.session = None
        await self.saver.adelete_thread(thread_id)
        await self.journal.forget(thread_id)
        await self._emit({"type": "dropped", "dropped": thread_id})
        return {"dropped": thread_id}

    # -- thread files ----------------------------------------------------------------------------------
    @command
    async def export_thread(self, thread_id: str | None = None) -> dict[str, Any]:
        """The file of a thread (default: the open one), base64: checkpoints, writes, journal, ledger."""
        thread_id = self._require_session().thread_id if thread_id is None else validate_thread_id(thread_id)
        saved = next((s for s in await self.journal.sessions() if s["thread_id"] == thread_id), None)
        data = await export_thread(
            self.saver.saver,
            thread_id,
            session=None if saved is None else {k: saved[k] for k in ("case_id", "variant", "durability")},
            journal=await self.journal.records(thread_id),
            ledger=[row for row in await self.world.entries() if row.get("thread_id") == thread_id],
        )
        encoded = base64.b64encode(data).decode("ascii")
        return {"thread_id": thread_id, "file_name": file_name(thread_id), "size": len(data), "data": encoded}

    @command
    async def import_thread(self, data: str, size: int | None = None) -> dict[str, Any]:
        """Validate a thread file (``data``: its bytes, base64; ``size``: the file's whole size, when
        the page sent only the first bytes of a file over the limit), store it all, open its thread.
        A refused file stores nothing."""
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
        session = imported_session(thread_file)
        thread_id = validate_thread_id(thread_file.thread_id)
        if thread_id in {saved["thread_id"] for saved in await self.journal.sessions()}:
            raise already_exists(thread_id)
        self.process.check()
        await self._close_run()
        await import_thread(self.saver.saver, thread_file)
        for record in thread_file.journal:
            await self.journal.append(thread_id, record)
        await self.world.add_entries(thread_file.ledger)
        self.session = Session(thread_id, **session)
        await self.journal.save_session(asdict(self.session))
        await self._emit({"type": "session", "session": asdict(self.session)})
        return {
            "session": asdict(self.session),
            "graph": describe_graph(self.graphs[self.session.variant]),
            "imported": {
                "checkpoints": len(thread_file.checkpoints),
                "journal": len(thread_file.journal),
                "ledger": len(thread_file.ledger),
            },
        }
