"""Challenge: the node charges, then asks. Make an approved purchase cost one charge, and a rejected
one nothing, even though the node runs again from its first line when the answer resumes it."""

from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from lab.world import charge


class Order(TypedDict):
    item: str
    approved: bool


def buy(state: Order) -> dict:
    charge(25.00, f"export of {state['item']}")
    approved = interrupt({"question": f"Buy the export of {state['item']} for $25?"})
    return {"approved": approved}


builder = StateGraph(Order)
builder.add_node("buy", buy)
builder.add_edge(START, "buy")
builder.add_edge("buy", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    config = {"configurable": {"thread_id": "order-1"}}
    graph.invoke({"item": "case C-7", "approved": False}, config)
    print(graph.invoke(Command(resume=True), config))
