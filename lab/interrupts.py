"""``Interrupt``: the question a node asked, as ``langgraph.types.Interrupt`` (``lab.types`` exports it).

In a module of its own so that ``lab.errors`` (``NodeInterrupt``) and ``lab.types`` (``interrupt()``)
both build it without importing each other.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

PLACEHOLDER_INTERRUPT_ID = "placeholder-id"
"""The id of an ``Interrupt`` made without one (a ``NodeInterrupt``'s, say), as LangGraph names it."""


@dataclass(frozen=True, init=False)
class Interrupt:
    """A question a node asked with ``interrupt(value)``; ``id`` is what a resume map answers.
    ``response_schema`` is the JSON schema the answer must match, if the node gave one.

    LangGraph 1.2 still accepts the arguments of its 0.x ``Interrupt`` (``resumable``, ``when``,
    ``ns``, ...), so old code and old checkpoints load: they are ignored, except that ``ns`` gives
    the id when none is given (the hash of the namespace, as 0.x computed it)."""

    value: Any
    id: str
    response_schema: type | dict[str, Any] | None = None

    def __init__(
        self,
        value: Any,
        id: str = PLACEHOLDER_INTERRUPT_ID,
        *,
        response_schema: type | dict[str, Any] | None = None,
        **deprecated: Any,
    ) -> None:
        ns = deprecated.get("ns")
        if id == PLACEHOLDER_INTERRUPT_ID and isinstance(ns, Sequence):
            from lab.pregel.xxh3 import xxh3_128_hexdigest  # here: lab.pregel, run first, imports this module

            id = xxh3_128_hexdigest("|".join(ns).encode())
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "response_schema", response_schema)

    @property
    def interrupt_id(self) -> str:
        """The 0.x name of ``id``: still read by LangGraph 1.2, with a deprecation warning."""
        warnings.warn(
            "`interrupt_id` is deprecated. Use `id` instead. "
            "Deprecated in LangGraph V1.0 to be removed in V2.0.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.id
