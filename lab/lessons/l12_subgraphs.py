"""Lesson 12, subgraphs: a node that calls a compiled subgraph runs it under the parent's
checkpointer, in a namespace of its own (``checkpoint_ns = "<node>:<task id>"``). When the subgraph
interrupts, the parent's ``get_state`` shows only that the node waits: the subgraph's values and
``next`` appear with ``get_state(config, subgraphs=True)``. On ``Command(resume=...)`` the parent
node runs again from its first line, while the subgraph continues from its own checkpoint (it takes
its input once; its finished node stays done). The lab's case graph has a ``subgraph`` variant whose
``human_review`` awaits such a review subgraph (``brief_officer``, then ``sign``, which interrupts);
the checkpoint table groups the thread's rows by namespace."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

SUBGRAPH = """class Review(TypedDict, total=False):  # the subgraph's own state
    case_id: str
    brief: str
    decision: dict
entered = Counter()
def brief_officer(state):
    entered["brief_officer"] += 1
    return {"brief": f"{state['case_id']}: structuring"}
def sign(state):
    return {"decision": interrupt({"question": "File a SAR?"})}
sub = StateGraph(Review)
sub.add_node(brief_officer)
sub.add_node(sign)
sub.add_edge(START, "brief_officer")
sub.add_edge("brief_officer", "sign")
review = sub.compile()  # no saver of its own: it checkpoints under the parent's
def human_review(state):  # the parent's node calls the subgraph
    entered["human_review"] += 1
    signed = review.invoke({"case_id": state["case_id"]})
    return {"review": signed["decision"]}
graph.invoke({"case_id": "S-1001"}, config)["__interrupt__"][0].value  # {'question': 'File a SAR?'}
namespaces = {c.config["configurable"]["checkpoint_ns"] for c in saver.list(config)}
len(namespaces)  # 2: the parent's and the subgraph's"""

LESSON = Lesson(
    id="subgraphs",
    panels=("graph", "status", "controls", "frames"),
    steps=(
        Step(
            id="sub-interrupt",
            prepare=(start_case("subgraph", "sync"),),
            action=do("run"),
            predict=Predict("namespaces", (1, 2)),
            expects={"phase": "waiting", "namespaces": 2},
            code=SUBGRAPH,
        ),
        Step(
            id="blind",
            predict=Predict("next_nodes", (["sign"], ["human_review"])),
            expects={"next_nodes": ["human_review"]},
            code="snapshot = graph.get_state(config)\n"
            "snapshot.next  # ('human_review',): the parent's node waits\n"
            "\"brief\" in snapshot.values  # False: the subgraph's values are not the parent's\n"
            'snapshot.tasks[0].state["configurable"]["checkpoint_ns"].startswith("human_review:")  # True',
        ),
        Step(
            id="look-inside",
            predict=Predict("subgraph_next", (["brief_officer", "sign"], ["sign"], [])),
            expects={"subgraph_next": ["sign"]},
            code="inside = graph.get_state(config, subgraphs=True).tasks[0].state\n"
            "inside.next  # ('sign',)\n"
            "inside.values[\"brief\"]  # 'S-1001: structuring'\n"
            'inside.config["configurable"]["checkpoint_ns"].startswith("human_review:")  # True',
        ),
        Step(
            id="resume",
            action=do("answer", approve=True),
            predict=Predict("subgraph_parent_runs", (1, 2)),
            expects={"phase": "done", "subgraph_parent_runs": 2, "subgraph_next": []},
            code='graph.invoke(Command(resume={"approved": True}), config)["outcome"]  # \'Filed: SAR\'\n'
            'entered["human_review"]  # 2: the parent\'s node ran again, from its first line',
        ),
        Step(
            id="kept",
            predict=Predict("subgraph_inputs", (1, 2)),
            expects={"subgraph_inputs": 1},
            code='inside_ns = {"configurable": {**config["configurable"], '
            '"checkpoint_ns": inside.config["configurable"]["checkpoint_ns"]}}\n'
            "history = list(graph.get_state_history(inside_ns))\n"
            '[s.metadata["source"] for s in history].count("input")  # 1: it took its input once\n'
            'entered["brief_officer"]  # 1: it continued from its own checkpoint, at sign',
        ),
    ),
)
