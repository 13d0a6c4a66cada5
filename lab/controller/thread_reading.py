"""Reading the thread, and the refusals every command checks first.

LangGraph reads a thread through its config: ``{"configurable": {"thread_id", "checkpoint_id"?}}``,
``aget_state`` (the head as a ``StateSnapshot``), and the saver's ``aget_tuple`` / ``alist`` (one
checkpoint, every checkpoint newest first). The lab reads the same way, rebuilds delta channels'
values (``acomplete``), and gathers what the view's rules read into one
:class:`~lab.controller.facts.ThreadFacts`. LangGraph also raises at its caller when a call cannot be
made; the lab's commands refuse the same situations and more the page must explain (a crashed
process, no thread chosen, a run still going, an action the view shows disabled), each with the
reason the page shows. Every function here takes the controller (``lab``) and reads its state.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from lab.checkpoint.base import CheckpointTuple
from lab.controller.actions import NO_CASE, PAUSED, RUNNING, refusal
from lab.controller.facts import ThreadFacts
from lab.controller.frames import checkpoint_id_of, frame_of
from lab.controller.seam_catalog import THE_STEP
from lab.controller.session import Session, refused, said
from lab.controller.state import Lab
from lab.graph import CompiledStateGraph
from lab.pregel.graph import Pregel
from lab.pregel.subgraph import graph_for_namespace

# -- refusals ---------------------------------------------------------------------------------------


def require_alive(lab: Lab) -> None:
    if not lab.process.alive:
        where = lab.state.crash_report or {}
        raise said(
            "process.crashed",
            "This Python process crashed at {seam} of {node}; start a new controller over the same "
            "storage, then resume",
            seam=where.get("seam"),
            node=where.get("node") or THE_STEP,
        )


def require_session(lab: Lab) -> Session:
    if lab.state.session is None:
        raise refused(NO_CASE)
    return lab.state.session


def require_idle(lab: Lab) -> None:
    if lab.state.run is not None:
        raise refused(PAUSED if lab.state.run.gate is not None else RUNNING)


async def refuse_unless(lab: Lab, action: str) -> None:
    """Refuse ``action`` with the reason the page shows next to its disabled button."""
    if (reason := refusal(action, await facts(lab))) is not None:
        raise refused(reason)


# -- reads ------------------------------------------------------------------------------------------


def graph(lab: Lab) -> CompiledStateGraph:
    session = require_session(lab)
    return lab.graph_for(session.variant, session.storage)


def diagram(lab: Lab) -> dict[str, Any]:
    """The diagram of the session's graph variant (the first variant's when no thread is open)."""
    session = lab.state.session
    return (
        lab.diagram_for(session.variant, session.storage)
        if session
        else lab.diagram_for(lab.profile.variants[0])
    )


def thread_config(lab: Lab, checkpoint_id: str | None = None) -> dict[str, Any]:
    configurable = {"thread_id": require_session(lab).thread_id}
    if checkpoint_id is not None:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


async def snapshot(lab: Lab) -> Any:
    return await graph(lab).aget_state(thread_config(lab))


async def head_id(lab: Lab, thread_id: str) -> str | None:
    saved = await lab.saver.aget_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
    return saved.checkpoint["id"] if saved else None


async def checkpoint_count(lab: Lab, thread_id: str) -> int:
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    return len([saved async for saved in lab.saver.alist(config)])


async def saved(lab: Lab, checkpoint_id: Any) -> CheckpointTuple:
    if not isinstance(checkpoint_id, str) or not checkpoint_id:
        raise said("input.checkpoint_not_text", "checkpoint_id must be a checkpoint id (text)")
    config = {"configurable": {**thread_config(lab, checkpoint_id)["configurable"], "checkpoint_ns": ""}}
    found = await graph(lab).acomplete(await lab.saver.aget_tuple(config))  # delta values rebuilt
    if found is None:
        raise said(
            "thread.no_checkpoint",
            "Thread {thread} has no checkpoint {checkpoint}",
            thread=repr(require_session(lab).thread_id),
            checkpoint=repr(checkpoint_id),
        )
    return found


async def frames(lab: Lab) -> list[dict[str, Any]]:
    """The thread's checkpoints in the root namespace (the graph the lab runs), oldest first."""
    config = {"configurable": {"thread_id": require_session(lab).thread_id, "checkpoint_ns": ""}}
    return await frames_of(graph(lab), [found async for found in lab.saver.alist(config)])


async def frames_of(compiled: Pregel, newest_first: list[CheckpointTuple]) -> list[dict[str, Any]]:
    """Checkpoints of ``compiled`` (newest first, as a saver lists them) as frames, oldest first."""
    completed = await compiled.acomplete_all(newest_first)  # delta values rebuilt
    return [frame_of(found, compiled) for found in reversed(completed)]


async def frames_by_namespace(lab: Lab) -> dict[str, list[dict[str, Any]]]:
    """Every checkpoint of the thread, by namespace (``""`` always there): one listing of the
    saver, each subgraph's checkpoints read as that subgraph's (``get_state`` with the config of
    a subgraph's namespace reads them the same way)."""
    config = {"configurable": {"thread_id": require_session(lab).thread_id}}  # no checkpoint_ns: all
    listed: dict[str, list[CheckpointTuple]] = {"": []}
    async for found in lab.saver.alist(config):
        listed.setdefault(found.config["configurable"].get("checkpoint_ns", ""), []).append(found)
    compiled = graph(lab)
    return {ns: await frames_of(graph_for_namespace(compiled, ns), found) for ns, found in listed.items()}


def live_run(lab: Lab) -> dict[str, Any] | None:
    """The live run as the view shows it: ``{"run", "kind", "durability", "paused"[, "step", "next"]}``."""
    run = lab.state.run
    if run is None:
        return None
    live = {"run": run.number, "kind": run.kind, "durability": run.durability, "paused": run.gate is not None}
    if run.gate is not None and run.paused:
        live |= {"step": run.paused["step"], "next": run.paused["next"]}
    return live


def armed(lab: Lab) -> dict[str, Any] | None:
    return asdict(lab.state.crash) if lab.state.crash else None


async def thread_state(lab: Lab) -> dict[str, Any]:
    now = await snapshot(lab)
    run = live_run(lab)
    return {
        "session": asdict(require_session(lab)),
        "values": now.values,
        "next": now.next,
        "interrupts": now.interrupts,
        "checkpoint_id": checkpoint_id_of(now.config) if now.metadata else None,
        "run": None if run is None else {key: run[key] for key in ("run", "kind", "paused")},
        "crash_armed": armed(lab),
    }


async def facts(lab: Lab, shown: list[dict[str, Any]] | None = None) -> ThreadFacts:
    """What the view's rules read: session, live run, saved head, journal, armed crash."""
    state = lab.state
    if state.session is None:
        return ThreadFacts(None, armed=armed(lab), writer=state.writer)
    shown = await frames(lab) if shown is None else shown
    return ThreadFacts(
        session=asdict(state.session),
        run=live_run(lab),
        head=shown[-1] if shown else None,
        records=await lab.journal.records(state.session.thread_id),
        armed=armed(lab),
        frame_ids=frozenset(f["checkpoint_id"] for f in shown),
        writer=state.writer,
    )


def quick_facts(lab: Lab) -> ThreadFacts:
    """The facts no storage read is needed for (session, live run, armed crash, writer): enough for
    the one-writer rule and for Open."""
    session = lab.state.session
    return ThreadFacts(
        asdict(session) if session else None, run=live_run(lab), armed=armed(lab), writer=lab.state.writer
    )


async def journals_of(lab: Lab, rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The journal of every thread the ledger's requests came from (to tell why one repeated)."""
    return {thread: await lab.journal.records(thread) for thread in {r["thread_id"] for r in rows}}
