"""Fan out, join, and a branch that fails: the branch that succeeded keeps its writes as pending writes
of the step, so the retry runs only the branch that failed."""

import operator
from typing import Annotated, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

runs = {"prices": 0, "stock": 0}


class Report(TypedDict):
    facts: Annotated[list[str], operator.add]


def prices(state: Report) -> dict:
    runs["prices"] += 1
    return {"facts": ["prices fetched"]}


def stock(state: Report) -> dict:
    runs["stock"] += 1
    if runs["stock"] == 1:
        raise ConnectionError("the stock service timed out")
    return {"facts": ["stock fetched"]}


def join(state: Report) -> dict:
    return {"facts": [f"joined {len(state['facts'])} facts"]}


builder = StateGraph(Report)
builder.add_node("prices", prices)
builder.add_node("stock", stock)
builder.add_node("join", join)
builder.add_edge(START, "prices")
builder.add_edge(START, "stock")
builder.add_edge(["prices", "stock"], "join")
builder.add_edge("join", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    config = {"configurable": {"thread_id": "report-1"}}
    try:
        graph.invoke({"facts": []}, config)
    except ConnectionError as error:
        print("first run failed:", error)
    print(graph.invoke(None, config))  # retry from the last checkpoint and its pending writes
    print(runs)
    assert runs == {"prices": 1, "stock": 2}  # prices was restored from its pending write, not re-run
