"""What a saver raises when a value cannot be saved or a stored record cannot be loaded.

LangGraph's serializer lets whatever ``msgpack`` or ``pickle`` raised escape (``unhashable type:
'list'``, an empty ``StackError``, or a segfault). The lab has exactly two errors instead, and
each says *which* record or key and *what* is wrong:

- :class:`UnsavableValueError` when saving: the value could not be stored, or could not be
  loaded back (nested too deep), so nothing is written;
- :class:`CorruptRecordError` when loading: a stored record is malformed or holds bytes that do
  not load. It names the record (thread, checkpoint, channel or write) once the saver knows it.
"""

from __future__ import annotations

from typing import ClassVar, Self


class _LocatedError(Exception):
    """An error about a ``problem`` with a value, and ``where`` it is (once that is known)."""

    template: ClassVar[str]
    """The message, from ``{where}`` and ``{problem}``."""
    nowhere: ClassVar[str]
    """What ``{where}`` says before the place is known."""

    def __init__(self, problem: str, where: str | None = None) -> None:
        super().__init__(self.template.format(where=where or self.nowhere, problem=problem))
        self.problem = problem
        self.where = where

    def at(self, where: str) -> Self:
        """The same error, naming the key or record it is about."""
        return type(self)(self.problem, where)


class UnsavableValueError(_LocatedError, TypeError, ValueError):
    """A value cannot go into a checkpoint (an unknown type, or nested deeper than loading allows).

    A ``TypeError`` (an unknown type is one) and a ``ValueError`` (too deep is one)."""

    template = "cannot save {where}: {problem}"
    nowhere = "this value"


class CorruptRecordError(_LocatedError, ValueError):
    """A stored record is malformed or holds bytes that do not load; nothing in it was executed.
    ``where`` names the record: thread, checkpoint, and the channel or write."""

    template = "{where} does not load: {problem}"
    nowhere = "a stored value"
