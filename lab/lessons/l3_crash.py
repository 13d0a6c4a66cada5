"""Lesson 3, a crash mid-step: when the process dies inside a super-step, a resume
(``invoke(None, config)``) restores the nodes of that step whose writes were saved before the crash
from those pending writes and runs the others again. LangGraph saves a node's writes in the
background as it finishes, under durability "sync" as under "async", so a kill just after a node
returned can lose them (tests/test_lesson_claims_langgraph.py); the lesson's crash waits for them.

The crash kills ``screen_sanctions`` at its ``task_finish``, once ``fetch_transactions``, its sibling in
the same step, has finished and saved its writes: lesson 1's crash, met again from the other side."""

from lab.lessons.l1_checkpoints import ONE_SIBLING_SAVED
from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="crash",
    panels=("graph", "status", "controls", "crash", "ledger"),
    steps=(
        Step(
            id="arm",
            prepare=(start_case("misplaced", "sync"),),
            action=ONE_SIBLING_SAVED,
            expects={"armed_crash": "task_finish of screen_sanctions", "checkpoints": 0},
            code="# the lab kills the Python worker at this seam, like `kill -9` on a server",
        ),
        Step(
            id="crash",
            action=do("run"),
            expects={
                "phase": "crashed",
                "node_states": {"fetch_transactions": "saved", "screen_sanctions": "crashed"},
                "saved_writes_on_head": ["fetch_transactions"],
                "checkpoints": 3,
            },
            code='graph.invoke({"case_id": "S-1001"}, config, durability="sync")  # the process dies here',
        ),
        Step(
            id="resume",
            action=do("resume"),
            predict=Predict(
                "ran_twice",
                (
                    ["screen_sanctions"],
                    ["fetch_transactions", "screen_sanctions"],
                    ["intake", "screen_sanctions"],
                ),
            ),
            expects={"ran_twice": ["screen_sanctions"], "phase": "waiting"},
            code="graph.invoke(None, config)  # no new input: continue from the newest checkpoint\n"
            "graph.get_state(config).next  # ('human_review',)",
        ),
        Step(
            id="ledger",
            predict=Predict("paid_requests", (2, 3)),
            expects={"paid_requests": 2, "charged": "14.50", "double_causes": []},
            code="# fetch_transactions was restored from its pending writes, not run again:\n"
            "# its query was paid once",
        ),
    ),
)
