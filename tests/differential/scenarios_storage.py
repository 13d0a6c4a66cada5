"""Differential scenarios for what a checkpoint *stores* of an appending list (issue 27).

LangGraph's default for ``Annotated[list, operator.add]`` is ``BinaryOperatorAggregate``: each
checkpoint where the list changed stores it whole. ``Annotated[list, DeltaChannel(reducer)]`` is the
opt-in (beta): a checkpoint stores nothing for it (the channel is absent from ``channel_values``,
its version still moves) except a ``DeltaSnapshot`` of the whole list every ``snapshot_frequency``
updates, and wherever the writes to replay are not on the parent (a resume, a fork,
``update_state``, ``durability="exit"``). Each history row of the trace shows the saver's stored
``channel_values`` and versions, so these scenarios compare what is stored, not only what is read.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

from typing_extensions import TypedDict

from .scenarios import asker, build, scenario
from .trace import Trace, thread


def append(log: list, batches: list) -> list:
    """A ``DeltaChannel`` reducer: the current list and a batch of writes (each a list)."""
    return log + [line for lines in batches for line in lines]


def delta_state(t: Trace, snapshot_frequency: int = 2) -> Any:
    """A state whose ``log`` opts in to ``DeltaChannel``, beside a default appending ``full``."""
    log = Annotated[list, t.fl.DeltaChannel(append, snapshot_frequency=snapshot_frequency)]
    return TypedDict("DeltaLog", {"log": log, "full": Annotated[list, operator.add], "n": int})


def both(name: str) -> Any:
    """A node that appends its name to both lists."""

    def run(state: dict) -> dict:
        return {"log": [name], "full": [name]}

    run.__name__ = name
    return run


@scenario
def storage_default_whole_lists(t: Trace) -> None:
    """LangGraph's default: an ``Annotated[list, operator.add]`` key is stored whole at every
    checkpoint where it changed, also across a fan-out, an interrupt, ``update_state`` and a fork."""
    g = build(t, "START>a a>b,c b,c>ask ask>END", ask=asker(t, "ask", "ok?"))
    app = t.compile(g)
    cfg = thread("whole")
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="resume")
    t.update(app, cfg, {"log": ["edited"]})
    t.invoke(app, None, t.checkpoint(app, cfg, step=1), label="replay from step 1")


@scenario
def storage_delta_opt_in(t: Trace) -> None:
    """``DeltaChannel`` opted in: the stored ``channel_values`` leave ``log`` out except its
    ``DeltaSnapshot``s (every second update here), while ``full`` is stored whole; the values read
    back are the same lists."""
    nodes = {name: both(name) for name in "abcd"}
    g = build(t, "START>a a>b b>c c>d d>END", state=delta_state(t), **nodes)
    app = t.compile(g)
    cfg = thread("delta")
    t.invoke(app, {"log": ["in"], "full": ["in"]}, cfg)
    t.state(app, cfg)


@scenario
def storage_delta_interrupted(t: Trace) -> None:
    """``DeltaChannel`` across a fan-out (two writes in one step) and an interrupt: the resume
    starts from a checkpoint that already holds writes, so its first checkpoint snapshots ``log``.
    (After ``update_state``, a fork or ``durability="exit"`` LangGraph 1.2 bumps versions through
    ``__snapshot_bumps__`` and a step -2 checkpoint, the lab snapshots instead: docs/LANGGRAPH.md, "Where lab
    deliberately differs"; the values read are the same, ``tests/test_delta_channel.py``.)"""
    state = delta_state(t, snapshot_frequency=100)

    def ask(s: dict) -> dict:
        answer = t.fl.interrupt("ok?")
        return {"log": [f"ask:{answer}"], "full": [f"ask:{answer}"]}

    nodes = {name: both(name) for name in "abc"}
    g = build(t, "START>a a>b,c b,c>ask ask>END", state=state, ask=ask, **nodes)
    app = t.compile(g)
    cfg = thread("interrupted")
    t.invoke(app, {"log": ["in"], "full": []}, cfg)
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="resume")


class Shapes(TypedDict):
    """Values of every shape the serializer treats apart: tuples, sets, tuple keys."""

    pair: Any
    tags: Any
    keyed: Any
    log: Annotated[list, operator.add]


@scenario
def storage_tuples_and_sets(t: Trace) -> None:
    """LangGraph's serializer writes a tuple as a msgpack array: a tuple in the state, in a task's
    pending write (``b`` finished beside the interrupted ``c``), in an interrupt's value and in a
    resume value is a list once read back from the checkpoint (``get_state``, the history, the run
    after the resume); a tuple dict key stays a tuple; a set and a frozenset keep their types."""

    def a(state: dict) -> dict:
        return {"pair": ("a", 1), "tags": {"x", frozenset({"y"})}, "keyed": {("k", 2): ("v", (3,))}}

    def c(state: dict) -> dict:
        answer = t.fl.interrupt(("ask", {"n": (3,)}))
        return {"log": [("c", answer, state["pair"])]}

    g = build(t, "START>a a>b,c b>END c>END", state=Shapes, a=a, b=lambda s: {"log": [("b", (2,))]}, c=c)
    app = t.compile(g)
    cfg = thread("tuples")
    t.invoke(app, {"pair": (0, 0), "tags": frozenset({1}), "keyed": {}, "log": [()]}, cfg)
    t.state(app, cfg)
    t.invoke(app, t.fl.Command(resume=("yes", (4,))), cfg, label="resume")
    t.state(app, cfg)
