"""Challenge solved: the email and the stock fetch are two branches of one super-step (a fan-out).
When the fetch fails, the email branch has finished: its writes are kept as pending writes, so the
retry runs only the failed branch and the email is not sent again."""

import operator
from typing import Annotated, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from lab.world import send_email

attempts = {"stock": 0}


class Report(TypedDict):
    report_id: str
    facts: Annotated[list[str], operator.add]


def fetch_stock() -> str:
    attempts["stock"] += 1
    if attempts["stock"] == 1:
        raise ConnectionError("the stock service timed out")
    return "stock fetched"


def notify(state: Report) -> dict:
    send_email("ops@example.com", f"Report {state['report_id']} is being prepared")
    return {"facts": ["ops told"]}


def stock(state: Report) -> dict:
    return {"facts": [fetch_stock()]}


def publish(state: Report) -> dict:
    return {"facts": [f"published {len(state['facts'])} facts"]}


builder = StateGraph(Report)
builder.add_node("notify", notify)
builder.add_node("stock", stock)
builder.add_node("publish", publish)
builder.add_edge(START, "notify")
builder.add_edge(START, "stock")
builder.add_edge(["notify", "stock"], "publish")
builder.add_edge("publish", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    config = {"configurable": {"thread_id": "report-1"}}
    try:
        graph.invoke({"report_id": "R-9", "facts": []}, config)
    except ConnectionError as error:
        print("first run failed:", error)
    print(graph.invoke(None, config))  # the retry
