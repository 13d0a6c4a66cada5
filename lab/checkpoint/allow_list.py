"""Which classes of a program its checkpoints may hold, as LangGraph's ``JsonPlusSerializer`` saves
Pydantic models and dataclasses (``lab.checkpoint.serde`` loads only the types on its allow-list).

The rule: a class the program itself named to the runtime. A graph's state schema (a dataclass or a
Pydantic model), the dataclasses and Pydantic models its fields name at any depth (``list[Item]``,
``Item | None``), and the type an ``interrupt(response_schema=...)`` validates its answer into. Loading
a record of one of them calls that class with the stored field values and nothing else.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any

from lab.checkpoint.serde import is_registered, register_type


def is_pydantic_model(cls: Any) -> bool:
    """A Pydantic model class, recognised without importing pydantic (it stays optional)."""
    return isinstance(cls, type) and hasattr(cls, "model_fields") and hasattr(cls, "model_validate")


def allow_in_checkpoints(schema: Any, seen: set[type] | None = None) -> None:
    """A dataclass or Pydantic schema may reach a checkpoint (an input given as an instance sits
    in ``__start__``), and so may the dataclasses and Pydantic models its fields name (``list[Item]``,
    ``Item | None``): put the graph's own schema and those classes on the serializer's allow-list,
    so loading rebuilds them and nothing else (``lab.checkpoint.serde``)."""
    seen = set() if seen is None else seen
    if not isinstance(schema, type) or schema in seen:
        return
    seen.add(schema)
    if is_registered(schema):  # (already, with what it names; a chat message is stored as LangGraph does)
        return
    if dataclasses.is_dataclass(schema):
        register_type(schema, name=f"{schema.__module__}.{schema.__qualname__}")
    elif is_pydantic_model(schema):
        register_type(
            schema, name=f"{schema.__module__}.{schema.__qualname__}", fields=list(schema.model_fields)
        )
    for named in _classes_named(schema):
        allow_in_checkpoints(named, seen)


def _classes_named(schema: type) -> frozenset[type]:
    """The dataclasses and Pydantic models a schema's field annotations name, at any depth of
    ``list[...]``, ``X | None``, ``Annotated[...]``, ``dict[str, ...]``."""
    try:
        return _classes_in_hints(schema)
    except Exception:  # (a class whose annotations do not evaluate names nothing)
        return frozenset()


@functools.cache
def _classes_in_hints(schema: type) -> frozenset[type]:
    hints = list(class_hints(schema).values())
    found: set[type] = set()
    while hints:
        hint = hints.pop()
        if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or is_pydantic_model(hint)):
            found.add(hint)
        hints.extend(typing.get_args(hint))
    return frozenset(found)


@functools.cache
def class_hints(cls: type) -> dict[str, Any]:
    """A class's annotations, evaluated once per class (``Annotated`` kept): ``get_type_hints``
    evaluates every string annotation again on each call, and graphs are compiled again for every
    new lab process. A class whose annotations do not evaluate yet raises, and is not remembered."""
    return typing.get_type_hints(cls, include_extras=True)
