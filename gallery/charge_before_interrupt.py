"""Human in the loop, done wrong: the node charges, then asks. On resume the node runs again from its
first line, so the charge happens twice."""

from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from lab.world import charge


class Order(TypedDict):
    item: str
    approved: bool


def buy(state: Order) -> dict:
    charge(25.00, f"export of {state['item']}")  # runs again when the node resumes
    approved = interrupt({"question": f"Buy the export of {state['item']} for $25?"})
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
    assert [row["amount_cents"] for row in ledger.rows] == [2500, 2500]  # charged twice
