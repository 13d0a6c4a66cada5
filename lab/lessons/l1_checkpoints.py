"""Lesson 1, where checkpoints fall: LangGraph saves one checkpoint per super-step, starting with the
input checkpoint at step -1 (``source="input"``, next ``__start__``); a node that finished inside a
step that did not complete is kept as a pending write on the checkpoint the step started from."""

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
            code='graph.invoke({"case_id": "S-1001"}, {"configurable": {"thread_id": "t1"}},\n'
            '             interrupt_before="*")\n'
            'list(graph.get_state_history(config))[-1].metadata  # {"source": "input", "step": -1}',
        ),
        Step(
            id="start-node",
            action=do("step"),
            expects={"checkpoints": 2, "head_step": 0, "next_nodes": ["intake"]},
            code="graph.invoke(None, config)  # __start__ copies the input into the channels\n"
            "graph.get_state(config).next  # ('intake',)",
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
            'builder.add_edge("intake", "screen_sanctions")  # both run in the same super-step',
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
            code="saver.get_tuple(config).pending_writes\n"
            "# [(task_id, 'transactions', [...]), ...]: fetch_transactions' writes, on step 1's checkpoint",
        ),
    ),
)
