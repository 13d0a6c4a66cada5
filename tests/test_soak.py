"""The CPython soak (issue 10, item 4): 2,000 seeded random crash/resume trials of the lab
(``tests/crash_soak.py``), every one checked against the lab's promises, 0 violations.

Replay one trial alone: ``SOAK_SEED=1234 pytest tests/test_soak.py``; run more or fewer with
``SOAK_TRIALS=N``; ``python bench/soak.py`` runs a longer soak and prints its table.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from lab.controller import SEAMS
from tests.crash_soak import (
    DURABILITIES,
    SOAK_VARIANTS,
    Observed,
    Saved,
    Trial,
    chain_intact,
    charges_as_predicted,
    crash_points,
    plan,
    repeats_flagged,
    same_result,
    soak,
)

TRIALS = int(os.environ.get("SOAK_TRIALS", "2000"))


def seeds() -> list[int]:
    return [int(os.environ["SOAK_SEED"])] if "SOAK_SEED" in os.environ else list(range(TRIALS))


@pytest.mark.soak
async def test_random_crashes_break_no_promise() -> None:
    report = await soak(seeds())
    shown = "\n".join(
        f"seed {seed} ({plan(seed)}):\n  " + "\n  ".join(problems)
        for seed, problems in list(report.failures.items())[:5]
    )
    assert report.failures == {}, (
        f"{len(report.failures)} of {report.trials} trials failed; replay one with SOAK_SEED=N\n{shown}"
    )
    assert report.crashes >= report.trials * 3 // 4  # some planned crash points are never reached
    if "SOAK_SEED" not in os.environ:
        assert set(report.by_mode) == {(v, d) for v in SOAK_VARIANTS for d in DURABILITIES}


def test_the_plans_cover_every_seam_variant_and_mode() -> None:
    plans = [plan(seed) for seed in range(2000)]
    offered = {point for variant in SOAK_VARIANTS for point in crash_points(variant)}
    assert {point for p in plans for point in p.crashes} == offered
    assert {seam for seam, _ in offered} == set(SEAMS) - {"error"}
    assert Counter(p.variant for p in plans).keys() == set(SOAK_VARIANTS)
    assert {p.storage for p in plans} == {"full", "delta"}  # DeltaChannel switched on crashes too
    assert plan(7) == plan(7)  # a seed is the whole trial: it replays alone


# -- the checks can fail ----------------------------------------------------------------------------


def observed(**fields: object) -> Observed:
    return Observed(**fields)  # type: ignore[arg-type]


def test_a_missing_parent_or_blob_is_a_violation() -> None:
    saved = Saved(ids={"b"}, parents={"b": "a"}, writes={}, missing_blobs=["x@1"])
    problems = chain_intact(observed(after_crash=[saved]))
    assert any("missing parent a" in p for p in problems) and any("half checkpoint" in p for p in problems)


def test_a_different_final_state_is_a_violation() -> None:
    clean = observed(final={"outcome": "SAR sar_0001 filed"})
    assert same_result(observed(final={"outcome": "SAR sar_0002 filed"}), clean) == []  # ids aside
    assert same_result(observed(final={"outcome": "Closed"}), clean) != []


def test_a_fixed_operation_performed_twice_is_a_violation() -> None:
    charge = {"kind": "charge", "thread_id": "soak", "purpose": "query", "replayed": False, "node": "n"}
    trial = Trial(0, "S-1001", "fixed", "exit", ())
    assert charges_as_predicted(observed(ledger=[charge]), observed(ledger=[charge]), trial) == []
    twice = observed(ledger=[charge, charge])
    assert charges_as_predicted(twice, observed(ledger=[charge]), trial) != []
    replayed = observed(ledger=[charge, {**charge, "replayed": True}])
    assert charges_as_predicted(replayed, observed(ledger=[charge]), trial) == []


def test_an_operation_done_twice_must_be_flagged_and_nothing_else() -> None:
    charge = {"kind": "charge", "thread_id": "soak", "purpose": "query", "replayed": False, "node": "n"}
    twice = Counter({("charge", "soak", "query"): 2})
    assert repeats_flagged(observed(ledger=[charge, charge], flagged=twice)) == []
    assert repeats_flagged(observed(ledger=[charge, charge])) != []  # done twice, not flagged
    assert repeats_flagged(observed(ledger=[charge], flagged=twice)) != []  # flagged, done once


def test_a_kill_between_announcement_and_arrival_is_allowed_only_there() -> None:
    """After a kill at a random moment (or a sibling task's crash) a request may have been announced
    and never arrived: the charges lie between the answered requests and the announced ones."""
    sent = [{"node": "fetch_transactions", "task_id": "t1"}, {"node": "fetch_transactions", "task_id": "t1"}]
    charge = {"kind": "charge", "node": "fetch_transactions", "replayed": False}
    trial = Trial(0, "S-1001", "misplaced", "sync", ())
    once = observed(ledger=[charge], requests=sent, answered=sent[:1])
    assert charges_as_predicted(once, observed(), trial) == []
    assert charges_as_predicted(observed(ledger=[charge], requests=sent), observed(), trial) != []  # exact
    thrice = observed(ledger=[charge] * 3, requests=sent, answered=sent[:1])
    assert charges_as_predicted(thrice, observed(), trial) != []


def test_a_crash_at_side_effect_done_counts_its_request_as_answered() -> None:
    """A crash at a request's own ``side_effect_done`` seam strikes after the answer came back, before
    the seam's event: that request got out, so the misplaced charge is still counted exactly."""
    where = {"node": "fetch_transactions", "step": 2, "checkpoint_id": "c2"}
    sent = [{**where, "task_id": "t1"}, {**where, "task_id": "t1"}]  # the run that crashed, its re-run
    charge = {"kind": "charge", "node": "fetch_transactions", "replayed": False}
    trial = Trial(0, "S-1001", "misplaced", "sync", ())
    crash = [{"seam": "side_effect_done", **where}]
    twice = observed(ledger=[charge] * 2, requests=sent, answered=sent[1:], crash_points=crash)
    assert charges_as_predicted(twice, observed(), trial) == []
    once = observed(ledger=[charge], requests=sent, answered=sent[1:], crash_points=crash)
    assert charges_as_predicted(once, observed(), trial) != []  # the struck request got out: 2 are due
    elsewhere = [{"seam": "task_start", "node": "screen_sanctions", "step": 2, "checkpoint_id": "c2"}]
    cut = observed(ledger=[charge], requests=sent, answered=sent[1:], crash_points=elsewhere)
    assert charges_as_predicted(cut, observed(), trial) == []  # the sibling's crash cut the first one
