"""Challenge: the payment carries an idempotency key, but a new one each time the node runs. Make a
crash after the charge, and the resume that runs the node again, cost one charge per order."""

import uuid
from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from lab.world import charge


class Order(TypedDict, total=False):
    order_id: str
    amount: float
    receipt: str
    shipped: bool


def pay(state: Order) -> dict:
    key = str(uuid.uuid4())
    receipt = charge(state["amount"], f"order {state['order_id']}", idempotency_key=key)
    return {"receipt": receipt["id"]}


def ship(state: Order) -> dict:
    return {"shipped": True}


builder = StateGraph(Order)
builder.add_node("pay", pay)
builder.add_node("ship", ship)
builder.add_edge(START, "pay")
builder.add_edge("pay", "ship")
builder.add_edge("ship", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    config = {"configurable": {"thread_id": "order-A-1"}}
    print(graph.invoke({"order_id": "A-1", "amount": 40.0}, config))
