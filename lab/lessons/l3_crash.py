"""Lesson 3, a crash mid-step: when the process dies inside a super-step, a resume
(``invoke(None, config)``) restores the finished nodes of that step from their pending writes and
runs only the others again.

The crash is armed at ``put_writes`` of ``fetch_transactions`` (just after its writes are saved, while
``screen_sanctions`` still works) rather than at ``task_finish`` of ``screen_sanctions``: the latter
races the saver (on a busy machine fetch_transactions' writes may not have landed yet in IndexedDB),
the former is the same story with no race."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="crash",
    panels=("graph", "status", "controls", "crash", "ledger"),
    steps=(
        Step(
            id="arm",
            prepare=(start_case("misplaced", "sync"),),
            action=do("arm_crash", seam="put_writes", node="fetch_transactions"),
            expects={"armed_crash": "put_writes of fetch_transactions", "checkpoints": 0},
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
            code="graph.invoke(None, config)  # None: continue the thread from its last checkpoint",
        ),
        Step(
            id="ledger",
            predict=Predict("paid_requests", (2, 3)),
            expects={"paid_requests": 2, "charged": "14.50", "double_causes": []},
            code="# fetch_transactions was restored, not re-run: its query was paid once",
        ),
    ),
)
