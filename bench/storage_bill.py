"""Benchmark 6: bytes stored after an N-turn appending thread, LangGraph's default / DeltaChannel.

    PYTHONPATH=. python bench/storage_bill.py [--turns 50 100 200 400] [--runs 3]

Not a test: run it by hand. On CPython with the in-memory saver (the bytes its rows hold, the same
records the IndexedDB saver stores): a chat graph whose ``messages: Annotated[list, operator.add]``
key is LangGraph's default, a ``BinaryOperatorAggregate`` that stores the whole list at every
checkpoint where it changed, against the same graph with the key opted in to ``DeltaChannel``
(``Annotated[list, DeltaChannel(append)]``: a sentinel, rebuilt from the writes, a ``DeltaSnapshot``
every 100 updates). Each turn is one ``invoke`` with a user message; the node appends an assistant
message (both ~150 bytes). Bytes are counted by ``lab.checkpoint.bill`` (every record's serialized
values: checkpoints, metadata, blobs, writes).
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

from lab.channels import DeltaChannel
from lab.checkpoint import InMemorySaver
from lab.checkpoint.bill import thread_bill
from lab.graph import END, START, StateGraph


def append(messages: list, batches: list) -> list:
    """``DeltaChannel``'s reducer: the list and a batch of writes, each a list to append."""
    return messages + [m for batch in batches for m in batch]


class Chat(TypedDict):
    """LangGraph's default: the list stored whole."""

    messages: Annotated[list, operator.add]


class DeltaChat(TypedDict):
    """The opt-in: the list stored as deltas."""

    messages: Annotated[list, DeltaChannel(append)]


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
    print("turns | default bytes | delta bytes | delta / default | delta per turn | default s | delta s")
    for turns in args.turns:
        full, full_s = median(Chat, turns, args.runs)
        delta, delta_s = median(DeltaChat, turns, args.runs)
        print(
            f"{turns} | {full:,} | {delta:,} | {delta / full:.4f} | {delta / turns:,.0f}"
            f" | {full_s:.2f} | {delta_s:.2f}"
        )


if __name__ == "__main__":
    main()
