"""The Functional API (issue 36): ``@entrypoint`` and ``@task``, on LangGraph and on the lab.

Each scenario's history holds the checkpoints and pending writes both runtimes save: a task's
``__return__`` write, its ``__interrupt__``, the entrypoint's ``__end__`` and ``__previous__``
channels, and (through the placeholders) that the task and interrupt ids are used consistently.
Calls are made one after another (``.result()`` before the next call) wherever a stream is
recorded: LangGraph runs sync tasks on threads, so siblings' chunks would arrive in any order.
"""

import asyncio
from typing import Any

from .scenarios import build, scenario
from .trace import Trace, thread


def entrypoint_app(t: Trace, func: Any, **kwargs: Any) -> Any:
    """``@entrypoint(checkpointer=<the trace's saver>)`` over ``func``, its threads traced."""
    app = t.fl.entrypoint(checkpointer=t.saver, **kwargs)(func)
    t.adopt(app, ())
    return app


def charge_task(t: Trace) -> Any:
    @t.fl.task
    def charge(amount: int) -> str:
        t.counts["charge"] += 1
        return f"charged {amount}"

    return charge


@scenario
def func_task_before_interrupt(t: Trace) -> None:
    """A side effect wrapped in a task before ``interrupt()``: the entrypoint re-runs from its top on
    resume, the task does not (its ``__return__`` write comes back from the checkpoint)."""
    charge = charge_task(t)

    def export(case: str) -> dict:
        receipt = charge(100).result()
        answer = t.fl.interrupt(f"approve {case}?")
        return {"receipt": receipt, "answer": answer}

    app = entrypoint_app(t, export)
    cfg = thread("approve")
    t.stream(app, "ACME-1", cfg, stream_mode=["updates", "values", "checkpoints"])
    t.state(app, cfg)
    modes = ["updates", "values", "checkpoints"]
    t.stream(app, t.fl.Command(resume="yes"), cfg, label="resume", stream_mode=modes)
    t.state(app, cfg)


@scenario
def func_interrupt_in_task(t: Trace) -> None:
    """``interrupt()`` inside a task pauses the task and its entrypoint; a task asking twice is
    answered in order, one resume each."""

    @t.fl.task
    def ask(question: str) -> str:
        t.counts["ask"] += 1
        first = t.fl.interrupt(question)
        second = t.fl.interrupt(f"{question} (sure?)")
        return f"{first}/{second}"

    def flow(question: str) -> str:
        return ask(question).result()

    app = entrypoint_app(t, flow)
    cfg = thread("ask")
    t.invoke(app, "go?", cfg)
    t.invoke(app, t.fl.Command(resume="a"), cfg, label="resume a")
    t.invoke(app, t.fl.Command(resume="b"), cfg, label="resume b")


@scenario
def func_previous_and_final(t: Trace) -> None:
    """``previous`` is what the last run on the thread saved: its return value, or
    ``entrypoint.final(save=...)``; ``update_state`` writes both as the entrypoint would."""

    def counter(step: int, *, previous: Any = None) -> Any:
        total = (previous or 0) + step
        return t.fl.entrypoint.final(value=f"total {total}", save=total)

    app = entrypoint_app(t, counter)
    cfg = thread("count")
    for step in (1, 2, 3):
        t.invoke(app, step, cfg, label=f"invoke {step}")
    t.update(app, cfg, 100)
    t.stream(app, 5, cfg, label="stream after update_state")
    t.history(app, cfg)


@scenario
def func_parallel_tasks(t: Trace) -> None:
    """Several tasks started before any result is read (LangGraph runs them side by side, the lab
    one after another): each has its own id and its own ``__return__`` write."""

    @t.fl.task
    def square(x: int) -> int:
        t.counts["square"] += 1
        return x * x

    def squares(xs: list) -> list:
        futures = [square(x) for x in xs]
        total = [f.result() for f in futures]
        return total + [t.fl.interrupt("more?")]

    app = entrypoint_app(t, squares)
    cfg = thread("squares")
    t.invoke(app, [1, 2, 3], cfg)
    t.invoke(app, t.fl.Command(resume=0), cfg, label="resume")


@scenario
def func_task_in_state_graph(t: Trace) -> None:
    """A ``@task`` called from a ``StateGraph`` node: the node re-runs on resume, the charge does not."""
    charge = charge_task(t)

    def pay(state: dict) -> dict:
        receipt = charge(5).result()
        answer = t.fl.interrupt("pay?")
        return {"log": [receipt, answer]}

    app = t.compile(build(t, "START>pay pay>END", pay=pay))
    cfg = thread("pay")
    t.invoke(app, {"log": []}, cfg)
    t.invoke(app, t.fl.Command(resume="ok"), cfg, label="resume")


@scenario
def func_task_error_and_retry(t: Trace) -> None:
    """A task that raises fails its entrypoint (an ``__error__`` write each); run again (``None``)
    it runs again. With a ``RetryPolicy`` it is tried again within the run."""

    @t.fl.task
    def flaky(x: int) -> int:
        t.counts["flaky"] += 1
        if t.counts["flaky"] % 2:
            raise ValueError("flaky")
        return x

    policy = t.fl.RetryPolicy(initial_interval=0.0, jitter=False, retry_on=ValueError)

    @t.fl.task(retry_policy=policy)
    def retried(x: int) -> int:
        t.counts["retried"] += 1
        if t.counts["retried"] == 1:
            raise ValueError("once")
        return x + 1

    def once(x: int) -> int:
        return flaky(x).result()

    app = entrypoint_app(t, once)
    cfg = thread("flaky")
    t.invoke(app, 1, cfg)
    t.invoke(app, None, cfg, label="run again")
    app = entrypoint_app(t, lambda x: retried(x).result())
    t.invoke(app, 1, thread("retried"), label="retried")


@scenario
def func_task_cache(t: Trace) -> None:
    """A task with a ``CachePolicy`` under ``@entrypoint(cache=InMemoryCache())``: the same
    arguments on another thread get the cached result (an ``updates`` chunk marked cached)."""

    @t.fl.task(cache_policy=t.fl.CachePolicy())
    def slow_double(x: int) -> int:
        t.counts["slow_double"] += 1
        return 2 * x

    def doubled(x: int) -> int:
        return slow_double(x).result()

    app = entrypoint_app(t, doubled, cache=t.fl.InMemoryCache())
    t.stream(app, 4, thread("first"))
    t.stream(app, 4, thread("second"), label="stream, cached")
    t.stream(app, 5, thread("third"), label="stream, other argument")


@scenario
def func_async_tasks(t: Trace) -> None:
    """An ``async def`` entrypoint awaiting ``async def`` tasks (``await`` one, ``asyncio.gather``
    two) before an interrupt; resumed with ``ainvoke``, none of them runs again."""

    @t.fl.task
    async def fetch(name: str) -> str:
        t.counts[f"fetch {name}"] += 1
        await asyncio.sleep(0)
        return name.upper()

    async def gather(names: list) -> list:
        first = await fetch("first")
        rest = await asyncio.gather(*(fetch(name) for name in names))
        return [first, *rest, t.fl.interrupt("done?")]

    app = entrypoint_app(t, gather)
    cfg = thread("async")
    t.call("ainvoke", lambda: asyncio.run(app.ainvoke(["a", "b"], cfg)))
    t.call("ainvoke resume", lambda: asyncio.run(app.ainvoke(t.fl.Command(resume="yes"), cfg)))


@scenario
def func_entrypoint_and_state_graph_nest(t: Trace) -> None:
    """An entrypoint that invokes a ``StateGraph``, and a ``StateGraph`` node that invokes an
    entrypoint: each inner run is a subgraph of the task that runs it (its own namespace); an
    interrupt inside the inner entrypoint pauses the outer graph, and one resume finishes both."""
    charge = charge_task(t)
    inner_graph = build(t, "START>a a>END").compile()

    def outer_flow(log: list) -> list:
        return inner_graph.invoke({"log": log})["log"] + [charge(1).result()]

    app = entrypoint_app(t, outer_flow)
    t.invoke(app, ["in"], thread("flow-runs-graph"))

    def ask(value: str) -> str:
        receipt = charge(2).result()
        return f"{receipt}, {t.fl.interrupt('inner ok?')}"

    inner_flow = t.fl.entrypoint()(ask)

    def node(state: dict) -> dict:
        return {"log": [inner_flow.invoke(state["log"][-1])]}

    graph = t.compile(build(t, "START>node node>END", node=node))
    cfg = thread("graph-runs-flow")
    t.invoke(graph, {"log": ["in"]}, cfg)
    t.invoke(graph, t.fl.Command(resume="yes"), cfg, label="resume")


@scenario
def func_task_injected_parameters(t: Trace) -> None:
    """A task's ``writer``, ``config``, ``runtime``, ``store`` and ``previous`` parameters are filled
    by name, as LangGraph's ``RunnableCallable`` fills them (even one with a default; one the call
    passes is the call's): from an entrypoint (``previous``: what it saved last) and from a
    ``StateGraph`` node (the run's ``context``, no ``previous``)."""

    @t.fl.task
    def seen(x: int, writer, config, runtime, store, previous) -> dict:
        writer(f"task sees {x}")
        return {
            "thread": config["configurable"]["thread_id"],
            "context": runtime.context,
            "previous": [runtime.previous, previous],
            "store": store,
        }

    @t.fl.task
    def defaults(x: int, writer: t.fl.StreamWriter = None, config=None) -> list:
        return [writer is None, config is None]

    @t.fl.task
    def given(x: int, writer=None) -> Any:
        return writer

    def flow(x: int) -> list:
        return [seen(x).result(), defaults(x).result(), given(x, writer="the call's").result()]

    app = entrypoint_app(t, flow)
    cfg = thread("flow")
    modes = ["custom", "updates"]
    t.stream(app, 1, cfg, stream_mode=modes)
    t.stream(app, 2, cfg, label="stream again (previous)", stream_mode=modes)

    def node(state: dict) -> dict:
        return {"log": [seen(len(state["log"])).result()["context"]]}

    graph = t.compile(build(t, "START>node node>END", node=node))
    t.stream(graph, {"log": []}, thread("graph"), stream_mode=modes, context={"user": "ada"})


@scenario
def stream_tasks_and_debug(t: Trace) -> None:
    """``stream_mode="tasks"``: each task as it starts and as it ends (its writes, its error, its
    interrupts; a ``@task`` call's input and return value), and ``"debug"``: those and the checkpoints,
    wrapped with the step (timestamps dropped here: they differ run to run)."""
    fails = {"b": 1}

    def b(state: dict) -> dict:
        if fails["b"]:
            fails["b"] -= 1
            raise ValueError("b fails once")
        return {"log": ["b"]}

    def ask(state: dict) -> dict:
        return {"log": [t.fl.interrupt("go on?")]}

    graph = t.compile(build(t, "START>a a>b b>ask ask>END", b=b, ask=ask))
    cfg = thread("graph")
    t.stream(graph, {"log": []}, cfg, stream_mode=["tasks", "updates"])
    t.stream(graph, None, cfg, label="stream again", stream_mode="tasks")
    t.stream(graph, t.fl.Command(resume="yes"), cfg, label="resume", stream_mode="tasks")
    charge = charge_task(t)

    def flow(x: int) -> list:
        return [charge(x).result(), t.fl.interrupt("more?")]

    app = entrypoint_app(t, flow)
    flow_cfg = thread("flow")
    t.stream(app, 3, flow_cfg, label="entrypoint", stream_mode="tasks")
    t.stream(app, t.fl.Command(resume=1), flow_cfg, label="entrypoint resumed", stream_mode="tasks")

    def debug_events(app: Any, inp: Any, config: dict) -> list:
        return [
            {k: v for k, v in chunk.items() if k != "timestamp"}
            for chunk in app.stream(inp, config, stream_mode="debug")
        ]

    graph = t.compile(build(t, "START>a a>ask ask>END", ask=ask))
    t.call("debug", debug_events, graph, {"log": []}, thread("debug"))
    t.call("debug resumed", debug_events, graph, t.fl.Command(resume="ok"), thread("debug"))
