"""Every seam, every durability mode, every variant: a real ``worker.terminate()`` in Chromium, then
resume to the end (issue 10, items 3 and 4, in the browser). See ``crash_harness.py``.

- **The seam table**: one trial per (seam, durability, variant). The worker is killed at that
  seam, the warm spare takes over, the trial resumes (answering the review "approve" as the
  crash-free run did) to the end, and is judged by the CPython soak's invariants: final state and
  frames equal the crash-free run's (ids aside); the chain is intact after the crash and at the end
  (every parent and every blob a checkpoint names is there); only the tasks without a saved result
  re-run; "fixed" performs each business operation once, "misplaced", "task-key" and "task" charge
  exactly as the announced requests predict, and the ledger flags every operation done twice. In the
  "task" variant (the export bought in a ``@task`` before ``interrupt()``, issue 36) the two
  ``side_effect`` seams strike inside that task (:data:`TASK_CRASHES`). The table is
  printed at the end of the pytest run and written to ``crash-seam-table.md`` in the test's tmp dir.
- **The kill soak**: seeded trials, each with one kill at a random moment (a random number of seam
  events into the trial plus a random delay), judged the same way. ``KILL_SEED=N pytest
  tests/browser/test_crash_harness.py -k soak`` replays one seed alone; ``KILL_TRIALS=N`` runs more.
  A kill that comes after the trial's last run has ended (the run outpaced the page's timer) is no
  failure: that trial finished first and is judged as a crash-free one. The soak fails if more than
  half of its planned kills came too late (a harness that kills nothing proves nothing).

Everything runs in one page: one Pyodide boot and one memory snapshot (made first, so every spare
restores from it in about a second), a ``reset`` between trials, and the warm spare after each kill.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from browser_harness import launch_chromium, print_at_the_end
from crash_harness import (
    RUN_COMMANDS,
    TRACK_RUNS,
    Outcome,
    describe,
    kill_plan,
    kills_struck,
    run_trial,
    seam_table,
    soak_report,
)
from playwright.async_api import Page, async_playwright
from test_lab_session import HOST_PAGE, OPEN_SESSION

from lab.aml.graph import TASK
from tests.crash_soak import DURABILITIES, SOAK_VARIANTS, Trial

pytestmark = pytest.mark.asyncio(loop_scope="module")

DELAY_S = 0.02  # each node works 20 ms: kills land inside nodes, and 130 trials stay short
TABLE_CRASHES = {
    "step_start": (None, 2),  # the parallel step: fetch_transactions || screen_sanctions
    "task_start": ("screen_sanctions", None),
    "side_effect": ("file_sar", None),  # in the answer's run: the filing never left
    "side_effect_done": ("fetch_transactions", None),  # paid, its writes not saved: it runs again
    "task_finish": ("human_review", None),  # after the officer's answer (and, except misplaced, the export)
    "put_writes": ("fetch_transactions", None),  # its sibling still running: restored vs re-run
    "step_end": (None, 2),
    "put": (None, None),  # the first checkpoint the mode saves
    "interrupt": ("human_review", None),
}
"""The crash point of each seam in the table (node, step; ``None``: the first to meet it). No node of
the AML graph raises, so ``error`` has no crash point."""
EXIT_CRASHES = {"put_writes": (None, None)}
"""Under durability "exit" a run saves pending writes only when it stops: human_review's interrupt."""
TASK_CRASHES = {"side_effect": ("human_review", None), "side_effect_done": ("human_review", None)}
"""In the "task" variant, inside human_review's task buy_export: before the export is charged, and
after it, before the task's result is saved (charged twice: the window a task does not close)."""

MAKE_SNAPSHOT = "async () => (await import('/python-process.mjs')).makeSnapshotInWorker()"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def lab_page(site) -> AsyncIterator[Page]:
    """One page with a LabSession whose every process (the first and each spare) restores Python
    from the memory snapshot, made before the session starts."""
    async with async_playwright() as playwright:
        browser = await launch_chromium(playwright)
        page = await (await browser.new_context()).new_page()
        await page.goto(site + HOST_PAGE)
        assert (await page.evaluate(MAKE_SNAPSHOT))["snapshot"] == "made"
        ready = await page.evaluate(OPEN_SESSION, {"delay": DELAY_S, "offline": False, "snapshot": False})
        assert ready["snapshot"] == "restored", ready
        await page.evaluate(TRACK_RUNS, list(RUN_COMMANDS))
        yield page
        await browser.close()


def table_variants() -> tuple[str, ...]:
    """misplaced, fixed and task; ``CRASH_TABLE_VARIANTS=all`` adds task-key (27 more kills)."""
    return SOAK_VARIANTS if os.environ.get("CRASH_TABLE_VARIANTS") == "all" else ("misplaced", "fixed", TASK)


def table_seams() -> list[str]:
    """Every seam of the table; ``CRASH_TABLE_SEAMS=put,interrupt`` runs only those rows."""
    chosen = os.environ.get("CRASH_TABLE_SEAMS")
    return [seam for seam in TABLE_CRASHES if chosen is None or seam in chosen.split(",")]


def crash_point(seam: str, durability: str, variant: str) -> tuple[str, str | None, int | None]:
    overrides = EXIT_CRASHES if durability == "exit" else {}
    overrides = {**overrides, **(TASK_CRASHES if variant == TASK else {})}
    node, step = overrides.get(seam, TABLE_CRASHES[seam])
    return seam, node, step


def table_trials() -> list[Trial]:
    """One trial per (seam, durability, variant) of the table, its seed its row number."""
    cells = [
        (seam, durability, variant)
        for seam in table_seams()
        for durability in DURABILITIES
        for variant in table_variants()
    ]
    return [
        Trial(seed, "S-1001", variant, durability, (crash_point(seam, durability, variant),))
        for seed, (seam, durability, variant) in enumerate(cells)
    ]


def kill_seeds() -> list[int]:
    if "KILL_SEED" in os.environ:
        return [int(os.environ["KILL_SEED"])]
    return list(range(int(os.environ.get("KILL_TRIALS", "50"))))


def report(request, path, text: str) -> None:
    """Print ``text`` at the end of the pytest run and write it to ``path``."""
    path.write_text(text + "\n")
    print_at_the_end(request.config, f"{text}\n(written to {path})")


def struck_as_planned(outcome: Outcome) -> list[str]:
    """The crash struck at the planned seam (of the planned node and step)."""
    seam, node, step = outcome.trial.crashes[0]
    struck = outcome.seen.crash_points[:1]
    if (
        struck
        and struck[0]["seam"] == seam
        and node in (None, struck[0]["node"])
        and step in (None, struck[0]["step"])
    ):
        return []
    return [f"the crash struck at {struck}, not at {seam} of {node or 'any node'} (step {step})"]


async def test_every_seam_in_every_mode_and_variant_resumes_to_the_crash_free_end(
    lab_page, request, tmp_path
):
    started = time.perf_counter()
    outcomes = []
    for trial in table_trials():
        outcome = await run_trial(lab_page, trial)
        outcome.problems += struck_as_planned(outcome)
        outcomes.append(outcome)
    table = seam_table(outcomes, time.perf_counter() - started)
    report(request, tmp_path / "crash-seam-table.md", table)
    failed = [o for o in outcomes if o.problems]
    assert not failed, "\n".join(f"{describe(o.trial)}: {'; '.join(o.problems)}" for o in failed)


async def test_random_kills_in_a_soak_break_no_promise(lab_page, request, tmp_path):
    started = time.perf_counter()
    outcomes = [await run_trial(lab_page, kill_plan(seed)) for seed in kill_seeds()]
    text = soak_report(outcomes, time.perf_counter() - started)
    report(request, tmp_path / "kill-soak.md", text)
    failed = [o for o in outcomes if o.problems]
    assert not failed, "replay one alone with KILL_SEED=N\n" + "\n".join(
        f"seed {o.trial.seed} ({describe(o.trial)}, kill after {o.kills}): {'; '.join(o.problems)}"
        for o in failed
    )
    struck, planned = kills_struck(outcomes)
    assert 2 * struck > planned, f"only {struck} of {planned} planned kills struck before their trial ended"
    if not os.environ.keys() & {"KILL_SEED", "KILL_TRIALS"}:
        assert len(outcomes) >= 50
