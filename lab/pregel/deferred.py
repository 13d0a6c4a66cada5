"""Deferred nodes: ``add_node("n", fn, defer=True)``, as LangGraph defers a node's execution.

A deferred node waits until the run is about to end: it runs only when a step woke no other node
(every branch of a fan-out of different lengths has finished). Its triggers are channels that take
writes as usual but become available only after ``finish()``, which ``apply_writes`` calls on every
channel when a step's updates trigger no node (LangGraph's ``LastValueAfterFinish`` and
``NamedBarrierValueAfterFinish``). A checkpoint stores each as ``(value, finished)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lab.errors import EmptyChannelError
from lab.pregel.channels import MISSING, Channel, NamedBarrierValue


class LastValueAfterFinish(Channel):
    """``branch:to:<node>`` of a deferred node: the last value written, available once finished."""

    finished = False

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        self.value, self.finished = values[-1], False
        return True

    def get(self) -> Any:
        if not self.is_available():
            raise EmptyChannelError()
        return self.value

    def is_available(self) -> bool:
        return self.finished and self.value is not MISSING

    def consume(self) -> bool:
        if self.finished:
            self.value, self.finished = MISSING, False
            return True
        return False

    def finish(self) -> bool:
        if self.finished or self.value is MISSING:
            return False
        self.finished = True
        return True

    def checkpoint(self) -> Any:
        return MISSING if self.value is MISSING else (self.value, self.finished)

    def restore(self, value: Any) -> Channel:
        fresh = self.copy()
        fresh.value, fresh.finished = (MISSING, False) if value is MISSING else tuple(value)
        return fresh


class NamedBarrierValueAfterFinish(NamedBarrierValue):
    """``join:<a>+<b>:<node>`` of a deferred node: every named source wrote, and the run finished."""

    finished = False

    def get(self) -> Any:
        if not self.is_available():
            raise EmptyChannelError()
        return None

    def is_available(self) -> bool:
        return self.finished and self.value == self.names

    def consume(self) -> bool:
        if self.is_available():
            self.value, self.finished = set(), False
            return True
        return False

    def finish(self) -> bool:
        if self.finished or self.value != self.names:
            return False
        self.finished = True
        return True

    def checkpoint(self) -> Any:
        return (self.value, self.finished)

    def restore(self, value: Any) -> Channel:
        fresh = self.copy()
        seen, fresh.finished = (set(), False) if value is MISSING else value
        fresh.value = set(seen)
        return fresh
