"""Human in the loop, fixed: ask first, charge after the answer, with an idempotency key that names
the business operation. The node still re-runs on resume, but nothing before interrupt() has an
effect, and a crash after the charge replays the same key."""

from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from lab.world import charge


class Order(TypedDict):
    item: str
    approved: bool


def buy(state: Order) -> dict:
    approved = interrupt({"question": f"Buy the export of {state['item']} for $25?"})
    if approved:
        thread = get_config()["configurable"]["thread_id"]
        charge(25.00, f"export of {state['item']}", idempotency_key=f"{thread}:export:{state['item']}")
    return {"approved": approved}


builder = StateGraph(Order)
builder.add_node("buy", buy)
builder.add_edge(START, "buy")
builder.add_edge("buy", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    from lab.world import MemoryWorld, use_recorder

    config = {"configurable": {"thread_id": "order-1"}}
    with use_recorder(MemoryWorld()) as ledger:
        graph.invoke({"item": "case C-7", "approved": False}, config)
        print(graph.invoke(Command(resume=True), config))
    print([(row["id"], row["amount_cents"]) for row in ledger.rows])
    assert [row["amount_cents"] for row in ledger.rows] == [2500]  # charged once
