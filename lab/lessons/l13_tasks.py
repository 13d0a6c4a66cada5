"""Lesson 13, LangGraph's fix, tasks: the export bought before ``interrupt()`` moves into a ``@task``
(``lab.func``, as ``langgraph.func``). On resume the node runs again from its first line, but the
task's result comes back from the checkpoint's pending writes: Approve charges once. A crash after
the charge and before the task's result is saved runs the task again and, with no idempotency key,
charges again: under ``sync`` and ``async`` that window closes once the task's write is saved; under
``exit`` it stays open until the run stops. Hence tasks and idempotency keys together."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

ARM_AFTER_EXPORT = do("arm_crash", seam="side_effect_done", node="human_review")
"""Kill the process right after the export was paid for, inside the task, before it returned."""
ARM_AT_INTERRUPT = do("arm_crash", seam="interrupt", node="human_review")
"""Kill the process at ``human_review``'s ``interrupt()``, after the task returned its receipt."""
STATUS = ("graph", "status", "controls", "crash", "review", "ledger")

LESSON = Lesson(
    id="tasks",
    panels=STATUS,
    steps=(
        Step(
            id="to-review",
            prepare=(start_case("task", "sync"),),
            action=do("run"),
            expects={"phase": "waiting", "node_states": {"human_review": "interrupted"}, "charged": "14.50"},
            code="@task\n"
            "def buy_export(case_id):\n"
            "    return api.buy_export(case_id)  # no idempotency key\n"
            "\n"
            "def human_review(state):\n"
            '    export = buy_export(state["case_id"]).result()  # before interrupt(), in a task\n'
            '    decision = interrupt({"question": "File a SAR?"})\n'
            '    return {"review": {**decision, "export": export}}\n'
            'graph.invoke({"case_id": "S-1001"}, config)["__interrupt__"][0].value'
            "  # {'question': 'File a SAR?'}",
        ),
        Step(
            id="approve",
            action=do("answer", approve=True),
            predict=Predict("charged", ("14.50", "26.50")),
            expects={"charged": "14.50", "ran_twice": ["human_review"], "double_causes": [], "phase": "done"},
            code='graph.invoke(Command(resume={"approved": True}), config)["outcome"]  # \'Filed: SAR\'',
        ),
        Step(
            id="crash",
            prepare=(start_case("task", "sync"), ARM_AFTER_EXPORT),
            action=do("run"),
            expects={"phase": "crashed", "charged": "14.50", "paid_requests": 2},
            code='graph.invoke({"case_id": "S-1001"}, config)  # dies in buy_export, after the charge',
        ),
        Step(
            id="resume",
            action=do("resume"),
            predict=Predict("paid_requests", (2, 3)),
            expects={"paid_requests": 3, "charged": "26.50", "double_causes": ["crash_rerun"]},
            code="graph.invoke(None, config)[\"__interrupt__\"][0].value  # {'question': 'File a SAR?'}",
        ),
        Step(
            id="saved-crash",
            prepare=(start_case("task", "sync"), ARM_AT_INTERRUPT),
            action=do("run"),
            expects={"checkpoints": 6, "charged": "14.50", "paid_requests": 2},
            code='graph.invoke({"case_id": "S-1001"}, config)  # dies at interrupt(), the task returned',
        ),
        Step(
            id="saved-resume",
            action=do("resume"),
            predict=Predict("paid_requests", (2, 3)),
            expects={"paid_requests": 2, "charged": "14.50", "phase": "waiting"},
            code="graph.invoke(None, config)[\"__interrupt__\"][0].value  # {'question': 'File a SAR?'}",
        ),
        Step(
            id="exit-crash",
            prepare=(start_case("task", "exit"), ARM_AT_INTERRUPT),
            action=do("run"),
            expects={"phase": "crashed_nothing_saved", "checkpoints": 0, "paid_requests": 2},
            code='graph.invoke({"case_id": "S-1001"}, config, durability="exit")  # dies at interrupt()',
        ),
        Step(
            id="exit-rerun",
            action=do("run"),
            predict=Predict("paid_requests", (2, 3, 4)),
            expects={"paid_requests": 4, "charged": "29.00", "double_causes": ["crash_lost_checkpoint"]},
            code='graph.invoke({"case_id": "S-1001"}, config, durability="exit")["__interrupt__"][0].value'
            "  # {'question': 'File a SAR?'}",
        ),
    ),
)
