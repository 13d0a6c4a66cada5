"""The size of a long thread on each side of the border (``lab.interop``).

    python bench/interop_sizes.py [--turns 200]

Not a test: run it by hand (needs the ``[interop]`` extra). The 200-turn chat of benchmark 6
(``bench/storage_bill.py``: one user and one assistant message of ~150 bytes a turn) made twice:
in the lab and in real LangGraph, both with LangGraph's default (its ``messages`` key a
``BinaryOperatorAggregate``, stored whole at every checkpoint), each into a ``SqliteSaver`` file
and a lab thread file, through ``python -m lab.interop``'s two functions.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.storage_bill import Chat, answer, message  # noqa: E402
from lab.checkpoint import InMemorySaver  # noqa: E402
from lab.controller.thread_file import MAX_FILE_BYTES, export_thread  # noqa: E402
from lab.interop import from_langgraph, to_langgraph  # noqa: E402

THREAD = {"configurable": {"thread_id": "chat"}}


def chat(graph_module: Any, saver: Any, turns: int) -> None:
    builder = graph_module.StateGraph(Chat)
    builder.add_node("answer", answer)
    builder.add_edge(graph_module.START, "answer")
    builder.add_edge("answer", graph_module.END)
    app = builder.compile(checkpointer=saver)
    for turn in range(turns):
        app.invoke({"messages": [message("user", turn)]}, THREAD)


def kib(size: int) -> str:
    return f"{size / 1024:,.0f} KiB"


async def measure(turns: int, folder: Path) -> None:
    import langgraph.graph
    from langgraph.checkpoint.sqlite import SqliteSaver

    lab_saver = InMemorySaver()
    await asyncio.to_thread(chat, __import__("lab.graph").graph, lab_saver, turns)
    lab_file = await export_thread(lab_saver, "chat")
    with SqliteSaver.from_conn_string(str(folder / "from-lab.sqlite")) as saver:
        await to_langgraph(lab_file, saver)
    with SqliteSaver.from_conn_string(str(folder / "langgraph.sqlite")) as saver:
        await asyncio.to_thread(chat, langgraph.graph, saver, turns)
        langgraph_file = await from_langgraph(saver, "chat")
    print(f"{turns}-turn chat (thread file limit {kib(MAX_FILE_BYTES)}):")
    print(f"  made in the lab:  thread file {kib(len(lab_file))}")
    print(f"    -> to-langgraph: SqliteSaver file {kib((folder / 'from-lab.sqlite').stat().st_size)}")
    print(f"  made in LangGraph: SqliteSaver file {kib((folder / 'langgraph.sqlite').stat().st_size)}")
    print(f"    -> from-langgraph: thread file {kib(len(langgraph_file))}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(parser.parse_args().turns, Path(folder)))
