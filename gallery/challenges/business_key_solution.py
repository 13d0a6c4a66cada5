"""Challenge solved: the key names the business operation (this order's payment), so the node's
second run after a crash sends the same key and the API answers with the first receipt."""

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
    key = f"order-{state['order_id']}:payment"
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
