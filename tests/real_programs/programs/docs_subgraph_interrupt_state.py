# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/use-subgraphs (github.com/langchain-ai/docs
# src/oss/use-subgraphs.mdx, commit 7df7f307), its Python block 7 (counting from 0).
# Changed: the values the block computes (each invoke's result, parent_state, subgraph_state) printed.

from langgraph.graph import START, StateGraph
from langgraph.checkpoint.memory import MemorySaver
from langgraph.types import interrupt, Command
from typing_extensions import TypedDict

class State(TypedDict):
    foo: str

# Subgraph

def subgraph_node_1(state: State):
    value = interrupt("Provide value:")
    return {"foo": state["foo"] + value}

subgraph_builder = StateGraph(State)
subgraph_builder.add_node(subgraph_node_1)
subgraph_builder.add_edge(START, "subgraph_node_1")

subgraph = subgraph_builder.compile()

# Parent graph

builder = StateGraph(State)
builder.add_node("node_1", subgraph)
builder.add_edge(START, "node_1")

checkpointer = MemorySaver()
graph = builder.compile(checkpointer=checkpointer)

config = {"configurable": {"thread_id": "1"}}

print(graph.invoke({"foo": ""}, config))
parent_state = graph.get_state(config)
subgraph_state = graph.get_state(config, subgraphs=True).tasks[0].state  # (1)!
print(parent_state)
print(subgraph_state)

# resume the subgraph
print(graph.invoke(Command(resume="bar"), config))
