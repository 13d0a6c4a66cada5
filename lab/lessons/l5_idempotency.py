"""Lesson 5, idempotency keys and where the key comes from: a key makes the API answer a repeated
request with the original receipt. A key built from the runtime's task id changes when a crash
loses the checkpoint the task started from (durability ``exit`` or ``async``), so the re-run pays
again; a key built from the business operation (thread, case, purpose) does not."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

ARM_AFTER_QUERY = do("arm_crash", seam="side_effect_done", node="fetch_transactions")
"""Kill the process right after the paid query answered, before its writes were saved."""

LESSON = Lesson(
    id="idempotency",
    panels=("graph", "status", "controls", "crash", "ledger"),
    steps=(
        Step(
            id="fixed-crash",
            prepare=(
                start_case("fixed", "sync"),
                do("run"),
                do("arm_crash", seam="side_effect_done", node="human_review"),
            ),
            action=do("answer", approve=True),
            expects={"phase": "crashed", "charged": "14.50", "paid_requests": 2},
            code='export = api.buy_export(case_id, idempotency_key=f"{thread_id}:{case_id}:export")',
        ),
        Step(
            id="resume",
            action=do("resume"),
            predict=Predict("replayed_requests", (0, 1)),
            expects={"replayed_requests": 1, "paid_requests": 2, "charged": "14.50", "phase": "done"},
            code="graph.invoke(None, config)  # human_review runs again; the API sees the same key",
        ),
        Step(
            id="task-key-crash",
            prepare=(start_case("task-key", "exit"), ARM_AFTER_QUERY),
            action=do("run"),
            expects={"phase": "crashed_nothing_saved", "checkpoints": 0, "paid_requests": 1},
            code='ns = get_config()["metadata"]["langgraph_checkpoint_ns"]  # "node:<task id>"\n'
            'key = f"{thread_id}:{ns}"',
        ),
        Step(
            id="task-key-rerun",
            action=do("run"),
            predict=Predict("paid_requests", (1, 2)),
            expects={"paid_requests": 2, "charged": "5.00", "double_causes": ["crash_lost_checkpoint"]},
            code='graph.invoke({"case_id": "S-1001"}, config, durability="exit")\n'
            "# the checkpoint is new, so is the task id, so is the key",
        ),
        Step(
            id="business-key-crash",
            prepare=(start_case("fixed", "exit"), ARM_AFTER_QUERY),
            action=do("run"),
            expects={"phase": "crashed_nothing_saved", "checkpoints": 0, "paid_requests": 1},
            code='key = f"{thread_id}:{case_id}:transaction-graph query"  # no runtime id in it',
        ),
        Step(
            id="business-key-rerun",
            action=do("run"),
            predict=Predict("paid_requests", (1, 2)),
            expects={"paid_requests": 1, "replayed_requests": 1, "charged": "2.50", "double_causes": []},
            code='graph.invoke({"case_id": "S-1001"}, config, durability="exit")  # same key: no new charge',
        ),
    ),
)
