"""The run driver: one ``ainvoke`` of the graph at a time, paused at a gate, killed at a seam.

LangGraph runs a graph with ``invoke`` / ``ainvoke`` and reports its progress through streaming; the
lab drives the same call and watches it through the loop's seam hook (``on_seam=``):

- **the pause gate**: at ``step_start`` the hook awaits an ``asyncio.Event`` the controller owns, so
  Step pauses inside one continuous run (a paused run differs from a normal run only in time);
- **crash injection**: at the armed seam the hook records the crash, kills the
  :class:`~lab.controller.process.Process` and freezes, as ``kill -9`` would;
- every seam is also written down and announced (:mod:`lab.controller.seam_events`).

:class:`RunDriver` is the part of :class:`~lab.controller.controller.LabController` that does this.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from dataclasses import dataclass, field
from typing import Any

from lab.aml.graph import RunContext, use_run_context
from lab.controller.actions import RUNNING
from lab.controller.frames import checkpoint_id_of
from lab.controller.process import ProcessKilled
from lab.controller.seam_events import seam_payload
from lab.controller.session import DURABILITIES, LabError, Until, choose, error_payload, refused, said
from lab.graph import CompiledStateGraph
from lab.pregel.loop import Seam

SeamOf = tuple[str, str | None]
"""A seam and its node, e.g. ``("put_writes", "fetch_transactions")``."""


@dataclass(frozen=True)
class CrashPoint:
    """Where the next run dies: a seam name, optionally of one node and of one step.

    ``after`` (one :data:`SeamOf`, or a tuple of them) makes the crash fire only once those seams
    have happened in the run too: parallel siblings, and under ``durability="async"`` the saves
    running in the background, go at whatever pace the machine gives them, and a lesson or a test
    needs one order. The process dies when the last of them happens: if that is the crash's own
    seam, it waits for the others (at most :data:`AFTER_WAIT_S`); if it is one of ``after``, that
    seam holds where it is until the crash's seam comes (see ``RunDriver._hold_for_crash``)."""

    seam: str
    node: str | None = None
    step: int | None = None
    after: SeamOf | tuple[SeamOf, ...] | None = None

    def matches(self, seam: Seam) -> bool:
        return (
            seam.name == self.seam
            and (self.node is None or seam.node == self.node)
            and (self.step is None or seam.step == self.step)
        )

    def waits_for(self) -> tuple[SeamOf, ...]:
        """The seams ``after`` names, as a tuple of ``(seam, node)``."""
        if self.after is None:
            return ()
        if isinstance(self.after[0], tuple):
            return self.after  # type: ignore[return-value]
        return (self.after,)  # type: ignore[return-value]


def crash_after(after: Any) -> SeamOf | tuple[SeamOf, ...] | None:
    """``arm_crash``'s ``after`` as a :class:`CrashPoint` keeps it: ``[seam, node]`` or a list of them."""
    if after is None:
        return None
    if _is_seam_of(after):
        return (after[0], after[1])
    if isinstance(after, list | tuple) and after and all(_is_seam_of(one) for one in after):
        return tuple((one[0], one[1]) for one in after)
    raise said("input.after_shape", "after must be [seam, node], got {given}", given=repr(after))


def _is_seam_of(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2 and not isinstance(value[0], list | tuple)


AFTER_WAIT_S = 10.0
"""How long an armed crash waits for its ``after`` seam before it kills the process anyway."""


@dataclass
class Run:
    """One ``ainvoke`` of the graph, as the controller drives it."""

    number: int
    kind: str  # input | continue | resume | answer | replay
    thread_id: str
    durability: str
    until: Until
    context: RunContext
    stopped: asyncio.Future[dict[str, Any]]  # resolved when the run pauses, stops, ends or crashes
    frame: str | None  # the checkpoint the run stood on when last (re)started: pause at a new one
    task: asyncio.Task[None] | None = None
    gate: asyncio.Event | None = None  # set while paused; setting it releases the run
    paused_at: str | None = None
    paused: dict[str, Any] | None = None  # where it pauses: {"step", "checkpoint_id", "next"}
    closing: bool = False
    step: int = -1  # the step running now (from the last step_start seam)
    seen: set[tuple[str, str | None]] = field(default_factory=set)  # (seam, node) met so far
    progressed: asyncio.Event = field(default_factory=asyncio.Event)  # set and cleared at every seam
    dying: asyncio.Event = field(default_factory=asyncio.Event)  # set when the armed crash's seam is met


class RunDriver:
    """Start, pause, release, close and crash runs (a part of ``LabController``)."""

    # -- process death (CPython stand-in for worker.terminate()) --------------------------------------
    async def terminate(self) -> None:
        """End this controller's process for good; nothing it still runs reaches the outside."""
        self.process.bury()
        run = self._run
        if run is not None and run.task is not None and not run.task.done():
            run.task.cancel()
            await asyncio.gather(run.task, return_exceptions=True)

    async def _start_run(
        self, kind: str, request: Any, config: dict[str, Any], until: Until, durability: str | None
    ) -> dict[str, Any]:
        session = self._require_session()
        choose(until, ("step", "end"), "until")
        mode = choose(durability or session.durability, DURABILITIES, "durability")
        records = await self.journal.records(session.thread_id)
        run = Run(
            number=1 + sum(r["type"] == "run_start" for r in records),
            kind=kind,
            thread_id=session.thread_id,
            durability=mode,
            until=until,
            context=RunContext(session.thread_id),
            stopped=asyncio.get_running_loop().create_future(),
            frame=await self._head_id(session.thread_id),
        )
        start = {
            "run": run.number,
            "kind": kind,
            "durability": mode,
            "until": until,
            "variant": session.variant,
        }
        await self.journal.append(run.thread_id, {"type": "run_start", **start, "at": time.time()})
        await self._emit({"type": "run_started", **start})
        self._run = run
        run.task = asyncio.ensure_future(self._drive(run, self._graph(), request, config))
        return await self._wait(run)

    async def _drive(self, run: Run, graph: CompiledStateGraph, request: Any, config: dict[str, Any]) -> None:
        use_run_context(run.context)
        try:
            on_seam = functools.partial(self._on_seam, run)  # late seams of a closed run stay its own
            values = await graph.ainvoke(request, config, durability=run.durability, on_seam=on_seam)
            outcome = await self._outcome(values or {})
        except ProcessKilled:
            return
        except asyncio.CancelledError:
            if not (run.closing and self.process.alive):
                raise
            outcome = {"status": "stopped"}
        except Exception as exc:
            if not self.process.alive:
                return
            outcome = {"status": "error", "error": error_payload(exc)}
            await self._emit({"type": "error", "scope": "run", "run": run.number, "error": outcome["error"]})
        self._run = None
        await self.journal.append(
            run.thread_id,
            {"type": "run_end", "run": run.number, "status": outcome["status"], "at": time.time()},
        )
        await self._emit({"type": "run_finished", "run": run.number, **outcome})
        _settle(run, outcome)

    async def _outcome(self, values: dict[str, Any]) -> dict[str, Any]:
        interrupts = values.pop("__interrupt__", [])
        snapshot = await self._snapshot()
        return {
            "status": "interrupted" if interrupts else "done",
            "values": values,
            "interrupts": interrupts,
            "next": snapshot.next,
            "checkpoint_id": checkpoint_id_of(snapshot.config),
        }

    async def _wait(self, run: Run) -> dict[str, Any]:
        await asyncio.wait({run.stopped, run.task}, return_when=asyncio.FIRST_COMPLETED)
        if run.stopped.done():
            return run.stopped.result()
        if run.task.cancelled():
            return {"status": "stopped"}
        run.task.result()  # re-raises what went wrong in the controller itself
        raise LabError("The run ended without reporting how")

    async def _pause(self, run: Run, seam: Seam) -> None:
        run.gate, run.paused_at = asyncio.Event(), seam.checkpoint_id
        tasks, restored = seam.detail.get("tasks", []), seam.detail.get("restored", [])
        paused = {"step": seam.step, "checkpoint_id": seam.checkpoint_id, "next": [*tasks, *restored]}
        run.paused = paused
        await self._emit({"type": "paused", "run": run.number, **paused})
        _settle(run, {"status": "paused", **paused})
        await run.gate.wait()

    async def _release(self, run: Run, until: Until) -> dict[str, Any]:
        gate, run.gate = run.gate, None
        run.until, run.frame, run.paused_at = until, run.paused_at, None
        run.stopped = asyncio.get_running_loop().create_future()
        gate.set()
        return await self._wait(run)

    async def _close_run(self) -> None:
        """Stop a paused run, as cancelling a LangGraph run does (``SuperStepLoop.abandon``): what
        is done stays saved, and under ``durability="exit"`` the checkpoint it stopped at is saved."""
        run = self._run
        if run is None or run.task is None or run.task.done():
            return
        if run.gate is None:
            raise refused(RUNNING)
        run.closing = True
        run.task.cancel()
        await asyncio.gather(run.task, return_exceptions=True)
        self._run = None

    # -- the seam hook --------------------------------------------------------------------------------
    async def _on_seam(self, run: Run, seam: Seam) -> None:
        self.process.check()  # a dead process observes nothing more
        if seam.name == "step_start":
            run.step = seam.step
        if self._crash is not None and self._crash.matches(seam):
            run.dying.set()
            await self._wait_for(run, self._crash.waits_for())
            await self._crash_here(run, seam)
        await run.context.follow(seam)
        await self._journal_seam(run, seam)
        await self._emit({"type": "seam", "run": run.number, **seam_payload(seam)})
        await self._announce(run, seam)
        run.seen.add((seam.name, seam.node))
        run.progressed.set()
        run.progressed.clear()
        await self._hold_for_crash(run, seam)
        if seam.name == "step_start" and run.until == "step" and seam.checkpoint_id != run.frame:
            await self._pause(run, seam)

    async def _wait_for(self, run: Run, after: tuple[SeamOf, ...]) -> None:
        """Hold this seam (its task waits; its siblings go on) until every seam of ``after`` has happened."""
        deadline = asyncio.get_running_loop().time() + AFTER_WAIT_S
        while not run.seen.issuperset(after):
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):  # waits in this task: no pulse of the event is missed
                    await run.progressed.wait()

    async def _hold_for_crash(self, run: Run, seam: Seam) -> None:
        """The last of an armed crash's ``after`` seams holds here until the crash fires, and then
        stays frozen with the dying process: nothing this coroutine would do next happens (under
        ``durability="async"``, the background save queued behind it is never written). The
        crash's seam is then the moment of death whatever the pace of the machine. If the crash's
        seam does not come within :data:`AFTER_WAIT_S`, the held seam goes on."""
        crash = self._crash
        after = crash.waits_for() if crash is not None else ()
        if (seam.name, seam.node) not in after or not run.seen.issuperset(after):
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(AFTER_WAIT_S):
                await run.dying.wait()
        if run.dying.is_set():
            await self.process.freeze()

    async def _on_external_call(self, moment: str, call: dict[str, Any]) -> None:
        """A node is about to call (or has just called) the outside world: a seam inside the node."""
        if self._run is None:
            return
        detail = {"op": call["op"]}
        step = self._run.step
        await self._on_seam(
            self._run, Seam(moment, step, call["checkpoint_id"], call["node"], call["task_id"], detail)
        )

    async def _crash_here(self, run: Run, seam: Seam) -> None:
        point = {"seam": seam.name, "node": seam.node, "step": seam.step, "checkpoint_id": seam.checkpoint_id}
        await self.journal.append(
            run.thread_id, {"type": "crash", "run": run.number, **point, "at": time.time()}
        )
        await self._emit({"type": "crash_point", "run": run.number, **point})
        self._crash_report = point
        self.process.kill()
        _settle(run, {"status": "crashed", "crash_point": point})
        await self.process.freeze()


def _settle(run: Run, outcome: dict[str, Any]) -> None:
    if not run.stopped.done():
        run.stopped.set_result(outcome)
