"""Benchmark 6: bytes stored after an N-turn appending thread, delta channels / naive full snapshots.

    PYTHONPATH=. python bench/storage_bill.py [--turns 50 100 200 400] [--runs 3]

Not a test: run it by hand. On CPython with the in-memory saver (the bytes its rows hold, the same
records the IndexedDB saver stores): a chat graph whose ``messages: Annotated[list, operator.add]``
key is a ``DeltaChannel`` (the lab's default), against the same graph whose key folds with a
``lambda a, b: a + b`` reducer, a ``BinaryOperatorAggregate`` that stores the whole list at every
checkpoint (what LangGraph's ``InMemorySaver`` stores). Each turn is one ``invoke`` with a user
message; the node appends an assistant message (both ~150 bytes). Bytes are counted by
``lab.checkpoint.bill`` (every record's serialized values: checkpoints, metadata, blobs, writes).
"""

from __future__ import annotations

import argparse
import asyncio
import operator
import platform
import statistics
import time
from datetime import UTC, datetime
from typing import Annotated, Any, TypedDict

from lab.checkpoint import InMemorySaver
from lab.checkpoint.bill import thread_bill
from lab.graph import END, START, StateGraph


def concat(a: list, b: list) -> list:
    return a + b


class DeltaChat(TypedDict):
    messages: Annotated[list, operator.add]


class NaiveChat(TypedDict):
    messages: Annotated[list, concat]


def message(role: str, turn: int) -> dict[str, str]:
    return {"role": role, "content": f"{role} turn {turn}: " + "lorem ipsum dolor sit amet " * 4}


def answer(state: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [message("assistant", len(state["messages"]) // 2)]}


def stored_bytes(schema: type, turns: int) -> tuple[int, float]:
    """Bytes stored after ``turns`` turns, and the seconds the turns took."""
    saver = InMemorySaver()
    builder = StateGraph(schema)
    builder.add_node("answer", answer)
    builder.add_edge(START, "answer")
    builder.add_edge("answer", END)
    app = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "chat"}}
    started = time.perf_counter()
    for turn in range(turns):
        app.invoke({"messages": [message("user", turn)]}, config)
    elapsed = time.perf_counter() - started
    bills = asyncio.run(thread_bill(saver.storage, saver.serde, "chat"))
    return sum(bill.total for bill in bills), elapsed


def median(schema: type, turns: int, runs: int) -> tuple[int, float]:
    """The bytes (the same every run) and the median seconds of ``runs`` runs."""
    results = [stored_bytes(schema, turns) for _ in range(runs)]
    return results[0][0], statistics.median(seconds for _, seconds in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[50, 100, 200, 400])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, Python {platform.python_version()}")
    print("turns | delta bytes | naive bytes | delta / naive | delta bytes per turn | delta s | naive s")
    for turns in args.turns:
        delta, delta_s = median(DeltaChat, turns, args.runs)
        naive, naive_s = median(NaiveChat, turns, args.runs)
        print(
            f"{turns} | {delta:,} | {naive:,} | {delta / naive:.4f} | {delta / turns:,.0f}"
            f" | {delta_s:.2f} | {naive_s:.2f}"
        )


if __name__ == "__main__":
    main()
