"""Who records a request, and where it came from: the recorder is a context variable of the run.

A node calls the outside world like any library; what answers depends on where the graph runs: in
the page the lab's ledger (which outlives the Python worker), in a test or a program's own script a
:class:`~lab.world.memory.MemoryWorld`. LangGraph passes a run's config the same way (a context
variable, ``langgraph.config.get_config``), so two runs in one process never share a recorder by
accident: a run's recorder is set in its own task (the profile's ``enter_run`` hook,
:func:`record_in_this_run`). A block may choose one for every call made in it, runs included
(:func:`use_recorder`: a program's script that keeps its own ledger); a block that starts runs of
its own (a challenge's check) lets them record for themselves (:func:`runs_record_for_themselves`).
Outside both, a context gets a fresh in-memory world of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from lab.world.decider import SITE_FIELDS, Operation
from lab.world.memory import MemoryWorld

__all__ = [
    "Recorder",
    "World",
    "call_site",
    "current_recorder",
    "record_in_this_run",
    "runs_record_for_themselves",
    "use_recorder",
]


class Recorder(Protocol):
    """Decides and records one raw request at once, and answers its receipt (a synchronous call)."""

    def record(self, operation: Operation, request: dict[str, Any]) -> dict[str, Any]: ...


class World(Protocol):
    """The outside world as a graph's nodes and the lab call it: ``request`` (awaited) answers the
    receipt of one request; the lab reads ``entries`` (one row per request, oldest first), ``clear``s
    on reset, ``add_entries`` an imported thread's rows, and ``record_now`` a row decided elsewhere."""

    async def request(self, operation: Operation, request: dict[str, Any]) -> dict[str, Any]: ...

    async def entries(self) -> list[dict[str, Any]]: ...

    async def clear(self) -> None: ...

    async def add_entries(self, rows: list[dict[str, Any]]) -> None: ...

    def record_now(self, row: dict[str, Any]) -> None: ...


CHOSEN: ContextVar[Recorder | None] = ContextVar("lab.world recorder of a block", default=None)
"""The recorder a block chose for every call made in it (:func:`use_recorder`), runs included."""
RUN: ContextVar[Recorder] = ContextVar("lab.world recorder of the run")
"""The recorder of the run in progress (:func:`record_in_this_run`)."""


def current_recorder() -> Recorder:
    """The block's recorder, else the run's; outside both, a fresh in-memory world kept in this context."""
    chosen = CHOSEN.get()
    if chosen is not None:
        return chosen
    try:
        return RUN.get()
    except LookupError:
        recorder = MemoryWorld()
        RUN.set(recorder)
        return recorder


def record_in_this_run(recorder: Recorder) -> None:
    """Send the requests of the run in progress (this task and those it starts) to ``recorder``."""
    RUN.set(recorder)


@contextmanager
def use_recorder(recorder: Recorder | None) -> Iterator[Recorder | None]:
    """Send every request made while the block runs, in runs it starts too, to ``recorder`` (``None``:
    let each run record in its own recorder, :func:`runs_record_for_themselves`)."""
    token = CHOSEN.set(recorder)
    try:
        yield recorder
    finally:
        CHOSEN.reset(token)


def runs_record_for_themselves() -> AbstractContextManager[Recorder | None]:
    """A block whose runs record in their own recorders, whatever recorder an outer block chose."""
    return use_recorder(None)


def call_site() -> dict[str, Any]:
    """Where the request came from: the running node's thread, name, task and checkpoint (``None``
    outside a node). Read from lab's config, or from LangGraph's when real LangGraph runs the program."""
    for get_config in _config_readers():
        try:
            configurable = get_config().get("configurable", {})
        except RuntimeError:  # not inside a node of this runtime
            continue
        node, _, task_id = configurable.get("checkpoint_ns", "").partition(":")
        return {
            "thread_id": configurable.get("thread_id"),
            "node": node or None,
            "task_id": task_id or None,
            "checkpoint_id": configurable.get("checkpoint_id"),
        }
    return dict.fromkeys(SITE_FIELDS)


def _config_readers() -> Iterator[Callable[[], dict[str, Any]]]:
    from lab.config import get_config

    yield get_config
    try:  # real LangGraph, when it runs the program instead (the gallery's tests); never needed by lab
        from langgraph.config import get_config as get_langgraph_config
    except ImportError:
        return
    yield get_langgraph_config
