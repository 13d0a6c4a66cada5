"""The script's calls of the program's graph, answered by the lab's controller as LangGraph answers them.

:mod:`lab.playground.script` compiles a program's script with each call of a graph method routed
here; :class:`ScriptCalls` answers a call on the program's graph as LangGraph's own method would:

- ``invoke`` (``ainvoke``): the controller's ``invoke`` command on the script's thread, a run the
  page's instruments follow, then the thread's values, as ``invoke`` returns them;
- ``stream`` (``astream``): the same run, its chunks handed to the script as the run makes them
  (``stream_mode`` as LangGraph reads it, ``"updates"`` by default): the run drives the graph's
  ``astream`` (:func:`streamed`), so a ``for chunk in graph.stream(...)`` loop's body runs between
  super-steps, as LangGraph's generator lets it; a loop that stops early (``break``) closes the
  stream, and the run stops at the chunk it yielded, as LangGraph's closed generator stops it;
- a run that fails raises the node's own exception in the script (:func:`raised_by`), as
  LangGraph's ``invoke`` does;
- ``get_state`` / ``update_state`` (and their ``a`` twins): the lab graph's ``aget_state`` /
  ``aupdate_state`` on that thread.

Each thread id of the script is a thread of the lab's own (``<id>-<6 hex>``): a second run of the
script starts its conversation afresh, while the lab keeps the first one's checkpoints. A graph the
program compiled without a checkpointer is called without a thread; the lab (which always saves)
gives each such call a thread of its own (``call-<n>-<6 hex>``).

**Stepping through the script** (:class:`ScriptPace`): the learner chooses how far the script goes
before it waits: to its end, to its next graph call (each call is one step of an outer list: "call 2
of 3: graph.invoke(...) at line 14"), or one super-step at a time inside a call (the run is started
with the lab's Step, ``until="step"``, and released with ``step`` again, as the lab's Step button
does). A crash armed meanwhile kills the process as in any run.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from inspect import isawaitable
from typing import Any, Protocol

from lab.controller import thread_reading as read
from lab.controller.run_driver import StreamClosed
from lab.func import EntrypointGraph
from lab.graph import CompiledStateGraph

__all__ = [
    "GRAPH_METHODS",
    "PACES",
    "STREAMS",
    "ScriptCalls",
    "ScriptFailed",
    "ScriptPace",
    "raised_by",
    "streamed",
]

GRAPH_METHODS = {
    "invoke": "invoke",
    "ainvoke": "invoke",
    "stream": "stream",
    "astream": "stream",
    "get_state": "get_state",
    "aget_state": "get_state",
    "update_state": "update_state",
    "aupdate_state": "update_state",
    "get_state_history": "get_state_history",
    "aget_state_history": "get_state_history",
}
"""The graph methods a script may call, by the call that answers each."""
AWAITED_BY_PROGRAM = frozenset({"ainvoke", "aget_state", "aupdate_state"})
"""The methods the program awaits itself (``await graph.ainvoke(...)``)."""
STREAMS = frozenset({"stream", "astream"})
ITERATED = STREAMS | {"get_state_history", "aget_state_history"}
"""The methods a ``for`` (``async for``) iterates."""
PACES = ("end", "call", "step")
"""How far the script goes before it waits: its end, its next graph call, the next super-step."""
NO_THREAD = (
    "Checkpointer requires one or more of the following 'configurable' keys: thread_id, checkpoint_ns, "
    "checkpoint_id"
)
"""LangGraph's words when a graph with a checkpointer is called without a thread."""

Site = tuple[int, str, tuple[str, ...] | None]
"""Where a call is written: its line, the call as written, the targets of all the script's calls if
each runs once (:mod:`lab.playground.script`)."""


class Controller(Protocol):
    """The lab's controller as the script's calls need it."""

    state: Any

    async def dispatch(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]: ...


class ScriptFailed(Exception):
    """A run the script started failed, and not with an exception of the program's graph (the
    controller refused the command): the script stops there."""


class ScriptPace:
    """Where the script waits for the learner. ``pace``: ``"end"`` (it never waits), ``"call"``
    (before each graph call), ``"step"`` (there, and at each super-step inside a call). While it
    waits, ``waiting`` says where and ``stopped`` is settled with it."""

    def __init__(self, pace: str = "end") -> None:
        self.pace = checked(pace)
        self.waiting: dict[str, Any] | None = None
        self.stopped: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._go = asyncio.Event()

    async def wait_at(self, where: dict[str, Any]) -> None:
        """Wait here until the learner lets the script go on (:meth:`go`)."""
        self.waiting, self._go = where, asyncio.Event()
        if not self.stopped.done():
            self.stopped.set_result(where)
        await self._go.wait()
        self.waiting = None

    def go(self, pace: str) -> None:
        if self.waiting is None:
            raise ValueError("the script is not waiting: it runs, or it has ended")
        self.pace = checked(pace)
        self.stopped = asyncio.get_running_loop().create_future()
        self._go.set()


def checked(pace: str) -> str:
    if pace not in PACES:
        raise ValueError(f"'pace' must be one of {', '.join(PACES)}, got {pace!r}")
    return pace


class ScriptCalls:
    """The script's calls of the program's graph, answered by the lab's controller (see the module
    docstring); a call on any other object is that object's own."""

    def __init__(
        self,
        controller: Controller,
        graph: CompiledStateGraph,
        durability: str = "async",
        pace: ScriptPace | None = None,
    ) -> None:
        self.controller = controller
        self.graph = graph  # the program's own graph: the object the script calls
        self.durability = durability  # the lab threads' (the page's choice)
        self.pace = pace or ScriptPace()
        self.namespace: dict[str, Any] = {}  # the program's module (what the call sites' targets name)
        self.threads: dict[str, str] = {}  # the script's thread id -> the lab's
        self.runs = 0
        self.calls = 0  # graph calls made so far
        self.where: dict[str, Any] = {}  # the graph call being made
        self.raised: Exception | None = None  # what the last failing run raised (a node's exception)

    async def __call__(self, site: Site, target: Any, method: str, /, *args: Any, **kwargs: Any) -> Any:
        if target is not self.graph:
            result = getattr(target, method)(*args, **kwargs)
            return await result if isawaitable(result) else result
        await self.reach(site)
        answer: Callable[..., Any] = getattr(self, GRAPH_METHODS[method])
        return await answer(*args, **kwargs)

    def stream_of(
        self, site: Site, target: Any, method: str, /, *args: Any, **kwargs: Any
    ) -> contextlib.aclosing[AsyncIterator[Any]]:
        """``for chunk in target.stream(...)``: the run's chunks as they come; ``for snapshot in
        target.get_state_history(...)``: the lab thread's checkpoints (another object's own). Closed
        when the loop ends, however it ends (``async with``: :mod:`lab.playground.script`)."""
        if target is not self.graph:
            items = each_of(getattr(target, method)(*args, **kwargs))
        elif method in STREAMS:
            items = self.chunks(site, *args, **kwargs)
        else:
            items = self.history(site, *args, **kwargs)
        return contextlib.aclosing(items)

    async def reach(self, site: Site) -> None:
        """The script is about to make its next graph call, at ``site``: wait there if stepping."""
        line, text, counted = site
        self.calls += 1
        total = None if counted is None else sum(self.namespace.get(name) is self.graph for name in counted)
        self.where = {"call": self.calls, "total": total, "line": line, "text": text}
        if self.pace.pace != "end":
            await self.pace.wait_at({**self.where, "at": "call"})

    async def command(self, name: str, **args: Any) -> dict[str, Any]:
        answer = await self.controller.dispatch(name, args)
        if not answer["ok"]:
            raise ScriptFailed(answer["error"]["message"])
        return answer["result"]

    async def thread(self, config: dict[str, Any] | None) -> dict[str, Any]:
        """Open the lab's thread for the script's ``config`` (started at its first call); its config."""
        thread = ((config or {}).get("configurable") or {}).get("thread_id")
        if thread is None and self.graph.checkpointer is not None:
            raise ValueError(NO_THREAD)
        if thread is None:  # a graph without a checkpointer: each call a thread of its own
            thread = f"call-{self.calls}"
        lab_thread = self.threads.get(str(thread))
        if lab_thread is None:
            lab_thread = self.threads[str(thread)] = f"{thread}-{uuid.uuid4().hex[:6]}"
            await self.command("start", case_id="default", thread_id=lab_thread, durability=self.durability)
        elif self.controller.state.session.thread_id != lab_thread:
            await self.command("open", thread_id=lab_thread)
        return {"configurable": {"thread_id": lab_thread}}

    def lab_graph(self) -> CompiledStateGraph:
        return read.graph(self.controller)  # type: ignore[arg-type]

    async def run(
        self, input: Any, config: dict[str, Any] | None, durability: str | None = None
    ) -> dict[str, Any]:
        """One run of the lab's thread from ``input`` (waiting at each super-step if stepping); the
        thread's config."""
        lab_config = await self.thread(config)
        with raised_by(self.lab_graph()) as raised:
            until = "step" if self.pace.pace == "step" else "end"
            outcome = await self.command("invoke", input=input, until=until, durability=durability)
            while outcome["status"] == "paused":
                where = {**self.where, "at": "step", "step": outcome["step"], "next": outcome["next"]}
                await self.pace.wait_at(where)
                outcome = await self.command("step" if self.pace.pace == "step" else "run")
        self.runs += 1
        if outcome["status"] == "error":
            self.raised = raised[0] if raised else ScriptFailed(outcome["error"]["message"])
            raise self.raised
        return lab_config

    async def invoke(
        self, input: Any, config: dict[str, Any] | None = None, *, durability: str | None = None, **_: Any
    ) -> Any:
        lab_config = await self.run(input, config, durability)
        snapshot = await self.lab_graph().aget_state(lab_config)
        interrupts = {"__interrupt__": list(snapshot.interrupts)} if snapshot.interrupts else {}
        if isinstance(self.graph, EntrypointGraph):  # what its function returned, or only the interrupts
            return interrupts or snapshot.values
        return {**snapshot.values, **interrupts}

    async def chunks(
        self, site: Site, input: Any, config: dict[str, Any] | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """``for chunk in graph.stream(...)``: wait at the call if stepping, then its run's chunks."""
        await self.reach(site)
        async with contextlib.aclosing(self.run_chunks(input, config, **kwargs)) as chunks:
            async for chunk in chunks:
                yield chunk

    async def run_chunks(
        self, input: Any, config: dict[str, Any] | None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """The chunks of one run, each as soon as the run makes it; as LangGraph's generator, the run
        waits at each chunk until the script asks for the next one, and stops there if the script
        stops asking (the generator closed: ``break``)."""
        chunks: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        asked = asyncio.Event()  # the script asked for the next chunk (or stopped asking)
        closed = False  # the script stopped asking
        mode, subgraphs = kwargs.get("stream_mode", "updates"), bool(kwargs.get("subgraphs"))

        async def hand_over(chunk: Any) -> None:
            asked.clear()
            chunks.put_nowait((chunk,))
            await asked.wait()
            if closed:
                raise StreamClosed

        async def drive() -> None:
            await self.thread(config)  # (the lab's graph is the open thread's)
            with streamed(self.lab_graph(), mode, subgraphs, hand_over):
                await self.run(input, config, kwargs.get("durability"))

        run = asyncio.ensure_future(drive())
        run.add_done_callback(lambda _: chunks.put_nowait(()))  # the end of the chunks
        try:
            while True:
                asked.set()
                item = await chunks.get()
                if not item:
                    break
                yield item[0]
        except GeneratorExit:  # the loop stopped early (``break``): the run stops at the chunk it holds
            closed = True
            asked.set()
            await run
            raise
        finally:
            asked.set()  # (a script dropped while it waits leaves its run to the lab)
        await run  # (what stopped the run, if it failed)

    async def stream(self, input: Any, config: dict[str, Any] | None = None, **kwargs: Any) -> list[Any]:
        """``graph.stream(...)`` not iterated by a ``for`` (``list(graph.stream(...))``): all its chunks."""
        return [chunk async for chunk in self.run_chunks(input, config, **kwargs)]

    async def get_state(self, config: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        lab_config = await self.thread(config)
        return await self.lab_graph().aget_state(lab_config, **kwargs)

    async def get_state_history(self, config: dict[str, Any] | None = None, **kwargs: Any) -> list[Any]:
        lab_config = await self.thread(config)
        return [snapshot async for snapshot in self.lab_graph().aget_state_history(lab_config, **kwargs)]

    async def history(
        self, site: Site, config: dict[str, Any] | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """``for snapshot in graph.get_state_history(config)``: wait at the call if stepping, then them."""
        await self.reach(site)
        for snapshot in await self.get_state_history(config, **kwargs):
            yield snapshot

    async def update_state(
        self, config: dict[str, Any] | None, values: Any, as_node: str | None = None
    ) -> Any:
        lab_config = await self.thread(config)
        return await self.lab_graph().aupdate_state(lab_config, values, as_node=as_node)


async def each_of(chunks: Any) -> AsyncIterator[Any]:
    """Another object's ``stream(...)`` (an iterator, or an async one), as an async iterator."""
    if hasattr(chunks, "__aiter__"):
        async for chunk in chunks:
            yield chunk
    else:
        for chunk in chunks:
            yield chunk


@contextlib.contextmanager
def raised_by(graph: CompiledStateGraph) -> Iterator[list[Exception]]:
    """While the block runs, what the run the controller starts on ``graph`` raises is kept in the
    list: the script gets the node's own exception, as LangGraph's ``invoke`` raises it (so a
    script's ``except ConnectionError:`` catches a node's ``ConnectionError``)."""
    ainvoke, raised = graph.ainvoke, []

    async def watched(*args: Any, **kwargs: Any) -> Any:
        try:
            return await ainvoke(*args, **kwargs)
        except Exception as error:
            raised.append(error)
            raise

    graph.ainvoke = watched  # type: ignore[method-assign]
    try:
        yield raised
    finally:
        graph.ainvoke = ainvoke  # type: ignore[method-assign]


@contextlib.contextmanager
def streamed(
    graph: CompiledStateGraph,
    mode: str | list[str],
    subgraphs: bool,
    tell: Callable[[Any], Awaitable[None]],
) -> Iterator[None]:
    """While the block runs, the run the controller starts on ``graph`` (its ``ainvoke``) reads the
    graph's ``astream`` and tells each chunk of ``mode`` to ``tell`` (awaited) as it comes, shaped as
    ``stream(..., stream_mode=mode, subgraphs=subgraphs)`` yields it (``tell`` raising closes the
    ``astream`` there, as closing LangGraph's generator does); the run still answers what
    ``ainvoke`` would (the values, with ``__interrupt__``), through the graph's own ``ainvoke`` (so a
    failing node is still located in the program: :mod:`lab.playground.session`)."""
    ainvoke, astream = graph.ainvoke, graph.astream
    modes = [mode] if isinstance(mode, str) else list(mode)
    every = [*modes, *(own for own in ("values", "updates") if own not in modes)]

    def shaped(namespace: tuple[str, ...], chunk_mode: str, chunk: Any) -> Any:
        parts = (chunk,) if isinstance(mode, str) else (chunk_mode, chunk)
        parts = (namespace, *parts) if subgraphs else parts
        return parts[0] if len(parts) == 1 else parts

    async def tapped(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async with contextlib.aclosing(astream(*args, **kwargs)) as items:  # (closed if ``tell`` raises)
            async for item in items:
                namespace, chunk_mode, chunk = item if subgraphs else ((), *item)
                if chunk_mode in modes:
                    await tell(shaped(namespace, chunk_mode, chunk))
                yield item

    async def invoked(request: Any, config: Any, **options: Any) -> Any:
        items = await ainvoke(request, config, stream_mode=every, subgraphs=subgraphs, **options)
        values: Any = {}
        asked: list[Any] = []
        for item in items:
            namespace, chunk_mode, chunk = item if subgraphs else ((), *item)
            if namespace:
                continue
            if chunk_mode == "values" and isinstance(chunk, dict):
                values = {key: value for key, value in chunk.items() if key != "__interrupt__"}
            elif chunk_mode == "values":  # an entrypoint's: what its function returned
                values = chunk
            elif chunk_mode == "updates" and "__interrupt__" in chunk:
                asked.extend(chunk["__interrupt__"])
        if not asked:
            return values
        return {**values, "__interrupt__": asked} if isinstance(values, dict) else {"__interrupt__": asked}

    graph.astream, graph.ainvoke = tapped, invoked  # type: ignore[method-assign]
    try:
        yield
    finally:
        del graph.astream
        graph.ainvoke = ainvoke  # type: ignore[method-assign]
