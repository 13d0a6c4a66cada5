"""The session commands: which thread the lab works on, and what the page needs to draw it.

In LangGraph a thread is only a key, ``{"configurable": {"thread_id": ...}}``: every checkpoint is
saved under it, and ``delete_thread`` forgets one. The lab's session is that key plus what the
learner chose for it (case, variant, durability), remembered in the journal so that a reload or a
crash picks the same thread up again: ``catalog``, ``start``, ``restore``, ``threads``, ``open``,
``state``, ``set_writer`` (one writer per thread across tabs) and ``reset``. Each command is a
function of the controller (``lab``), listed in :mod:`lab.controller.command_table`.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict
from typing import Any

from lab.checkpoint.errors import CorruptRecordError
from lab.controller import thread_reading as read
from lab.controller.actions import already_open, nothing_saved, refusal, verdict
from lab.controller.facts import WRITERS, last_run
from lab.controller.messages import Message
from lab.controller.record_texts import damage
from lab.controller.seam_catalog import SEAMS
from lab.controller.session import (
    DEFAULT_DURABILITY,
    DEFAULT_STORAGE,
    DURABILITIES,
    Session,
    choices,
    choose,
    refused,
    said,
    validate_thread_id,
)
from lab.controller.state import Lab
from lab.controller.thread_file import MAX_FILE_BYTES
from lab.controller.validation import MAX_FORK_BYTES


async def catalog(lab: Lab) -> dict[str, Any]:
    """Everything the page needs to draw itself: cases, variants, modes, seams, diagrams."""
    session = lab.state.session
    return {
        "cases": lab.profile.cases(),
        "variants": lab.profile.variants,
        "durabilities": DURABILITIES,
        "storages": lab.profile.storages,
        "seams": SEAMS,
        "commands": tuple(lab.commands),
        "graphs": {v: lab.profile.describe(lab.graph_for(v)) for v in lab.profile.variants},
        "session": asdict(session) if session else None,
        "limits": {"thread_file_bytes": MAX_FILE_BYTES, "fork_bytes": MAX_FORK_BYTES},
    }


async def start(
    lab: Lab,
    case_id: str,
    variant: str | None = None,
    durability: str = DEFAULT_DURABILITY,
    thread_id: str | None = None,
    storage: str = DEFAULT_STORAGE,
) -> dict[str, Any]:
    """A new thread for ``case_id`` (``variant``: the profile's first unless given; ``storage``:
    ``"delta"`` opts the graph's lists in to ``DeltaChannel``); nothing runs until ``step`` or ``run``."""
    check_case(lab, case_id)
    variant = choose(lab.profile.variants[0] if variant is None else variant, lab.profile.variants, "variant")
    choose(durability, DURABILITIES, "durability")
    choose(storage, lab.profile.storages, "storage")
    thread_id = validate_thread_id(f"{case_id}-{uuid.uuid4().hex[:8]}" if thread_id is None else thread_id)
    if await read.head_id(lab, thread_id) is not None:
        raise said(
            "thread.exists_start",
            "Thread {thread} already has checkpoints; choose another thread id",
            thread=repr(thread_id),
        )
    await become(lab, Session(thread_id, case_id, variant, durability, storage))
    return {"session": asdict(lab.state.session), "graph": read.diagram(lab)}


def check_case(lab: Lab, case_id: Any) -> None:
    """Refuse a case the graph's profile does not know."""
    try:
        lab.profile.case_input(case_id if isinstance(case_id, str) else repr(case_id))
    except KeyError as exc:
        raise said(
            "input.unknown_case",
            "{problem}",
            problem=exc.args[0],
            case=repr(case_id),
            cases=", ".join(case["id"] for case in lab.profile.cases()),
        ) from None


async def become(lab: Lab, session: Session) -> None:
    """Make ``session`` the lab's thread (a paused run is closed first), remembered and announced."""
    await lab.driver.close_run()
    lab.state.session = session
    await lab.journal.save_session(asdict(session))
    await lab.emit({"type": "session", "session": asdict(session)})


async def restore(lab: Lab, observe_only: bool = False, thread_id: str | None = None) -> dict[str, Any]:
    """Pick up the session the journal remembers (after a crash or a reload), or the saved thread
    ``thread_id`` (the one this tab had: another tab may have opened another since).
    ``observe_only``: a warm spare boots while another process may still be running the thread,
    so it only reads; the process that takes over restores for real and writes down a run that
    died unseen (with tabs, ``set_writer("here")`` does that once this tab holds the lock)."""
    await lab.driver.close_run()
    saved = await remembered(lab, thread_id)
    lab.state.session = session = Session(**saved) if saved else None
    if session is None:
        return {"session": None}
    if not observe_only:
        await note_unseen_death(lab, session.thread_id)
    try:
        await read.checkpoint_count(lab, session.thread_id)  # loads every record of the thread
        return {"session": saved, "state": await read.thread_state(lab)}
    except CorruptRecordError as error:  # the lab opens without it; threads() offers to drop it
        lab.state.session = None
        return {"session": None, "damaged": damage(session.thread_id, error)}


async def remembered(lab: Lab, thread_id: str | None) -> dict[str, Any] | None:
    """The session to restore: the saved thread ``thread_id`` if it still is saved, else the
    journal's current one."""
    if thread_id is not None and (saved := await saved_session(lab, validate_thread_id(thread_id))):
        return {"thread_id": saved["thread_id"], **choices(saved)}
    return await lab.journal.session()


async def saved_session(lab: Lab, thread_id: str) -> dict[str, Any] | None:
    """The journal's saved session of ``thread_id``, if it has one."""
    return next((s for s in await lab.journal.sessions() if s["thread_id"] == thread_id), None)


async def note_unseen_death(lab: Lab, thread_id: str) -> None:
    """A run the journal saw start but never end or crash died with its process outside any
    seam (the page killed the worker at a random moment): write that down, as a crash."""
    records = await lab.journal.records(thread_id)
    run = last_run(records)
    if run is None or run["status"] != "running":
        return
    step = max((r["step"] for r in records if r.get("run") == run["run"] and "step" in r), default=-1)
    point = {"seam": "kill", "node": None, "step": step, "checkpoint_id": None}
    await lab.journal.append(thread_id, {"type": "crash", "run": run["run"], **point, "at": time.time()})


async def threads(lab: Lab) -> dict[str, Any]:
    """Every saved thread, newest first: its case, variant, durability and checkpoint count; ``pick``:
    whether the threads picker has anything to choose (:func:`~lab.controller.actions.nothing_saved`)."""
    current = lab.state.session.thread_id if lab.state.session else None
    refused_now = refusal("open", read.quick_facts(lab))
    listing = [await listed(lab, s, current, refused_now) for s in await lab.journal.sessions()]
    return {"current": current, "threads": listing, "pick": verdict(nothing_saved(len(listing)))}


async def open_thread(lab: Lab, thread_id: str) -> dict[str, Any]:
    """``open``: make the saved thread ``thread_id`` the session again (a learner goes back to it)."""
    thread_id = validate_thread_id(thread_id)
    saved = await saved_session(lab, thread_id)
    if saved is None:
        raise said(
            "thread.not_saved",
            "No saved thread {thread}; the saved threads are listed by threads()",
            thread=repr(thread_id),
        )
    if reason := already_open(thread_id, lab.state.session.thread_id if lab.state.session else None):
        raise refused(reason)
    await refuse_damaged(lab, thread_id)
    await become(lab, Session(saved["thread_id"], **choices(saved)))
    return {
        "session": asdict(lab.state.session),
        "graph": read.diagram(lab),
        "state": await read.thread_state(lab),
    }


async def listed(
    lab: Lab, saved: dict[str, Any], current: str | None, refused_now: Message | None
) -> dict[str, Any]:
    """A saved thread as ``threads()`` lists it; ``damaged``: why it cannot be read, if so; ``open``:
    whether Open can open it, as ``{"enabled", "reason"}`` (``refused_now``: why the lab refuses any
    Open now, else whether it is open already)."""
    thread_id = saved["thread_id"]
    try:
        count, damaged = await read.checkpoint_count(lab, thread_id), None
    except CorruptRecordError as error:
        count, damaged = 0, damage(thread_id, error)
    return {
        **saved,
        "checkpoints": count,
        "current": thread_id == current,
        "damaged": damaged,
        "open": verdict(refused_now or already_open(thread_id, current)),
    }


async def refuse_damaged(lab: Lab, thread_id: str) -> None:
    """Refuse to open a thread whose records no longer load, naming the record."""
    try:
        await read.checkpoint_count(lab, thread_id)  # loads every checkpoint, its values and writes
    except CorruptRecordError as error:
        raise refused(damage(thread_id, error)) from None


async def state(lab: Lab) -> dict[str, Any]:
    """The thread now: live values, next nodes, open interrupts, and what the lab is doing."""
    return await read.thread_state(lab)


async def set_writer(lab: Lab, writer: str) -> dict[str, Any]:
    """Who writes this thread across the browser's tabs (LangGraph assumes one writer per thread;
    the page holds a Web Lock per thread and reports it): ``"here"`` or ``"elsewhere"``. While
    another tab writes, every writing command is refused and the view is read-only. A paused run
    is closed when the lock is lost; a live run cannot be, so that is refused (the page then
    kills its process, as a lost lease should). Holding the lock with no run of its own, this
    process knows a run the journal saw start and never end is dead, and writes that down."""
    writer = choose(writer, WRITERS, "writer")
    if writer == "elsewhere":
        await lab.driver.close_run()
    lab.state.writer = writer
    if writer == "here" and lab.state.session is not None and lab.state.run is None:
        await note_unseen_death(lab, lab.state.session.thread_id)
    return {"writer": writer}


async def reset(lab: Lab) -> dict[str, Any]:
    """Forget everything: every thread's checkpoints, the ledger, the journal, the session."""
    await lab.driver.close_run()
    thread_ids = {saved.config["configurable"]["thread_id"] async for saved in lab.saver.alist(None)}
    for thread_id in sorted(thread_ids):
        await lab.saver.adelete_thread(thread_id)
    await lab.world.clear()
    await lab.journal.clear()
    lab.state.session, lab.state.crash = None, None
    await lab.emit({"type": "reset", "threads_deleted": len(thread_ids)})
    return {"threads_deleted": len(thread_ids)}
