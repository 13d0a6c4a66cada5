"""State schemas: which channels a ``StateGraph`` declares and what shape a node sees, as in
LangGraph's ``StateGraph._add_schema`` / ``_get_channels`` and the node input "mapper".

A schema is a class with annotated fields: a ``TypedDict``, a ``@dataclass`` or (when ``pydantic``
is importable; ``lab`` does not need it) a Pydantic model. Each field becomes one channel:

- ``x: int`` → ``LastValue``;
- ``log: Annotated[list, reducer]`` (``operator.add`` too) → ``BinaryOperatorAggregate``, stored
  whole at every checkpoint where it changed (``reducer(a, b)`` must take exactly two positional
  arguments);
- ``log: Annotated[list, DeltaChannel(reducer)]`` → ``DeltaChannel``, LangGraph's opt-in (beta):
  stored as a sentinel, rebuilt from the ancestors' writes (``lab.channels.delta``);
- ``resource: Annotated[T, UntrackedValue]`` → ``UntrackedValue``: kept while a run goes on, never
  checkpointed (``lab.channels.untracked_value``).

A node reads the keys of *its* input schema (the graph's state schema unless its first parameter
is annotated with another schema, whose extra keys become private channels), and receives them as
that schema: a plain dict for a ``TypedDict``, an instance for a dataclass or a Pydantic model.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
import weakref
from collections.abc import Callable
from typing import Any

from lab.checkpoint.allow_list import class_hints, is_pydantic_model
from lab.graph.unsupported import NotSupportedError
from lab.pregel.channels import (
    BinaryOperatorAggregate,
    Channel,
    DeltaChannel,
    LastValue,
    UntrackedValue,
)
from lab.pregel.nodes import ROOT


def is_schema(candidate: Any) -> bool:
    """A class whose annotated fields can be channels (LangGraph's ``get_type_hints(x)`` test)."""
    if not isinstance(candidate, type):
        return False
    try:
        return bool(class_hints(candidate))
    except Exception:
        return False


def schema_fields(schema: Any) -> dict[str, Any]:
    """Field name → type hint (with ``Annotated`` kept); a whole-value schema has one field."""
    if not hasattr(schema, "__annotations__") and not is_schema(schema):
        return {ROOT: schema}
    if isinstance(schema, type):
        return class_fields(schema)
    return _fields(typing.get_type_hints(schema, include_extras=True))


@functools.cache
def class_fields(cls: type) -> dict[str, Any]:
    """A class's fields (:func:`schema_fields`), read once per class as its hints are (``class_hints``):
    every node added reads its input schema's. Shared: read it, never change it."""
    return _fields(class_hints(cls))


def _fields(hints: dict[str, Any]) -> dict[str, Any]:
    return {
        name: without_required(hint)
        for name, hint in hints.items()
        if name != "__slots__" and not _is_class_var(hint)
    }


def without_required(hint: Any) -> Any:
    """``Required[T]`` / ``NotRequired[T]`` as ``T`` (a ``TypedDict`` keeps which keys are required in
    ``__required_keys__``), as LangGraph strips them before it reads a field's reducer."""
    if typing.get_origin(hint) in (typing.Required, typing.NotRequired):
        return without_required(typing.get_args(hint)[0])
    return hint


def _is_class_var(hint: Any) -> bool:
    return typing.get_origin(hint) is typing.ClassVar


def channels_of(schema: Any) -> dict[str, Channel]:
    return {key: channel_for(key, hint) for key, hint in schema_fields(schema).items()}


def channel_for(key: str, hint: Any) -> Channel:
    if (declared := declared_channel(key, hint)) is not None:
        return declared
    reducer = reducer_of(hint)
    if reducer is None:
        return LastValue(key=key)
    return BinaryOperatorAggregate(without_required(typing.get_args(hint)[0]), reducer)


def declared_channel(key: str, hint: Any) -> DeltaChannel | UntrackedValue | None:
    """The channel an ``Annotated`` hint names itself, as LangGraph's ``_is_field_channel``:
    ``Annotated[list, DeltaChannel(reducer)]`` is a fresh ``DeltaChannel`` of the hint's type (the
    opt-in; LangGraph's default for an appending list is ``BinaryOperatorAggregate``);
    ``Annotated[T, UntrackedValue]`` (or ``UntrackedValue(T, guard=False)``) an ``UntrackedValue``.
    Other channel objects in a hint (``Annotated[int, EphemeralValue]``) are refused by name."""
    if typing.get_origin(hint) is not typing.Annotated:
        return None
    value_type, *metadata = typing.get_args(hint)
    for item in metadata:
        if isinstance(item, DeltaChannel):
            origin = typing.get_origin(value_type) or value_type
            return DeltaChannel(item.reducer, origin, snapshot_frequency=item.snapshot_frequency)
        if item is UntrackedValue:
            return UntrackedValue(value_type, key=key)
        if isinstance(item, UntrackedValue):
            return UntrackedValue(item.typ, item.guard, key=key)
        if isinstance(item, Channel) or (isinstance(item, type) and issubclass(item, Channel)):
            raise NotSupportedError(f"a channel in a state annotation other than DeltaChannel ({item!r})")
    return None


def reducer_of(hint: Any) -> Callable[[Any, Any], Any] | None:
    """The reducer of ``Annotated[T, reducer]``; refuses one that cannot take ``(a, b)``."""
    if typing.get_origin(hint) is not typing.Annotated:
        return None
    reducer = typing.get_args(hint)[-1]
    if not callable(reducer):
        return None
    if _positional_parameters(reducer) != 2:
        raise ValueError(f"Invalid reducer signature. Expected (a, b) -> c. Got {inspect.signature(reducer)}")
    return reducer


def _positional_parameters(func: Callable[..., Any]) -> int:
    """How many positional parameters ``func`` declares; remembered per reducer when it can be hashed."""
    try:
        return _remembered_positional_parameters(func)
    except TypeError:  # an unhashable callable object: count again
        return _count_positional_parameters(func)


def _count_positional_parameters(func: Callable[..., Any]) -> int:
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(p.kind in positional for p in inspect.signature(func).parameters.values())


_remembered_positional_parameters = functools.lru_cache(maxsize=256)(_count_positional_parameters)
"""``inspect.signature`` parses a builtin's text signature (``operator.add``) on every call, and the
lab compiles its graphs again for every new process: a reducer is counted once."""


# -- what a node receives ----------------------------------------------------------------------------


def as_schema(schema: Any) -> Callable[[dict[str, Any]], Any]:
    """What turns the state into what a node (or router) declared: an instance of a dataclass or
    Pydantic model, else the dict itself (decided once, when the graph is compiled)."""
    if isinstance(schema, type) and dataclasses.is_dataclass(schema):
        return lambda values: schema(**values)
    if is_pydantic_model(schema):
        return schema.model_validate
    return _as_is


def _as_is(values: dict[str, Any]) -> dict[str, Any]:
    return values


_FUNCTION_HINTS: weakref.WeakKeyDictionary[Callable[..., Any], dict[str, Any]] = weakref.WeakKeyDictionary()


def function_hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """A function's annotations evaluated (``typing.get_type_hints``), once per function, as
    :func:`~lab.checkpoint.allow_list.class_hints` is once per class: a graph's node functions are read
    at every compile, and the lab compiles its graphs again in every new process. A bound method is read
    as its function (every instance has the same annotations). Annotations that do not evaluate yet
    raise, and are not remembered; the answer is shared: read it, never change it."""
    target = getattr(fn, "__func__", fn)
    if not inspect.isfunction(target):
        return typing.get_type_hints(fn)
    if (hints := _FUNCTION_HINTS.get(target)) is None:
        hints = _FUNCTION_HINTS[target] = typing.get_type_hints(target)
    return hints


def first_parameter_schema(fn: Callable[..., Any]) -> Any:
    """The schema annotating a node function's first parameter, or ``None`` (LangGraph infers the
    node's input schema this way; it is how a node reads private state). For an instance of a class
    with ``__call__``, that method's first parameter after ``self``, as LangGraph reads it."""
    try:
        call = inspect.getattr_static(type(fn), "__call__", None)  # (a function's is a C wrapper)
        hints = function_hints(call if inspect.isfunction(call) else fn)
        first = next(iter(inspect.signature(fn).parameters))
    except (NameError, TypeError, ValueError, StopIteration):
        return None
    hint = hints.get(first)
    return hint if is_schema(hint) else None
