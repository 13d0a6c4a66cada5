"""``Runtime``: what a node learns about its run besides the state, as ``langgraph.runtime``.

``StateGraph(State, context_schema=Ctx)`` declares the type of the run's *context*: static data
the caller passes with ``invoke(..., context=Ctx(...))`` (a user id, a database handle) that is not
state and is never checkpointed. A node receives it by declaring a ``runtime`` parameter, or calls
``get_runtime()``. ``store`` is the graph's long-term memory (``compile(store=...)``, ``lab.store``),
``None`` when it has none; ``stream_writer`` sends a chunk to
``stream_mode="custom"`` (``lab.pregel.stream_output``; it does nothing when that mode is not streamed);
``previous`` is what the thread's last run of an ``@entrypoint`` saved, in the ``runtime`` an
entrypoint or a task it calls declares (``lab.func``), else ``None``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from lab.config import RUNTIME_KEY, get_config

ContextT = TypeVar("ContextT")


def no_stream_writer(chunk: Any) -> None:
    """The stream writer of a run that does not stream ``"custom"``: the chunk goes nowhere."""


@dataclass(frozen=True)
class Runtime(Generic[ContextT]):
    """The run's context (``invoke(..., context=...)``), the graph's store (a ``BaseStore`` or ``None``),
    ``previous`` an entrypoint's (``lab.func``)."""

    context: ContextT | None = None
    store: Any = None
    stream_writer: Callable[[Any], None] = no_stream_writer
    previous: Any = None


def get_runtime(context_schema: type[ContextT] | None = None) -> Runtime[ContextT]:
    """The running node's ``Runtime`` (``context_schema`` only helps type checkers)."""
    return get_config()["configurable"][RUNTIME_KEY]
