"""The size of a long thread on each side of the border (``lab.interop``).

    python bench/interop_sizes.py [--turns 200]

Not a test: run it by hand (needs the ``[interop]`` extra). The 200-turn chat of benchmark 6
(``bench/storage_bill.py``: one user and one assistant message of ~150 bytes a turn) made twice:
in the lab with its ``messages`` key opted in to ``DeltaChannel`` and in real LangGraph with its
default (a ``BinaryOperatorAggregate``, stored whole at every checkpoint), each into a ``SqliteSaver``
file and a lab thread file, through ``python -m lab.interop``'s two functions (``from-langgraph
--deltas messages``). The same chat made in the lab with LangGraph's default is sized too: its
thread file is over the page's limit.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.storage_bill import Chat, DeltaChat, answer, message  # noqa: E402
from lab.checkpoint import InMemorySaver  # noqa: E402
from lab.controller.thread_file import MAX_FILE_BYTES, export_thread  # noqa: E402
from lab.interop import from_langgraph, to_langgraph  # noqa: E402

THREAD = {"configurable": {"thread_id": "chat"}}


def chat(graph_module: Any, saver: Any, turns: int, state: type = Chat) -> None:
    builder = graph_module.StateGraph(state)
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

    lab_graph = __import__("lab.graph").graph
    whole_saver, lab_saver = InMemorySaver(), InMemorySaver()
    await asyncio.to_thread(chat, lab_graph, whole_saver, turns)
    whole_file = await export_thread(whole_saver, "chat")
    await asyncio.to_thread(chat, lab_graph, lab_saver, turns, DeltaChat)
    lab_file = await export_thread(lab_saver, "chat")
    with SqliteSaver.from_conn_string(str(folder / "from-lab.sqlite")) as saver:
        await to_langgraph(lab_file, saver)
    with SqliteSaver.from_conn_string(str(folder / "langgraph.sqlite")) as saver:
        await asyncio.to_thread(chat, langgraph.graph, saver, turns)
        langgraph_file = await from_langgraph(saver, "chat", deltas=["messages"])
    print(f"{turns}-turn chat (thread file limit {kib(MAX_FILE_BYTES)}):")
    print(f"  made in the lab, LangGraph's default: thread file {kib(len(whole_file))}")
    print(f"  made in the lab, DeltaChannel:  thread file {kib(len(lab_file))}")
    print(f"    -> to-langgraph: SqliteSaver file {kib((folder / 'from-lab.sqlite').stat().st_size)}")
    print(f"  made in LangGraph: SqliteSaver file {kib((folder / 'langgraph.sqlite').stat().st_size)}")
    print(f"    -> from-langgraph --deltas messages: thread file {kib(len(langgraph_file))}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(parser.parse_args().turns, Path(folder)))
