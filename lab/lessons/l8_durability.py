"""Lesson 8, durability: the same crash under ``durability="sync"`` (each checkpoint saved before the
next step starts), ``"async"`` (saved while the next step runs, so the newest can be lost) and
``"exit"`` (saved only when the run stops, so a crash loses the whole run)."""

from typing import Any

from lab.lessons.model import Command, Lesson, Predict, Step, do, start_case

ARM = do("arm_crash", seam="task_start", node="classify_typology")
"""The crash of this lesson: step 3 starts, after the paid query of step 2."""

STEP_2_WRITES_SAVED = [["put_writes", "fetch_transactions"], ["put_writes", "screen_sanctions"]]
"""Under ``"async"`` the saves run in the background, at the machine's pace: by the time step 3
starts they may lag anywhere behind. The lesson pins one moment, decided by the runtime's order
and not the clock: both writes of step 2 are saved, step 2's checkpoint is queued behind them
and not yet written. (On a slower or faster machine a real crash can lose more, or nothing.)"""
ARM_ASYNC = do("arm_crash", seam="task_start", node="classify_typology", after=STEP_2_WRITES_SAVED)
"""The same crash, at the moment :data:`STEP_2_WRITES_SAVED` names."""


def survivors(mode: str, kept: int) -> str:
    """What the LangGraph code's comment says survives: a number, except under ``"async"``, where it
    is a race (the test runs this code on LangGraph and asserts every number a comment states)."""
    if mode == "async":
        return f"a race: {kept} if step 2's checkpoint was still being written, as here"
    return str(kept)


def crash_under(
    mode: str,
    kept: int,
    choices: tuple[int, ...],
    follow: Command,
    after: dict[str, Any],
    arm: Command = ARM,
) -> tuple[Step, Step]:
    """The crash under one durability mode, then the action the status line names."""
    return (
        Step(
            id=f"{mode}-crash",
            prepare=(start_case("misplaced", mode), arm),
            action=do("run"),
            predict=Predict("checkpoints", choices),
            expects={
                "phase": "crashed" if kept else "crashed_nothing_saved",
                "checkpoints": kept,
                "durability": mode,
            },
            code=f'graph.invoke({{"case_id": "S-1001"}}, config, durability="{mode}")  # dies in step 3\n'
            f"len(list(graph.get_state_history(config)))  # {survivors(mode, kept)}",
        ),
        Step(
            id=f"{mode}-after",
            action=follow,
            expects={"phase": "waiting", **after},
            code="graph.invoke(None, config)  # resume from the newest checkpoint"
            if follow.name == "resume"
            else 'graph.invoke({"case_id": "S-1001"}, config)  # nothing to resume: start over',
        ),
    )


LESSON = Lesson(
    id="durability",
    panels=("graph", "status", "controls", "crash", "frames", "ledger"),
    steps=(
        *crash_under("sync", 4, (0, 3, 4), do("resume"), {"ran_twice": [], "charged": "14.50"}),
        *crash_under("async", 3, (0, 3, 4), do("resume"), {"ran_twice": [], "charged": "14.50"}, ARM_ASYNC),
        *crash_under(
            "exit",
            0,
            (0, 3, 4),
            do("run"),
            {
                "ran_twice": ["fetch_transactions", "intake", "screen_sanctions"],
                "charged": "17.00",
                "double_causes": ["crash_lost_checkpoint"],
            },
        ),
    ),
)
