# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/use-streaming (github.com/langchain-ai/docs
# src/oss/use-streaming.mdx, commit 7df7f307), its Python block 24 (counting from 0).
# Changed: nothing.

from typing import TypedDict
from langgraph.config import get_stream_writer
from langgraph.graph import StateGraph, START

class State(TypedDict):
    query: str
    answer: str

def node(state: State):
    writer = get_stream_writer()  # (1)!
    writer({"custom_key": "Generating custom data inside node"}) # (2)!
    return {"answer": "some data"}

graph = (
    StateGraph(State)
    .add_node(node)
    .add_edge(START, "node")
    .compile()
)

inputs = {"query": "example"}

# Usage
for chunk in graph.stream(inputs, stream_mode="custom"):  # (3)!
    print(chunk)
