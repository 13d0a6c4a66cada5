"""The run commands: ``step``, ``run``, ``resume`` and ``answer``, each one ``ainvoke`` of the graph,
and where the next run dies: ``arm_crash``, ``disarm_crash``.

LangGraph starts a thread with ``ainvoke(input, config)``, continues it (after a crash: finished
tasks restored from their pending writes, the others re-run) with ``ainvoke(None, config)``, and
answers an ``interrupt()`` with ``ainvoke(Command(resume=...), config)``. The lab sends the same
calls; ``step`` pauses the run after one super-step inside that one call
(:mod:`lab.controller.run_driver`). LangGraph's durable execution promises that a thread killed at
any moment resumes from its last checkpoint and pending writes; it has no command to kill one. The
lab arms a crash at a seam of the Pregel loop (a :class:`~lab.controller.run_driver.CrashPoint`),
and the run driver kills the process there, as ``kill -9`` would; which seams a node can reach is
the seam catalogue's rule, read from the graph and its profile
(:func:`~lab.controller.seam_catalog.arm_refusal`). Each command is a function of the controller
(``lab``), listed in :mod:`lab.controller.command_table`.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from lab.controller import thread_reading as read
from lab.controller.seam_catalog import arm_refusal, seam_catalog
from lab.controller.session import Until, refused, said
from lab.controller.state import CrashPoint, Lab, crash_after
from lab.controller.validation import check_resume
from lab.types import Command


async def step(lab: Lab, durability: str | None = None) -> dict[str, Any]:
    """Advance one super-step: start a run (or continue the thread), then pause at the next frame."""
    return await advance(lab, "step", durability)


async def run(lab: Lab, durability: str | None = None) -> dict[str, Any]:
    """Run to the next interrupt or to the end (continuing a paused run)."""
    return await advance(lab, "end", durability)


async def invoke(
    lab: Lab, input: Any = None, until: Until = "end", durability: str | None = None
) -> dict[str, Any]:
    """LangGraph's ``graph.invoke(input, config)`` on the open thread: a new run from ``input`` whether
    or not the thread has checkpoints (a conversation's next turn reads the last one). The
    playground's script makes one per ``invoke`` it calls (:mod:`lab.playground.script`)."""
    await read.refuse_unless(lab, "invoke")
    return await lab.driver.start_run("input", input, read.thread_config(lab), until, durability)


async def resume(lab: Lab, until: Until = "end", durability: str | None = None) -> dict[str, Any]:
    """Continue the thread after a crash: ``ainvoke(None, thread_config)``. Finished tasks of
    the interrupted step are restored from their pending writes; the others run again."""
    await read.refuse_unless(lab, "resume")
    return await lab.driver.start_run("resume", None, read.thread_config(lab), until, durability)


NO_VALUE: Any = object()
"""``answer`` without ``value``: Approve / Reject decide the resume value."""


async def answer(
    lab: Lab,
    approve: bool | None = None,
    until: Until = "end",
    durability: str | None = None,
    value: Any = NO_VALUE,
) -> dict[str, Any]:
    """Answer the open interrupt: ``Command(resume=profile.answer(approve))`` (Approve / Reject), or,
    given ``value`` (any JSON value, the playground's answer box), ``Command(resume=value)``."""
    if value is NO_VALUE and not isinstance(approve, bool):
        raise said("input.approve_not_bool", "approve must be true or false")
    await read.refuse_unless(lab, "approve")
    value = lab.profile.answer(approve) if value is NO_VALUE else value
    check_resume((await read.snapshot(lab)).interrupts, value)
    request = Command(resume=value)
    return await lab.driver.start_run("answer", request, read.thread_config(lab), until, durability)


async def advance(lab: Lab, until: Until, durability: str | None) -> dict[str, Any]:
    """Step / Run: release a paused run, else start the thread (its case's input) or continue it."""
    live = lab.state.run
    if live is not None and live.gate is not None:
        if durability not in (None, live.durability):
            raise said(
                "input.durability_kept",
                "This run was started with durability {durability}; it keeps it",
                durability=repr(live.durability),
            )
        return await lab.driver.release(live, until)
    await read.refuse_unless(lab, "run")
    session = read.require_session(lab)
    config = read.thread_config(lab)
    if await read.head_id(lab, session.thread_id) is None:
        case_input = lab.profile.case_input(session.case_id)
        return await lab.driver.start_run("input", case_input, config, until, durability)
    return await lab.driver.start_run("continue", None, config, until, durability)


async def arm_crash(
    lab: Lab,
    seam: str,
    node: str | None = None,
    step: int | None = None,
    after: list[Any] | None = None,
) -> dict[str, Any]:
    """Kill the process the next time a run reaches ``seam`` (of ``node``, in ``step``, if given),
    once the seam ``after`` (``[seam, node]``, or a list of them) has happened in that run."""
    crash = CrashPoint(seam, node, step, crash_after(after))
    catalog = seam_catalog(read.diagram(lab))
    for point in [(seam, node), *crash.waits_for()]:
        if (reason := arm_refusal(catalog, *point)) is not None:
            raise refused(reason)
    if step is not None and (not isinstance(step, int) or isinstance(step, bool)):
        raise said("input.step_not_number", "step must be a whole number, got {given}", given=repr(step))
    await read.refuse_unless(lab, "arm")  # (always allowed: a crash can be armed before a case starts)
    lab.state.crash = crash
    return {"armed": asdict(crash)}


async def disarm_crash(lab: Lab) -> dict[str, Any]:
    lab.state.crash = None
    return {"armed": None}
