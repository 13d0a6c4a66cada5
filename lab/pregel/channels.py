"""Channels: the state cells a Pregel graph reads and writes, as in ``langgraph.channels``.

Every state key, every edge and every join is a channel. A super-step collects the writes
of all its tasks and hands each channel the list of values written to it at once
(``update``). A channel reports whether it changed, and the loop bumps its version when it
did. Nodes are *triggered* by channels whose version moved past what they last saw.

- ``LastValue``: a plain state key; at most one write per step.
- ``BinaryOperatorAggregate``: an ``Annotated[T, reducer]`` key; folds every write, except that
  an ``Overwrite(value)`` replaces the value (at most one per step; later writes that step are
  ignored, as in LangGraph).
- ``EphemeralValue``: ``__start__`` and ``branch:to:<node>`` triggers; cleared a step later.
- ``NamedBarrierValue``: ``join:<a>+<b>:<node>``; fires once every named source wrote.
- ``Topic``: ``__pregel_tasks``, the ``Send`` packets of one step (each becomes a push task).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from lab.errors import EmptyChannelError, InvalidUpdateError, with_troubleshooting
from lab.types import Overwrite

MISSING: Any = object()
"""The value of a channel that holds nothing (distinct from ``None``, a real value)."""


class Channel:
    """The interface every channel follows; ``value`` is ``MISSING`` when empty."""

    value: Any = MISSING
    expires: bool = False
    """True for channels whose value lasts one step: a step without writes clears them."""

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

    def checkpoint(self) -> Any:
        """The value stored in a checkpoint (``MISSING`` means: store nothing)."""
        return self.value

    def restore(self, value: Any) -> Channel:
        """A fresh copy of this channel holding a value loaded from a checkpoint."""
        fresh = copy.copy(self)
        fresh.value = value
        return fresh


class LastValue(Channel):
    def __init__(self, key: str) -> None:
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
    def __init__(self, reducer: Callable[[Any, Any], Any], initial: Any) -> None:
        self.reducer = reducer
        self.value = initial

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        if self.value is MISSING:  # nothing to fold into yet (e.g. ``Annotated[int | None, ...]``)
            self.value, values = values[0], values[1:]
        overwritten = False
        for value in values:
            if isinstance(value, Overwrite):
                if overwritten:
                    raise InvalidUpdateError(
                        with_troubleshooting(
                            "Can receive only one Overwrite value per super-step.",
                            "INVALID_CONCURRENT_GRAPH_UPDATE",
                        )
                    )
                self.value, overwritten = value.value, True
            elif not overwritten:
                self.value = self.reducer(self.value, value)
        return True

    def restore(self, value: Any) -> Channel:
        fresh = copy.copy(self)
        fresh.value = value if value is not MISSING else copy.copy(self.value)
        return fresh


class EphemeralValue(Channel):
    expires = True

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            if self.value is MISSING:
                return False
            self.value = MISSING  # a step went by: the trigger is spent
            return True
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
        fresh = copy.copy(self)
        fresh.value = set(value) if value is not MISSING else set()
        return fresh


class Topic(Channel):
    """Collects every value written in one step; the next step starts empty."""

    expires = True

    def __init__(self) -> None:
        self.value = []

    def update(self, values: Sequence[Any]) -> bool:
        had_values = bool(self.value)
        self.value = list(values)
        return had_values or bool(values)

    def is_available(self) -> bool:
        return bool(self.value)

    def restore(self, value: Any) -> Channel:
        fresh = copy.copy(self)
        fresh.value = list(value) if value is not MISSING else []
        return fresh
