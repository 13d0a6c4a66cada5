"""The sync API over the async loop: ``invoke``, ``stream``, ``get_state``... run to the end here.

No LangGraph concept: LangGraph's sync API runs its nodes on threads; the lab's loop is ``async``
(the browser has no threads and IndexedDB is asynchronous), so its sync methods drive a coroutine
to the end themselves (``run_sync``):

- with no event loop running (a script on CPython), on the thread's own private loop;
- inside a running loop - a plain ``def`` node that calls ``sub.invoke(...)``, a notebook, a
  program run in the browser's worker - on a :class:`SyncLoop` of its own, with the running loop
  (and its current task) set aside until the call returns. That works whenever the call needs
  nothing from outside Python but timers and its own threads (``asyncio.to_thread``), which holds
  for the in-memory saver. When it would have to wait for the loop it interrupted (an async saver's
  I/O such as IndexedDB, which the browser answers through that loop), it never could:
  :class:`WouldBlockError` names the async twin to use instead.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Iterator
from contextlib import closing, contextmanager, suppress
from typing import Any, TypeVar

from lab.pregel.sync_saver import SYNC_API

T = TypeVar("T")

ASYNC_TWINS = "ainvoke, astream, aget_state, aget_state_history, aupdate_state, abulk_update_state"


class WouldBlockError(RuntimeError):
    """A sync call inside a running event loop waited for something only that loop can deliver."""

    def __init__(self) -> None:
        super().__init__(
            "This sync call runs inside a running event loop (the browser, Jupyter, a node of a "
            "running graph), so lab ran it on a loop of its own, but it waits for something only "
            "the running loop can deliver (an async saver's I/O, such as IndexedDB's in the "
            f"browser). Use the async twin instead ({ASYNC_TWINS}): for a subgraph, call "
            "`await sub.ainvoke(...)` from an `async def` node, or add the compiled subgraph as a node."
        )


class _NoIO:
    """The selector of a :class:`SyncLoop`: no I/O to wait for, only timers and its own threads."""

    def __init__(self) -> None:
        self.threads = 0  # ``run_in_executor`` jobs not finished yet
        self.woken = threading.Event()  # set by a thread's ``call_soon_threadsafe``

    def select(self, timeout: float | None) -> list[Any]:
        if timeout is None:  # nothing ready, no timer
            if not self.threads:  # only the outside world could wake us
                raise WouldBlockError()
            self.woken.wait()
        elif timeout > 0:
            self.woken.wait(timeout)  # ``asyncio.sleep`` in a node: the sync call blocks, as it says
        self.woken.clear()
        return []


class SyncLoop(asyncio.BaseEventLoop):
    """A pure-Python event loop for a sync call made inside a running one (no selector): it runs
    ready callbacks, timers and its own threads' work, and raises ``WouldBlockError`` instead of
    waiting for anything else."""

    def __init__(self) -> None:
        super().__init__()
        self._selector = _NoIO()

    def run_in_executor(self, executor: Any, func: Any, *args: Any) -> asyncio.Future[Any]:
        self._selector.threads += 1
        done = super().run_in_executor(executor, func, *args)
        done.add_done_callback(self._thread_done)
        return done

    def _thread_done(self, _: asyncio.Future[Any]) -> None:
        self._selector.threads -= 1

    def _process_events(self, event_list: list[Any]) -> None:
        pass

    def _write_to_self(self) -> None:
        self._selector.woken.set()


@contextmanager
def outer_loop_set_aside() -> Iterator[None]:
    """Make it look, for the duration of the block, as if no event loop were running here: the
    running loop and its current task are put back afterwards."""
    outer = asyncio._get_running_loop()
    task = asyncio.current_task(outer) if outer is not None else None
    if task is not None:
        asyncio.tasks._leave_task(outer, task)
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(outer)
        if task is not None:
            asyncio.tasks._enter_task(outer, task)


_local = threading.local()


def _thread_loop() -> asyncio.AbstractEventLoop:
    loop = getattr(_local, "loop", None)
    if loop is None or loop.is_closed():
        loop = _local.loop = asyncio.new_event_loop()
    return loop


def run_sync(awaitable: Awaitable[T], loop: asyncio.AbstractEventLoop | None = None) -> T:
    """Run ``awaitable`` to the end and return its result (see the module docstring), with
    ``SYNC_API`` set: the run reaches savers through their sync methods (``lab.pregel.sync_saver``)."""
    token = SYNC_API.set(True)
    try:
        return _run_to_end(awaitable, loop)
    finally:
        SYNC_API.reset(token)


def _run_to_end(awaitable: Awaitable[T], loop: asyncio.AbstractEventLoop | None) -> T:
    if loop is None:
        if asyncio._get_running_loop() is None:
            return run_until_complete(_thread_loop(), awaitable)
        with closing(SyncLoop()) as own:
            return _run_to_end(awaitable, own)
    if not isinstance(loop, SyncLoop):
        return run_until_complete(loop, awaitable)
    running = asyncio.ensure_future(awaitable, loop=loop)
    with outer_loop_set_aside():
        try:
            return run_until_complete(loop, running)
        except WouldBlockError:
            _abandon(loop, running)
            raise


def run_until_complete(loop: asyncio.AbstractEventLoop, awaitable: Awaitable[T]) -> T:
    """``loop.run_until_complete(awaitable)`` in fewer turns of the loop: the same task, and the same
    loop state while it runs (the running loop, the async generator hooks), but each turn first polls
    the OS for I/O (a system call), and most runs never wait for any. So the task's first step runs at
    once when nothing else is ready, and once the task is done, one last turn runs whatever it left
    pending (its done callbacks, timers), as ``run_until_complete``'s stopping turn does, and only
    then (what that saves: ``bench/RESULTS.md``). Only on loops whose ``run_forever`` is asyncio's
    own, outside debug mode; any other loop runs it itself."""
    if type(loop) not in PLAIN_LOOPS or loop.get_debug():
        return loop.run_until_complete(awaitable)
    loop._check_closed()
    loop._check_running()
    new_task = not asyncio.isfuture(awaitable)
    task = asyncio.ensure_future(awaitable, loop=loop)
    if new_task:
        task._log_destroy_pending = False  # (as run_until_complete: its error reaches the caller)
    hooks = sys.get_asyncgen_hooks()
    loop._thread_id = threading.get_ident()
    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook, finalizer=loop._asyncgen_finalizer_hook)
    asyncio._set_running_loop(loop)
    try:
        if len(loop._ready) == 1:  # only the task's first step is ready: no need to poll first
            loop._ready.popleft()._run()
        while not task.done() and not loop._stopping:  # (``_stopping``: someone called ``loop.stop()``)
            loop._run_once()
        if (loop._ready or loop._scheduled) and not loop._stopping:
            loop._stopping = True  # (so this last turn waits for no timer)
            loop._run_once()
    except BaseException:
        if new_task and task.done() and not task.cancelled():
            task.exception()  # retrieved: the caller gets it, no "never retrieved" warning
        raise
    finally:
        loop._stopping = False
        loop._thread_id = None
        asyncio._set_running_loop(None)
        sys.set_asyncgen_hooks(*hooks)
    if not task.done():
        raise RuntimeError("Event loop stopped before Future completed.")
    return task.result()


PLAIN_LOOPS = (asyncio.SelectorEventLoop, SyncLoop)
"""The loops ``run_until_complete`` drives itself (their ``run_forever`` is ``BaseEventLoop``'s)."""


def iterate_sync(chunks: AsyncIterator[T]) -> Iterator[T]:
    """Drive an async iterator from sync code, one item per ``next()``, all on one loop."""
    inside = asyncio._get_running_loop() is not None
    loop = SyncLoop() if inside else _thread_loop()
    try:
        while True:
            try:
                yield run_sync(chunks.__anext__(), loop)
            except StopAsyncIteration:
                return
    finally:
        run_sync(chunks.aclose(), loop)
        if inside:
            loop.close()


def _abandon(loop: SyncLoop, running: asyncio.Future[Any]) -> None:
    """Cancel a call that would block, letting its ``finally`` blocks run as far as they can."""
    running.cancel()
    with suppress(WouldBlockError):  # its clean-up waits too: leave it
        loop.run_until_complete(asyncio.gather(running, return_exceptions=True))
