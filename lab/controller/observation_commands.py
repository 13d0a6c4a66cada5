"""What the lab observed, and the commands that only read it: the ledger of the outside world,
execution counts, ``view()``, and the storage panel (with Prune).

LangGraph reports a run through ``get_state`` and ``stream``; what a node did to the world outside (a paid
API charged twice) no checkpoint records. The lab keeps that in the world's ledger and in the journal, and
``view()`` computes everything the page draws from them and from the saved checkpoints
(:mod:`lab.controller.view`); the guided lessons check their steps on it (:mod:`lab.lessons.commands`).
LangGraph's savers store a channel's value only when its version changed, and ``prune(thread_ids,
strategy="keep_latest")`` keeps a thread's newest checkpoint only: ``storage`` reports the bytes,
``prune`` prunes (:mod:`lab.controller.storage_panel`). Each command is a function of the controller
(``lab``), listed in :mod:`lab.controller.command_table`.
"""

from __future__ import annotations

from typing import Any

from lab.controller import thread_reading as read
from lab.controller.frames import namespaces
from lab.controller.journal import executions_report
from lab.controller.ledger_rules import annotate_ledger
from lab.controller.seam_catalog import SEAMS
from lab.controller.session import DEFAULT_DURABILITY, DEFAULT_STORAGE, DURABILITIES
from lab.controller.state import Lab
from lab.controller.view import build_view


async def ledger(lab: Lab) -> dict[str, Any]:
    """Every request the outside world received, repeated charges flagged."""
    rows = await lab.world.entries()
    return annotate_ledger(rows, await read.journals_of(lab, rows), profile=lab.profile)


async def executions(lab: Lab) -> dict[str, Any]:
    """How often each node ran over the thread's life; restored vs re-run on the last resume."""
    session = read.require_session(lab)
    return executions_report(await lab.journal.records(session.thread_id))


async def view(lab: Lab) -> dict[str, Any]:
    """Everything the page draws, computed here (see :mod:`lab.controller.view`)."""
    by_ns = await read.frames_by_namespace(lab) if lab.state.session else {"": []}
    frames = by_ns[""]
    rows = await lab.world.entries()
    return build_view(
        seq=lab.state.seq,
        program=lab.state.program,
        profile=lab.profile,
        facts=await read.facts(lab, frames),
        diagram=read.diagram(lab),
        frames=frames,
        namespaces=namespaces(by_ns),
        ledger_rows=rows,
        journals=await read.journals_of(lab, rows),
        defaults={
            "variant": lab.profile.variants[0],
            "variants": lab.profile.variants,
            "durability": DEFAULT_DURABILITY,
            "durabilities": DURABILITIES,
            "storage": DEFAULT_STORAGE,
            "storages": lab.profile.storages,
            "seams": SEAMS,
            "delay": lab.delay,
        },
    )


async def storage(lab: Lab) -> dict[str, Any]:
    """``{"threads", "thread"}``: every thread's bytes, and the current thread's bill checkpoint by
    checkpoint, its growth with its lists whole (LangGraph's default) and as ``DeltaChannel`` deltas,
    and what ``prune`` would keep."""
    # here, not above: the panel's reckoning is imported when it is first opened, not by every boot
    from lab.controller.storage_panel import storage_report

    thread_id = lab.state.session.thread_id if lab.state.session else None
    return await storage_report(lab.saver.reader, read.graph(lab), thread_id)


async def prune(lab: Lab) -> dict[str, Any]:
    """Prune the current thread to its newest checkpoint (``prune(strategy="keep_latest")``, its
    delta values stored whole first); answers with ``storage()``'s report."""
    from lab.controller.storage_panel import prune_thread, storage_report  # here: see storage

    await read.refuse_unless(lab, "prune")
    thread_id = read.require_session(lab).thread_id
    await prune_thread(lab.saver.writer(), read.graph(lab), thread_id)
    return await storage_report(lab.saver.reader, read.graph(lab), thread_id)
