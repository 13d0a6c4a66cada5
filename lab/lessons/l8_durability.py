"""Lesson 8, durability: the same crash under ``durability="sync"`` (each checkpoint saved before the
next step starts), ``"async"`` (saved while the next step runs, so the newest can be lost) and
``"exit"`` (saved only when the run stops, so a crash loses the whole run)."""

from typing import Any

from lab.lessons.model import Command, Lesson, Predict, Step, do, start_case

ARM = do("arm_crash", seam="task_start", node="classify_typology")
"""The crash of this lesson: step 3 starts, after the paid query of step 1."""


def crash_under(
    mode: str, kept: int, choices: tuple[int, ...], follow: Command, after: dict[str, Any]
) -> tuple[Step, Step]:
    """The crash under one durability mode, then the action the status line names."""
    return (
        Step(
            id=f"{mode}-crash",
            prepare=(start_case("misplaced", mode), ARM),
            action=do("run"),
            predict=Predict("checkpoints", choices),
            expects={
                "phase": "crashed" if kept else "crashed_nothing_saved",
                "checkpoints": kept,
                "durability": mode,
            },
            code=f'graph.invoke({{"case_id": "S-1001"}}, config, durability="{mode}")',
        ),
        Step(
            id=f"{mode}-after",
            action=follow,
            expects={"phase": "waiting", **after},
            code="graph.invoke(None, config)"
            if follow.name == "resume"
            else 'graph.invoke({"case_id": ...}, config)',
        ),
    )


LESSON = Lesson(
    id="durability",
    panels=("graph", "status", "controls", "crash", "frames", "ledger"),
    steps=(
        *crash_under("sync", 4, (0, 3, 4), do("resume"), {"ran_twice": [], "charged": "14.50"}),
        *crash_under("async", 3, (0, 3, 4), do("resume"), {"ran_twice": [], "charged": "14.50"}),
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
