"""Challenge: the officer decides with the export in hand, so the node buys it, then asks. Keep the
purchase before interrupt(), and make it one request and one charge, though the node runs again from
its first line when the answer resumes it."""

from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from lab.world import charge


class Order(TypedDict):
    item: str
    receipt: str
    approved: bool


def buy(state: Order) -> dict:
    receipt = charge(25.00, f"export of {state['item']}")["id"]
    approved = interrupt({"question": f"Keep the export of {state['item']} ({receipt})?"})
    return {"receipt": receipt, "approved": approved}


builder = StateGraph(Order)
builder.add_node("buy", buy)
builder.add_edge(START, "buy")
builder.add_edge("buy", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    config = {"configurable": {"thread_id": "order-1"}}
    graph.invoke({"item": "case C-7", "receipt": "", "approved": False}, config)
    print(graph.invoke(Command(resume=True), config))
