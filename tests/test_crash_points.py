"""Crash at every crash point: LangGraph's durable execution, checked against a crash-free run.

LangGraph's promise: kill the process anywhere, start a new one over the same storage, resume
the thread (``invoke(None, thread)``, or ``Command(resume=...)`` if it waits at an interrupt),
and the thread ends exactly as a run without the crash ends. Only work whose result had not
reached storage is done again: in the step the resume starts, the tasks whose writes were saved
are *restored* from their pending writes, the others *re-run*.

Every ``(run, seam, node, step)`` occurrence of a crash-free run of the AML case (every variant,
every durability mode) is a crash point. At each one the process dies (``arm_crash``), a new
controller boots over the same saver, world and journal, and the thread is resumed, answering
the review the same way, to the end. What *must* have survived is read off the crash-free run,
not off the crashed storage: ``put`` and ``put_writes`` seams are reported after their save
landed, and with no delay inside the nodes the event loop interleaves the same way every time,
so exactly the saves whose seam came at or before the crash point survive it. That is also the
whole of what a durability mode loses: under ``sync`` every save precedes the next step, under
``async`` the saves still queued in the background are lost, under ``exit`` everything the run
had not saved at its end.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from lab.aml import VARIANTS
from lab.aml.profile import AML_PROFILE
from lab.checkpoint import InMemorySaver
from lab.checkpoint.base import ERROR, INTERRUPT, RESUME
from lab.controller import DURABILITIES, LabController, MemoryJournal
from lab.world import MemoryWorld

CASE = "S-1001"  # structuring: fetch || screen, then review, approved, then a filed SAR
THREAD = "crash-points"
CONTROL_CHANNELS = frozenset((ERROR, INTERRUPT, RESUME))  # say what happened, not what a task produced
SAVES = frozenset(("put", "put_writes"))


@dataclass(frozen=True)
class Point:
    """One seam occurrence: ``index`` in the seam order of the whole crash-free thread (run 1 up
    to the review, run 2 the answer); ``(run, seam, node, step)`` names it uniquely."""

    index: int
    run: int
    seam: str
    node: str | None
    step: int
    checkpoint_id: str
    channels: tuple[str, ...]  # what a put_writes saved

    @property
    def label(self) -> str:
        return f"r{self.run}-{self.seam}-{self.node or 'step'}-s{self.step}"


# -- a lab that survives its controllers ------------------------------------------------------------


class Storage:
    """What outlives a crash (saver, world, journal), the controller living on it, and every real
    call of a node function across controllers."""

    def __init__(self, variant: str, durability: str) -> None:
        self.variant, self.durability = variant, durability
        self.saver, self.world, self.journal = InMemorySaver(), MemoryWorld(), MemoryJournal()
        self.events: list[dict[str, Any]] = []
        self.calls: Counter[str] = Counter()
        self.controller = self.boot()

    def boot(self) -> LabController:
        controller = LabController(
            self.saver, self.world, self.record, profile=AML_PROFILE, journal=self.journal, delay=0
        )
        nodes = [node for graph in controller.graphs.values() for node in graph.nodes.values()]
        for node in (node for node in nodes if node.func is not None):
            node.func = functools.partial(counted_call, self.calls, node.name, node.func)
        return controller

    async def record(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    async def do(self, command: str, **args: Any) -> dict[str, Any]:
        answer = await self.controller.dispatch(command, args)
        assert answer["ok"], (command, answer)
        return answer["result"]

    async def reboot(self) -> None:
        """The page kills the worker and boots a new one over the same storage."""
        await self.controller.terminate()
        self.controller = self.boot()
        await self.do("restore")

    def points(self) -> list[Point]:
        seams = [e for e in self.events if e["type"] == "seam"]
        return [
            Point(i, e["run"], e["seam"], e["node"], e["step"], e["checkpoint_id"], tuple(channels(e)))
            for i, e in enumerate(seams)
        ]

    async def charges(self) -> Counter[str]:
        """Money that moved (or SARs filed), per node: requests the world executed, not replayed."""
        entries = (await self.do("ledger"))["entries"]
        return Counter(e["node"] for e in entries if not e["replayed"])


async def counted_call(calls: Counter[str], name: str, func: Any, state: dict) -> Any:
    """A node function that first counts the call: the truth the journal's counts must match."""
    calls[name] += 1
    return await func(state)


def channels(event: dict[str, Any]) -> list[str]:
    return event["detail"].get("channels", []) if event["seam"] == "put_writes" else []


async def start(storage: Storage) -> None:
    await storage.do(
        "start", case_id=CASE, variant=storage.variant, durability=storage.durability, thread_id=THREAD
    )


async def recover(storage: Storage) -> dict[str, Any] | None:
    """After a reboot, do what a learner does: press the action the status line names (Run if
    nothing was saved, Approve if the thread waits at the review, else Resume) until the case is
    done. Returns the first recovering run's restored / re-run split (``None`` if it started over)."""
    first: dict[str, Any] | None = None
    for turn in range(8):
        status = (await storage.do("view"))["status"]
        if status["phase"] == "done":  # a thread whose end was saved restores and re-runs nothing
            return first if turn else {"restored": [], "rerun": []}
        action = status["action"]
        result = await (storage.do("answer", approve=True) if action == "approve" else storage.do(action))
        assert result["status"] in ("done", "interrupted"), (action, result)
        if turn == 0 and action != "run":
            first = (await storage.do("executions"))["last_resume"]
    raise AssertionError(f"not done after 8 actions: {status}")


# -- the crash-free run -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CleanRun:
    """The crash-free thread: run to the review, approve, done. Everything a crash is judged by."""

    points: list[Point]
    step_tasks: dict[str, list[str]]  # checkpoint id -> the tasks of the step that starts there
    frames: list[dict[str, Any]]
    calls: Counter[str]
    charges: Counter[str]


async def run_clean(variant: str, durability: str) -> CleanRun:
    storage = Storage(variant, durability)
    await start(storage)
    assert (await storage.do("run"))["status"] == "interrupted"
    assert (await storage.do("answer", approve=True))["status"] == "done"
    step_tasks: dict[str, list[str]] = {}
    for e in storage.events:
        if e["type"] == "seam" and e["seam"] == "step_start":
            step_tasks.setdefault(e["checkpoint_id"], [*e["detail"]["tasks"], *e["detail"]["restored"]])
    frames = (await storage.do("frames"))["frames"]
    return CleanRun(storage.points(), step_tasks, frames, storage.calls, await storage.charges())


@functools.cache
def clean_run(variant: str, durability: str) -> CleanRun:
    return asyncio.run(run_clean(variant, durability))


def crash_points() -> Iterator[Any]:
    """One case per crash point of each crash-free run. A crash-free run that fails becomes one case
    (no point) whose test fails with that run's assertion, not a collection error that stops the
    whole session and hides every other test's verdict."""
    for variant in VARIANTS:
        for durability in DURABILITIES:
            try:
                points = clean_run(variant, durability).points
            except AssertionError:
                yield pytest.param(variant, durability, None, id=f"{variant}-{durability}-crash-free-run")
                continue
            for point in points:
                yield pytest.param(variant, durability, point, id=f"{variant}-{durability}-{point.label}")


# -- what must survive a crash at a point: read off the crash-free run --------------------------------


def saved_at(clean: CleanRun, point: Point) -> list[Point]:
    """The saves that landed before the process died at ``point`` (its own seam included: a save
    is reported once it landed)."""
    return [p for p in clean.points[: point.index + 1] if p.seam in SAVES]


def head_at(clean: CleanRun, point: Point) -> str | None:
    """The newest checkpoint in storage after the crash (a clean-run id), ``None`` if none."""
    puts = [p.checkpoint_id for p in saved_at(clean, point) if p.seam == "put"]
    return puts[-1] if puts else None


def finished_writes_saved(clean: CleanRun, point: Point, checkpoint_id: str) -> set[str]:
    """Nodes whose output (a write that is not a control write) was saved on ``checkpoint_id``."""
    return {
        p.node
        for p in saved_at(clean, point)
        if p.seam == "put_writes" and p.checkpoint_id == checkpoint_id and set(p.channels) - CONTROL_CHANNELS
    }


def expected_resume(clean: CleanRun, point: Point) -> dict[str, list[str]] | None:
    """The first step of the recovering run: tasks with saved writes restored, the others re-run."""
    head = head_at(clean, point)
    if head is None:
        return None
    tasks = clean.step_tasks.get(head, [])
    restored = finished_writes_saved(clean, point, head)
    return {
        "restored": sorted(t for t in tasks if t in restored),
        "rerun": sorted(t for t in tasks if t not in restored),
    }


def lost_executions(clean: CleanRun, point: Point) -> list[Point]:
    """Node executions entered before the crash whose outcome (their writes, an interrupt, or a
    later checkpoint holding them) never reached storage: the recovery runs them again."""
    saves = saved_at(clean, point)
    lost = []
    for start in clean.points[: point.index]:
        if start.seam != "task_start" or start.node == "__start__":
            continue
        outcome_saved = any(
            p.index > start.index
            and (
                (p.seam == "put_writes" and p.node == start.node and p.checkpoint_id == start.checkpoint_id)
                or (p.seam == "put" and p.step >= start.step and p.checkpoint_id != start.checkpoint_id)
            )
            for p in saves
        )
        if not outcome_saved:
            lost.append(start)
    return lost


def charged_before(clean: CleanRun, point: Point, execution: Point) -> bool:
    """Did ``execution`` reach the world (its call answered) before the process died?"""
    return any(
        p.seam == "side_effect_done"
        and (p.run, p.node, p.step) == (execution.run, execution.node, execution.step)
        for p in clean.points[: point.index + 1]
    )


def expected_calls(clean: CleanRun, point: Point) -> Counter[str]:
    return clean.calls + Counter(e.node for e in lost_executions(clean, point))


def expected_charges(clean: CleanRun, point: Point, variant: str) -> Counter[str]:
    """Misplaced: every real run of a charging line charges (no key). Task-key: a re-run presents
    its task's idempotency key again and is answered with the original receipt, unless its step's
    checkpoint was lost too (a re-created checkpoint has a new id, so its tasks have new ids and new
    keys). Fixed: the key names the business operation, so a re-run never charges again."""
    saved = {p.checkpoint_id for p in saved_at(clean, point) if p.seam == "put"}
    recharges = {
        "misplaced": lambda e: True,
        "task-key": lambda e: e.checkpoint_id not in saved,
        "fixed": lambda e: False,
    }[variant]
    recharged = Counter(
        e.node for e in lost_executions(clean, point) if charged_before(clean, point, e) and recharges(e)
    )
    return clean.charges + recharged


def frames_at(clean: CleanRun, point: Point) -> list[dict[str, Any]]:
    """The crash-free run's frames, cut down to the checkpoints and pending writes saved at ``point``."""
    saves = saved_at(clean, point)
    puts = {p.checkpoint_id for p in saves if p.seam == "put"}
    writes = {
        (p.checkpoint_id, p.node or "<null>", channel)
        for p in saves
        if p.seam == "put_writes"
        for channel in p.channels
    }
    return [
        {
            **frame,
            "pending_writes": [
                w for w in frame["pending_writes"] if (frame["checkpoint_id"], w[0], w[1]) in writes
            ],
        }
        for frame in clean.frames
        if frame["checkpoint_id"] in puts
    ]


# -- comparing frames: ids become placeholders in first-seen order ------------------------------------

IDS = re.compile(
    r"(?P<id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b)"
    r"|(?P<ch>\bch_\d+)|(?P<sar>\bsar_\d+)"
)

REPLAYED = re.compile(r', "replayed": (true|false)')
"""A receipt's ``replayed`` flag (a re-run answered from its idempotency key): the ledger checks it."""


def shape(frames: list[dict[str, Any]]) -> list[str]:
    """What the learner compares: step, source, next, values and pending writes of each frame,
    with its parent; checkpoint, task, interrupt and receipt ids as placeholders. Receipts lose
    their ``replayed`` flag (the charges are compared with the ledger instead)."""
    seen: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        kind = match.lastgroup or "id"
        if match.group(0) not in seen:
            seen[match.group(0)] = f"<{kind}{sum(v.startswith(f'<{kind}') for v in seen.values())}>"
        return seen[match.group(0)]

    rows = [
        {
            "checkpoint": f["checkpoint_id"],
            "parent": f["parent_id"],
            "step": f["step"],
            "source": f["source"],
            "next": f["next"],
            "values": f["values"],
            "pending_writes": f["pending_writes"],
        }
        for f in frames
    ]
    return [IDS.sub(placeholder, REPLAYED.sub("", json.dumps(row, sort_keys=True))) for row in rows]


# -- the test -----------------------------------------------------------------------------------------


async def crash_at(storage: Storage, point: Point) -> None:
    """Replay the crash-free run up to ``point``'s run, and let the process die at ``point``."""
    await start(storage)
    if point.run == 2:
        assert (await storage.do("run"))["status"] == "interrupted"
    # The lab offers crashes on drawn nodes only; __start__ is the one task of its step, so the step
    # alone pins it.
    node = None if point.node == "__start__" else point.node
    await storage.do("arm_crash", seam=point.seam, node=node, step=point.step)
    crashed = await (storage.do("run") if point.run == 1 else storage.do("answer", approve=True))
    assert crashed["status"] == "crashed", crashed
    where = crashed["crash_point"]
    assert (where["seam"], where["node"], where["step"]) == (point.seam, point.node, point.step)
    await storage.reboot()


@pytest.mark.parametrize(("variant", "durability", "point"), list(crash_points()))
async def test_a_crash_here_resumes_to_the_crash_free_end(
    variant: str, durability: str, point: Point | None
) -> None:
    if point is None:  # the crash-free run failed: fail with its own assertion
        await run_clean(variant, durability)
    assert point is not None
    clean, storage = clean_run(variant, durability), Storage(variant, durability)
    await crash_at(storage, point)
    assert shape((await storage.do("frames"))["frames"]) == shape(frames_at(clean, point)), "what survived"

    first = await recover(storage)
    resumed = None if first is None else {k: sorted(first[k]) for k in ("restored", "rerun")}
    assert resumed == expected_resume(clean, point), "restored / re-run"

    assert shape((await storage.do("frames"))["frames"]) == shape(clean.frames), "frames after recovery"
    assert storage.calls == expected_calls(clean, point), "real node calls"
    reported = (await storage.do("executions"))["nodes"]
    assert {n: c["started"] for n, c in reported.items() if n != "__start__"} == storage.calls, "journal"
    assert await storage.charges() == expected_charges(clean, point, variant), "charges and filings"
    await storage.controller.terminate()


def test_every_crash_point_is_distinct_and_the_parallel_step_is_covered() -> None:
    """Arming (seam, node, step) before a run must hit one occurrence, and the crash points must
    include the parallel step after one sibling finished (fetch saved, screen still running)."""
    for variant in VARIANTS:
        for durability in DURABILITIES:
            points = clean_run(variant, durability).points
            assert len({(p.run, p.seam, p.node, p.step) for p in points}) == len(points)
    sync = clean_run("misplaced", "sync")
    fetch_saved = next(p for p in sync.points if p.seam == "put_writes" and p.node == "fetch_transactions")
    screen_later = [p for p in sync.points[fetch_saved.index + 1 :] if p.node == "screen_sanctions"]
    assert [p.seam for p in screen_later][:2] == ["task_finish", "put_writes"]
    assert expected_resume(sync, screen_later[0]) == {
        "restored": ["fetch_transactions"],
        "rerun": ["screen_sanctions"],
    }


@pytest.mark.parametrize("step", ["2", 2.0, True])
async def test_arm_crash_refuses_a_step_that_is_not_a_whole_number(step: Any) -> None:
    storage = Storage("fixed", "sync")
    await start(storage)
    answer = await storage.controller.dispatch("arm_crash", {"seam": "put", "step": step})
    assert answer == {
        "ok": False,
        "error": {
            "type": "LabError",
            "message": f"step must be a whole number, got {step!r}",
            "say": {
                "code": "input.step_not_number",
                "params": {"given": repr(step)},
                "text": f"step must be a whole number, got {step!r}",
            },
        },
    }
