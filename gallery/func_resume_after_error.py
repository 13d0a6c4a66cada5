"""Resume after an error (the Functional API): the paid lookup is a task, so its result is saved as
soon as it returns. The next task fails once; running the workflow again (invoke(None, config))
re-runs the function, and the lookup's saved result comes back: it is paid for once. (LangGraph's
docs, "Use the functional API": resuming after an error.)"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task

from lab.world import charge

attempts = {"screen": 0}


@task
def lookup(case: str) -> str:
    return charge(4.00, f"registry lookup for {case}")["id"]


@task
def screen(case: str) -> str:
    attempts["screen"] += 1
    if attempts["screen"] == 1:
        raise ConnectionError("the sanctions service timed out")
    return "clear"


@entrypoint(checkpointer=InMemorySaver())
def graph(inputs: dict) -> dict:
    receipt = lookup(inputs["case"]).result()
    return {"receipt": receipt, "screening": screen(inputs["case"]).result()}


if __name__ == "__main__":
    from lab.world import MemoryWorld, use_recorder

    config = {"configurable": {"thread_id": "case-7"}}
    with use_recorder(MemoryWorld()) as ledger:
        try:
            graph.invoke({"case": "C-7"}, config)
        except ConnectionError as error:
            print("first run failed:", error)
        print(graph.invoke(None, config))  # again from the checkpoint: the lookup's result is saved
    print([(row["id"], row["amount_cents"]) for row in ledger.rows], attempts)
    assert [row["amount_cents"] for row in ledger.rows] == [400]  # paid once
    assert attempts == {"screen": 2}
