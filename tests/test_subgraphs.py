"""Subgraphs: what only the lab has (its sync loop's limit, refused by name over an async-only saver).

Everything ``lab`` supports of subgraphs is compared with LangGraph in
``tests/differential/scenarios_subgraphs.py``; these are the deliberate differences.
"""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, TypedDict

import pytest

from lab.checkpoint.memory import InMemorySaver
from lab.controller.process import Process, ProcessSaver
from lab.graph import START, StateGraph
from lab.graph.subgraphs import SyncSubgraphCallRefused
from lab.graph.unsupported import NotSupportedError
from lab.pregel.sync_loop import WouldBlockError
from lab.types import interrupt


class Log(TypedDict):
    log: Annotated[list, operator.add]


def child():
    def ask(state: Log) -> dict:
        return {"log": [interrupt("ok?")]}

    return StateGraph(Log).add_node("ask", ask).add_edge(START, "ask").compile()


def parent(saver=None):
    return StateGraph(Log).add_node("sub", child()).add_edge(START, "sub").compile(checkpointer=saver)


class BrowserLikeSaver(InMemorySaver):
    """A subgraph's reads are answered through the event loop the run started on, as IndexedDB's
    are in the browser (a JavaScript callback, run by the browser's loop)."""

    home: asyncio.AbstractEventLoop

    async def aget_tuple(self, config):
        if config["configurable"].get("checkpoint_ns"):
            answered = asyncio.get_running_loop().create_future()
            self.home.call_soon(lambda: answered.done() or answered.set_result(None))
            await answered
        return await super().aget_tuple(config)


def run_on(saver: InMemorySaver, node) -> dict:
    app = StateGraph(Log).add_node("call", node).add_edge(START, "call").compile(checkpointer=saver)

    async def main() -> dict:
        saver.home = asyncio.get_running_loop()
        return await app.ainvoke({"log": []}, {"configurable": {"thread_id": "t"}})

    return asyncio.run(main())


def test_a_def_node_invoking_a_subgraph_on_a_browser_like_saver_names_the_remedy():
    sub = child()
    with pytest.raises(
        WouldBlockError, match=r"call `await sub\.ainvoke\(\.\.\.\)` from an `async def` node"
    ):
        run_on(BrowserLikeSaver(), lambda state: sub.invoke(state))


def test_an_async_def_node_awaiting_the_subgraph_on_the_same_saver_runs():
    sub = child()

    async def call(state: Log) -> dict:
        return await sub.ainvoke(state)

    result = run_on(BrowserLikeSaver(), call)
    assert [i.value for i in result["__interrupt__"]] == ["ok?"]


def test_a_sync_subgraph_call_waits_for_its_own_threads_and_timers():
    async def slow(state: Log) -> dict:
        await asyncio.sleep(0.001)
        return {"log": [await asyncio.to_thread(lambda: "from a thread")]}

    sub = StateGraph(Log).add_node("slow", slow).add_edge(START, "slow").compile()
    result = run_on(InMemorySaver(), lambda state: sub.invoke({"log": []}))
    assert result == {"log": ["from a thread"]}


def async_only_saver() -> InMemorySaver:
    """A saver whose storage, like IndexedDB's in the browser, has no sync API."""
    saver = InMemorySaver()
    saver.storage.supports_sync = False
    return saver


def test_a_def_node_running_a_subgraph_over_an_async_only_saver_is_refused_when_compiled():
    sub = child()
    builder = StateGraph(Log).add_node("call", lambda state: sub.invoke(state)).add_edge(START, "call")
    with pytest.raises(SyncSubgraphCallRefused, match=r"^lab does not support a plain `def` node") as refused:
        builder.compile(checkpointer=async_only_saver())
    assert isinstance(refused.value, NotSupportedError)
    assert refused.value.node == "call"
    assert "(node 'call': `sub.invoke(...)`)" in str(refused.value)
    assert "`await sub.ainvoke(...)`" in str(refused.value)
    assert "`add_node('call', sub)`" in str(refused.value)
    ran = builder.compile(checkpointer=InMemorySaver()).invoke(
        {"log": []}, {"configurable": {"thread_id": "t"}}
    )
    assert [asked.value for asked in ran["__interrupt__"]] == ["ok?"]  # over a sync saver it runs


def test_the_lab_controllers_saver_is_seen_through():
    """The lab's controller compiles its graph over a ``ProcessSaver`` wrapping the browser's saver."""
    sub = child()
    builder = StateGraph(Log).add_node("call", lambda state: sub.invoke(state)).add_edge(START, "call")
    with pytest.raises(SyncSubgraphCallRefused, match=r"`sub\.invoke\(\.\.\.\)`\) over InMemorySaver, whose"):
        builder.compile(checkpointer=ProcessSaver(async_only_saver(), Process()))
    builder.compile(checkpointer=ProcessSaver(InMemorySaver(), Process()))


def test_the_two_remedies_compile_over_an_async_only_saver():
    sub = child()

    async def call(state: Log) -> dict:
        return await sub.ainvoke(state)

    for node in (call, sub):
        StateGraph(Log).add_node("call", node).add_edge(START, "call").compile(
            checkpointer=async_only_saver()
        )
