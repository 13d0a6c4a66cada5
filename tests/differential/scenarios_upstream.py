"""Differential scenarios for what LangGraph's own tests showed lab doing differently (issues 34, 36).

Each pins one behaviour the upstream suite (``tests/upstream``) depends on: ``print_mode`` and
``debug=True`` print chunks as they come; a LangChain ``Runnable`` as a node runs with
``invoke``/``ainvoke``; ``UntrackedValue``; ``interrupt_after`` streams the checkpoint it pauses on;
``max_concurrency``; an ``async def`` node's chunks reach ``astream``'s caller while it runs; a
failing task cancels its running siblings; ``graph | runnable``; ``batch``, ``abatch``,
``invoke(output_keys=)``; node caching (``add_node(cache_policy=)``, ``compile(cache=)``); deferred
nodes (``add_node(defer=True)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import operator
from collections.abc import Callable
from typing import Annotated, Any

from typing_extensions import TypedDict

from .scenarios import Log, asker, build, scenario
from .scenarios_subgraphs import LIVE_WAIT_S, ainvoke, child
from .trace import Trace, thread


class Named(TypedDict):
    """A parent's state with a key its subgraph (over :class:`Log`) does not have."""

    log: Annotated[list, operator.add]
    user: str


def printed(t: Trace, label: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Record ``fn``'s result and, as ``<label> printed``, the lines it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        t.call(label, fn, *args, **kwargs)
    t.record(f"{label} printed", out.getvalue().splitlines())


@scenario
def print_mode(t: Trace) -> None:
    """``print_mode`` prints the chunks of its modes (bold mode, a subgraph's namespace in yellow with
    ``subgraphs=True``) beside what the call returns; ``debug=True`` (of a call or of ``compile``)
    prints ``updates`` and ``values``, an interrupt's too."""
    sub = child(t)
    app = t.compile(build(t, "START>a a>sub sub>ask ask>END", sub=sub, ask=asker(t, "ask", "ok?")))
    cfg = thread()
    printed(
        t,
        "invoke(print_mode=[values, updates])",
        app.invoke,
        {"log": ["in"]},
        cfg,
        print_mode=["values", "updates"],
    )
    printed(t, "invoke(Command(resume), debug=True)", app.invoke, t.fl.Command(resume="yes"), cfg, debug=True)
    plain = build(t, "START>a a>sub sub>END", sub=sub)
    printed(
        t,
        "stream(updates, print_mode=values, subgraphs=True)",
        lambda: list(plain.compile().stream({"log": ["in"]}, print_mode="values", subgraphs=True)),
    )
    printed(
        t,
        "stream(values, print_mode=updates)",
        lambda: list(plain.compile().stream({"log": ["in"]}, stream_mode="values", print_mode="updates")),
    )
    printed(t, "compile(debug=True).invoke", plain.compile(debug=True).invoke, {"log": ["in"]})


@scenario
def runnable_nodes(t: Trace) -> None:
    """A LangChain ``Runnable`` as a node runs with ``invoke``/``ainvoke`` (never called): a ``@tool``
    whose ``Command(graph=Command.PARENT)`` updates the parent from a subgraph (LangGraph's
    ``test_parent_command``), and a ``RunnableLambda`` added without a name (named by ``get_name()``)."""
    from langchain_core.runnables import RunnableLambda
    from langchain_core.tools import tool

    fl = t.fl

    @tool
    def get_user_name() -> Any:
        """Retrieve the user's name."""
        t.counts["tool"] += 1
        return fl.Command(update={"user": "Meow"}, graph=fl.Command.PARENT)

    sub = fl.StateGraph(Log)
    sub.add_node("tool", get_user_name)
    sub.add_edge(fl.START, "tool")
    parent = fl.StateGraph(Named)
    parent.add_node("alice", sub.compile())
    parent.add_edge(fl.START, "alice")
    app = t.compile(parent)
    t.invoke(app, {"log": ["in"]}, thread("sync"))
    ainvoke(t, app, {"log": ["in"]}, thread("async"))
    counter = RunnableLambda(lambda state: {"log": [f"saw {len(state['log'])}"]}, name="counter")
    unnamed = fl.StateGraph(Log)
    unnamed.add_node(counter)
    unnamed.add_edge(fl.START, "counter")
    t.stream(unnamed.compile(), {"log": ["in"]}, None)


def held(resource: Any) -> type:
    """A state with a key never checkpointed (a lock, a client: here a name, so traces compare)."""
    return TypedDict("Held", {"log": Annotated[list, operator.add], "resource": resource})


@scenario
def untracked_value(t: Trace) -> None:
    """``Annotated[T, UntrackedValue]``: a node's write reaches the next node (and a ``Send``'s copy of
    the state) and the run's output, yet no checkpoint, pending write or ``Send`` saved holds it, so
    ``get_state`` and a new run find it empty; two writes in a step are refused (``guard=True``), while
    ``UntrackedValue(str, guard=False)`` keeps the last."""
    fl = t.fl

    def setup(state: dict) -> dict:
        return {"log": [f"setup saw {state.get('resource')}"], "resource": "r1"}

    def fan_out(state: dict) -> list:
        return [fl.Send("tool", state)]

    def tool(state: dict) -> dict:
        return {"log": [f"tool saw {state['resource']}"], "resource": "r2"}

    builder = fl.StateGraph(held(Annotated[str, fl.UntrackedValue]))
    builder.add_node("setup", setup)
    builder.add_node("tool", tool)
    builder.add_edge(fl.START, "setup")
    builder.add_conditional_edges("setup", fan_out)
    app = t.compile(builder)
    for durability in ("async", "exit"):
        cfg = thread(durability)
        t.invoke(app, {"log": ["in"]}, cfg, label=f"invoke(durability={durability!r})", durability=durability)
        t.state(app, cfg)
        t.invoke(app, {"log": ["again"]}, cfg, label="invoke, same thread")
    for guard in (True, False):
        state = held(Annotated[str, fl.UntrackedValue(str, guard=guard)])
        two = build(t, "START>a,b", state=state, a=lambda s: {"resource": "a"}, b=lambda s: {"resource": "b"})
        t.invoke(two.compile(), {"log": []}, label=f"two writes in a step, guard={guard}")


@scenario
def interrupt_after_streams_its_checkpoint(t: Trace) -> None:
    """``interrupt_after`` pauses on a checkpoint that ``stream_mode="checkpoints"`` (and ``debug``)
    streams before the run stops, with the node a resume runs as its ``next``; the resume streams it
    again as the checkpoint it starts from (``debug`` timestamps dropped: they differ run to run)."""
    app = t.compile(build(t, "START>one one>two two>END"), interrupt_after=["one"])

    def chunks(inp: Any, cfg: dict, mode: str) -> list:
        return [
            {k: v for k, v in chunk.items() if k != "timestamp"}
            for chunk in app.stream(inp, cfg, stream_mode=mode)
        ]

    for mode in ("checkpoints", "debug"):
        cfg = thread(mode)
        t._use(app, cfg)
        t.call(f"stream({mode}), paused after one", chunks, {"log": ["in"]}, cfg, mode)
        t.state(app, cfg)
        t.call(f"stream({mode}), resumed", chunks, None, cfg, mode)


@scenario
def max_concurrency(t: Trace) -> None:
    """``config["max_concurrency"]`` caps how many of a step's tasks run at once (six ``Send`` tasks of
    an ``async def`` node that awaits: all six at once, or two by two); the result is the same."""
    fl = t.fl
    running = {"now": 0, "most": 0}

    async def work(arg: int) -> dict:
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        await asyncio.sleep(0)
        running["now"] -= 1
        return {"log": [arg]}

    builder = fl.StateGraph(Log)
    builder.add_node("work", work)
    builder.add_conditional_edges(fl.START, lambda state: [fl.Send("work", n) for n in range(6)])
    app = builder.compile()
    for limit in (None, 2):
        config = {"max_concurrency": limit} if limit else {}
        running["most"] = 0
        t.call(f"ainvoke, max_concurrency={limit}", asyncio.run, app.ainvoke({"log": []}, config))
        t.record(f"most at once, max_concurrency={limit}", running["most"])


@scenario
def chunks_reach_the_caller_mid_task(t: Trace) -> None:
    """``astream`` hands over what an ``async def`` node writes (its stream writer; an ``@entrypoint``'s
    ``@task`` results) while the node still runs: the node waits until the caller has seen its first
    chunk (bounded by ``LIVE_WAIT_S``: a runtime that holds chunks back answers "had not seen")."""
    fl = t.fl
    seen: dict[str, asyncio.Event] = {}  # (one per run: an event belongs to the loop that made it)

    async def until_seen() -> str:
        try:
            await asyncio.wait_for(seen["first"].wait(), LIVE_WAIT_S)
        except TimeoutError:
            return "had not seen"
        return "had seen"

    async def node(state: dict, writer) -> dict:  # (unannotated: LangGraph passes the stream writer)
        writer("first")
        return {"log": [f"the caller {await until_seen()} first"]}

    @fl.task
    async def step(n: int) -> int:
        return n

    @fl.entrypoint()
    async def workflow(n: int) -> str:
        await step(n)
        return f"the caller {await until_seen()} step"

    async def consume(app: Any, inp: Any, mode: str, first: Callable[[Any], bool]) -> list:
        seen["first"] = asyncio.Event()
        chunks = []
        async for chunk in app.astream(inp, stream_mode=mode):
            chunks.append(chunk)
            if first(chunk):
                seen["first"].set()
        return chunks

    graph = build(t, "START>node node>END", node=node).compile()
    t.call(
        "astream(custom+updates)",
        asyncio.run,
        consume(graph, {"log": []}, ["custom", "updates"], lambda c: c[0] == "custom"),
    )
    t.call("entrypoint astream(updates)", asyncio.run, consume(workflow, 1, "updates", lambda c: "step" in c))


@scenario
def failure_cancels_running_siblings(t: Trace) -> None:
    """A task that fails cancels its siblings still running (``async def`` nodes), as LangGraph's
    runner does: the run raises the failure at once, not after the slow sibling ends (it would wait
    ``LIVE_WAIT_S``); what the saver keeps of each is the same, and both run again on resume."""
    fails = {"bad": True}

    async def slow(state: dict) -> dict:
        t.counts["slow started"] += 1
        try:
            await asyncio.sleep(LIVE_WAIT_S if fails["bad"] else 0)
        except asyncio.CancelledError:
            t.counts["slow cancelled"] += 1
            raise
        return {"log": ["slow finished"]}

    async def bad(state: dict) -> dict:
        await asyncio.sleep(0)
        if fails["bad"]:
            raise ValueError("bad")
        return {"log": ["bad fixed"]}

    app = t.compile(build(t, "START>slow,bad", slow=slow, bad=bad))
    cfg = thread()
    ainvoke(t, app, {"log": ["in"]}, cfg)
    t.state(app, cfg)
    fails["bad"] = False
    ainvoke(t, app, None, cfg, label="ainvoke(None), bad fixed")


@scenario
def graph_piped_with_runnables(t: Trace) -> None:
    """A compiled graph composes with LangChain ``Runnable``s by ``|`` (LangGraph's ``Pregel`` is one):
    ``graph | RunnablePassthrough()`` invokes to the final state and streams the graph's updates;
    ``graph | function`` and ``function | graph`` are sequences too, sync and async."""
    from langchain_core.runnables import RunnablePassthrough

    graph = build(t, "START>a a>b b>END").compile()
    chain = graph | RunnablePassthrough()
    t.call("(graph | passthrough).invoke", chain.invoke, {"log": ["in"]})
    t.call("(graph | passthrough).stream", lambda: list(chain.stream({"log": ["in"]})))
    counted = graph | (lambda state: len(state["log"]))
    t.call("(graph | len).ainvoke", asyncio.run, counted.ainvoke({"log": ["in"]}))
    wrapped = (lambda text: {"log": [text]}) | graph
    t.call("(wrap | graph).invoke", wrapped.invoke, "in")


@scenario
def batch_and_output_keys(t: Trace) -> None:
    """``batch``/``abatch`` (LangChain's ``Runnable`` methods on a compiled graph): one result per input,
    in the inputs' order, one config for all or one each (a list of another length refused), a failed
    run's exception in its place with ``return_exceptions=True``; ``invoke(output_keys=...)`` returns
    only those keys (one key's value for a string)."""
    fl = t.fl

    def add(state: Log) -> dict:
        if "boom" in state["log"]:
            raise ValueError("boom")
        return {"log": ["a"]}

    builder = fl.StateGraph(Log)
    builder.add_node("add", add)
    builder.add_edge(fl.START, "add")
    app = builder.compile(checkpointer=fl.InMemorySaver())
    inputs = [{"log": ["x"]}, {"log": ["y"]}]
    configs = [thread("t1"), thread("t2")]
    t.call("batch, a config each", app.batch, inputs, configs)
    t.call("batch again: the threads go on", app.batch, inputs, configs)
    t.call("batch, one config for all", builder.compile().batch, inputs, {"recursion_limit": 5})
    t.call("batch, configs of another length", app.batch, inputs, [thread("t3")])
    t.call("batch, a failure", builder.compile().batch, [{"log": ["boom"]}, {"log": ["z"]}])
    failed = builder.compile().batch([{"log": ["boom"]}, {"log": ["z"]}], return_exceptions=True)
    t.record("batch(return_exceptions=True)", [repr(one) for one in failed])
    t.call("abatch", asyncio.run, builder.compile().abatch(inputs))
    t.call("invoke(output_keys='log')", app.invoke, {"log": ["k"]}, thread("t4"), output_keys="log")
    t.call("invoke(output_keys=['log'])", app.invoke, {"log": ["k"]}, thread("t5"), output_keys=["log"])


@scenario
def node_cache(t: Trace) -> None:
    """``add_node(..., cache_policy=CachePolicy(key_func=...))`` with ``compile(cache=InMemoryCache())``:
    the same input on another thread reuses the node's writes (its ``updates`` chunk marked cached, its
    writes saved as if it ran); another input runs it; a node that failed, or asked an ``interrupt()``,
    is not cached; ``clear_cache()`` forgets (for one node, or all)."""
    fl = t.fl
    by_last = fl.CachePolicy(key_func=lambda state: state["log"][-1])
    builder = fl.StateGraph(Log)
    builder.add_node("a", t.node("a"), cache_policy=by_last)
    builder.add_node("flaky", t.node("flaky", fail_times=1), cache_policy=fl.CachePolicy())
    builder.add_node("ask", asker(t, "ask", "ok?"), cache_policy=fl.CachePolicy())
    builder.add_edge(fl.START, "a")
    builder.add_edge("a", "flaky")
    builder.add_edge("flaky", "ask")
    app = t.compile(builder, cache=fl.InMemoryCache())
    for label, inp, cfg in (
        ("stream", "x", thread("t1")),
        ("stream, flaky fixed", "x", thread("t2")),
        ("stream, a cached", "x", thread("t3")),
        ("stream, another input", "y", thread("t4")),
    ):
        t.stream(app, {"log": [inp]}, cfg, label=label, stream_mode=["updates", "tasks"])
    t.stream(app, fl.Command(resume="yes"), thread("t3"), label="resume t3")
    t.call("clear_cache(['flaky'])", app.clear_cache, ["flaky"])
    t.stream(app, {"log": ["x"]}, thread("t5"), label="stream, flaky forgotten")
    t.call("aclear_cache()", asyncio.run, app.aclear_cache())
    t.stream(app, {"log": ["x"]}, thread("t6"), label="stream, all forgotten")
    t.call("clear_cache without a cache", builder.compile().clear_cache)


@scenario
def deferred_node(t: Trace) -> None:
    """``add_node("d", fn, defer=True)`` runs only when no other node is pending: after both branches
    of a fan-out of different lengths (``a -> b -> b2 -> d``, ``a -> c -> d``; LangGraph's "defer node
    execution" how-to), as a plain edge's target and as a join's; interrupted before it, then resumed.
    (``durability="sync"``: LangGraph's deferred join saves its set of sources, which the next step
    adds to in place, from a background thread under ``"async"``: a checkpoint may show a later set.
    ``stream_mode="values"``: ``b`` and ``c`` run side by side on LangGraph's threads, so the order of
    their ``updates`` chunks is timing; each step's values are not.)"""
    fl = t.fl
    for label, join in (("edges", "b2>d c>d"), ("join", "b2,c>d")):
        builder = fl.StateGraph(Log)
        for name in ("a", "b", "b2", "c"):
            builder.add_node(name, t.node(name))
        builder.add_node("d", t.node("d"), defer=True)
        builder.add_edge(fl.START, "a")
        for source, target in (("a", "b"), ("a", "c"), ("b", "b2"), ("d", fl.END)):
            builder.add_edge(source, target)
        for edge in join.split():
            sources, target = edge.split(">")
            builder.add_edge(sources.split(",") if "," in sources else sources, target)
        app, paused, cfg = (
            t.compile(builder),
            t.compile(builder, interrupt_before=["d"]),
            thread(f"{label}, paused"),
        )
        t.stream(
            app,
            {"log": ["in"]},
            thread(label),
            label=f"{label}: stream",
            durability="sync",
            stream_mode="values",
        )
        t.stream(
            paused,
            {"log": ["in"]},
            cfg,
            label=f"{label}: stream to d",
            durability="sync",
            stream_mode="values",
        )
        t.state(paused, cfg)
        t.stream(paused, None, cfg, label=f"{label}: resume", durability="sync", stream_mode="values")
