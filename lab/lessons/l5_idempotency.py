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
            code="def human_review(state):\n"
            '    decision = interrupt({"question": "File a SAR?"})\n'
            '    thread_id = get_config()["configurable"]["thread_id"]\n'
            "    key = f\"{thread_id}:{state['case_id']}:export\"  # the business operation\n"
            '    export = api.buy_export(state["case_id"], idempotency_key=key)\n'
            '    return {"review": {**decision, "export": export}}',
        ),
        Step(
            id="resume",
            action=do("resume"),
            predict=Predict("replayed_requests", (0, 1)),
            expects={"replayed_requests": 1, "paid_requests": 2, "charged": "14.50", "phase": "done"},
            code="graph.invoke(None, config)[\"outcome\"]  # 'Filed: SAR': the export's key was seen",
        ),
        Step(
            id="task-key-crash",
            prepare=(start_case("task-key", "exit"), ARM_AFTER_QUERY),
            action=do("run"),
            expects={"phase": "crashed_nothing_saved", "checkpoints": 0, "paid_requests": 1},
            code="def fetch_transactions(state):\n"
            "    run = get_config()\n"
            '    ns = run["metadata"]["langgraph_checkpoint_ns"]  # "fetch_transactions:<task id>"\n'
            "    key = f\"{run['configurable']['thread_id']}:{ns}\"\n"
            '    api.query(state["case_id"], idempotency_key=key)\n'
            '    return {"transactions": ["deposit"] * 3, "log": ["fetched"]}\n'
            'graph.invoke({"case_id": "S-1001"}, config, durability="exit")  # dies after the query',
        ),
        Step(
            id="task-key-rerun",
            action=do("run"),
            predict=Predict("paid_requests", (1, 2)),
            expects={"paid_requests": 2, "charged": "5.00", "double_causes": ["crash_lost_checkpoint"]},
            code='graph.invoke({"case_id": "S-1001"}, config, durability="exit")  # the same case again',
        ),
        Step(
            id="business-key-crash",
            prepare=(start_case("fixed", "exit"), ARM_AFTER_QUERY),
            action=do("run"),
            expects={"phase": "crashed_nothing_saved", "checkpoints": 0, "paid_requests": 1},
            code="def fetch_transactions(state):\n"
            '    thread_id = get_config()["configurable"]["thread_id"]\n'
            "    key = f\"{thread_id}:{state['case_id']}:transaction-graph query\"  # no runtime id\n"
            '    api.query(state["case_id"], idempotency_key=key)\n'
            '    return {"transactions": ["deposit"] * 3, "log": ["fetched"]}\n'
            'graph.invoke({"case_id": "S-1001"}, config, durability="exit")  # dies after the query',
        ),
        Step(
            id="business-key-rerun",
            action=do("run"),
            predict=Predict("paid_requests", (1, 2)),
            expects={"paid_requests": 1, "replayed_requests": 1, "charged": "2.50", "double_causes": []},
            code='graph.invoke({"case_id": "S-1001"}, config, durability="exit")  # the same case again',
        ),
    ),
)
