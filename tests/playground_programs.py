"""A learner's program for the playground's tests, on CPython (tests/test_playground_lab.py) and in the
browser (tests/browser/test_play.py).

``PAYING_FAN_OUT`` fans out to ``pack`` and ``pay`` (a plain ``def`` that charges through ``lab.world``,
without an idempotency key), then joins in ``ship``; it ends, as a pasted program does, with its own
``invoke`` and a ``print`` at the top level (lines 37-38), which the playground skips.
"""

PAYING_FAN_OUT = """\
import operator
from typing import Annotated, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from lab.world import charge


class Order(TypedDict):
    item: str
    done: Annotated[list[str], operator.add]


def pack(state: Order) -> dict:
    return {"done": ["packed"]}


def pay(state: Order) -> dict:
    charge(12.50, f"shipping of {state['item']}")  # no idempotency key: runs again if re-run
    return {"done": ["paid"]}


def ship(state: Order) -> dict:
    return {"done": ["shipped"]}


builder = StateGraph(Order)
builder.add_node("pack", pack)
builder.add_node("pay", pay)
builder.add_node("ship", ship)
builder.add_edge(START, "pack")
builder.add_edge(START, "pay")
builder.add_edge(["pack", "pay"], "ship")
builder.add_edge("ship", END)
graph = builder.compile(checkpointer=InMemorySaver())
graph.invoke({"item": "a lamp", "done": []}, {"configurable": {"thread_id": "t"}})
print(graph.get_state({"configurable": {"thread_id": "t"}}))
"""
