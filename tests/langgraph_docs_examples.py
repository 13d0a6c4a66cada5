"""A program from LangGraph's docs, as a newcomer pastes it into the playground.

``PERSISTENCE`` is the example of LangGraph's persistence page (docs.langchain.com/oss/python/langgraph/
persistence, "Checkpoints"): two nodes, ``InMemorySaver``, one invoke on thread "1", then
``get_state``, ``get_state_history`` and ``update_state`` at the top level. It calls no LLM. It imports
``RunnableConfig`` from ``langchain_core.runnables`` and ``TypedDict`` from ``typing_extensions``, two
packages the browser's Python does not have (the playground stands in for them). The docs' lines that
read or replay a checkpoint by an id printed in the docs are left out: that id exists in no other run.
"""

PERSISTENCE = """\
from langgraph.graph import StateGraph, START, END
from langgraph.checkpoint.memory import InMemorySaver
from langchain_core.runnables import RunnableConfig
from typing import Annotated
from typing_extensions import TypedDict
from operator import add

class State(TypedDict):
    foo: str
    bar: Annotated[list[str], add]

def node_a(state: State):
    return {"foo": "a", "bar": ["a"]}

def node_b(state: State):
    return {"foo": "b", "bar": ["b"]}


workflow = StateGraph(State)
workflow.add_node(node_a)
workflow.add_node(node_b)
workflow.add_edge(START, "node_a")
workflow.add_edge("node_a", "node_b")
workflow.add_edge("node_b", END)

checkpointer = InMemorySaver()
graph = workflow.compile(checkpointer=checkpointer)

config: RunnableConfig = {"configurable": {"thread_id": "1"}}
graph.invoke({"foo": "", "bar":[]}, config)

# get the latest state snapshot
config = {"configurable": {"thread_id": "1"}}
graph.get_state(config)

config = {"configurable": {"thread_id": "1"}}
list(graph.get_state_history(config))

graph.update_state(config, {"foo": 2, "bar": ["b"]})
"""
"""The example, top to bottom; the playground skips its lines from ``graph.invoke`` on (its Run drives the
graph instead)."""
