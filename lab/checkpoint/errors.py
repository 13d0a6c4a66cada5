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

from typing import Any, ClassVar, Self


class _LocatedError(Exception):
    """An error about a ``problem`` with a value, and ``where`` it is (once that is known).

    Besides the English sentence, both halves are data for a page that says them in its own
    language: a common problem has a ``code`` (with its English ``said`` template and ``params``),
    and ``place`` names the record part by part (:func:`lab.checkpoint.records.record_place`)."""

    template: ClassVar[str]
    """The message, from ``{where}`` and ``{problem}``."""
    nowhere: ClassVar[str]
    """What ``{where}`` says before the place is known."""

    def __init__(
        self,
        problem: str,
        where: str | None = None,
        *,
        code: str = "",
        said: str = "",
        params: dict[str, Any] | None = None,
        place: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(self.template.format(where=where or self.nowhere, problem=problem))
        self.problem = problem
        self.where = where
        self.code = code
        """The problem's code (``""``: a rare problem, said only in English)."""
        self.said = said
        self.params = params or {}
        self.place = place

    @classmethod
    def coded(cls, code: str, said: str, **params: Any) -> Self:
        """The error whose problem is ``said`` filled with ``params``, known by ``code``."""
        return cls(said.format(**params), code=code, said=said, params=params)

    def at(self, where: str, place: dict[str, Any] | None = None) -> Self:
        """The same error, naming the key or record it is about (``place``: the record as data)."""
        return type(self)(
            self.problem, where, code=self.code, said=self.said, params=self.params, place=place
        )


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
