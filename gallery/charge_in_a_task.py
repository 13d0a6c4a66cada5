"""LangGraph's own remedy: the charge wrapped in a task. On resume the node runs again from its first
line, but the task's result was saved with the step's pending writes, so the call returns it instead of
charging again. (A crash after the charge and before that write is saved still charges twice: crash
inside the task in the playground, at its ``side_effect_done`` seam.)"""

from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import task
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from lab.world import charge


class Order(TypedDict):
    item: str
    receipt: str
    approved: bool


@task
def pay_for_export(item: str) -> str:
    return charge(25.00, f"export of {item}")["id"]  # its result is saved: not run again on resume


def buy(state: Order) -> dict:
    receipt = pay_for_export(state["item"]).result()
    approved = interrupt({"question": f"Keep the export of {state['item']} ({receipt})?"})
    return {"receipt": receipt, "approved": approved}


builder = StateGraph(Order)
builder.add_node("buy", buy)
builder.add_edge(START, "buy")
builder.add_edge("buy", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    from lab.world import MemoryWorld, use_recorder

    config = {"configurable": {"thread_id": "order-1"}}
    with use_recorder(MemoryWorld()) as ledger:
        graph.invoke({"item": "case C-7", "receipt": "", "approved": False}, config)
        print(graph.invoke(Command(resume=True), config))
    print([(row["id"], row["amount_cents"]) for row in ledger.rows])
    assert [row["amount_cents"] for row in ledger.rows] == [2500]  # charged once
