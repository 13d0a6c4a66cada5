"""Lesson 1, where checkpoints fall: under durability "sync" or "async" LangGraph saves one checkpoint
per super-step (under "exit" one, when the run stops), starting with the input checkpoint at step -1
(``source="input"``, next ``__start__``); a node that finished inside a step that did not complete is
kept as a pending write on the checkpoint the step started from, once its writes reached the saver."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

ONE_SIBLING_SAVED = do(
    "arm_crash", seam="task_finish", node="screen_sanctions", after=["put_writes", "fetch_transactions"]
)
"""Step 2's two siblings, one saved and one lost: the process dies as ``screen_sanctions`` finishes
(before its writes are saved), held until ``fetch_transactions``' writes are saved - on a busy machine
the two finish in either order, and this story needs that one."""

LESSON = Lesson(
    id="checkpoints",
    panels=("graph", "status", "controls", "frames"),
    steps=(
        Step(
            id="input",
            prepare=(start_case("misplaced", "sync"),),
            action=do("step"),
            predict=Predict("checkpoints", (0, 1, 2)),
            expects={"checkpoints": 1, "first_checkpoint": "-1 input", "next_nodes": ["__start__"]},
            code='graph.invoke({"case_id": "S-1001"}, config, interrupt_before="*")\n'
            "first = list(graph.get_state_history(config))[-1]  # the oldest\n"
            'first.metadata["source"], first.metadata["step"]  # (\'input\', -1)\n'
            "first.next  # ('__start__',)",
        ),
        Step(
            id="start-node",
            action=do("step"),
            expects={"checkpoints": 2, "head_step": 0, "next_nodes": ["intake"]},
            code="head = graph.get_state(config)  # __start__ copied the input into the channels\n"
            "head.metadata[\"step\"], head.next  # (0, ('intake',))",
        ),
        Step(
            id="fan-out",
            action=do("step"),
            predict=Predict(
                "next_nodes", (["fetch_transactions"], ["fetch_transactions", "screen_sanctions"])
            ),
            expects={
                "checkpoints": 3,
                "head_step": 1,
                "next_nodes": ["fetch_transactions", "screen_sanctions"],
            },
            code='builder.add_edge("intake", "fetch_transactions")\n'
            'builder.add_edge("intake", "screen_sanctions")\n'
            'graph.invoke(None, config, interrupt_before="*")  # one super-step: intake\n'
            "head = graph.get_state(config)  # the checkpoint intake's step wrote\n"
            "head.next  # ('fetch_transactions', 'screen_sanctions')\n"
            'head.metadata["step"]  # 1: the two run together in step 2, one checkpoint at its end',
        ),
        Step(
            id="pending-writes",
            prepare=(ONE_SIBLING_SAVED,),
            action=do("step"),
            predict=Predict("head_step", (1, 2)),
            expects={
                "phase": "crashed",
                "checkpoints": 3,
                "head_step": 1,
                "saved_writes_on_head": ["fetch_transactions"],
            },
            code="graph.invoke(None, config)  # the process dies as screen_sanctions finishes\n"
            'graph.get_state(config).metadata["step"]  # 1\n'
            "saved = [task.name for task in graph.get_state(config).tasks if task.result]\n"
            "saved  # ['fetch_transactions']: its writes, pending on that checkpoint",
        ),
    ),
)
