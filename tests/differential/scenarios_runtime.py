"""Runtime scenarios of issue 8 ("Fidelity, round two"): how the loop behaves where a learner's
own program meets it: the default stream mode, ``Command`` as input and as a node's return
value, static breakpoints in a stream, async routers, cancellation and streaming order, and the
checks made before a run starts.

Timing never decides a result: where order of arrival matters, a node waits on an ``asyncio``
event that only the *consumer* of the stream can set, with a generous timeout as the fallback
("did the slow node see the fast chunk first?" is then a recorded yes/no, not a clock reading).
"""

import asyncio
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .scenarios import asker, build, scenario
from .trace import Trace, thread

RELEASE_TIMEOUT_S = 5.0  # only reached if a chunk never arrives before its step ends


def run_async(t: Trace, label: str, make: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Record ``asyncio.run(make(*args, **kwargs))`` like any other call (its result, or what it
    raised)."""
    return t.call(label, lambda: asyncio.run(make(*args, **kwargs)))


@contextmanager
def captured_warnings() -> Iterator[list[str]]:
    """The distinct warning messages logged while the block runs (LangGraph and lab both log
    through ``logging``, under different logger names)."""
    seen: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING and record.getMessage() not in seen:
                seen.append(record.getMessage())

    handler = Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield seen
    finally:
        root.removeHandler(handler)


# --- item 1: the default stream mode, invoke(stream_mode=...) -----------------------------------------


@scenario
def stream_default_mode(t: Trace) -> None:
    """``stream`` without ``stream_mode`` yields updates; ``invoke(stream_mode=...)`` returns the
    chunks of that mode as a list ("values" alone still returns the final state)."""
    app = t.compile(build(t, "START>a a>b b>END"))
    t.stream(app, {"log": ["in"]}, thread("default"), label="stream() with no stream_mode")
    for mode in ("updates", ["updates", "values"], "values"):
        tid = mode if isinstance(mode, str) else "+".join(mode)
        t.invoke(app, {"log": ["in"]}, thread(tid), label=f"invoke(stream_mode={mode})", stream_mode=mode)


# --- item 2: Command(resume=..., update=...) --------------------------------------------------------


@scenario
def resume_with_update(t: Trace) -> None:
    """``Command(resume=, update=)`` on an interrupted node applies the update *and* answers the
    question: one resume, the node finishes, ``next=()``."""
    app = t.compile(build(t, "START>a a>ask ask>END", ask=asker(t, "ask", "ok?")))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    command = t.fl.Command(resume="ans", update={"log": ["upd"]})
    t.invoke(app, command, cfg, label="invoke(Command(resume='ans', update=...))")
    t.state(app, cfg)


# --- item 3: Command(goto=Send(...)) from a node -------------------------------------------------------


@scenario
def command_goto_send(t: Trace) -> None:
    """A node returning ``Command(goto=[Send(...)], update=...)`` runs the sent node as a push task
    in the next step; a single ``Send`` (not in a list) does too, and so does a ``Send`` beside a
    node name (whose branch channel gets ``None`` from a node, not ``START``)."""

    def work(state: dict) -> dict:
        t.counts["work"] += 1
        return {"log": [f"work:{state['item']}"]}

    def fan(state: dict) -> Any:
        sends = [t.fl.Send("work", {"item": i}) for i in ("x", "y")]
        return t.fl.Command(goto=sends, update={"log": ["fan"]})

    def one(state: dict) -> Any:
        return t.fl.Command(goto=t.fl.Send("work", {"item": "solo"}), update={"log": ["one"]})

    def mixed(state: dict) -> Any:
        return t.fl.Command(goto=[t.fl.Send("work", {"item": "m"}), "tail"], update={"log": ["mixed"]})

    for name, node in (("fan", fan), ("one", one), ("mixed", mixed)):
        app = t.compile(build(t, f"START>{name} work>END tail>END", **{name: node, "work": work}))
        t.invoke(app, {"log": ["in"]}, thread(name), label=f"invoke [{name}]")


# --- item 4: static breakpoints in a stream -----------------------------------------------------------


@scenario
def breakpoint_in_update_stream(t: Trace) -> None:
    """A static breakpoint (``interrupt_before`` / ``interrupt_after``) ends an "updates" stream with
    an empty ``{'__interrupt__': ()}`` chunk; ``invoke`` still returns no ``__interrupt__`` key."""
    edges = "START>a a>b b>END"
    before = t.compile(build(t, edges), interrupt_before=["b"])
    after = t.compile(build(t, edges), interrupt_after=["a"])
    for app, tid in ((before, "before"), (after, "after")):
        cfg = thread(tid)
        t.stream(app, {"log": ["in"]}, cfg, label=f"stream updates [{tid}]", stream_mode="updates")
        t.stream(app, None, cfg, label=f"resume [{tid}]", stream_mode="updates")
    both = {"stream_mode": ["values", "updates"]}
    t.stream(before, {"log": ["in"]}, thread("both"), label="stream values+updates [before]", **both)
    t.invoke(after, {"log": ["in"]}, thread("invoke"), label="invoke [after]")


# --- item 8: an async router -----------------------------------------------------------------------------


@scenario
def async_router(t: Trace) -> None:
    """An ``async def`` router in ``add_conditional_edges`` is awaited (``ainvoke``)."""

    async def route(state: dict) -> str:
        t.counts["route"] += 1
        return "yes" if "judge" in state["log"] else "no"

    g = build(t, "START>judge yes>END no>END")
    g.add_conditional_edges("judge", route)
    app = t.compile(g)
    cfg = thread()
    run_async(t, "ainvoke", app.ainvoke, {"log": ["in"]}, cfg)
    t.state(app, cfg)


# --- item 9 (runtime part): checks before a run starts -------------------------------------------------


@scenario
def recursion_limit_not_positive(t: Trace) -> None:
    """``recursion_limit`` 0 or below is refused before anything is written (the thread stays empty),
    with or without a checkpointer, for ``invoke`` and ``stream``."""
    app = t.compile(build(t, "START>a a>END"))
    for limit in (0, -1):
        cfg = {**thread(), "recursion_limit": limit}
        t.invoke(app, {"log": ["in"]}, cfg, label=f"invoke recursion_limit={limit}")
    t.stream(app, {"log": ["in"]}, {**thread(), "recursion_limit": 0}, label="stream recursion_limit=0")
    t.state(app, thread())
    plain = t.compile(build(t, "START>a a>END"), checkpointer=False)
    t.invoke(plain, {"log": ["in"]}, {"recursion_limit": 0}, label="invoke without checkpointer")


# --- item 10: a Send to a node that does not exist ---------------------------------------------------------


@scenario
def send_to_unknown_node(t: Trace) -> None:
    """A ``Send`` to an unknown node (from a ``Command`` or a router) is dropped with a warning that
    names the node; the run ends and the thread stays usable for new input."""

    def ghostly(state: dict) -> Any:
        t.counts["ghostly"] += 1
        return t.fl.Command(goto=[t.fl.Send("ghost", {"log": ["boo"]})], update={"log": ["ghostly"]})

    via_command = t.compile(build(t, "START>ghostly", ghostly=ghostly))
    g = build(t, "START>plan")
    g.add_conditional_edges("plan", lambda s: [t.fl.Send("ghost", {"log": ["boo"]})])
    via_router = t.compile(g)
    with captured_warnings() as warned:
        for app, tid in ((via_command, "command"), (via_router, "router")):
            cfg = thread(tid)
            t.invoke(app, {"log": ["in"]}, cfg, label=f"invoke [{tid}]")
            t.invoke(app, None, cfg, label=f"invoke(None) [{tid}]")
            t.invoke(app, {"log": ["again"]}, cfg, label=f"new input [{tid}]")
    t.record("warnings", warned)


# --- items 5-7: cancellation, streaming order -----------------------------------------------------------


class Events:
    """``asyncio`` events made inside the running loop (each scenario run uses a fresh loop)."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def make(self) -> None:
        for name in self.names:
            setattr(self, name, asyncio.Event())


async def wait_released(event: asyncio.Event) -> bool:
    """Wait for the consumer to set ``event``; ``False`` if it never did (the chunk came too late)."""
    try:
        await asyncio.wait_for(event.wait(), RELEASE_TIMEOUT_S)
    except TimeoutError:
        return False
    return True


@scenario
def cancelled_run_keeps_its_progress(t: Trace) -> None:
    """The caller cancels ``ainvoke`` while a node runs: under ``durability="exit"`` the checkpoint
    the run stopped at is still saved (``next=('agent',)``); under "async"/"sync" the running task
    is saved as failed with ``CancelledError()`` and re-runs on ``invoke(None)``."""
    ev = Events("started")

    async def agent(state: dict) -> dict:
        t.counts["agent started"] += 1
        ev.started.set()
        if t.counts["agent started"] % 2:  # every first run hangs until cancelled
            await asyncio.Event().wait()
        return {"log": ["agent"]}

    app = t.compile(build(t, "START>pre pre>agent agent>END", agent=agent))
    for durability in ("exit", "async", "sync"):
        cfg = thread(durability)
        run_async(t, f"cancel ainvoke [{durability}]", cancel_mid_node, app, cfg, durability, ev)
        t.state(app, cfg, label=f"get_state [{durability}]")
        run_async(t, f"ainvoke(None) [{durability}]", app.ainvoke, None, cfg, durability=durability)


async def cancel_mid_node(app: Any, cfg: dict, durability: str, ev: Events) -> str:
    """Start ``ainvoke``, cancel it once the node signalled ``ev.started``, say how it ended."""
    ev.make()
    run = asyncio.ensure_future(app.ainvoke({"log": ["in"]}, cfg, durability=durability))
    await ev.started.wait()
    run.cancel()
    try:
        await run
    except asyncio.CancelledError:
        return "cancelled"
    return "finished"


@scenario
def stream_order_of_arrival(t: Trace) -> None:
    """Two parallel async nodes: the fast node's update arrives while the slow one still runs (the
    slow node waits for the consumer to see it). Closing the stream after that first chunk cancels
    the slow task: state ``{fast's write}``, ``next=('slow',)``, its ``__error__`` is
    ``CancelledError()``."""
    ev = Events("seen_fast")

    async def fast(state: dict) -> dict:
        t.counts["fast"] += 1
        return {"log": ["fast"]}

    async def slow(state: dict) -> dict:
        released = await wait_released(ev.seen_fast)
        t.counts[f"slow released by the consumer: {released}"] += 1
        return {"log": ["slow"]}

    app = t.compile(build(t, "START>fast START>slow fast>END slow>END", fast=fast, slow=slow))

    async def consume(cfg: dict, stop_after_first: bool) -> list:
        ev.make()
        chunks = []
        stream = app.astream({"log": ["in"]}, cfg, stream_mode="updates")
        async for chunk in stream:
            chunks.append(chunk)
            if "fast" in chunk:
                if stop_after_first:
                    break
                ev.seen_fast.set()
        await stream.aclose()
        return chunks

    run_async(t, "astream updates", consume, thread("all"), stop_after_first=False)
    closed = thread("closed")
    run_async(t, "astream, closed after the first chunk", consume, closed, stop_after_first=True)
    t.state(app, closed)


@scenario
def node_raises_cancelled(t: Trace) -> None:
    """A node that raises ``asyncio.CancelledError`` itself fails like any node:
    ``NodeCancelledError``, its ``__error__`` saved, checkpoints kept, ``next=('node',)``."""

    async def node(state: dict) -> dict:
        t.counts["node"] += 1
        raise asyncio.CancelledError()

    app = t.compile(build(t, "START>pre pre>node node>END", node=node))
    cfg = thread()
    run_async(t, "ainvoke", app.ainvoke, {"log": ["in"]}, cfg)
    t.state(app, cfg)
    run_async(t, "ainvoke(None): runs again", app.ainvoke, None, cfg)
