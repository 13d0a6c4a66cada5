# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/durable-execution (github.com/langchain-ai/docs
# src/oss/durable-execution.mdx, commit 7df7f307), its Python block 2 (counting from 0).
# Changed: requests.get(url).text[:100] replaced by a fixed page text (no network; 'import requests'
# dropped); the last line's value printed.

from typing import NotRequired
from typing_extensions import TypedDict
import uuid

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import task
from langgraph.graph import StateGraph, START, END

# Define a TypedDict to represent the state
class State(TypedDict):
    urls: list[str]
    result: NotRequired[list[str]]


@task
def _make_request(url: str):
    """Make a request."""
    return f"<!doctype html><html><head><title>Example Domain</title></head> fetched from {url}"[:100]

def call_api(state: State):
    """Example node that makes an API request."""
    requests = [_make_request(url) for url in state['urls']]
    results = [request.result() for request in requests]
    return {
        "results": results
    }

# Create a StateGraph builder and add a node for the call_api function
builder = StateGraph(State)
builder.add_node("call_api", call_api)

# Connect the start and end nodes to the call_api node
builder.add_edge(START, "call_api")
builder.add_edge("call_api", END)

# Specify a checkpointer
checkpointer = InMemorySaver()

# Compile the graph with the checkpointer
graph = builder.compile(checkpointer=checkpointer)

# Define a config with a thread ID.
thread_id = uuid.uuid4()
config = {"configurable": {"thread_id": thread_id}}

# Invoke the graph
print(graph.invoke({"urls": ["https://www.example.com"]}, config))
