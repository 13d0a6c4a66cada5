"""Crash/resume trials in Chromium, judged by the CPython soak's invariants (``tests/crash_soak.py``).

LangGraph's durable execution promises that a process killed anywhere can be replaced by a new one
over the same storage, and the thread resumed to the end it would have reached without the crash.
``tests/crash_soak.py`` drives that story on CPython, where a "crash" drops a controller object.
Here the same story (its ``drive`` loop, its ``Trial`` plans, its invariants) runs in the lab's
page: :class:`PageLab` is a ``crash_soak.TrialLab`` over the page's ``LabSession``, whose crashes
are real - ``worker.terminate()`` on the Web Worker running Python - and whose storage is the
browser's IndexedDB.

Two kinds of crash:

- a **seam crash** (``arm_crash(seam, node, step)``): the controller stops at that seam, the page
  terminates the worker, and the warm spare takes over (``LabSession``'s ``#bringUp``);
- a **kill** (:data:`KILL`): the page calls ``labSession.kill()`` at a random moment - a random
  number of seam events into the run, plus a random delay, wherever Python then is (inside a
  node, between two IndexedDB requests, waiting for the ledger's answer).

What a trial is judged by is read where it lives: the frames, the ledger and its verdict, and the
execution counts through the page's ``view()`` command; the checkpoints, blobs, pending writes and
the journal straight from IndexedDB with plain JavaScript in the page. The raw rows are then loaded
into the lab's own saver core on CPython (``MemoryStorage`` under the same ``CheckpointSaver`` the
worker's ``IndexedDBSaver`` uses), so the chain checks see exactly the rows a new process finds.
The crash-free run each trial is compared with is the same case, variant and mode on CPython: the
runtime is the same code (``crash_soak.crash_free``).
"""

from __future__ import annotations

import asyncio
import base64
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page
from test_lab_session import COMMAND

from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.memory import MemoryStorage
from tests.crash_soak import (
    CASES,
    DURABILITIES,
    SOAK_VARIANTS,
    THREAD,
    CrashPoint,
    Observed,
    Saved,
    Trial,
    crash_args,
    crash_free,
    drive,
    first_steps,
    flagged_in,
    saved_chain,
    saved_frames,
    started_in,
    violations,
)

KILL = "kill"
"""A crash point that is no seam: the page kills the worker at a random moment."""
RUN_COMMANDS = ("run", "resume", "answer")
"""The commands during which a kill may land (the ones a trial sends that run the graph)."""
KILL_DELAY_MS = 25
"""A kill lands up to this long after the seam event it waits for."""

# Installed once per page: a kill armed with ARM_KILL lands `delayMs` after the `after`-th seam event of
# the runs that follow, and only while a run command is waiting (never between two commands, where no
# trial would see it). If the run ended first, the kill lands at the next run's first seam; if that run
# was the trial's last, the kill comes too late: the trial finished before it (see `run_trial`). A kill
# belongs to its trial: one whose delay ends after NEXT_TRIAL is dropped.
TRACK_RUNS = """
(runCommands) => {
  window.harness = { pending: 0, kill: null, kills: 0, trial: 0 };
  const command = labSession.command.bind(labSession);
  labSession.command = async (name, args) => {
    const run = runCommands.includes(name);
    if (run) harness.pending += 1;
    try {
      return await command(name, args);
    } finally {
      if (run) harness.pending -= 1;
    }
  };
  labSession.onEvent((event) => {
    const plan = harness.kill;
    if (plan === null || harness.pending === 0 || event.type !== "seam") return;
    plan.seen += 1;
    if (plan.seen < plan.after) return;
    harness.kill = null;
    setTimeout(() => {
      if (plan.trial !== harness.trial) return;
      if (harness.pending === 0) {
        harness.kill = { ...plan, after: 0, seen: 0 };
        return;
      }
      harness.kills += 1;
      labSession.kill();
    }, plan.delayMs);
  });
}
"""
ARM_KILL = "([after, delayMs]) => { harness.kill = { after, delayMs, seen: 0, trial: harness.trial }; }"
NEXT_TRIAL = "() => { harness.kill = null; harness.trial += 1; labEvents.length = 0; }"

# The thread's rows as IndexedDB holds them (database "checkpoint-lab-threads") and its journal records,
# read in the page with plain IndexedDB calls, not through Python. Serialized values come as base64; with
# `values` false only what the chain checks need (blob keys, write keys and channels), which is cheaper.
READ_THREAD = """
async ([thread, values]) => {
  const settle = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await settle(indexedDB.open("checkpoint-lab-threads"));
  try {
    const tx = db.transaction(["checkpoints", "blobs", "writes", "journal"]);
    const keys = IDBKeyRange.bound([thread], [thread, []]);
    const [checkpoints, blobs, writes, journal] = await Promise.all([
      settle(tx.objectStore("checkpoints").getAll(keys)),
      settle(values ? tx.objectStore("blobs").getAll(keys) : tx.objectStore("blobs").getAllKeys(keys)),
      settle(tx.objectStore("writes").getAll(keys)),
      settle(tx.objectStore("journal").index("by_thread").getAll(thread)),
    ]);
    const base64 = ({ type, bytes }) => ({ type, bytes: bytes.toBase64() });
    const omitted = { type: "empty", bytes: "" };
    const value = (row) => (values ? base64(row.value) : omitted);
    return {
      checkpoints: checkpoints.map((row) => ({ ...row, checkpoint: base64(row.checkpoint),
                                               metadata: base64(row.metadata) })),
      blobs: values ? blobs.map((row) => ({ ...row, value: value(row) }))
        : blobs.map(([thread_id, checkpoint_ns, channel, version]) => ({
          thread_id, checkpoint_ns, channel, version, value: omitted })),
      writes: writes.map((row) => ({ ...row, value: value(row) })),
      journal: journal.map((row) => row.record),
    };
  } finally {
    db.close();
  }
}
"""

SEAM_EVENTS = "(thread) => labEvents.filter((e) => e.type === 'seam' && e.thread_id === thread)"


def _typed(value: dict[str, Any]) -> tuple[str, bytes]:
    return value["type"], base64.b64decode(value["bytes"])


async def saver_over(stored: dict[str, Any]) -> CheckpointSaver:
    """The lab's saver core over a copy of the rows IndexedDB holds (see :data:`READ_THREAD`)."""
    storage = MemoryStorage()
    await storage.put(
        checkpoints=[
            {**row, "checkpoint": _typed(row["checkpoint"]), "metadata": _typed(row["metadata"])}
            for row in stored["checkpoints"]
        ],
        blobs=[{**row, "value": _typed(row["value"])} for row in stored["blobs"]],
        writes=[{**row, "value": _typed(row["value"]), "overwrite": False} for row in stored["writes"]],
    )
    return CheckpointSaver(storage)


def page_frames_are_stored(view: dict[str, Any], stored: dict[str, Any]) -> list[str]:
    """The frames the page draws (``view()``) are the checkpoints IndexedDB holds, with their parents."""
    shown = [(f["checkpoint_id"], f["parent_id"]) for f in view["frames"]]
    rows = sorted(stored["checkpoints"], key=lambda row: row["checkpoint_id"])
    held = [(row["checkpoint_id"], row["parent_checkpoint_id"]) for row in rows]
    return [] if shown == held else [f"the page shows frames {shown}, IndexedDB holds {held}"]


class PageLab:
    """The page's ``LabSession`` as a trial's lab (``crash_soak.TrialLab``): real kills, IndexedDB.

    ``kill_window``: how many seam events the trial's crash-free run has; a kill waits for a random
    number of them (``rng``), so it lands somewhere inside the trial."""

    def __init__(self, page: Page, rng: random.Random, kill_window: int = 0) -> None:
        self.page, self.rng, self.kill_window = page, rng, kill_window
        self.segments: list[int] = []
        self.kills: list[tuple[int, float]] = []  # (seam events waited for, delay in ms) of each kill

    async def do(self, name: str, **args: Any) -> dict[str, Any]:
        answer = await self.page.evaluate(COMMAND, [name, args])
        if not answer["ok"]:
            raise AssertionError(f"{name}({args}) failed: {answer['type']}: {answer['message']}")
        return answer["result"]

    async def arm(self, point: CrashPoint) -> None:
        if point[0] != KILL:
            await self.do("arm_crash", **crash_args(point))
            return
        kill = (
            self.rng.randint(1, max(1, self.kill_window - 4)),
            round(self.rng.uniform(0, KILL_DELAY_MS), 1),
        )
        self.kills.append(kill)
        await self.page.evaluate(ARM_KILL, list(kill))

    async def stored(self, values: bool) -> dict[str, Any]:
        return await self.page.evaluate(READ_THREAD, [THREAD, values])

    async def recover(self) -> Saved:
        await self.page.evaluate("labSession.ready")  # the spare (or a fresh worker) took over
        stored = await self.stored(values=False)
        self.segments.append(len(stored["journal"]))
        return await saved_chain(await saver_over(stored))

    async def observe(self, seen: Observed) -> None:
        # The trial is over (no command runs): Python computes its view in the worker while the page
        # reads the seam events and IndexedDB on its main thread, at the same time.
        view, seams, stored = await asyncio.gather(
            self.do("view"), self.page.evaluate(SEAM_EVENTS, THREAD), self.stored(values=True)
        )
        seen.started = started_in(view["executions"])
        seen.ledger = view["ledger"]["entries"]
        seen.flagged = flagged_in(view["ledger"])
        seen.seams = len(seams)
        seen.requests = [e for e in seams if e["seam"] == "side_effect"]
        # A request reaches the page's ledger a round trip after its announcement: a kill, or a
        # sibling task's crash, can fall in between.
        seen.answered = [e for e in seams if e["seam"] == "side_effect_done"]
        seen.journal, seen.segments = stored["journal"], self.segments
        saver = await saver_over(stored)
        seen.after_crash.append(await saved_chain(saver))
        seen.frames = await saved_frames(saver)
        seen.violations += page_frames_are_stored(view, stored)


# -- one trial ----------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """A trial in the page: what it saw, what it broke, how long it took."""

    trial: Trial
    seen: Observed
    problems: list[str]
    seconds: float
    kills: list[tuple[int, float]]
    late_kills: int = 0
    """Planned kills that came after the trial's last run had ended: the trial finished before them
    (it is still judged by every promise, as a crash-free run of the trial)."""


async def run_trial(page: Page, trial: Trial) -> Outcome:
    """Reset the lab, run ``trial`` in the page, judge it against its crash-free run on CPython."""
    started = time.perf_counter()
    clean = await crash_free(trial)
    lab = PageLab(page, random.Random(trial.seed), kill_window=clean.seams)
    await page.evaluate(NEXT_TRIAL)
    await lab.do("reset")
    seen = await drive(trial, lab=lab)
    problems = violations(seen, clean, trial)
    unfired = trial.crashes[len(seen.crash_points) :]  # crashes strike in the order they were planned
    late_kills = sum(point[0] == KILL for point in unfired)
    if len(unfired) > late_kills:
        problems.append(f"{len(unfired) - late_kills} of the planned seam crashes never struck")
    return Outcome(trial, seen, problems, time.perf_counter() - started, lab.kills, late_kills)


def kills_struck(outcomes: list[Outcome]) -> tuple[int, int]:
    """How many planned kills struck, of how many planned. A kill lands a random number of seam events
    before the trial's end plus up to :data:`KILL_DELAY_MS`, so the odd one comes after the end (the
    run outpaced the page's timer): no failure, but a harness whose kills mostly miss kills nothing."""
    planned = sum(point[0] == KILL for o in outcomes for point in o.trial.crashes)
    return planned - sum(o.late_kills for o in outcomes), planned


def kill_plan(seed: int) -> Trial:
    """A soak trial: from its seed alone, a case, variant (the ``task`` variant too) and mode, and one
    kill at a random moment."""
    rng = random.Random(f"kill-{seed}")
    variant = rng.choice(SOAK_VARIANTS)
    return Trial(seed, rng.choice(CASES), variant, rng.choice(DURABILITIES), ((KILL, None),))


# -- reports --------------------------------------------------------------------------------------------

OPERATIONS = {"fetch_transactions": "query", "human_review": "export", "file_sar": "SAR"}
"""The business operation of each node that calls the outside world, as the table names it."""


def describe(trial: Trial) -> str:
    crashes = ", ".join("/".join(str(part) for part in point if part is not None) for point in trial.crashes)
    return f"{trial.case_id} {trial.variant} {trial.durability}, crash at {crashes}"


def _operations_done(seen: Observed) -> str:
    """The requests the outside world executed, per business purpose (replays listed apart)."""
    done = Counter(OPERATIONS[e["node"]] for e in seen.ledger if not e["replayed"])
    replayed = sum(e["replayed"] for e in seen.ledger)
    text = ", ".join(f"{purpose} {times}" for purpose, times in done.items())
    return text + (f" ({replayed} replayed)" if replayed else "")


def _resumed(seen: Observed) -> str:
    """What the process after the first crash did first: restored and re-ran which tasks."""
    if not seen.after_crash or not seen.after_crash[0].ids:
        return "nothing saved: started over"
    first = first_steps(seen)[0] if seen.segments else None
    if first is None:
        return "asked the review again"
    return f"restored {'+'.join(first['restored']) or '-'}; re-ran {'+'.join(first['tasks']) or '-'}"


def _flagged(seen: Observed) -> str:
    return ", ".join(f"{op[0]} {op[-1]} ×{times}" for op, times in seen.flagged.items()) or "-"


def seam_table(outcomes: list[Outcome], seconds: float) -> str:
    """The seam table (Markdown): one row per (seam, durability, variant) with what the trial counted."""
    passed = sum(not o.problems for o in outcomes)
    lines = [
        f"Crash seam table (Chromium, real worker.terminate()): {passed}/{len(outcomes)} cells passed "
        f"in {seconds:.0f} s ({seconds / max(1, len(outcomes)):.1f} s per cell)",
        "| seam | struck at | durability | variant | verdict | after the crash | executed | flagged | s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        seam = o.trial.crashes[0][0]
        struck = o.seen.crash_points[0] if o.seen.crash_points else {}
        at = f"{struck.get('node') or 'step'} s{struck.get('step')} r{struck.get('run')}" if struck else "-"
        verdict = "pass" if not o.problems else f"FAIL ({len(o.problems)})"
        lines.append(
            f"| {seam} | {at} | {o.trial.durability} | {o.trial.variant} | {verdict} | {_resumed(o.seen)} "
            f"| {_operations_done(o.seen)} | {_flagged(o.seen)} | {o.seconds:.1f} |"
        )
    return "\n".join(lines)


def soak_report(outcomes: list[Outcome], seconds: float) -> str:
    """The kill soak's figures: trials, kills, violations, per variant and mode, and the failing seeds."""
    failed = [o for o in outcomes if o.problems]
    kills, planned = kills_struck(outcomes)
    waits = [after for o in outcomes for after, _ in o.kills]
    modes = Counter((o.trial.variant, o.trial.durability) for o in outcomes)
    lines = [
        f"Kill soak (Chromium, labSession.kill() at random moments): {len(outcomes)} trials, {kills} kills "
        f"({planned - kills} came after their trial had finished), {len(failed)} violating trials, "
        f"in {seconds:.0f} s "
        f"({seconds / max(1, len(outcomes)):.1f} s per trial)",
        f"kills waited {min(waits, default=0)}-{max(waits, default=0)} seam events, "
        f"then 0-{KILL_DELAY_MS} ms; doubled operations seen: "
        f"{sum(bool(o.seen.flagged) for o in outcomes)} trials",
        "trials per variant and durability: "
        + ", ".join(f"{variant}/{durability} {n}" for (variant, durability), n in sorted(modes.items())),
    ]
    lines += [f"seed {o.trial.seed} ({describe(o.trial)}): {'; '.join(o.problems)}" for o in failed]
    return "\n".join(lines)
