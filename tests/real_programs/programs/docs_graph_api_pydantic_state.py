# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/use-graph-api (github.com/langchain-ai/docs
# src/oss/use-graph-api.mdx, commit 7df7f307), its Python blocks 14, 15 (counting from 0).
# Changed: block 14's last value printed.

from langgraph.graph import StateGraph, START, END
from typing_extensions import TypedDict
from pydantic import BaseModel

# The overall state of the graph (this is the public state shared across nodes)
class OverallState(BaseModel):
    a: str

def node(state: OverallState):
    return {"a": "goodbye"}

# Build the state graph
builder = StateGraph(OverallState)
builder.add_node(node)  # node_1 is the first node
builder.add_edge(START, "node")  # Start the graph with node_1
builder.add_edge("node", END)  # End the graph after node_1
graph = builder.compile()

# Test the graph with a valid input
print(graph.invoke({"a": "hello"}))

try:
    graph.invoke({"a": 123})  # Should be a string
except Exception as e:
    print("An exception was raised because `a` is an integer rather than a string.")
    print(e)
