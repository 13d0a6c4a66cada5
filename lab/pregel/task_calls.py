"""Tasks a running node starts by calling a ``@task`` function: LangGraph's *call* push tasks.

A node (a ``StateGraph`` node, or an ``@entrypoint``) that calls ``charge(100)`` starts a task of
the same super-step, and gets a future of its result. The task is a ``Task`` like the node's own:

- its id is derived like a ``Send``'s (``__pregel_push``) from the checkpoint the step started
  from, the step, the task's name, the *path of the task that called it* and the call's index
  among that caller's calls (0, 1, 2...). A node that runs again (after an interrupt, a crash)
  and makes the same calls in the same order makes the same ids;
- what it returned is saved at once as a pending write ``("__return__", value)`` of that id
  (an ``__error__`` or ``__interrupt__`` if it raised or paused). A task whose result is saved
  does not run again: the node gets the saved value back. That is LangGraph's advice for side
  effects: wrap them in a task, and a node that re-runs from its top does not repeat them;
- ``interrupt()`` inside a task pauses the task (its own question id), and the node that called it
  pauses with it.

The lab's seam hook (``on_seam=``, see ``lab.pregel.loop``) hears ``task_call`` at each call: the
task runs now, or its saved result is given back (``restored``); its ``put_writes`` follows once its
result is saved. (LangGraph has no such hook: its ``debug`` stream is the closest.)

**How the lab runs them.** LangGraph runs a sync task on a thread, so a plain ``def`` node can
block on ``.result()``; the lab has no threads (Pyodide), and its nodes run on the event loop. So:

- called from a plain ``def`` (a sync node, entrypoint or task), a task runs *right there, at the
  call*, to the end; ``.result()`` then only reads the outcome. Its write is saved at once when the
  saver answers without waiting (the in-memory saver); a saver that waits for I/O (IndexedDB)
  finishes the save on the event loop, and the node's task waits for it before it ends (``settle``).
  Sync tasks called one after another therefore run one after another, never side by side;
- an ``async def`` task called from an ``async def`` runs as an asyncio task of its own (side by side
  with its siblings); the caller ``await``-s it (or ``asyncio.gather``-s several). A plain ``def``
  task runs at its call whoever calls it: it could not run beside anything anyway.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from lab.checkpoint.base import ERROR, INTERRUPT, RESUME
from lab.config import await_with, run_with
from lab.errors import GraphInterrupt, ParentCommand
from lab.pregel import algo, subgraph
from lab.pregel.ids import task_id
from lab.pregel.nodes import PUSH, is_async
from lab.pregel.sync_saver import SYNC_API
from lab.pregel.task import Task, running_task
from lab.types import CachePolicy, RetryPolicy

try:
    from xxhash import xxh3_128_hexdigest
except ImportError:  # (Pyodide: no xxhash wheel is loaded)
    from lab.pregel.xxh3 import xxh3_128_hexdigest

RETURN = "__return__"
"""The pending write that holds a task's return value."""
TASK_CALL = "task_call"
"""The seam a called task reports as it starts, or as its saved result is given back (``restored``)."""
CALL_TRIGGERS = (PUSH,)
"""What a task "was triggered by" (its config's ``langgraph_triggers``), as LangGraph's ``PUSH_TRIGGER``."""
CACHE_NS_WRITES = "__pregel_ns_writes"
"""The cache namespace of task results (one per task function)."""
NOT_RETRIED = (GraphInterrupt, ParentCommand)
"""Raised to pause or to steer, not because the task failed: never retried."""


class Calls:
    """The calls one running task made: how many (the index of the next one) and what is still in
    flight that the node's task waits for before it ends: saves a sync call started (``saving``)
    and async tasks still running (``running``)."""

    __slots__ = ("count", "is_async", "running", "saving")

    def __init__(self, is_async: bool, caller: Calls | None = None) -> None:
        self.count = 0
        self.is_async = is_async
        """Is the function making the calls an ``async def``? (It decides how a call runs.)"""
        self.saving: list[asyncio.Future[Any]] = caller.saving if caller else []
        self.running: list[asyncio.Future[Any]] = caller.running if caller else []
        """Both shared by a node's task and every task it called: the node's task settles them all."""

    def next_index(self) -> int:
        index = self.count
        self.count += 1
        return index

    async def settle(self) -> None:
        """Wait for everything still in flight (the calling node is done or stopped). A save that
        failed fails the node's task (the process died, a value could not be saved); a running
        task's failure is its own, already handed to whoever awaited it."""
        while self.saving or self.running:
            running, saving = list(self.running), list(self.saving)
            self.running.clear()
            self.saving.clear()
            await asyncio.gather(*running, return_exceptions=True)
            for outcome in await asyncio.gather(*saving, return_exceptions=True):
                if isinstance(outcome, BaseException):
                    raise outcome


def call(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    name: str,
    retry_policy: Sequence[RetryPolicy],
    cache_policy: CachePolicy | None,
) -> Any:
    """Start task ``name`` (``func(*args, **kwargs)``) from the running node or task; its future."""
    caller = running_task()
    loop = caller.lender if caller is not None else None
    if loop is None:
        raise RuntimeError("Called get_config outside of a runnable context")
    calls = calls_of(caller, loop)
    if is_async(func) and not calls.is_async and SYNC_API.get():
        raise RuntimeError("In an sync context async tasks cannot be called")
    child = new_task(loop, caller, calls, name, (args, kwargs))
    loop.stream.task_start(child, loop.step)
    child.calls = Calls(is_async(func), calls)
    job = Job(loop, child, func, retry_policy, cache_policy)
    saved = saved_outcome(child, loop.pending)
    if saved is None and calls.is_async and is_async(func):  # side by side with its siblings
        running = asyncio.ensure_future(job.run_async(announced=tell_lab(loop, caller, child, False)))
        calls.running.append(running)
        return running
    if (told := tell_lab(loop, caller, child, saved is not None)) is not None:
        start_eagerly(told, calls.saving)  # (sync code: as far as it goes now, the rest before the node ends)
    # a sync function runs here and now (nothing could run beside it); its future is done already
    future = asyncio.get_running_loop().create_future() if calls.is_async else concurrent.futures.Future()
    return resolved(future, saved if saved is not None else job.run_now())


def tell_lab(loop: Any, caller: Task, child: Task, restored: bool) -> Coroutine[Any, Any, None] | None:
    """The seam ``task_call`` for the lab's hook, if there is one: ``child`` runs now, or (``restored``)
    its result came back from the checkpoint's pending writes and it does not run."""
    if loop.on_seam is None:
        return None
    return loop.report(TASK_CALL, child, caller=caller.name, caller_task_id=caller.id, restored=restored)


def calls_of(caller: Task, loop: Any) -> Calls:
    """The caller's ``Calls``, made at its first call (a node's: async if its function is)."""
    if caller.calls is None:
        caller.calls = Calls(loop.graph.nodes[caller.name].is_async)
    return caller.calls


def new_task(loop: Any, caller: Task, calls: Calls, name: str, arguments: Any) -> Task:
    """The called task, with its deterministic id, its answers to ``interrupt()``, and its place
    among the step's tasks (its writes are applied with theirs)."""
    index = calls.next_index()
    parts = (path_text(caller.path), str(index))
    tid = task_id(loop.checkpoint["id"], loop.step, name, PUSH, parts, caller.namespace)
    child = Task(tid, name, CALL_TRIGGERS, arguments, (PUSH, caller.path, index, True))
    child.graph_namespace = caller.namespace  # (its namespace is under its caller's: "flow:<id>|step:<id>")
    child.lender = loop
    algo.give_answers(child, loop.pending, loop.resume_map)
    if loop.parent is not None:  # an answer the root was given may be for an interrupt in here
        child.take_fresh_answer = subgraph.or_from(child.take_fresh_answer, loop.parent.task)
    loop.tasks[tid] = child
    return child


def path_text(path: Any) -> str:
    """A task path as LangGraph hashes it into a called task's id (a ``True`` counts as ``1``)."""
    if isinstance(path, tuple | list):
        return "~" + ", ".join(path_text(p) for p in path)
    return f"{path:010d}" if isinstance(path, int) else str(path)


# -- outcomes ---------------------------------------------------------------------------------------


class Outcome:
    """How a task ended: its return ``value``, or the ``error`` it raised (an interrupt included);
    ``cached``: the value came from the cache, the task did not run."""

    __slots__ = ("cached", "error", "value")

    def __init__(
        self, value: Any = None, error: BaseException | None = None, *, cached: bool = False
    ) -> None:
        self.value = value
        self.error = error
        self.cached = cached


def saved_outcome(child: Task, pending: list[algo.PendingWrite]) -> Outcome | None:
    """The outcome the checkpoint holds for this task, if it finished before (it does not run again)."""
    status = algo.task_statuses(pending).get(child.id)
    if status is None or not status.finished:
        return None
    child.writes.extend(status.output)
    return Outcome(next((v for c, v in status.output if c == RETURN), None))


def resolved(future: Any, outcome: Outcome) -> Any:
    if outcome.error is not None:
        future.set_exception(outcome.error)
    else:
        future.set_result(outcome.value)
    return future


def cache_key(
    func: Callable[..., Any], policy: CachePolicy | None, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[str, str], str] | None:
    """Where the task's result is cached (``None``: no cache policy): its function's namespace, and
    a hash of what ``policy.key_func`` makes of the arguments."""
    if policy is None:
        return None
    return (CACHE_NS_WRITES, identifier(func)), hashed(policy.key_func(*args, **kwargs))


def hashed(key: str | bytes) -> str:
    """The hash a cache entry is found by: of what a cache policy's ``key_func`` made of the input."""
    return xxh3_128_hexdigest(key.encode() if isinstance(key, str) else key)


def identifier(func: Callable[..., Any]) -> str:
    """``module.qualname`` of a task function (its cache namespace)."""
    module = getattr(func, "__module__", None)
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", None)
    return f"{module}.{name}" if module and name else "__dynamic__"


# -- running --------------------------------------------------------------------------------------


class Job:
    """One called task to run: the sync way (``run_now``) or the async way (``run_async``)."""

    def __init__(
        self,
        loop: Any,
        child: Task,
        func: Callable[..., Any],
        retry_policy: Sequence[RetryPolicy],
        cache_policy: CachePolicy | None,
    ) -> None:
        self.loop = loop
        self.child = child
        self.func = func
        self.retry_policy = retry_policy
        self.cache = getattr(loop.graph, "cache", None) if cache_policy is not None else None
        """The entrypoint's cache, when this task has a cache policy (``None``: no caching)."""
        self.ttl = cache_policy.ttl if cache_policy is not None else None
        self.key = cache_key(func, cache_policy, *child.input) if self.cache is not None else None
        self.config = loop.runner.task_config(child)

    def run_now(self) -> Outcome:
        """Run the task to the end here (a sync caller), its save started at once."""
        if (cached := self.cached()) is not None:
            start_eagerly(self.save(cached), self.child.calls.saving)
            return cached
        token = self.child.activate()
        try:
            outcome = Outcome(self.attempts_now())
        except Exception as error:
            outcome = Outcome(error=error)
        finally:
            self.child.deactivate(token)
        start_eagerly(self.save(outcome), self.child.calls.saving)
        return outcome

    def attempts_now(self) -> Any:
        attempt = 0
        while True:
            attempt += 1
            try:
                if is_async(self.func):  # (an async task from a sync caller under the async API)
                    from lab.pregel.sync_loop import run_sync  # (here: it imports the loop's modules)

                    return run_sync(self.called(await_with))
                return self.called(run_with)
            except Exception as error:
                wait = retry_wait(self.retry_policy, attempt, error)
                if wait is None:
                    raise
                time.sleep(wait)

    def called(self, run: Callable[[dict[str, Any], Callable[[Any], Any], Any], Any]) -> Any:
        """The task's function called with its arguments by ``run`` (``run_with``, ``await_with``: its
        config current meanwhile), and, in a run streaming ``"messages"``, its messages streamed."""
        args, kwargs = self.child.input

        def call(_input: Any, config: dict[str, Any]) -> Any:
            return run(config, lambda _: self.func(*args, **kwargs), None)

        messages = self.loop.runner.messages
        if messages is None:
            return call(None, self.config)
        return messages.run(call, self.child.input, self.config)

    async def run_async(self, announced: Coroutine[Any, Any, None] | None = None) -> Any:
        """Run an ``async def`` task as an asyncio task of its own (an async caller); its result, or
        it raises. ``announced``: the lab's seam to report first (:func:`tell_lab`)."""
        if announced is not None:
            await announced
        outcome = self.cached()
        if outcome is None:
            token = self.child.activate()
            try:
                outcome = Outcome(await self.attempts_async())
            except Exception as error:
                outcome = Outcome(error=error)
            finally:
                self.child.deactivate(token)
        await self.save(outcome)
        if outcome.error is not None:
            raise outcome.error
        return outcome.value

    async def attempts_async(self) -> Any:
        attempt = 0
        while True:
            attempt += 1
            try:
                return await self.called(await_with)
            except Exception as error:
                wait = retry_wait(self.retry_policy, attempt, error)
                if wait is None:
                    raise
                await asyncio.sleep(wait)

    def cached(self) -> Outcome | None:
        """The result the cache holds for these arguments, if any."""
        if self.cache is None:
            return None
        found = self.cache.get([self.key])
        if self.key not in found:
            return None
        self.child.writes = list(found[self.key])
        return Outcome(next((v for c, v in self.child.writes if c == RETURN), None), cached=True)

    async def save(self, outcome: Outcome) -> None:
        """Save the task's writes as pending writes (what makes it not run again), stream its
        result, and cache it."""
        loop, child = self.loop, self.child
        if isinstance(outcome.error, GraphInterrupt):  # (its caller's result shows the question)
            answers = [w for w in child.writes if w[0] == RESUME]
            writes = [(INTERRUPT, list(outcome.error.interrupts)), *answers]
        elif outcome.error is not None:
            outcome.error.add_note(f"During task with name '{child.name}' and id '{child.id}'")
            writes = [*child.writes, (ERROR, repr(outcome.error))]
            loop.stream.task_result(child, child.writes, loop.step, outcome.error)
        else:
            if not outcome.cached:
                child.writes.append((RETURN, outcome.value))
            writes = child.writes
            if loop.stream.task_updates:
                chunk = {child.name: outcome.value}
                cached = {**chunk, "__metadata__": {"cached": True}}
                loop.stream.emit("updates", cached if outcome.cached else chunk)
            if not outcome.cached:
                loop.stream.task_result(child, writes, loop.step)
            if self.cache is not None and not outcome.cached:
                self.cache.set({self.key: (writes, self.ttl)})
        await loop.save_writes(child.id, writes, child)


def retry_wait(policies: Sequence[RetryPolicy], attempt: int, error: Exception) -> float | None:
    """Seconds to wait before the next attempt after ``error`` on attempt ``attempt`` (``None``:
    give up): the first policy that retries this error decides, as in LangGraph."""
    if isinstance(error, NOT_RETRIED):
        return None
    policy = next((p for p in policies if retries_on(p, error)), None)
    if policy is None or attempt >= policy.max_attempts:
        return None
    interval = min(policy.max_interval, policy.initial_interval * policy.backoff_factor ** (attempt - 1))
    return interval + (random.uniform(0, 1) if policy.jitter else 0)


def retries_on(policy: RetryPolicy, error: Exception) -> bool:
    retry_on = policy.retry_on
    if isinstance(retry_on, Sequence):
        return isinstance(error, tuple(retry_on))
    if isinstance(retry_on, type) and issubclass(retry_on, Exception):
        return isinstance(error, retry_on)
    if callable(retry_on):
        return bool(retry_on(error))
    raise TypeError(
        "retry_on must be an Exception class, a list or tuple of Exception classes, or a callable"
    )


# -- a save started from sync code ------------------------------------------------------------------


def start_eagerly(saving: Coroutine[Any, Any, Any], inflight: list[asyncio.Future[Any]]) -> None:
    """Run ``saving`` right now, as far as it goes without waiting; if it has to wait (I/O, a
    background save before it), the rest goes on as an asyncio task kept in ``inflight``.
    (Sync code cannot ``await``; this is what Python 3.12's eager tasks do.)"""
    try:
        waited = saving.send(None)
    except StopIteration:
        return
    inflight.append(asyncio.ensure_future(finish(saving, waited)))


async def finish(saving: Coroutine[Any, Any, Any], waited: Any) -> None:
    """Drive ``saving`` on from where ``start_eagerly`` left it: wait for what it waits for, then
    send it on (a future's outcome reaches it through the future's own ``__await__``)."""
    while True:
        try:
            if waited is None:  # a bare yield (``asyncio.sleep(0)``)
                await asyncio.sleep(0)
            else:
                waited._asyncio_future_blocking = False
                await asyncio.wait([waited])
        except BaseException as stopped:  # cancelled while waiting: the save hears it
            try:
                waited = saving.throw(stopped)
            except StopIteration:
                return
            continue
        try:
            waited = saving.send(None)
        except StopIteration:
            return
