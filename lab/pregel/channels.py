"""Channels: the state cells a Pregel graph reads and writes, as in ``langgraph.channels``.

Every state key, every edge and every join is a channel. A super-step collects the writes
of all its tasks and hands each channel the list of values written to it at once
(``update``). A channel reports whether it changed, and the loop bumps its version when it
did. Nodes are *triggered* by channels whose version moved past what they last saw.

- ``LastValue``: a plain state key; at most one write per step.
- ``BinaryOperatorAggregate``: an ``Annotated[T, reducer]`` key; folds every write, except that
  an ``Overwrite(value)`` (or its JSON form ``{"__overwrite__": value}``) replaces the value (at
  most one per step; later writes that step are ignored, as in LangGraph).
- ``DeltaChannel``: an appending reducer key (LangGraph's beta ``langgraph.channels.delta``):
  a checkpoint stores only a sentinel, and the value is rebuilt from ancestor writes, with a full
  snapshot every ``snapshot_frequency`` updates (see ``lab.pregel.delta``).
- ``UntrackedValue``: an ``Annotated[T, UntrackedValue]`` key (a lock, a client): the last value
  written, never checkpointed; neither are its writes, nor its keys in a ``Send``'s argument.
- ``EphemeralValue``: ``__start__`` and ``branch:to:<node>`` triggers; cleared a step later.
- ``NamedBarrierValue``: ``join:<a>+<b>:<node>``; fires once every named source wrote.
- ``Topic``: ``__pregel_tasks``, the ``Send`` packets of one step (each becomes a push task).
- ``LastValueAfterFinish``, ``NamedBarrierValueAfterFinish`` (``lab.pregel.deferred``): the
  triggers of a deferred node (``add_node(..., defer=True)``).
"""

from __future__ import annotations

import collections.abc
import copy
import functools
import typing
from collections.abc import Callable, Sequence
from typing import Any, Self

from lab.checkpoint.delta import DELTA_SENTINEL, DeltaSnapshot
from lab.errors import EmptyChannelError, InvalidUpdateError, with_troubleshooting
from lab.types import Overwrite

MISSING: Any = object()
"""The value of a channel that holds nothing (distinct from ``None``, a real value)."""


class Channel:
    """The interface every channel follows; ``value`` is ``MISSING`` when empty."""

    value: Any = MISSING
    expires: bool = False
    """True for channels whose value lasts one step: a step without writes clears them."""
    typ: Any = Any
    """The type given to the channel (``LastValue(int)``): what a hand-built ``Pregel``'s
    ``input_schema``/``output_schema`` say it holds (``value_type``) and takes (``update_type``)."""

    @property
    def value_type(self) -> Any:
        return self.typ

    @property
    def update_type(self) -> Any:
        return self.typ

    def update(self, values: Sequence[Any]) -> bool:
        """Take all writes of one step; return True if the channel changed."""
        raise NotImplementedError

    def get(self) -> Any:
        if self.value is MISSING:
            raise EmptyChannelError()
        return self.value

    def is_available(self) -> bool:
        return self.value is not MISSING

    def consume(self) -> bool:
        """Called when a node that was triggered by this channel ran."""
        return False

    def finish(self) -> bool:
        """Called when a step woke no node (the run is about to end): a deferred node's trigger
        (``lab.pregel.deferred``) becomes available then; True if the channel changed."""
        return False

    def checkpoint(self) -> Any:
        """The value stored in a checkpoint (``MISSING`` means: store nothing)."""
        return self.value

    def restore(self, value: Any) -> Channel:
        """A fresh copy of this channel holding a value loaded from a checkpoint."""
        fresh = object.__new__(type(self))  # (a shallow copy, as ``copy`` makes it)
        if self.__dict__:  # (a trigger channel has no field of its own)
            fresh.__dict__.update(self.__dict__)
        fresh.value = value
        return fresh

    def copy(self) -> Self:
        """A shallow copy of this channel (its fields copied by hand, not by ``copy.copy``: why, in
        ``bench/RESULTS.md``)."""
        fresh = object.__new__(type(self))
        fresh.__dict__.update(self.__dict__)
        return fresh


class LastValue(Channel):
    def __init__(self, typ: Any = Any, key: str = "") -> None:
        """``LastValue(int)`` as LangGraph builds it (the type is documentation only here);
        ``key`` names the state key in the error a second write raises."""
        self.typ = typ
        self.key = key

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        if len(values) > 1:
            raise InvalidUpdateError(
                with_troubleshooting(
                    f"At key '{self.key}': Can receive only one value per step. "
                    "Use an Annotated key to handle multiple values.",
                    "INVALID_CONCURRENT_GRAPH_UPDATE",
                )
            )
        self.value = values[-1]
        return True


class BinaryOperatorAggregate(Channel):
    def __init__(self, typ: Any, operator: Callable[[Any, Any], Any]) -> None:
        """``BinaryOperatorAggregate(list, operator.add)`` as LangGraph builds it: it starts from
        ``typ()`` (``list()`` for ``Sequence[str]``), or empty for a type that cannot be made so."""
        self.typ = typ
        self.reducer = operator
        self.fold = folding(operator)
        self.value = empty_value(typ)

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        if self.value is MISSING:  # nothing to fold into yet (e.g. ``Annotated[int | None, ...]``)
            self.value, values = values[0], values[1:]
        if len(values) == 1 and not overwrite_of(values[0])[0]:  # (one plain write: no batch to fold)
            self.value = self.reducer(self.value, values[0])
        else:
            self.value, _ = fold_step(self.value, values, self.fold)
        return True

    def restore(self, value: Any) -> Channel:
        fresh = self.copy()
        if value is not MISSING:
            fresh.value = value
        elif self.value is not MISSING:  # (``copy.copy(MISSING)`` would be a new ``object()``, not empty)
            fresh.value = copy.copy(self.value)
        return fresh


CONCRETE = {
    collections.abc.Sequence: list,
    collections.abc.MutableSequence: list,
    collections.abc.Set: set,
    collections.abc.MutableSet: set,
    collections.abc.Mapping: dict,
    collections.abc.MutableMapping: dict,
}
"""The class a reducer channel of an abstract collection type starts from (LangGraph's choice)."""


def empty_value(typ: Any) -> Any:
    """What a reducer channel of type ``typ`` starts from: ``list()`` for ``list`` or
    ``Sequence[str]``, ``MISSING`` for a type that cannot be made empty (``int | None``)."""
    kind = typing.get_origin(typ) or typ
    try:
        return CONCRETE.get(kind, kind)()
    except Exception:
        return MISSING


def folding(reducer: Callable[[Any, Any], Any]) -> Callable[[Any, Sequence[Any]], Any]:
    """A binary reducer ``(a, b) -> c`` as the batch reducer ``(state, [b1, b2...])`` that
    ``DeltaChannel`` takes: it folds the writes one by one, so it is batching-invariant."""
    return lambda state, writes: functools.reduce(reducer, writes, state)


OVERWRITE = "__overwrite__"


def overwrite_of(written: Any) -> tuple[bool, Any]:
    """Is ``written`` an ``Overwrite``, and of what value? As LangGraph's ``_get_overwrite``: the
    typed ``Overwrite(value)``, ``{"__overwrite__": value}``, or ``{"value": value, "type":
    "__overwrite__"}`` (an ``Overwrite`` that went through JSON and lost its class)."""
    if isinstance(written, Overwrite):
        return True, written.value
    if isinstance(written, dict):
        if len(written) == 1 and OVERWRITE in written:
            return True, written[OVERWRITE]
        if written.get("type") == OVERWRITE and "value" in written:
            return True, written["value"]
    return False, None


def fold_step(
    value: Any, values: Sequence[Any], reduce: Callable[[Any, Sequence[Any]], Any]
) -> tuple[Any, bool]:
    """One step's writes folded into ``value``; an ``Overwrite`` replaces the value (at most one
    per step; writes after it that step are ignored). Returns the value and whether it was
    overwritten."""
    overwritten, batch = False, []
    for written in values:
        is_overwrite, replacement = overwrite_of(written)
        if is_overwrite:
            if overwritten:
                raise InvalidUpdateError(
                    with_troubleshooting(
                        "Can receive only one Overwrite value per super-step.",
                        "INVALID_CONCURRENT_GRAPH_UPDATE",
                    )
                )
            value = reduce(value, batch) if batch else value  # a bad earlier write still fails
            value, overwritten, batch = replacement, True, []
        elif not overwritten:
            batch.append(written)
    return (reduce(value, batch) if batch else value), overwritten


class DeltaChannel(Channel):
    """A list key opted in with ``Annotated[list, DeltaChannel(reducer)]``: its checkpoints do not
    store the whole list.

    LangGraph's contract (beta): ``reducer(state, [write1, write2...])`` takes a batch of writes
    and must be *batching-invariant* (``reducer(reducer(s, xs), ys) == reducer(s, xs + ys)``), so
    the value can be rebuilt by replaying a checkpoint's ancestor writes in one call. A checkpoint
    stores a sentinel for it (``lab.checkpoint.delta.DELTA_SENTINEL``), except every
    ``snapshot_frequency`` updates, when it stores a ``DeltaSnapshot`` of the whole value.

    LangGraph makes this opt-in (``Annotated[list, DeltaChannel(reducer)]``, importable as
    ``lab.channels.DeltaChannel``) because it cannot know whether a user's reducer is
    batching-invariant; its default for ``Annotated[list, operator.add]`` is
    ``BinaryOperatorAggregate``, stored whole, and so is the lab's. What a learner reads is the same
    either way (``get_state``, history, forks and ``update_state``; ``tests/differential`` compares
    what is stored too). Unlike LangGraph, the lab keeps the snapshot counter on the live channel,
    rebuilt from the history when a thread is loaded, not in the checkpoint's metadata.
    """

    def __init__(
        self,
        reducer: Callable[[Any, Sequence[Any]], Any],
        typ: type = list,
        *,
        snapshot_frequency: int = 100,
    ) -> None:
        if snapshot_frequency <= 0:
            raise ValueError(f"snapshot_frequency must be a positive int, got {snapshot_frequency}")
        self.reducer = reducer
        self.typ = typ
        self.snapshot_frequency = snapshot_frequency
        self.value = typ()
        self.updates_since_snapshot = 0
        self.overwritten = False
        """An ``Overwrite`` since the last checkpoint: the next one must snapshot (a replay of
        ancestor writes cannot tell which writes the ``Overwrite`` threw away)."""

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        self.value, overwritten = fold_step(self.value, values, self.reducer)
        self.overwritten = self.overwritten or overwritten
        self.updates_since_snapshot += 1
        return True

    def snapshot_due(self) -> bool:
        return self.overwritten or self.updates_since_snapshot >= self.snapshot_frequency

    def checkpoint(self) -> Any:
        """What a checkpoint stores unless it snapshots this channel: the sentinel."""
        return DELTA_SENTINEL

    def snapshot(self) -> DeltaSnapshot:
        """What a checkpoint that snapshots this channel stores (the counter starts again)."""
        self.updates_since_snapshot, self.overwritten = 0, False
        return DeltaSnapshot(self.value)

    def restore(self, value: Any) -> Channel:
        """From a stored blob: a ``DeltaSnapshot``, a plain value (stored before the key was a
        delta channel), or ``MISSING`` (start empty; the caller replays the writes)."""
        fresh = self.copy()
        fresh.updates_since_snapshot, fresh.overwritten = 0, False
        if value is MISSING:
            fresh.value = self.typ()
        else:
            fresh.value = value.value if isinstance(value, DeltaSnapshot) else value
        return fresh

    def replay_writes(self, writes: Sequence[tuple[str, str, Any]]) -> None:
        """Apply ancestor writes, oldest first, in one reducer call; the last ``Overwrite`` among
        them, if any, is the new base (as in LangGraph)."""
        values = [value for _, _, value in writes]
        if not values:
            return
        start = 0
        for index, value in enumerate(values):
            is_overwrite, replacement = overwrite_of(value)
            if is_overwrite:
                self.value, start = replacement, index + 1
        if values[start:]:
            self.value = self.reducer(self.value, values[start:])
        self.updates_since_snapshot = len(values)


class UntrackedValue(Channel):
    """The last value written, kept only while a run goes on: never stored in a checkpoint, so a new
    run (or ``get_state``) finds it empty. ``guard=True``: at most one write per step."""

    def __init__(self, typ: Any = object, guard: bool = True, *, key: str = "") -> None:
        self.typ = typ
        self.guard = guard
        self.key = key

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        if len(values) > 1 and self.guard:
            raise InvalidUpdateError(
                f"At key '{self.key}': UntrackedValue(guard=True) can receive only one value per step. "
                "Use guard=False if you want to store any one of multiple values."
            )
        self.value = values[-1]
        return True

    def checkpoint(self) -> Any:
        return MISSING

    def restore(self, value: Any) -> Channel:
        fresh = self.copy()
        fresh.value = MISSING
        return fresh


class EphemeralValue(Channel):
    expires = True
    guard = False

    def __init__(self, typ: Any = Any, guard: bool = True) -> None:
        """``EphemeralValue(int)`` as LangGraph builds it; ``guard``: refuse two writes in one step
        (a node's trigger, ``branch:to:<node>``, is built with ``guard=False``: many may fire it).
        (Only what differs from the class's defaults is set: a trigger channel has no field of its
        own, so ``restore`` has no dict to fill.)"""
        if typ is not Any:
            self.typ = typ
        if guard:
            self.guard = True

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            if self.value is MISSING:
                return False
            self.value = MISSING  # a step went by: the trigger is spent
            return True
        if self.guard and len(values) > 1:
            raise InvalidUpdateError(
                "At key '': EphemeralValue(guard=True) can receive only one value per step. "
                "Use guard=False if you want to store any one of multiple values."
            )
        self.value = values[-1]
        return True


class NamedBarrierValue(Channel):
    def __init__(self, names: set[str]) -> None:
        self.names = frozenset(names)
        self.value = set()

    def update(self, values: Sequence[Any]) -> bool:
        changed = False
        for name in values:
            if name not in self.names:
                raise InvalidUpdateError(f"At key '{name}': value not in {sorted(self.names)}")
            if name not in self.value:
                self.value = self.value | {name}
                changed = True
        return changed

    def get(self) -> Any:
        if self.value != self.names:
            raise EmptyChannelError()
        return None

    def is_available(self) -> bool:
        return self.value == self.names

    def consume(self) -> bool:
        if self.value == self.names:
            self.value = set()
            return True
        return False

    def restore(self, value: Any) -> Channel:
        fresh = self.copy()
        fresh.value = set(value) if value is not MISSING else set()
        return fresh


class Topic(Channel):
    """Collects every value written in one step (a written list adds its items); the next step
    starts empty, unless ``accumulate=True``: then it keeps every value ever written."""

    expires = True
    accumulate = False

    def __init__(self, typ: Any = Any, accumulate: bool = False) -> None:
        self.value = []
        if typ is not Any:  # (as ``EphemeralValue``: only what differs from the class's defaults)
            self.typ = typ
        if accumulate:
            self.accumulate, self.expires = True, False

    @property
    def value_type(self) -> Any:
        return list[self.typ]

    @property
    def update_type(self) -> Any:
        return typing.Union[self.typ, list[self.typ]]  # noqa: UP007  (``typ`` may be ``Any``)

    def update(self, values: Sequence[Any]) -> bool:
        had_values = bool(self.value)
        written = [item for value in values for item in (value if isinstance(value, list) else [value])]
        if self.accumulate:
            self.value = [*self.value, *written]
            return bool(written)
        self.value = written
        return had_values or bool(written)

    def get(self) -> Any:
        if not self.value:
            raise EmptyChannelError()
        return self.value

    def is_available(self) -> bool:
        return bool(self.value)

    def restore(self, value: Any) -> Channel:
        fresh = self.copy()
        fresh.value = list(value) if value is not MISSING else []
        return fresh
