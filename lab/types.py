"""The values that cross the boundary between a graph and its caller, as in ``langgraph.types``.

``interrupt()`` pauses a node and surfaces a value; ``Command(resume=...)`` answers it.
``StateSnapshot`` and ``PregelTask`` are what ``get_state`` and ``get_state_history`` return.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeVar

from lab.errors import GraphInterrupt, mark_invalid_resume
from lab.interrupts import Interrupt

Durability = Literal["sync", "async", "exit"]
StreamWriter = Callable[[Any], None]
"""A node's ``writer`` parameter (``get_stream_writer()``): a chunk for ``stream_mode="custom"``."""
"""When checkpoints are written: after every step (``sync``), in the background (``async``),
or only when the run ends (``exit``)."""


@dataclass(frozen=True)
class Send:
    """A message to run ``node`` with ``arg`` as its input (a push task)."""

    node: str
    arg: Any


@dataclass(frozen=True)
class Overwrite:
    """Write ``value`` to a reducer key as is, bypassing its reducer (one per key per step)."""

    value: Any
    type: Literal["__overwrite__"] = "__overwrite__"


N = TypeVar("N", bound=str)


@dataclass(frozen=True)
class Command(Generic[N]):
    """Input that steers a run: answer interrupts (``resume``), write state (``update``),
    or route to nodes (``goto``, when returned from a node). A node's return annotation
    ``Command[Literal["b", "c"]]`` names where its ``goto`` may lead (``get_graph`` draws it).
    Returned by a subgraph's node with ``graph=Command.PARENT``, it is the writes of the parent's
    node that ran the subgraph (``lab.pregel.subgraph``)."""

    resume: Any = None
    update: dict[str, Any] | None = None
    goto: str | Sequence[str] = field(default=())
    graph: str | None = None

    PARENT: ClassVar[Literal["__parent__"]] = "__parent__"

    def __repr__(self) -> str:
        """The fields that are set, in LangGraph's order (its exceptions quote a command so)."""
        order = ("graph", "update", "resume", "goto")
        given = {f.name: getattr(self, f.name) for f in fields(self)}
        return f"Command({', '.join(f'{key}={given[key]!r}' for key in order if given[key])})"


class StateUpdate(NamedTuple):
    """One update of a ``bulk_update_state`` superstep: ``values`` written as node ``as_node``."""

    values: dict[str, Any] | None
    as_node: str | None = None
    task_id: str | None = None


class PregelTask(NamedTuple):
    """One task of a super-step as shown in a snapshot: ``error`` is the stored repr string,
    ``result`` the task's state writes once it finished (``None`` while unfinished)."""

    id: str
    name: str
    path: tuple[Any, ...]
    error: str | None = None
    interrupts: tuple[Interrupt, ...] = ()
    state: Any = None
    result: Any = None


class StateSnapshot(NamedTuple):
    """The state of a thread at one checkpoint, as ``get_state`` returns it."""

    values: dict[str, Any]
    next: tuple[str, ...]
    config: dict[str, Any]
    metadata: dict[str, Any] | None
    created_at: str | None
    parent_config: dict[str, Any] | None
    tasks: tuple[PregelTask, ...]
    interrupts: tuple[Interrupt, ...]


def default_retry_on(exc: Exception) -> bool:
    """LangGraph's default: retry anything but the errors a retry cannot cure (a bad value, a bug,
    a missing file...); a ``ConnectionError`` is always worth another try."""
    if isinstance(exc, ConnectionError):
        return True
    return not isinstance(exc, NOT_RETRIED)


NOT_RETRIED = (
    ValueError,
    TypeError,
    ArithmeticError,
    ImportError,
    LookupError,
    NameError,
    SyntaxError,
    RuntimeError,
    ReferenceError,
    StopIteration,
    StopAsyncIteration,
    OSError,
)


class RetryPolicy(NamedTuple):
    """How a ``@task`` is tried again when it raises (``lab.func``): up to ``max_attempts`` tries,
    waiting ``initial_interval`` seconds, then ``backoff_factor`` times longer each time (at most
    ``max_interval``), plus up to a second of ``jitter``; ``retry_on`` says which errors count."""

    initial_interval: float = 0.5
    backoff_factor: float = 2.0
    max_interval: float = 128.0
    max_attempts: int = 3
    jitter: bool = True
    retry_on: type[Exception] | Sequence[type[Exception]] | Callable[[Exception], bool] = default_retry_on


def _freeze(value: Any, depth: int = 10) -> Hashable:
    """A hashable, order-independent stand-in for a task's arguments (dict keys sorted)."""
    if isinstance(value, Hashable) or depth <= 0:
        return value
    if isinstance(value, Mapping):
        return tuple(sorted((k, _freeze(v, depth - 1)) for k, v in value.items()))
    if isinstance(value, Sequence):
        return tuple(_freeze(v, depth - 1) for v in value)
    return value


def default_cache_key(*args: Any, **kwargs: Any) -> str:
    """The arguments as text: equal arguments, equal key. (LangGraph pickles them; the lab writes
    their ``repr``, so no pickle is involved anywhere near stored data.)"""
    return repr((_freeze(args), _freeze(kwargs)))


@dataclass(frozen=True)
class CachePolicy:
    """Cache a ``@task``'s result (``@task(cache_policy=CachePolicy())`` with
    ``@entrypoint(cache=InMemoryCache())``): a call whose ``key_func(*args, **kwargs)`` was seen
    before gets the saved result without running; ``ttl`` seconds (``None``: forever)."""

    key_func: Callable[..., str | bytes] = default_cache_key
    ttl: int | None = None


def interrupt(value: Any, *, response_schema: type | dict[str, Any] | None = None) -> Any:
    """Pause the running node and surface ``value`` to the caller.

    The first time a node reaches this call it raises ``GraphInterrupt`` and the run stops.
    When the thread is resumed with ``Command(resume=answer)``, the node runs again *from its
    first line* and this call returns ``answer`` instead of raising. Everything before it runs
    twice: that is why a paid API call placed before ``interrupt()`` charges twice.

    ``response_schema`` describes the answer: a JSON schema (a dict) is surfaced as is; a type (a
    Pydantic model, ``TypedDict``, dataclass) is surfaced as its JSON schema, and the answer is
    validated against it and returned as that type (Pydantic does both, as in LangGraph).
    """
    from lab.pregel.task import NO_ANSWER, current_task  # here, not above: lab.pregel imports this module

    typed = response_schema is not None and not isinstance(response_schema, dict)
    adapter = _adapter(response_schema) if typed else None
    task = current_task()
    answer = task.take_answer(partial(_validated, adapter) if adapter else None)
    if answer is NO_ANSWER:
        schema = adapter.json_schema() if adapter else response_schema
        raise GraphInterrupt((Interrupt(value=value, id=task.question_id, response_schema=schema),))
    return answer


def _adapter(response_schema: type) -> Any:
    """Pydantic's ``TypeAdapter`` for a typed ``response_schema``; refused by name without Pydantic."""
    try:
        from pydantic import TypeAdapter
    except ImportError:
        from lab.graph.unsupported import NotSupportedError

        raise NotSupportedError("interrupt(response_schema=<a type>) without pydantic installed") from None
    from lab.checkpoint.allow_list import (
        allow_in_checkpoints,  # (its answers reach the state, so checkpoints)
    )

    allow_in_checkpoints(response_schema)
    return TypeAdapter(response_schema)


def _validated(adapter: Any, answer: Any) -> Any:
    """The answer as the schema's type; a ``ValidationError`` is marked as an invalid resume."""
    from pydantic import ValidationError

    try:
        return adapter.validate_python(answer)
    except ValidationError as error:
        mark_invalid_resume(error)
        raise


def _allow_in_checkpoints() -> None:
    """Checkpoints store interrupts (and sends); loading them must not execute code, so the
    serializer only rebuilds types it was told about."""
    from lab.checkpoint.serde import register_type

    register_type(Interrupt, field_types={"id": (str,)})
    register_type(Send, field_types={"node": (str,)})
    register_type(  # ``graph`` is not stored: a command for a parent graph is never saved
        Command,
        fields=("resume", "update", "goto"),
        field_types={"goto": (str, Send, list, tuple)},  # update, resume: any value
    )
    register_type(Overwrite, field_types={"type": (str,)})


_allow_in_checkpoints()
