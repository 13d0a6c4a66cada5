"""Task and interrupt ids themselves, digit for digit, on LangGraph and on lab.

The scenarios compare ids through placeholders, because checkpoint ids hold the clock and random
bits. Here both runtimes get the same checkpoint ids instead (a counter in place of ``uuid6``), so
every id derived from them must come out identical: the pull tasks of a fan-out, the push tasks of
two ``Send`` packets, a join, a task re-created on resume, and an interrupt id in both its forms,
``xxh3("<node>:<task id>")`` for a task's first interrupt and ``xxh3("<node>:<task id>|1")`` once
it has one answer. These are the ids a thread file carries across the border (``lab.interop``).
"""

from __future__ import annotations

import importlib
import operator
from typing import Annotated, Any, TypedDict

import pytest
import xxhash

from .flavours import Flavour

UUID6_USERS = {
    "langgraph": ("langgraph.pregel._checkpoint",),
    "lab": ("lab.pregel.algo", "lab.checkpoint.base"),
}
"""The modules each runtime creates checkpoint ids in (each imported ``uuid6`` by name)."""


class State(TypedDict):
    log: Annotated[list, operator.add]


def count_checkpoint_ids(monkeypatch: pytest.MonkeyPatch, flavour: str) -> None:
    """From here on, ``flavour`` takes its checkpoint ids from a fresh counter (still UUIDv6-shaped,
    the step in the 4th group, in creation order)."""
    count = iter(range(1, 1 << 16))

    def uuid6(clockseq: int | None = None, *, clock_seq: int | None = None) -> str:
        step = clockseq if clockseq is not None else clock_seq
        return f"1f000000-{next(count):04x}-6000-{0x8000 | (step & 0x3FFF):04x}-000000000000"

    for module in UUID6_USERS[flavour]:
        monkeypatch.setattr(importlib.import_module(module), "uuid6", uuid6)


def run_case(fl: Flavour) -> dict[str, Any]:
    """Fan-out, Sends, a join, then a node that interrupts twice: every id a learner can see."""

    def review(state: State) -> dict:
        first = fl.interrupt("first question")
        second = fl.interrupt("second question")
        return {"log": [f"review:{first}/{second}"]}

    g = fl.StateGraph(State)
    g.add_node("plan", lambda s: {"log": ["plan"]})
    for name in ("a", "b"):
        g.add_node(name, lambda s, name=name: {"log": [name]})
    g.add_node("work", lambda item: {"log": [f"work:{item['item']}"]})
    g.add_node("review", review)
    g.add_edge(fl.START, "plan")
    g.add_edge("plan", "a")
    g.add_edge("plan", "b")
    g.add_conditional_edges("plan", lambda s: [fl.Send("work", {"item": i}) for i in ("x", "y")])
    g.add_edge(["a", "b"], "review")
    saver = fl.InMemorySaver()
    app = g.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "ids"}}
    results = [
        app.invoke({"log": []}, config),
        app.invoke(fl.Command(resume="yes"), config),
        app.invoke(fl.Command(resume="no"), config),
    ]
    return {
        "interrupts": [[(i.id, i.value) for i in r.get("__interrupt__", ())] for r in results],
        "history": [frame(saver, snapshot) for snapshot in reversed(list(app.get_state_history(config)))],
    }


def frame(saver: Any, snapshot: Any) -> dict[str, Any]:
    stored = saver.get_tuple(snapshot.config)
    return {
        "checkpoint": snapshot.config["configurable"]["checkpoint_id"],
        "tasks": [(t.id, t.name, [i.id for i in t.interrupts]) for t in snapshot.tasks],
        "writes": sorted((task_id, channel) for task_id, channel, _ in stored.pending_writes),
    }


def same_on_both(
    monkeypatch: pytest.MonkeyPatch, case: Any, langgraph_flavour: Flavour, lab_flavour: Flavour
) -> dict[str, Any]:
    """``case`` run on LangGraph, then on the lab, from the same checkpoint ids: what LangGraph
    made, once the lab is seen to make the same."""
    count_checkpoint_ids(monkeypatch, "langgraph")
    expected = case(langgraph_flavour)
    count_checkpoint_ids(monkeypatch, "lab")
    assert case(lab_flavour) == expected
    return expected


def test_task_and_interrupt_ids_are_langgraphs(
    monkeypatch: pytest.MonkeyPatch, langgraph_flavour: Flavour, lab_flavour: Flavour
) -> None:
    expected = same_on_both(monkeypatch, run_case, langgraph_flavour, lab_flavour)
    # The case covers what it claims: two push tasks, and the "|1" form of an interrupt id.
    tasks = [task for f in expected["history"] for task in f["tasks"]]
    assert [name for _, name, _ in tasks].count("work") == 2
    (review_id,) = {tid for tid, name, _ in tasks if name == "review"}
    first, second = (ids[0][0] for ids in expected["interrupts"][:2])
    assert first == xxhash.xxh3_128_hexdigest(f"review:{review_id}".encode())
    assert second == xxhash.xxh3_128_hexdigest(f"review:{review_id}|1".encode())


def run_functional_case(fl: Flavour) -> dict[str, Any]:
    """An entrypoint calling tasks: two in a row, then one that calls a task that asks twice (a
    called task's id hashes its caller's path: the entrypoint's, or a task's, ``True`` and all)."""

    @fl.task
    def step(x: int) -> int:
        return x + 1

    @fl.task
    def ask(question: str) -> str:
        return f"{fl.interrupt(question)}/{fl.interrupt(question + '?')}"

    @fl.task
    def outer(question: str) -> str:
        return ask(question).result()

    saver = fl.InMemorySaver()

    @fl.entrypoint(checkpointer=saver)
    def flow(x: int) -> str:
        total = step(step(x).result()).result()
        return f"{total}:{outer('go').result()}"

    config = {"configurable": {"thread_id": "func-ids"}}
    results = [
        flow.invoke(1, config),
        flow.invoke(fl.Command(resume="a"), config),
        flow.invoke(fl.Command(resume="b"), config),
    ]
    return {
        "results": [
            r if isinstance(r, str) else [(i.id, i.value) for i in r["__interrupt__"]] for r in results
        ],
        "history": [frame(saver, snapshot) for snapshot in reversed(list(flow.get_state_history(config)))],
    }


def test_called_task_ids_are_langgraphs(
    monkeypatch: pytest.MonkeyPatch, langgraph_flavour: Flavour, lab_flavour: Flavour
) -> None:
    expected = same_on_both(monkeypatch, run_functional_case, langgraph_flavour, lab_flavour)
    assert expected["results"][-1] == "3:a/b"
    writes = [w for f in expected["history"] for w in f["writes"]]
    assert sum(channel == "__return__" for _, channel in writes) == 4  # step, step, ask, outer
