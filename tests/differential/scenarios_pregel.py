"""LangGraph's low-level API: a ``Pregel`` of ``NodeBuilder`` nodes over channels it names itself.

The same program on both: channels of each kind (``LastValue``, ``Topic``, ``EphemeralValue``,
``BinaryOperatorAggregate``), nodes that subscribe to one channel or to several and read others,
chained steps, ``write_to`` with fixed and mapped values; ``invoke``, ``stream`` in each mode,
``get_state``, ``update_state`` and the checkpoint history.
"""

from __future__ import annotations

import operator
from typing import Any

from .scenarios import scenario
from .trace import Trace, thread


def counted(t: Trace, name: str, step: Any) -> Any:
    """``step`` counted under ``name`` each time it runs."""

    def run(value: Any) -> Any:
        t.counts[name] += 1
        return step(value)

    return run


def chain_app(t: Trace, **options: Any) -> Any:
    """``inp`` -> one -> ``inbox`` (a topic it writes twice) -> collect -> ``out`` -> add; ``total``
    adds what ``add`` read, ``seen`` is ephemeral. (One task a step: the order of parallel tasks'
    ``updates`` chunks is LangGraph's threads' finishing order.)"""
    nb, fl = t.fl.NodeBuilder, t.fl
    nodes = {
        "one": nb()
        .subscribe_only("inp")
        .do(counted(t, "one", lambda x: x + 1))
        .write_to("inbox", seen=True)
        .write_to(inbox=lambda x: x * 10),
        "collect": nb().subscribe_only("inbox").do(counted(t, "collect", sorted)).do(sum),
        "add": nb()
        .subscribe_to("out")
        .read_from("total", "seen")
        .do(counted(t, "add", lambda d: d["out"]))
        .write_to("total", half=lambda v: v // 2),
    }
    nodes["collect"].write_to("out")
    channels = {
        "inp": fl.LastValue(int),
        "inbox": fl.Topic(int),
        "seen": fl.EphemeralValue(bool),
        "out": fl.LastValue(int),
        "half": fl.LastValue(int),
        "total": fl.BinaryOperatorAggregate(int, operator.add),
    }
    return fl.Pregel(nodes=nodes, channels=channels, input_channels="inp", **options)


@scenario
def pregel_node_builder(t: Trace) -> None:
    """A hand-built Pregel, checkpointed: invoke twice on one thread (``total`` keeps adding),
    stream in each mode, then ``get_state``, ``update_state`` as a node and the history."""
    app = chain_app(t, output_channels="out", checkpointer=t.saver)
    t.adopt(app, ["low"])
    cfg = thread("low")
    t.invoke(app, 2, cfg)
    t.invoke(app, 3, cfg, label="invoke again")
    t.stream(app, 4, cfg, label="stream (its default mode)")
    t.stream(app, 5, cfg, stream_mode="updates", label="stream updates")
    t.stream(app, 6, cfg, stream_mode=["values", "updates"], label="stream two modes")
    t.state(app, cfg)
    t.update(app, cfg, 100, as_node="collect")
    t.state(app, cfg, label="get_state after update")
    t.invoke(app, None, cfg, label="invoke(None) runs what the update triggered")


@scenario
def pregel_input_output_lists(t: Trace) -> None:
    """Lists of input and output channels (the input a dict, the output a dict of those that hold
    a value), no saver; the input and output schemas (Pydantic models of the channels' types); a
    wiring mistake is refused with LangGraph's message."""
    app = chain_app(t, output_channels=["out", "half", "total"])
    t.invoke(app, 2, label="invoke, output a dict")
    fl, nb = t.fl, t.fl.NodeBuilder
    two_in = fl.Pregel(
        nodes={"sum": nb().subscribe_to("a", "b").do(lambda d: sum(d.values())).write_to("c")},
        channels={"a": fl.LastValue(int), "b": fl.LastValue(int), "c": fl.LastValue(int)},
        input_channels=["a", "b"],
        output_channels=["c"],
    )
    for graph, label in ((app, "one input channel"), (two_in, "two")):
        t.call(f"input_schema, {label}", lambda g=graph: g.input_schema.model_json_schema())
        t.call(f"output_schema, {label}", lambda g=graph: g.output_schema.model_json_schema())
    t.invoke(two_in, {"a": 1, "b": 2}, label="a dict of input channels")
    t.invoke(two_in, {"a": 1}, label="only one of them")
    t.call(
        "an unknown input channel",
        fl.Pregel,
        nodes={"n": nb().subscribe_only("a").write_to("c")},
        channels={"a": fl.LastValue(int), "c": fl.LastValue(int)},
        input_channels="x",
        output_channels="c",
    )


@scenario
def pregel_interrupt_and_task_streams(t: Trace) -> None:
    """A hand-built node that calls ``interrupt()``: the pause, the snapshot, the resume; a run
    streamed as ``tasks``, ``checkpoints`` and ``debug`` chunks (what a task wrote, its triggers)."""
    fl, nb = t.fl, t.fl.NodeBuilder

    def ask(x: str) -> str:
        t.counts["ask"] += 1
        return f"{x}:{fl.interrupt('ok?')}"

    app = fl.Pregel(
        nodes={
            "ask": nb().subscribe_only("a").do(ask).write_to("b"),
            "shout": nb().subscribe_only("b").do(str.upper).write_to("c"),
        },
        channels={"a": fl.LastValue(str), "b": fl.LastValue(str), "c": fl.LastValue(str)},
        input_channels="a",
        output_channels=["b", "c"],
        checkpointer=t.saver,
    )
    t.adopt(app, ["ask", "streams"])
    cfg = thread("ask")
    t.invoke(app, "hi", cfg)
    t.state(app, cfg, label="get_state while paused")
    t.invoke(app, fl.Command(resume="yes"), cfg, label="resume")

    def streamed(inp: Any) -> list:  # (a debug event's timestamp dropped: it differs run to run)
        chunks = app.stream(inp, thread("streams"), stream_mode=["tasks", "checkpoints", "debug"])
        return [(mode, without_timestamp(chunk) if mode == "debug" else chunk) for mode, chunk in chunks]

    t.call("stream tasks, checkpoints, debug", streamed, "x")
    t.call("the same, resumed", streamed, fl.Command(resume="no"))


def without_timestamp(event: dict) -> dict:
    return {k: v for k, v in event.items() if k != "timestamp"}
