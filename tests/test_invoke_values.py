"""``invoke`` reads only a run's last ``values`` chunk, so its loop makes only that one
(``StreamOutput.values_at_end`` in ``lab.pregel.stream_output``): what it returns must be what the
last ``values`` chunk of the same run streamed says, whichever way the run ends, and a stream of
subgraphs still gets every chunk."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any, TypedDict

from lab.checkpoint.memory import InMemorySaver
from lab.graph import END, START, StateGraph
from lab.types import interrupt


class State(TypedDict):
    n: int
    log: Annotated[list, operator.add]


def chain(*steps: Any, checkpointer: Any = None, **compile_options: Any) -> Any:
    """``START -> a -> b ...`` over ``State``, each node given by its function."""
    graph = StateGraph(State)
    names = [f"s{i}" for i in range(len(steps))]
    for name, step in zip(names, steps, strict=True):
        graph.add_node(name, step)
    for a, b in zip([START, *names], [*names, END], strict=True):
        graph.add_edge(a, b)
    return graph.compile(checkpointer=checkpointer, **compile_options)


def last_streamed_values(app: Any, input: Any, config: dict[str, Any]) -> Any:
    """The last ``values`` chunk of the same run, streamed, with the interrupts ``invoke`` adds."""
    values, asked = None, []
    for mode, chunk in app.stream(input, config, stream_mode=["values", "updates"]):
        if mode == "values":
            values = chunk
        elif "__interrupt__" in chunk:
            asked.extend(chunk["__interrupt__"])
    return {**values, "__interrupt__": asked} if asked else values


def add(name: str) -> Any:
    return lambda s: {"n": s["n"] + 1, "log": [name]}


def test_a_last_step_writing_no_state_key_returns_the_state_of_the_step_before() -> None:
    app = chain(add("a"), add("b"), lambda s: None, lambda s: {})
    assert app.invoke({"n": 0, "log": []}) == {"n": 2, "log": ["a", "b"]}
    assert app.invoke({"n": 0, "log": []}) == last_streamed_values(app, {"n": 0, "log": []}, {})


def test_an_interrupt_returns_the_finished_siblings_writes_with_the_question() -> None:
    def ask(state: State) -> dict[str, Any]:
        return {"log": [interrupt("go on?")]}

    graph = StateGraph(State)
    graph.add_node("a", add("a"))
    graph.add_node("ask", ask)
    graph.add_edge(START, "a")
    graph.add_edge(START, "ask")  # side by side: "a" finishes, "ask" pauses
    app = graph.compile(checkpointer=InMemorySaver())
    paused = app.invoke({"n": 0, "log": []}, {"configurable": {"thread_id": "1"}})
    assert (paused["n"], paused["log"]) == (1, ["a"])  # (a's writes, not yet applied in a step)
    assert [i.value for i in paused["__interrupt__"]] == ["go on?"]
    expected = last_streamed_values(app, {"n": 0, "log": []}, {"configurable": {"thread_id": "2"}})
    assert (expected["n"], expected["log"]) == (1, ["a"])


def test_a_static_breakpoint_returns_the_state_it_stopped_at() -> None:
    app = chain(add("a"), add("b"), checkpointer=InMemorySaver(), interrupt_before=["s1"])
    config = {"configurable": {"thread_id": "t"}}
    assert app.invoke({"n": 0, "log": []}, config) == {"n": 1, "log": ["a"]}
    assert app.invoke(None, config) == {"n": 2, "log": ["a", "b"]}


def test_invoke_makes_one_values_chunk_and_the_stream_one_per_step() -> None:
    app = chain(add("a"), add("b"), add("c"))

    async def values_chunks(last_values_only: bool) -> list[Any]:
        loop = app.new_loop(
            {"n": 0, "log": []}, None, stream_mode=["values"], last_values_only=last_values_only
        )
        return [chunk async for _, mode, chunk in loop.run() if mode == "values"]

    every = asyncio.run(values_chunks(last_values_only=False))
    assert len(every) == 4
    assert asyncio.run(values_chunks(last_values_only=True)) == [every[-1]]


def test_ainvoke_with_subgraphs_returns_the_last_chunk_streamed_even_a_subgraphs() -> None:
    class Inner(TypedDict):
        x: int

    inner_graph = StateGraph(Inner)
    inner_graph.add_node("set_x", lambda s: {"x": 1})
    inner_graph.add_edge(START, "set_x")
    inner = inner_graph.compile()

    def call_inner(state: State) -> None:
        inner.invoke({"x": 0})  # (a subgraph: its chunks go to a stream of subgraphs)

    app = chain(add("a"), call_inner)

    async def both() -> tuple[Any, Any]:
        chunks = [c async for _, c in app.astream({"n": 0, "log": []}, stream_mode="values", subgraphs=True)]
        return await app.ainvoke({"n": 0, "log": []}, subgraphs=True), chunks[-1]

    returned, last = asyncio.run(both())
    assert last == {"x": 1}  # the subgraph's chunk came after the root's last one
    assert returned == {k: v for k, v in last.items() if k in State.__annotations__}
