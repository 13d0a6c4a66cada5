"""Seeded random crash/resume trials of the lab on CPython, checked against the lab's promises.

A trial picks, from its seed alone, a case, a variant, a durability mode and up to three crash
points (a seam, of one node or of any). It drives the lab controller with the page's commands
(``dispatch``): start, run, and after each crash a new controller over what outlives a process
(checkpoints, ledger, journal) that restores the session and resumes, answering the review
"approve" whenever asked, until the case is closed. Checkpoints go to a storage whose every write
takes real time (a few event-loop turns, as an IndexedDB transaction does), so under
``durability="async"`` a crash can land while a checkpoint is still being written.

The invariants (issue 10, items 3 and 4), each a function returning what it found wrong:

- **same result**: the final state and every frame equal those of a crash-free run of the same
  case, variant and mode, ids aside (checkpoint, task and receipt ids, and whether a receipt was
  a replay);
- **chain intact** (checked after every crash and at the end): every checkpoint's parent exists,
  every blob its versions name exists - no half-written checkpoint is ever visible;
- **only interrupted tasks re-run**: each node ran as often as in the crash-free run plus once for
  every execution a crash interrupted before its result was saved (read from the journal);
- **fixed charges each business operation once**; **misplaced charges as the re-runs predict**
  (every execution that got its request out pays), so does **task** (the export bought in a
  ``@task``: an execution restored from the task's saved result sends no request), and so does
  **task-key** for the query and the filing and the export (once per distinct task id); a request
  "got out" when the page saw its ``side_effect`` event. In the page, between the requests answered
  and those announced: a request reaches the ledger a page round trip after its announcement, and a
  kill at a random moment, or a sibling task's crash in that round trip, stops it there. A crash at
  the request's own ``side_effect_done`` seam strikes after its answer, so that request counts as
  answered;
- **repeats flagged**: the ledger's verdict flags exactly the business operations done more than
  once, with how often.

The trial loop (:func:`drive`) runs over a :class:`TrialLab`: :class:`Outside` here, the page's
LabSession with real ``worker.terminate()`` in ``tests/browser/crash_harness.py``, which checks its
trials against these same invariants.

``python bench/soak.py`` runs many more trials; ``SOAK_SEED=N pytest tests/test_soak.py``
replays one.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from lab.aml import VARIANTS, build_graph, business_operation, describe_graph
from lab.aml.graph import STATES, TASK
from lab.aml.profile import AML_PROFILE
from lab.checkpoint.base import CheckpointTuple
from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.memory import MemoryStorage
from lab.checkpoint.storage import BlobRow, CheckpointRow, WriteRow
from lab.controller.seam_catalog import seam_catalog
from lab.controller.simulated_lab import SimulatedLab
from lab.graph.schema import channels_of
from lab.pregel.delta import complete_all
from lab.pregel.task_calls import RETURN
from lab.world import MemoryWorld

THREAD = "soak"
CASES = ("S-1001", "S-1002", "S-1003")
DURABILITIES = ("sync", "async", "exit")
MAX_COMMANDS = 30
"""A trial that has not closed its case after this many run commands is stuck: a violation."""

CrashPoint = tuple[str, str | None] | tuple[str, str | None, int]
"""A seam, the node it belongs to (``None``: whichever meets it first) and optionally the step."""


@dataclass(frozen=True)
class Trial:
    """Everything random about one trial, drawn from its seed."""

    seed: int
    case_id: str
    variant: str
    durability: str
    crashes: tuple[CrashPoint, ...]
    storage: str = "full"
    """How the graph stores its lists: whole (LangGraph's default) or opted in to ``DeltaChannel``."""


SOAK_VARIANTS = (*VARIANTS, TASK)
"""What a trial picks from: the lab page's three variants, and ``task`` (the export bought in a
``@task`` before ``interrupt()``, with no key: LangGraph's remedy, issue 36)."""


@functools.cache
def crash_points(variant: str) -> tuple[CrashPoint, ...]:
    """Every crash the lab offers for ``variant`` (its seam catalogue): a step seam, a node seam of
    whichever node meets it first, or a seam of one node. No node of the graph fails: no ``error``."""
    catalog = seam_catalog(describe_graph(build_graph(MemoryWorld(), variant, delay=0)))
    anywhere = [(seam, None) for seam in (*catalog["step"], *catalog["any_node"])]
    on_a_node = [(seam, node) for node, seams in catalog["nodes"].items() for seam in seams]
    return tuple(point for point in (*anywhere, *on_a_node) if point[0] != "error")


def plan(seed: int) -> Trial:
    rng = random.Random(seed)
    variant = rng.choice(SOAK_VARIANTS)
    points = crash_points(variant)
    crashes = tuple(rng.choice(points) for _ in range(rng.randint(1, 3)))
    case_id, durability = rng.choice(CASES), rng.choice(DURABILITIES)
    return Trial(seed, case_id, variant, durability, crashes, rng.choice(tuple(STATES)))


class SlowStorage(MemoryStorage):
    """In-memory rows, but every write takes 1-3 event-loop turns and then lands whole (atomic,
    like an IndexedDB transaction). Async only, as IndexedDB is."""

    supports_sync = False

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    async def put(
        self,
        *,
        checkpoints: Iterable[CheckpointRow] = (),
        blobs: Iterable[BlobRow] = (),
        writes: Iterable[WriteRow] = (),
    ) -> None:
        for _ in range(self.rng.randint(1, 3)):
            await asyncio.sleep(0)
        await super().put(checkpoints=tuple(checkpoints), blobs=tuple(blobs), writes=tuple(writes))


class Outside(SimulatedLab):
    """A simulated lab (``lab.controller.simulated_lab``: what outlives a process, checkpoints on a
    slow storage, ledger, journal, and the controller of the living one) that keeps what the page
    was told."""

    def __init__(self, seed: int) -> None:
        self.segments: list[int] = []  # where each controller's journal records start
        self.requests: list[dict[str, Any]] = []  # the page's side_effect events: a request left
        self.seams = 0  # seam events the page was told of
        super().__init__(AML_PROFILE, saver=CheckpointSaver(SlowStorage(random.Random(seed))))

    async def emit(self, event: dict[str, Any]) -> None:
        """The page's event stream: the soak keeps the moments a request left the process."""
        self.seams += event["type"] == "seam"
        if event["type"] == "seam" and event["seam"] == "side_effect":
            self.requests.append(event)

    async def do(self, name: str, /, **args: Any) -> dict[str, Any]:
        answer = await self.dispatch(name, **args)
        if not answer["ok"]:
            raise AssertionError(f"{name}({args}) failed: {answer['error']}")
        return answer["result"]

    async def arm(self, point: CrashPoint) -> None:
        await self.do("arm_crash", **crash_args(point))

    async def recover(self) -> Saved:
        """The page kills the worker and starts a new one, which restores the session."""
        await self.restart()
        self.segments.append(len(await self.journal.records(THREAD)))
        await self.do("restore")
        return await saved_chain(self.saver)

    async def observe(self, seen: Observed) -> None:
        seen.started = started_in(await self.do("executions"))
        seen.ledger = await self.world.entries()
        seen.flagged = flagged_in(await self.do("ledger"))
        seen.requests, seen.seams = self.requests, self.seams
        seen.journal = await self.journal.records(THREAD)
        seen.segments = self.segments
        seen.after_crash.append(await saved_chain(self.saver))
        seen.frames = await saved_frames(self.saver, self.controller.state.session.storage)
        await self.controller.terminate()


class TrialLab(Protocol):
    """Where a trial runs: a lab whose process can die (:class:`Outside` on CPython; the page's
    LabSession in Chromium, ``tests/browser/crash_harness.py``), and what outlives its processes."""

    async def do(self, name: str, **args: Any) -> dict[str, Any]:
        """Send a controller command; fail on ``ok: false``."""
        ...

    async def arm(self, point: CrashPoint) -> None:
        """Make the process die at ``point`` during the next run commands."""
        ...

    async def recover(self) -> Saved:
        """After a crash: once the next process has taken over, what the storage holds."""
        ...

    async def observe(self, seen: Observed) -> None:
        """At the trial's end: fill in executions, ledger, requests, journal, the chain and frames."""
        ...


@dataclass
class Observed:
    """What a trial saw: its final answer, frames, executions, ledger, and what each crash left."""

    final: dict[str, Any] = field(default_factory=dict)
    frames: list[tuple[Any, ...]] = field(default_factory=list)
    started: Counter[str] = field(default_factory=Counter)
    ledger: list[dict[str, Any]] = field(default_factory=list)
    flagged: Counter[tuple[str, ...]] = field(default_factory=Counter)
    """The ledger's verdict: each business operation it flags as done more than once, and how often."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    answered: list[dict[str, Any]] | None = None
    """``side_effect_done`` events, given when a crash can land between a request's announcement and
    its arrival (in the page: the request reaches the ledger a round trip after its announcement):
    the charges then lie between the answered requests and the announced ones. ``None``: here, in
    one process with the world in memory, an announced request always arrives."""
    journal: list[dict[str, Any]] = field(default_factory=list)
    segments: list[int] = field(default_factory=list)
    after_crash: list[Saved] = field(default_factory=list)
    crash_points: list[dict[str, Any]] = field(default_factory=list)
    """Where each crash struck, as the run command answered it (``crash_point``)."""
    seams: int = 0
    violations: list[str] = field(default_factory=list)


@dataclass
class Saved:
    """The thread's checkpoints as a new process finds them."""

    ids: set[str]
    parents: dict[str, str | None]
    writes: dict[str, dict[str, set[str]]]  # checkpoint id -> task id -> channels of its saved writes
    missing_blobs: list[str]


async def saved_chain(saver: CheckpointSaver) -> Saved:
    """What the storage holds for the thread, read from its rows (no channel value is loaded)."""
    storage = saver.storage
    rows = await storage.checkpoints(THREAD, None)
    versions = {
        row["checkpoint_id"]: saver.serde.loads_typed(row["checkpoint"])["channel_versions"] for row in rows
    }
    writes: dict[str, dict[str, set[str]]] = {row["checkpoint_id"]: {} for row in rows}
    for write in await storage.writes([(THREAD, "", row["checkpoint_id"]) for row in rows]):
        writes[write["checkpoint_id"]].setdefault(write["task_id"], set()).add(write["channel"])
    wanted = [
        (THREAD, "", channel, version)
        for by_channel in versions.values()
        for channel, version in by_channel.items()
    ]
    found = await storage.blobs(wanted)
    return Saved(
        ids=set(versions),
        parents={row["checkpoint_id"]: row["parent_checkpoint_id"] for row in rows},
        writes=writes,
        missing_blobs=[f"{key[2]}@{key[3]}" for key in wanted if key not in found],
    )


async def saved_frames(saver: CheckpointSaver, storage: str = "full") -> list[tuple[Any, ...]]:
    """Every checkpoint of the thread, oldest first, ids aside (:func:`frame_without_ids`), with the
    values it holds: the AML graph stores its lists whole (LangGraph's default); a graph that opts
    them in to ``DeltaChannel`` would store a full snapshot after a resume where a crash-free run
    stores the sentinel (``lab.pregel.delta``), so the values are compared rebuilt."""
    listed = [saved async for saved in saver.alist({"configurable": {"thread_id": THREAD}})]
    rebuilt = await complete_all(channels_of(STATES[storage]), listed, saver)
    return [frame_without_ids(saved) for saved in rebuilt][::-1]


async def press_forward(outside: TrialLab) -> dict[str, Any]:
    """What a learner does after a crash: press the action the status line names (Run if nothing was
    saved, Approve at the review, else Resume). A thread whose end was saved is already done."""
    status = (await outside.do("view"))["status"]
    if status["phase"] == "done":
        return {"status": "done", "values": (await outside.do("state"))["values"]}
    if status["action"] == "approve":
        return await outside.do("answer", approve=True)
    return await outside.do(status["action"])


def crash_args(point: CrashPoint) -> dict[str, Any]:
    """The ``arm_crash`` arguments of a crash point."""
    seam, node, *step = point
    return {"seam": seam, "node": node, "step": step[0] if step else None}


def started_in(executions: dict[str, Any]) -> Counter[str]:
    """How often each node started, from the lab's ``executions`` report (the journal's counts)."""
    return Counter({node: counts["started"] for node, counts in executions["nodes"].items()})


def flagged_in(ledger: dict[str, Any]) -> Counter[tuple[str, ...]]:
    """The business operations the lab's ledger verdict flags as done more than once, and how often."""
    return Counter(
        {tuple(d["operation"]): d["times"] for d in ledger["duplicates"] if d["thread_id"] == THREAD}
    )


async def drive(trial: Trial, crash: bool = True, lab: TrialLab | None = None) -> Observed:
    """Run one trial (or, with ``crash=False``, the crash-free run it is compared with) in ``lab``
    (default: a fresh :class:`Outside` on CPython)."""
    outside = lab or Outside(trial.seed)
    seen = Observed()
    planned = list(trial.crashes) if crash else []
    await outside.do(
        "start",
        case_id=trial.case_id,
        variant=trial.variant,
        durability=trial.durability,
        thread_id=THREAD,
        storage=trial.storage,
    )

    async def arm_next() -> None:
        if planned:
            await outside.arm(planned.pop(0))

    await arm_next()
    result = await outside.do("run")
    for _ in range(MAX_COMMANDS):
        status = result["status"]
        if status == "done":
            break
        if status == "crashed":
            seen.crash_points.append(result["crash_point"])
            seen.after_crash.append(await outside.recover())
            await arm_next()
            result = await press_forward(outside)
        elif status == "interrupted":
            result = await outside.do("answer", approve=True)
        else:
            seen.violations.append(f"a run ended {status}: {result}")
            break
    else:
        seen.violations.append(f"not done after {MAX_COMMANDS} commands")
    seen.final = result.get("values", {})
    await outside.observe(seen)
    return seen


# -- the invariants ---------------------------------------------------------------------------------

_IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b(ch|sar)_\d+")
_REPLAYED = re.compile(r'"replayed": (true|false)')


def _plain(value: Any) -> Any:
    """How ``json.dumps`` writes what JSON lacks: a set as its sorted items, anything else its repr."""
    return sorted(value, key=repr) if isinstance(value, set | frozenset) else repr(value)


def _as_json_reads(value: Any) -> Any:
    """A value as a run's answer carries it to the page and back (JSON through JavaScript, where
    ``9400.0`` arrives as ``9400``). The frames are compared as stored, with their exact types."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _as_json_reads(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_as_json_reads(item) for item in value]
    return value


def _without_ids(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=_plain)
    return _REPLAYED.sub('"replayed": <r>', _IDS.sub("<id>", text))


def _version_numbers(versions: dict[str, str]) -> dict[str, int]:
    """``"000...02.0.5309"`` -> ``2``: the random tail differs from run to run by design."""
    return {channel: int(str(version).partition(".")[0]) for channel, version in versions.items()}


def frame_without_ids(saved: CheckpointTuple) -> tuple[Any, ...]:
    """What a stored checkpoint holds, minus ids, times and the random tail of versions."""
    checkpoint = saved.checkpoint
    seen = checkpoint["versions_seen"]
    return (
        saved.metadata["step"],
        saved.metadata["source"],
        _without_ids(checkpoint["channel_values"]),
        _version_numbers(checkpoint["channel_versions"]),
        # a resume records every version it saw under "__interrupt__", as LangGraph does; an entry
        # that saw no channel is left out: a called task's (``@task``) is there only where its node
        # ran, and a node whose writes a resume restored calls nothing (in LangGraph too)
        {
            node: _version_numbers(versions)
            for node, versions in seen.items()
            if node != "__interrupt__" and versions
        },
        sorted(channel for _, channel, _ in saved.pending_writes or []),
    )


def same_result(seen: Observed, clean: Observed) -> list[str]:
    problems = []
    if _without_ids(_as_json_reads(seen.final)) != _without_ids(_as_json_reads(clean.final)):
        problems.append(f"final state differs: {seen.final} vs crash-free {clean.final}")
    ours, theirs = seen.frames, clean.frames
    if ours != theirs:
        first = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), None)
        problems.append(
            f"frames differ ({len(ours)} vs crash-free {len(theirs)}; first difference at {first}: "
            f"{ours[first] if first is not None else ''} vs {theirs[first] if first is not None else ''})"
        )
    return problems


def chain_intact(seen: Observed) -> list[str]:
    problems = []
    for moment, saved in enumerate(seen.after_crash):
        for checkpoint_id, parent in saved.parents.items():
            if parent is not None and parent not in saved.ids:
                problems.append(f"after crash {moment + 1}: {checkpoint_id} has a missing parent {parent}")
        if saved.missing_blobs:
            problems.append(f"after crash {moment + 1}: half checkpoint, no blob for {saved.missing_blobs}")
    return problems


def _segments(seen: Observed) -> list[list[dict[str, Any]]]:
    """The journal records of each process, oldest first (every one but the last crashed)."""
    bounds = [0, *seen.segments, len(seen.journal)]
    return [seen.journal[start:end] for start, end in zip(bounds, bounds[1:], strict=False)]


_CONTROL_CHANNELS = frozenset({"__interrupt__", "__resume__", "__error__"})


def _has_result(channels: set[str]) -> bool:
    """A node's task with a saved write other than a control one finished: resuming reuses its
    writes. (A task its node called, ``@task``, saves ``__return__``: its node's re-run reuses it,
    the step does not restore it.)"""
    return bool(channels - _CONTROL_CHANNELS) and RETURN not in channels


def first_steps(seen: Observed) -> list[dict[str, Any] | None]:
    """Per crash, the first step the next process ran (its ``step_start`` journal record: the tasks
    it re-ran and those it restored), ``None`` if it ran none (it only asked the review again)."""
    return [next((r for r in records if r["type"] == "step_start"), None) for records in _segments(seen)[1:]]


def only_interrupted_tasks_rerun(seen: Observed) -> list[str]:
    """After each crash the thread resumes from its newest saved checkpoint; the tasks of that step
    with a saved result are restored from their writes, and only the others run again."""
    problems = []
    node_of = {r["task_id"]: r["node"] for r in seen.journal if r["type"] == "task_start"}
    for crash, (saved, first) in enumerate(zip(seen.after_crash, first_steps(seen), strict=False), 1):
        if not saved.ids:
            continue  # nothing was saved: the case starts over
        if first is None:
            continue  # resumed at an interrupt and only asked again
        head = max(saved.ids)
        finished = {
            node_of.get(task, task) for task, channels in saved.writes[head].items() if _has_result(channels)
        }
        if first["checkpoint_id"] != head:
            problems.append(f"crash {crash}: resumed from {first['checkpoint_id']}, not the newest {head}")
        elif set(first["restored"]) != finished or finished & set(first["tasks"]):
            problems.append(
                f"crash {crash}: re-ran {first['tasks']} and restored {first['restored']}, but the tasks "
                f"with saved results were {sorted(finished)}"
            )
    return problems


def _sent(requests: list[dict[str, Any]], node: str) -> list[str]:
    """Task ids of the executions of ``node`` among ``requests`` (``side_effect`` events the page saw:
    a request left the process; a crash at that seam stops the request before it is announced)."""
    return [event["task_id"] for event in requests if event["node"] == node]


_PAID_NODES = {"fetch_transactions": "charge", "human_review": "charge", "file_sar": "sar"}


def _operations(ledger: list[dict[str, Any]]) -> Counter[tuple[str, ...]]:
    """How often each business operation was really performed (replays move no money)."""
    return Counter(business_operation(entry) for entry in ledger if not entry["replayed"])


def _predicted(variant: str, task_ids: list[str]) -> int:
    """Misplaced and task (no keys): every request that got out pays (a task whose saved result came
    back sends none). Task-key: once per distinct task id (its key)."""
    return len(task_ids) if variant in ("misplaced", TASK) else len(set(task_ids))


def _answered_at_crash(seen: Observed) -> list[dict[str, Any]]:
    """The requests a crash at their own ``side_effect_done`` seam struck: their answer came back
    (the seam comes after it), but the crash fired before the seam's event was sent."""
    struck = []
    for point in seen.crash_points:
        if point["seam"] == "side_effect_done":
            where = (point["node"], point["step"], point["checkpoint_id"])
            struck += [r for r in seen.requests if (r["node"], r["step"], r["checkpoint_id"]) == where][:1]
    return struck


def charges_as_predicted(seen: Observed, clean: Observed, trial: Trial) -> list[str]:
    if trial.variant == "fixed":
        done, once = _operations(seen.ledger), _operations(clean.ledger)
        return (
            [] if done == once else [f"fixed variant: operations done {dict(done)}, want once: {dict(once)}"]
        )
    executed = [entry for entry in seen.ledger if not entry["replayed"]]
    problems = []
    for node, kind in _PAID_NODES.items():
        most = _predicted(trial.variant, _sent(seen.requests, node))
        if seen.answered is None:
            least = most
        else:
            least = _predicted(trial.variant, _sent(seen.answered + _answered_at_crash(seen), node))
        done = sum(1 for entry in executed if entry["node"] == node and entry["kind"] == kind)
        if not least <= done <= most:
            predicted = most if least == most else f"{least} to {most}"
            problems.append(f"{node}: {done} requests executed, predicted {predicted}")
    return problems


def repeats_flagged(seen: Observed) -> list[str]:
    """The ledger's verdict flags exactly the business operations done more than once, with how often."""
    repeated = Counter({op: times for op, times in _operations(seen.ledger).items() if times > 1})
    if seen.flagged == repeated:
        return []
    return [f"the ledger flags {dict(seen.flagged)}, but done more than once were {dict(repeated)}"]


def violations(seen: Observed, clean: Observed, trial: Trial) -> list[str]:
    """Every promise ``seen`` broke, judged against the crash-free run ``clean`` of the same trial."""
    return [
        *seen.violations,
        *same_result(seen, clean),
        *chain_intact(seen),
        *only_interrupted_tasks_rerun(seen),
        *charges_as_predicted(seen, clean, trial),
        *repeats_flagged(seen),
    ]


# -- trials -----------------------------------------------------------------------------------------

_crash_free: dict[tuple[str, str, str], Observed] = {}


@dataclass
class SoakReport:
    trials: int = 0
    crashes: int = 0
    failures: dict[int, list[str]] = field(default_factory=dict)
    """Each failing seed with what it violated."""
    by_mode: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Trials per (variant, durability)."""


async def crash_free(trial: Trial) -> Observed:
    """The crash-free run of the trial's case, variant and mode on CPython (once per key)."""
    key = (trial.case_id, trial.variant, trial.durability, trial.storage)
    if key not in _crash_free:
        _crash_free[key] = await drive(trial, crash=False)
    return _crash_free[key]


async def check(seed: int, report: SoakReport) -> None:
    """Run trial ``seed`` and add it to ``report``."""
    trial = plan(seed)
    clean = await crash_free(trial)
    seen = await drive(trial)
    problems = violations(seen, clean, trial)
    report.trials += 1
    report.crashes += len(seen.after_crash) - 1  # the last check is at the end, not after a crash
    report.by_mode[trial.variant, trial.durability] += 1
    if problems:
        report.failures[seed] = problems


async def soak(seeds: Iterable[int]) -> SoakReport:
    report = SoakReport()
    for seed in seeds:
        await check(seed, report)
    return report
