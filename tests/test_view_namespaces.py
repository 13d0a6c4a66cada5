"""A thread's namespaces in ``view()``: what the checkpoint table groups its rows by.

LangGraph saves a subgraph's checkpoints in the parent's thread, under ``checkpoint_ns =
"<node>:<task id>"``; ``get_state(config)`` reads only the root namespace (``""``), and
``get_state(config, subgraphs=True)`` nests the subgraph's. The view carries both: every frame
names its ``checkpoint_ns``, and ``namespaces`` lists the root and each subgraph's, with the
subgraph's frames read as that subgraph's checkpoints.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from lab.controller.profile import graph_profile
from lab.graph import START, CompiledStateGraph, StateGraph
from lab.types import interrupt
from tests.controller_lab import Lab


async def waiting_in_the_review_subgraph(lab: Lab) -> dict[str, Any]:
    await lab.do("start", case_id="S-1001", variant="subgraph", durability="sync")
    await lab.do("run")
    return await lab.do("view")


async def test_the_review_subgraphs_checkpoints_are_a_namespace_of_their_own(lab):
    view = await waiting_in_the_review_subgraph(lab)
    root, sub = view["namespaces"]
    assert root == {"checkpoint_ns": "", "graph": None, "count": len(view["frames"])}
    assert {frame["checkpoint_ns"] for frame in view["frames"]} == {""}
    head = view["frames"][-1]
    review_task = next(task for task in head["tasks"] if task["name"] == "human_review")
    assert sub["checkpoint_ns"] == f"human_review:{review_task['id']}"  # the parent's task, by id
    assert sub["graph"] == "human_review"
    assert [(f["step"], f["source"], f["next"]) for f in sub["frames"]] == [
        (-1, "input", ["__start__"]),
        (0, "loop", ["brief_officer"]),
        (1, "loop", ["sign"]),
    ]
    assert {f["checkpoint_ns"] for f in sub["frames"]} == {sub["checkpoint_ns"]}
    assert sub["count"] == 3
    # the root sees the parent node waiting, not the subgraph's node nor its values
    assert head["next"] == ["human_review"] and "brief" not in head["values"]
    inside = sub["frames"][-1]
    assert inside["values"]["brief"].startswith("Dana Whitfield: structuring")
    assert [i["value"]["question"] for i in inside["interrupts"]] == ["File a SAR for S-1001?"]


async def test_on_resume_the_subgraph_continues_in_its_namespace_and_the_parent_node_runs_again(lab):
    waiting = await waiting_in_the_review_subgraph(lab)
    await lab.do("answer", approve=True)
    view = await lab.do("view")
    assert view["status"]["phase"] == "done"
    assert [ns["checkpoint_ns"] for ns in view["namespaces"]] == [
        ns["checkpoint_ns"] for ns in waiting["namespaces"]
    ]
    sub = view["namespaces"][1]
    assert [f["checkpoint_id"] for f in sub["frames"][:3]] == [
        f["checkpoint_id"] for f in waiting["namespaces"][1]["frames"]
    ]  # its first three checkpoints kept: brief_officer did not run again
    assert sub["frames"][-1]["next"] == [] and sub["frames"][-1]["values"]["decision"] == {"approved": True}
    review = next(node for node in view["graph"]["nodes"] if node["id"] == "human_review")
    assert review["counts"]["started"] == 2 and lab.calls["human_review"] == 2


async def test_a_thread_without_subgraphs_has_the_root_namespace_only(lab):
    await lab.do("start", case_id="S-1001", variant="fixed", durability="sync")
    await lab.do("run")
    view = await lab.do("view")
    assert view["namespaces"] == [{"checkpoint_ns": "", "graph": None, "count": 6}]


class Log(TypedDict, total=False):
    log: Annotated[list[str], operator.add]


def build_nested(world: Any, *, checkpointer: Any) -> CompiledStateGraph:
    """A graph the lab has never seen: its node ``outer`` is a subgraph (added as a node) whose node
    ``inner`` is another, which interrupts."""

    def ask(state: Log) -> dict[str, Any]:
        return {"log": [f"asked: {interrupt('ok?')}"]}

    inner = StateGraph(Log).add_node("ask", ask).add_edge(START, "ask").compile()
    outer = StateGraph(Log).add_node("inner", inner).add_edge(START, "inner").compile()
    parent = StateGraph(Log).add_node("outer", outer).add_edge(START, "outer")
    return parent.compile(checkpointer=checkpointer)


async def test_nested_subgraphs_of_any_graph_each_have_a_namespace():
    lab = Lab(profile=graph_profile(build_nested, interrupts=frozenset({"outer"})))
    await lab.do("start", case_id="default", variant="default", durability="sync")
    await lab.do("run")
    namespaces = (await lab.do("view"))["namespaces"]
    assert [ns["graph"] for ns in namespaces] == [None, "outer", "outer|inner"]
    outer, inner = namespaces[1]["checkpoint_ns"], namespaces[2]["checkpoint_ns"]
    assert outer.startswith("outer:") and inner.startswith(f"{outer}|inner:")
    assert namespaces[2]["frames"][-1]["next"] == ["ask"]
