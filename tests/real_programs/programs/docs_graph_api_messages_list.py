# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/use-graph-api (github.com/langchain-ai/docs
# src/oss/use-graph-api.mdx, commit 7df7f307), its Python blocks 0, 1, 2, 4, 5 (counting from 0).
# Changed: block 3 (the IPython picture) left out; block 4's displayed value printed.

from langchain_core.messages import AnyMessage
from typing_extensions import TypedDict

class State(TypedDict):
    messages: list[AnyMessage]
    extra_field: int

from langchain_core.messages import AIMessage

def node(state: State):
    messages = state["messages"]
    new_message = AIMessage("Hello!")
    return {"messages": messages + [new_message], "extra_field": 10}

from langgraph.graph import StateGraph

builder = StateGraph(State)
builder.add_node(node)
builder.set_entry_point("node")
graph = builder.compile()

from langchain_core.messages import HumanMessage

result = graph.invoke({"messages": [HumanMessage("Hi")]})
print(result)

for message in result["messages"]:
    message.pretty_print()
