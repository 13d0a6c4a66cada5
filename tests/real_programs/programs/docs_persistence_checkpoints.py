# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/persistence (github.com/langchain-ai/docs
# src/oss/persistence.mdx, commit 7df7f307), its Python blocks 1, 2, 3, 4 and 6 (counting from 0).
# Changed: each block's displayed value printed; the checkpoint ids the docs print (ids of the docs' own
# run, which exist in no other) are taken from this run's history: the one of step 1 to read it back, the
# one of step 0 to replay from it (as the page says: "the checkpoint after node_a"); block 6 updates the
# thread's latest state (config = its thread, as the page defines it above), then its values printed.

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
print(graph.invoke({"foo": ""}, config))

# get the latest state snapshot
config = {"configurable": {"thread_id": "1"}}
print(graph.get_state(config))

history = list(graph.get_state_history(config))
step_1 = next(s for s in history if s.metadata["step"] == 1).config["configurable"]["checkpoint_id"]
step_0 = next(s for s in history if s.metadata["step"] == 0).config["configurable"]["checkpoint_id"]

# get a state snapshot for a specific checkpoint_id
config = {"configurable": {"thread_id": "1", "checkpoint_id": step_1}}
print(graph.get_state(config))

config = {"configurable": {"thread_id": "1"}}
print(list(graph.get_state_history(config)))

config = {"configurable": {"thread_id": "1", "checkpoint_id": step_0}}
print(graph.invoke(None, config=config))

config = {"configurable": {"thread_id": "1"}}
print(graph.update_state(config, {"foo": 2, "bar": ["b"]}))
print(graph.get_state(config).values)
