"""Durability modes: the same three-step graph, run with "sync", "async" and "exit". With "exit" only
the run's end is saved, so the thread's history has fewer checkpoints (and a crash loses the steps)."""

from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph


class Count(TypedDict):
    n: int


def step(state: Count) -> dict:
    return {"n": state["n"] + 1}


builder = StateGraph(Count)
builder.add_node("one", step)
builder.add_node("two", step)
builder.add_node("three", step)
builder.add_edge(START, "one")
builder.add_edge("one", "two")
builder.add_edge("two", "three")
builder.add_edge("three", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    saved = {}
    for durability in ("sync", "async", "exit"):
        config = {"configurable": {"thread_id": f"count-{durability}"}}
        graph.invoke({"n": 0}, config, durability=durability)
        saved[durability] = len(list(graph.get_state_history(config)))
    print(saved)
    assert saved == {"sync": 5, "async": 5, "exit": 1}
