"""Lesson 12, subgraphs (pending: the lab has no subgraphs yet, so this lesson is not in
:data:`lab.lessons.LESSONS`; ``tests/test_lessons_langgraph.py`` runs its code on LangGraph). A
node that calls a compiled subgraph runs it under the parent's checkpointer, in a namespace of its
own (``checkpoint_ns = "<node>:<task id>"``). When the subgraph interrupts, the parent's
``get_state`` shows only that the node waits: the subgraph's values and ``next`` appear with
``get_state(config, subgraphs=True)``. On ``Command(resume=...)`` the parent node runs again from
its first line, while the subgraph resumes from its own checkpoint (its finished nodes stay done).

For the lab to run it, its steps need: a case graph whose review is a subgraph (``draft`` then
``sign``, which interrupts), ``view()`` showing the subgraph's namespace beside the parent's
frames, and facts for it (how often the parent node and each subgraph node were entered, the
subgraph's ``next``). Until then its steps check only what the lab already shows."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

SUBGRAPH = """entered = {"review_case": 0, "draft": 0}
def draft(state):
    entered["draft"] += 1
    return {"findings": ["deposits under the threshold"]}
def sign(state):
    return {"review": interrupt({"question": "Sign the SAR?"})}
sub = StateGraph(CaseState)
sub.add_node(draft)
sub.add_node(sign)
sub.add_edge(START, "draft")
sub.add_edge("draft", "sign")
review = sub.compile()  # no saver of its own: it checkpoints under the parent's
def review_case(state):  # a parent node that calls the subgraph
    entered["review_case"] += 1
    return review.invoke({"case_id": state["case_id"]})
parent = StateGraph(CaseState)
parent.add_node(review_case)
parent.add_edge(START, "review_case")
graph = parent.compile(checkpointer=saver)
config = {"configurable": {"thread_id": "case-sub"}}
graph.invoke({"case_id": "S-1001"}, config)["__interrupt__"][0].value  # {'question': 'Sign the SAR?'}"""

LESSON = Lesson(
    id="subgraphs",
    panels=("graph", "status", "controls", "frames"),
    steps=(
        Step(
            id="sub-interrupt",
            prepare=(start_case("fixed", "sync"),),
            action=do("run"),
            expects={"phase": "waiting"},
            code=SUBGRAPH,
        ),
        Step(
            id="blind",
            predict=Predict("next_nodes", (["human_review"], ["intake"])),
            expects={"next_nodes": ["human_review"]},
            code="snapshot = graph.get_state(config)\n"
            "snapshot.next  # ('review_case',): the parent node waits\n"
            "\"findings\" in snapshot.values  # False: the subgraph's values are not the parent's",
        ),
        Step(
            id="look-inside",
            expects={"phase": "waiting"},
            code="inside = graph.get_state(config, subgraphs=True).tasks[0].state\n"
            "inside.next  # ('sign',)\n"
            "inside.values[\"findings\"]  # ['deposits under the threshold']\n"
            'inside.config["configurable"]["checkpoint_ns"].startswith("review_case:")  # True',
        ),
        Step(
            id="resume",
            action=do("answer", approve=True),
            predict=Predict("phase", ("done", "waiting")),
            expects={"phase": "done"},
            code='answer = Command(resume={"approved": True})\n'
            "graph.invoke(answer, config)[\"review\"]  # {'approved': True}\n"
            "entered  # {'review_case': 2, 'draft': 1}: the parent node ran again, draft did not",
        ),
    ),
)
