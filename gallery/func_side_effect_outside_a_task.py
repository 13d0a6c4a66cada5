"""The pitfall LangGraph's durable-execution guide warns about: a side effect written straight into
the workflow runs again when the workflow resumes, since the function re-runs from its first line.
Here the e-mail is sent directly (twice: the ledger flags it), the charge inside a task (once: its
saved result comes back). The guide's advice: wrap side effects in tasks."""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import Command, interrupt

from lab.world import charge, send_email


@task
def pay(order: str) -> str:
    return charge(25.00, f"export of {order}")["id"]


@entrypoint(checkpointer=InMemorySaver())
def graph(order: str) -> dict:
    send_email("ana@example.com", f"Export of {order} started")  # not a task: sent again on resume
    receipt = pay(order).result()  # a task: charged once
    approved = interrupt({"question": f"Keep the export of {order} ({receipt})?"})
    return {"receipt": receipt, "approved": approved}


if __name__ == "__main__":
    from lab.world import MemoryWorld, use_recorder

    config = {"configurable": {"thread_id": "order-1"}}
    with use_recorder(MemoryWorld()) as ledger:
        graph.invoke("case C-7", config)
        print(graph.invoke(Command(resume=True), config))
    print([(row["kind"], row["amount_cents"]) for row in ledger.rows])
    assert [row["kind"] for row in ledger.rows] == ["email", "charge", "email"]  # the e-mail, twice
