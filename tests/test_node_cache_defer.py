"""Node caching (``lab.pregel.node_cache``) and deferred nodes (``lab.pregel.deferred``): the same
programs run on real LangGraph and on lab give the same answers, and what the differential scenarios
(``node_cache``, ``deferred_node`` in ``tests/differential/scenarios_upstream.py``) do not show: what a
``key_func`` is given, a ``ttl`` running out, a cached ``async def`` node, a deferred node after a loop
and after ``Send``s, and what the deferred triggers store in a checkpoint."""

import asyncio
import operator
from collections import Counter
from typing import Annotated, Any, TypedDict

import pytest

from lab.cache import memory as lab_cache_memory
from lab.pregel.channels import MISSING
from lab.pregel.deferred import LastValueAfterFinish, NamedBarrierValueAfterFinish
from tests.differential.flavours import load_flavour

LANGGRAPH, LAB = load_flavour("langgraph"), load_flavour("lab")


class State(TypedDict):
    topic: str
    n: int
    log: Annotated[list, operator.add]


def on_both(program: Any) -> Any:
    """``program(flavour)`` on LangGraph and on lab; the answers must be equal (lab's is returned)."""
    expected, actual = program(LANGGRAPH), program(LAB)
    assert actual == expected
    return actual


def cached_topic_graph(fl: Any, runs: Counter, **policy: Any) -> Any:
    """``START -> research -> END``; ``research`` is cached by what ``key_func`` makes of its input."""

    def research(state: dict) -> dict:
        runs["research"] += 1
        return {"log": [f"about {state['topic']}"]}

    builder = fl.StateGraph(State)
    builder.add_node("research", research, cache_policy=fl.CachePolicy(**policy))
    builder.add_edge(fl.START, "research")
    return builder.compile(cache=fl.InMemoryCache())


def test_key_func_is_given_the_nodes_input_and_decides_what_a_hit_is() -> None:
    def program(fl: Any) -> list:
        runs: Counter = Counter()
        seen: list = []

        def by_topic(state: dict) -> str:
            seen.append(sorted(state))
            return state["topic"]

        app = cached_topic_graph(fl, runs, key_func=by_topic)
        chunks = [
            list(app.stream({"topic": topic, "n": n, "log": []}))
            for topic, n in (("cats", 1), ("cats", 2), ("dogs", 1))
        ]
        return [chunks, runs["research"], seen]

    chunks, runs, seen = on_both(program)
    assert chunks[1] == [{"research": {"log": ["about cats"]}, "__metadata__": {"cached": True}}]
    assert runs == 2, "n is not in the key: the second call is a hit"
    assert seen[0] == ["log", "n", "topic"], "key_func reads the node's input, the whole state"


def test_an_entry_expires_after_its_ttl(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(lab_cache_memory.time, "time", lambda: now[0])
    runs: Counter = Counter()
    app = cached_topic_graph(LAB, runs, ttl=10)
    for moved in (0, 9, 2):  # 0 s: runs; 9 s: a hit; 11 s: expired, runs again
        now[0] += moved
        app.invoke({"topic": "cats", "n": 1, "log": []})
    assert runs["research"] == 2


def test_a_cached_async_node_is_a_hit_under_ainvoke_too() -> None:
    def program(fl: Any) -> list:
        runs: Counter = Counter()

        async def fetch(state: dict) -> dict:
            runs["fetch"] += 1
            await asyncio.sleep(0)
            return {"n": state["n"] * 2}

        builder = fl.StateGraph(State)
        builder.add_node("fetch", fetch, cache_policy=fl.CachePolicy())
        builder.add_edge(fl.START, "fetch")
        app = builder.compile(cache=fl.InMemoryCache())

        async def twice() -> list:
            first = [c async for c in app.astream({"topic": "t", "n": 2, "log": []})]
            return [first, [c async for c in app.astream({"topic": "t", "n": 2, "log": []})]]

        return [asyncio.run(twice()), runs["fetch"]]

    (first, second), runs = on_both(program)
    assert second == [{"fetch": {"n": 4}, "__metadata__": {"cached": True}}] and runs == 1


def test_a_deferred_node_waits_for_a_loop_to_end() -> None:
    """``loop`` goes round three times beside ``once``; the deferred ``summary`` runs once, last."""

    def program(fl: Any) -> list:
        builder = fl.StateGraph(State)
        builder.add_node("loop", lambda s: {"n": s["n"] + 1, "log": [f"loop {s['n']}"]})
        builder.add_node("once", lambda s: {"log": ["once"]})
        builder.add_node("summary", lambda s: {"log": [f"summary of {len(s['log'])}"]}, defer=True)
        builder.add_edge(fl.START, "loop")
        builder.add_edge(fl.START, "once")
        builder.add_conditional_edges("loop", lambda s: "loop" if s["n"] < 3 else "summary")
        builder.add_edge("once", "summary")
        app = builder.compile()
        return list(app.stream({"topic": "t", "n": 0, "log": []}, stream_mode="updates"))

    chunks = on_both(program)
    assert [next(iter(c)) for c in chunks] == ["loop", "once", "loop", "loop", "summary"]
    assert chunks[-1] == {"summary": {"log": ["summary of 4"]}}


def test_a_deferred_node_waits_for_every_send() -> None:
    def program(fl: Any) -> list:
        builder = fl.StateGraph(State)
        builder.add_node("work", lambda s: {"log": [s["topic"]]})
        builder.add_node("collect", lambda s: {"log": [f"collected {len(s['log'])}"]}, defer=True)
        builder.add_conditional_edges(
            fl.START, lambda s: [fl.Send("work", {"topic": t, "n": 0, "log": []}) for t in "abc"]
        )
        builder.add_edge("work", "collect")
        return builder.compile().invoke({"topic": "", "n": 0, "log": []})["log"]

    assert on_both(program) == ["a", "b", "c", "collected 3"]


def test_the_deferred_triggers_checkpoint_as_value_and_finished_and_load_back() -> None:
    barrier = NamedBarrierValueAfterFinish({"a", "b"})
    barrier.update(["a", "b"])
    assert not barrier.is_available(), "every source wrote, but the run has not finished"
    saved = barrier.checkpoint()
    assert saved == ({"a", "b"}, False)
    restored = barrier.restore(saved)
    assert restored.finish() and restored.is_available() and restored.consume()
    assert restored.checkpoint() == (set(), False)
    trigger = LastValueAfterFinish()
    assert trigger.checkpoint() is MISSING, "nothing written: nothing stored"
    trigger.update([None])
    assert trigger.restore(list(trigger.checkpoint())).finish(), "a saver may load the pair as a list"
