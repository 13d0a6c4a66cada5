"""Lesson 4, the node starts over: ``Command(resume=...)`` runs the interrupted node again from its
first line, so a purchase placed before ``interrupt()`` is made twice; placed after it, once."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="interrupt",
    panels=("graph", "status", "controls", "review", "ledger"),
    steps=(
        Step(
            id="to-review",
            prepare=(start_case("misplaced", "sync"),),
            action=do("run"),
            expects={"phase": "waiting", "node_states": {"human_review": "interrupted"}, "charged": "14.50"},
            code="def human_review(state):\n"
            '    export = api.buy_export(state["case_id"])  # before interrupt()\n'
            '    decision = interrupt({"question": "File a SAR?"})\n'
            '    return {"review": {**decision, "export": export}}',
        ),
        Step(
            id="approve",
            action=do("answer", approve=True),
            predict=Predict("charged", ("14.50", "26.50", "38.50")),
            expects={"charged": "26.50", "double_causes": ["interrupt"], "phase": "done"},
            code='graph.invoke(Command(resume={"approved": True}), config)["outcome"]  # \'Filed: SAR\'',
        ),
        Step(
            id="why",
            expects={"ran_twice": ["human_review"], "paid_requests": 3},
            code="# interrupt() raised the first time; on resume it returns the answer,\n"
            "# but only after every line above it ran again",
        ),
        Step(
            id="fixed",
            prepare=(start_case("fixed", "sync"),),
            action=do("run"),
            expects={"phase": "waiting", "charged": "2.50"},
            code="def human_review(state):\n"
            '    decision = interrupt({"question": "File a SAR?"})  # first\n'
            "    export = None\n"
            '    if decision["approved"]:\n'
            '        export = api.buy_export(state["case_id"])\n'
            '    return {"review": {**decision, "export": export}}',
        ),
        Step(
            id="fixed-approve",
            action=do("answer", approve=True),
            predict=Predict("charged", ("14.50", "26.50")),
            expects={"charged": "14.50", "double_causes": [], "phase": "done"},
            code='graph.invoke(Command(resume={"approved": True}), config)["outcome"]  # \'Filed: SAR\'',
        ),
    ),
)
