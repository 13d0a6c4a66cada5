"""The run driver: one ``ainvoke`` of the graph at a time, paused at a gate, killed at a seam.

LangGraph runs a graph with ``invoke`` / ``ainvoke`` and reports its progress through streaming; the
lab drives the same call and watches it through the loop's seam hook (``on_seam=``):

- **the pause gate**: at ``step_start`` the hook awaits an ``asyncio.Event`` the controller owns, so
  Step pauses inside one continuous run (a paused run differs from a normal run only in time);
- **crash injection**: at the armed seam the hook records the crash, kills the
  :class:`~lab.controller.process.Process` and freezes, as ``kill -9`` would;
- every seam is also written down and announced (:mod:`lab.controller.seam_events`);
- **a closed stream**: a program that stops reading a run's stream (``break`` out of ``for chunk in
  graph.stream(...)``) closes LangGraph's generator, and the run stops at the chunk it yielded; the
  stream's reader raises :class:`StreamClosed` there (having closed the graph's ``astream``), and the
  run ends ``"stopped"``.

:class:`RunDriver` is an object the controller holds: it owns the live run (``state.run``), the
seam hook, and the crash (``state.crash`` armed, ``state.crash_report`` once it fired).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Coroutine
from typing import Any

from lab.controller import seam_events
from lab.controller import thread_reading as read
from lab.controller.actions import RUNNING
from lab.controller.frames import checkpoint_id_of
from lab.controller.process import ProcessKilled
from lab.controller.seam_catalog import SIDE_EFFECT_SEAMS
from lab.controller.seam_events import seam_payload
from lab.controller.session import DURABILITIES, LabError, Until, choose, error_payload, refused
from lab.controller.state import CrashPoint, Lab, Run, SeamOf
from lab.graph import CompiledStateGraph
from lab.pregel.seams import Seam
from lab.pregel.task import running_task
from lab.pregel.task_calls import CALL_TRIGGERS

AFTER_WAIT_S = 10.0
"""How long an armed crash waits for its ``after`` seam before it kills the process anyway."""


class StreamClosed(Exception):
    """Raised in a run by its stream's reader when the program stopped reading (its generator closed)."""


class RunDriver:
    """Start, pause, release, close and crash the runs of one controller (``lab``)."""

    def __init__(self, lab: Lab) -> None:
        self.lab = lab
        self._jobs: set[asyncio.Task[None]] = set()  # seams of synchronous world calls, observed later

    # -- process death (CPython stand-in for worker.terminate()) --------------------------------------
    async def terminate(self) -> None:
        """End this controller's process for good; nothing it still runs reaches the outside."""
        self.lab.process.bury()
        run = self.lab.state.run
        if run is not None and run.task is not None and not run.task.done():
            run.task.cancel()
            await asyncio.gather(run.task, return_exceptions=True)

    async def start_run(
        self, kind: str, request: Any, config: dict[str, Any], until: Until, durability: str | None
    ) -> dict[str, Any]:
        """Start one ``ainvoke`` (``kind``: input, continue, resume, answer, replay); answer when it stops."""
        lab = self.lab
        session = read.require_session(lab)
        choose(until, ("step", "end"), "until")
        mode = choose(durability or session.durability, DURABILITIES, "durability")
        records = await lab.journal.records(session.thread_id)
        run = Run(
            number=1 + sum(r["type"] == "run_start" for r in records),
            kind=kind,
            thread_id=session.thread_id,
            durability=mode,
            until=until,
            stopped=asyncio.get_running_loop().create_future(),
            frame=await read.head_id(lab, session.thread_id),
        )
        start = {
            "run": run.number,
            "kind": kind,
            "durability": mode,
            "until": until,
            "variant": session.variant,
        }
        await lab.journal.append(run.thread_id, {"type": "run_start", **start, "at": time.time()})
        await lab.emit({"type": "run_started", **start})
        lab.state.run = run
        run.task = asyncio.ensure_future(self._drive(run, read.graph(lab), request, config))
        return await self._wait(run)

    async def _drive(self, run: Run, graph: CompiledStateGraph, request: Any, config: dict[str, Any]) -> None:
        lab = self.lab
        run.follow = lab.profile.enter_run(run.thread_id)  # in the run's own task (context variables)
        try:
            on_seam = functools.partial(self._on_seam, run)  # late seams of a closed run stay its own
            output = await graph.ainvoke(request, config, durability=run.durability, on_seam=on_seam)
            outcome = await self._outcome(output)
        except StreamClosed:
            outcome = {"status": "stopped"}
        except ProcessKilled:
            return
        except asyncio.CancelledError:
            if not (run.closing and lab.process.alive):
                raise
            outcome = {"status": "stopped"}
        except Exception as exc:
            if not lab.process.alive:
                return
            outcome = {"status": "error", "error": error_payload(exc)}
            await lab.emit({"type": "error", "scope": "run", "run": run.number, "error": outcome["error"]})
        lab.state.run = None
        await lab.journal.append(
            run.thread_id,
            {"type": "run_end", "run": run.number, "status": outcome["status"], "at": time.time()},
        )
        await lab.emit({"type": "run_finished", "run": run.number, **outcome})
        _settle(run, outcome)

    async def _outcome(self, output: Any) -> dict[str, Any]:
        """How the run ended, from what ``ainvoke`` returned: a ``StateGraph``'s values (a dict, with
        ``__interrupt__`` when it stopped at one), or whatever an ``@entrypoint``'s function returned."""
        interrupts = output.pop("__interrupt__", []) if isinstance(output, dict) else []
        snapshot = await read.snapshot(self.lab)
        return {
            "status": "interrupted" if interrupts else "done",
            "values": {} if output is None else output,
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
        await self.lab.emit({"type": "paused", "run": run.number, **paused})
        _settle(run, {"status": "paused", **paused})
        await run.gate.wait()

    async def release(self, run: Run, until: Until) -> dict[str, Any]:
        """Let a paused run go on (one more super-step, or to the end); answer when it stops again."""
        gate, run.gate = run.gate, None
        run.until, run.frame, run.paused_at = until, run.paused_at, None
        run.stopped = asyncio.get_running_loop().create_future()
        gate.set()
        return await self._wait(run)

    async def close_run(self) -> None:
        """Stop a paused run, as cancelling a LangGraph run does (``SuperStepLoop.abandon``): what
        is done stays saved, and under ``durability="exit"`` the checkpoint it stopped at is saved."""
        run = self.lab.state.run
        if run is None or run.task is None or run.task.done():
            return
        if run.gate is None:
            raise refused(RUNNING)
        run.closing = True
        run.task.cancel()
        await asyncio.gather(run.task, return_exceptions=True)
        self.lab.state.run = None

    # -- the seam hook --------------------------------------------------------------------------------
    async def _on_seam(self, run: Run, seam: Seam) -> None:
        lab = self.lab
        lab.process.check()  # a dead process observes nothing more
        if seam.name == "step_start":
            run.step = seam.step
        crash = lab.state.crash
        if crash is not None and crash.matches(seam):
            run.dying.set()
            await self._wait_for(run, crash.waits_for())
            await self._crash_here(run, seam)
        if crash is not None:
            await self._wait_for(run, waits_before_node(crash, seam))
        await self._observe(run, seam)
        await self._hold_for_crash(run, seam)
        if seam.name == "step_start" and run.until == "step" and seam.checkpoint_id != run.frame:
            await self._pause(run, seam)

    async def _observe(self, run: Run, seam: Seam) -> None:
        """Follow, write down and announce a seam the run went through."""
        lab = self.lab
        if run.follow is not None:
            await run.follow(seam)
        await seam_events.journal_seam(lab, run, seam)
        await lab.emit({"type": "seam", "run": run.number, **seam_payload(seam)})
        await seam_events.announce(lab, run, seam)
        run.seen.add((seam.name, seam.node))
        run.progressed.set()
        run.progressed.clear()

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
        crash = self.lab.state.crash
        after = crash.waits_for() if crash is not None else ()
        if (seam.name, seam.node) not in after or not run.seen.issuperset(after):
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(AFTER_WAIT_S):
                await run.dying.wait()
        if run.dying.is_set():
            await self.lab.process.freeze()

    async def on_external_call(self, moment: str, call: dict[str, Any]) -> None:
        """A node is about to call (or has just called) the outside world: a seam inside the node."""
        run = self.lab.state.run
        if run is None:
            return
        await self._on_seam(run, call_seam(moment, run, call))

    def on_external_call_now(self, moment: str, call: dict[str, Any]) -> None:
        """The same two seams inside a node, met *synchronously*: ``lab.world`` called from a plain
        ``def`` node, which runs without yielding, so nothing here can be awaited. An armed crash
        fires at once (its ``after`` seams of other nodes were awaited when the node started:
        :func:`waits_before_node`): the process dies before the node's next line, and the crash is
        written down and told to the page as its last words. Otherwise the seam is observed as soon
        as the node lets the event loop run."""
        run = self.lab.state.run
        if run is None:
            return
        seam = call_seam(moment, run, call)
        crash = self.lab.state.crash
        if crash is not None and crash.matches(seam):
            self._crash_now(run, seam)
            return
        run.seen.add((seam.name, seam.node))
        self._soon(self._observe(run, seam))

    def _soon(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` once the running node yields (kept until it ends: the loop holds tasks weakly)."""
        task = asyncio.ensure_future(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def _crash_here(self, run: Run, seam: Seam) -> None:
        point = crash_point(seam)
        await self._tell_crash(run, point)
        self.lab.state.crash_report = point
        self.lab.process.kill()
        _settle(run, {"status": "crashed", "crash_point": point})
        await self.lab.process.freeze()

    def _crash_now(self, run: Run, seam: Seam) -> None:
        point = crash_point(seam)
        run.dying.set()
        self.lab.state.crash_report = point
        self.lab.process.kill()
        _settle(run, {"status": "crashed", "crash_point": point})
        self._soon(self._tell_crash(run, point, last_words=True))

    async def _tell_crash(self, run: Run, point: dict[str, Any], *, last_words: bool = False) -> None:
        """Write the crash in the journal and tell the page where it happened (it kills the worker)."""
        lab = self.lab
        await lab.journal.append(
            run.thread_id, {"type": "crash", "run": run.number, **point, "at": time.time()}
        )
        await lab.emit({"type": "crash_point", "run": run.number, **point}, last_words=last_words)


def call_seam(moment: str, run: Run, call: dict[str, Any]) -> Seam:
    """The seam of a node's call to the outside world (``side_effect`` or ``side_effect_done``); made
    inside a ``@task`` the node called, it names that task too (``in_task``, ``in_task_id``)."""
    detail = {"op": call["op"], **called_task_here()}
    return Seam(moment, run.step, call["checkpoint_id"], call["node"], call["task_id"], detail)


def called_task_here() -> dict[str, str]:
    """The ``@task`` running here, if the code running is one a node called (not the node itself)."""
    task = running_task()
    if task is None or task.triggers != CALL_TRIGGERS:
        return {}
    return {"in_task": task.name, "in_task_id": task.id}


def crash_point(seam: Seam) -> dict[str, Any]:
    """Where a crash happened, as the journal, the page and the crash report say it (inside a called
    task: which one)."""
    inside = {key: seam.detail[key] for key in ("in_task", "in_task_id") if key in seam.detail}
    return {
        "seam": seam.name,
        "node": seam.node,
        "step": seam.step,
        "checkpoint_id": seam.checkpoint_id,
        **inside,
    }


def waits_before_node(crash: CrashPoint, seam: Seam) -> tuple[SeamOf, ...]:
    """The seams the crash's node waits for when it starts (``task_start``): for a crash at a seam
    inside the node (``side_effect``, ``side_effect_done``), the ``after`` seams of other nodes. A
    node that calls the outside world synchronously cannot wait there, so it waits before it runs;
    for one that awaits its calls, the crash's own seam then finds them already seen."""
    if seam.name != "task_start" or crash.seam not in SIDE_EFFECT_SEAMS or crash.node != seam.node:
        return ()
    return tuple(after for after in crash.waits_for() if after[1] != seam.node)


def _settle(run: Run, outcome: dict[str, Any]) -> None:
    if not run.stopped.done():
        run.stopped.set_result(outcome)
