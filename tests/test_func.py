"""``lab.func`` (``@task``, ``@entrypoint``): what the differential scenarios cannot show, because
it is how the lab runs tasks without threads (``lab.pregel.task_calls``) or what it refuses.
What LangGraph itself does is compared in ``tests/differential/scenarios_func.py``."""

import asyncio
from collections import Counter
from typing import Any

import pytest

import lab.func
from lab.checkpoint.memory import InMemorySaver
from lab.func import entrypoint, task
from lab.graph import START, StateGraph
from lab.graph.unsupported import NotSupportedError
from lab.types import Command, interrupt

THREAD = {"configurable": {"thread_id": "t"}}


class WaitingSaver(InMemorySaver):
    """A saver whose ``aput_writes`` waits a turn of the event loop first, as IndexedDB's does."""

    async def aput_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        await asyncio.sleep(0)
        await super().aput_writes(config, writes, task_id, task_path)


def charging_flow(saver: Any, counts: Counter[str]) -> Any:
    @task
    def charge(amount: int) -> str:
        counts["charge"] += 1
        return f"charged {amount}"

    @entrypoint(checkpointer=saver)
    def export(case: str) -> dict:
        receipt = charge(100).result()
        return {"receipt": receipt, "answer": interrupt(f"approve {case}?")}

    return export


def saved_returns(saver: Any) -> list[Any]:
    latest = saver.get_tuple(THREAD)
    return [value for _, channel, value in latest.pending_writes if channel == "__return__"]


def test_a_sync_task_over_a_waiting_saver_is_saved_before_its_node_ends() -> None:
    """A plain ``def`` entrypoint over a saver that waits for I/O (the browser's case): the task's
    save goes on on the event loop and is done before the step ends; on resume it is not re-run."""
    counts: Counter[str] = Counter()
    saver = WaitingSaver()
    flow = charging_flow(saver, counts)

    paused = asyncio.run(flow.ainvoke("ACME-1", THREAD))
    assert [i.value for i in paused["__interrupt__"]] == ["approve ACME-1?"]
    assert saved_returns(saver) == ["charged 100"]
    done = asyncio.run(flow.ainvoke(Command(resume="yes"), THREAD))
    assert done == {"receipt": "charged 100", "answer": "yes"}
    assert counts["charge"] == 1


class FailingSaver(WaitingSaver):
    """Its saves of a task's result fail once they have waited (a full disk, a closed database)."""

    async def aput_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        await asyncio.sleep(0)
        if any(channel == "__return__" for channel, _ in writes):
            raise OSError("disk full")
        await super().aput_writes(config, writes, task_id, task_path)


def test_a_task_save_that_fails_after_waiting_fails_the_run() -> None:
    """The save a sync call left running on the event loop is awaited before the node's task ends,
    and its failure is the run's (not swallowed because nobody awaited it)."""
    flow = charging_flow(FailingSaver(), Counter())
    with pytest.raises(OSError, match="disk full"):
        asyncio.run(flow.ainvoke("ACME-1", THREAD))


def test_a_sync_task_runs_at_its_call_and_is_saved_at_once() -> None:
    """Called from a plain ``def``, a task runs right at the call (the lab has no threads) and, over
    a saver that does not wait, its write is saved before the call returns."""
    saver = InMemorySaver()
    seen: list[list[Any]] = []

    @task
    def one() -> int:
        return 1

    @entrypoint(checkpointer=saver)
    def flow(_: Any) -> int:
        future = one()
        assert future.done()
        seen.append(saved_returns(saver))
        return future.result()

    assert flow.invoke("x", THREAD, durability="sync") == 1
    assert seen[-1] == [1]


def test_async_tasks_run_side_by_side() -> None:
    """From an ``async def`` entrypoint, tasks are asyncio tasks: both start before either ends."""
    started: list[int] = []

    @task
    async def wait_for_sibling(n: int) -> int:
        started.append(n)
        while len(started) < 2:
            await asyncio.sleep(0)
        return n * 10

    @entrypoint(checkpointer=InMemorySaver())
    async def flow(ns: list[int]) -> list[int]:
        return list(await asyncio.gather(*(wait_for_sibling(n) for n in ns)))

    assert asyncio.run(flow.ainvoke([1, 2], THREAD)) == [10, 20]


def test_a_task_in_a_state_graph_node_charges_once() -> None:
    counts: Counter[str] = Counter()

    @task
    def charge() -> str:
        counts["charge"] += 1
        return "paid"

    def pay(state: dict) -> dict:
        return {"log": [charge().result(), interrupt("ok?")]}

    builder = StateGraph(dict)
    builder.add_node("pay", pay)
    builder.add_edge(START, "pay")
    app = builder.compile(checkpointer=InMemorySaver())
    app.invoke({"log": []}, THREAD)
    assert app.invoke(Command(resume="yes"), THREAD) == {"log": ["paid", "yes"]}
    assert counts["charge"] == 1


def test_an_async_task_from_a_sync_caller_under_the_sync_api_is_refused() -> None:
    @task
    async def later() -> int:
        return 1

    @entrypoint()
    def flow(_: Any) -> int:
        return later().result()

    with pytest.raises(RuntimeError, match="async tasks cannot be called"):
        flow.invoke(0)
    assert asyncio.run(flow.ainvoke(0)) == 1  # the async API drives it to the end on a loop of its own


def test_a_task_called_outside_a_graph_is_refused() -> None:
    @task
    def alone() -> int:
        return 1

    with pytest.raises(RuntimeError, match="outside of a runnable context"):
        alone()


@pytest.mark.parametrize(
    ("make", "refused"),
    [
        (lambda: task(timeout=3)(lambda: 1), "task\\(timeout=...\\)"),
        (lambda: entrypoint(retry_policy=()), "entrypoint\\(retry_policy=...\\)"),
    ],
)
def test_what_the_lab_leaves_out_is_refused_by_name(make: Any, refused: str) -> None:
    with pytest.raises(NotSupportedError, match=refused):
        make()


def test_a_store_parameter_gets_none_as_langgraph_gives_it_without_a_store() -> None:
    """``store`` is filled by name in an entrypoint and in a task: ``None`` when the entrypoint is given
    none, as LangGraph passes it (``tests/test_store.py``: given one)."""

    @task
    def kept(x: int, store) -> Any:  # (unannotated, or annotated BaseStore: filled)
        return store

    @entrypoint()
    def flow(x: int, store) -> list:
        return [store, kept(x).result()]

    assert flow.invoke(1) == [None, None]


def test_an_entrypoint_draws_as_langgraphs() -> None:
    """``get_graph()``: ``__start__`` to the entrypoint's node, and a dotted edge on to ``__end__``."""
    import langgraph.func

    def workflow_of(func: Any) -> Any:
        @func.task
        def double(x: int) -> int:
            return 2 * x

        @func.entrypoint()
        def workflow(x: int) -> int:
            return double(x).result()

        return workflow

    drawn = workflow_of(lab.func).get_graph().draw_mermaid()
    assert drawn == workflow_of(langgraph.func).get_graph().draw_mermaid()
    assert "\t__start__ --> workflow;\n\tworkflow -.-> __end__;\n" in drawn


def test_a_generator_entrypoint_is_refused_as_in_langgraph() -> None:
    def gen(x: Any) -> Any:
        yield x

    with pytest.raises(NotImplementedError, match="Generators"):
        entrypoint()(gen)


def test_an_entrypoints_runtime_carries_previous_and_context() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    def flow(x: int, *, runtime: Any) -> list:
        return [x, runtime.previous, runtime.context]

    assert flow.invoke(1, THREAD, context="ctx") == [1, None, "ctx"]
    assert flow.invoke(2, THREAD, context="ctx") == [2, [1, None, "ctx"], "ctx"]
