"""Typed msgpack serialization of checkpoint data, as in LangGraph's ``SerializerProtocol``.

A saver never stores Python objects: it stores ``(type, bytes)`` pairs made by
``dumps_typed`` and turns them back with ``loads_typed``. Like LangGraph's
``JsonPlusSerializer`` (msgpack mode) we use:

- ``("null", b"")`` for ``None``;
- ``("msgpack", <bytes>)`` for everything else.

(``("empty", b"")``, "a channel has a version but no value", is a marker of the saver, not of
the serializer: see ``lab.checkpoint.core``.)

msgpack natively knows ``None``, ``bool``, ``int``, ``float``, ``str``, ``bytes``, ``list`` and
``dict``. Everything else must be on an **allow-list** and travels as a msgpack *extension
type* (a small integer code plus bytes):

============  ====================================================================
code          value
============  ====================================================================
1 / 2 / 3     ``set`` / ``frozenset`` / ``tuple`` (items packed as a msgpack array)
4             ``datetime`` (its ISO-8601 text; a time zone comes back as a fixed offset)
5             ``uuid.UUID`` (its 16 bytes)
6             a type registered with :func:`register_type`, e.g. ``Interrupt``, ``Send``
============  ====================================================================

Subclasses of ``dict``, ``list``, ``tuple``, ``str``, ``int`` and ``float`` (``defaultdict``,
a ``NamedTuple``, an ``IntEnum``...) are stored as that base type. Anything else raises
``TypeError`` when saving.

Loading never runs code found in the data: an unknown extension code or an unregistered
type name raises ``ValueError``; the only constructors ever called are those of registered
types. This works with msgpack's C extension and with its pure-Python fallback (the one
Pyodide may use), which produce identical bytes.
"""

from __future__ import annotations

import dataclasses
import threading
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

import msgpack

TypedValue = tuple[str, bytes]
"""A serialized value: ``(type, payload)``, e.g. ``("msgpack", b"\\x81\\xa1x\\x01")``."""

NULL: TypedValue = ("null", b"")

_SET, _FROZENSET, _TUPLE, _DATETIME, _UUID, _REGISTERED = 1, 2, 3, 4, 5, 6


class SerializerProtocol(Protocol):
    """What a saver needs from a serializer (LangGraph's ``SerializerProtocol``)."""

    def dumps_typed(self, obj: Any) -> TypedValue: ...

    def loads_typed(self, data: TypedValue) -> Any: ...


@dataclasses.dataclass(frozen=True)
class _RegisteredType:
    name: str
    cls: type
    fields: tuple[str, ...]


_registered_by_name: dict[str, _RegisteredType] = {}
_registered_by_class: dict[type, _RegisteredType] = {}


def register_type(cls: type, *, name: str | None = None, fields: Sequence[str] | None = None) -> None:
    """Allow instances of ``cls`` in checkpoints.

    An instance is stored as ``name`` plus the values of its ``fields`` (by default the
    init fields of a dataclass) and loaded as ``cls(**{field: value, ...})``. ``name``
    defaults to ``cls.__name__`` and is what the stored bytes contain, so keep it stable.
    Registering a name again replaces the previous entry (re-running a notebook cell that
    defines the class works).

    ``lab.types`` registers ``Interrupt`` and ``Send``.
    """
    if fields is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__qualname__} is not a dataclass: pass fields=(...) to register it")
        fields = [field.name for field in dataclasses.fields(cls) if field.init]
    entry = _RegisteredType(name or cls.__name__, cls, tuple(fields))
    previous = _registered_by_name.get(entry.name)
    if previous is not None:
        _registered_by_class.pop(previous.cls, None)
    _registered_by_name[entry.name] = entry
    _registered_by_class[cls] = entry


_idle_packers = threading.local()
"""Per-thread pool of reusable ``msgpack.Packer`` objects: making a packer costs ~8 times as
much as packing a small value. A packer is busy while it packs (and ``_to_ext`` packs nested
payloads), so a nested or concurrent call takes another one from the pool or makes one."""


def _pack(obj: Any) -> bytes:
    pool: list[msgpack.Packer] = _idle_packers.__dict__.setdefault("pool", [])
    # strict_types: a tuple (or a dict subclass...) is not silently packed as an array (or a
    # map) but handed to _to_ext, which decides what it becomes.
    packer = pool.pop() if pool else msgpack.Packer(default=_to_ext, strict_types=True, use_bin_type=True)
    try:
        return packer.pack(obj)  # on error the packer empties its buffer, so it stays reusable
    finally:
        pool.append(packer)


def _unpack(data: bytes) -> Any:
    # strict_map_key=False: dicts may have int, tuple... keys, not only str.
    return msgpack.unpackb(data, ext_hook=_from_ext, raw=False, strict_map_key=False)


def _ext_items(code: int) -> Callable[[Any], msgpack.ExtType]:
    return lambda obj: msgpack.ExtType(code, _pack(list(obj)))


_ENCODERS: dict[type, Callable[[Any], msgpack.ExtType]] = {
    set: _ext_items(_SET),
    frozenset: _ext_items(_FROZENSET),
    tuple: _ext_items(_TUPLE),
    datetime: lambda obj: msgpack.ExtType(_DATETIME, obj.isoformat().encode()),
    uuid.UUID: lambda obj: msgpack.ExtType(_UUID, obj.bytes),
}

_BASE_TYPES: tuple[tuple[type, Callable[[Any], Any]], ...] = (
    (dict, dict),
    (list, list),
    (tuple, _ENCODERS[tuple]),
    (str, str.__str__),  # str(x) would call an enum's __str__; this gives the plain text
    (int, int),
    (float, float),
)


def _to_ext(obj: Any) -> Any:
    """msgpack's ``default`` hook: called for every object it cannot pack itself."""
    encode = _ENCODERS.get(type(obj))
    if encode is not None:
        return encode(obj)
    registered = _registered_by_class.get(type(obj))
    if registered is not None:
        values = [getattr(obj, field) for field in registered.fields]
        return msgpack.ExtType(_REGISTERED, _pack([registered.name, *values]))
    for base, convert in _BASE_TYPES:
        if isinstance(obj, base):
            return convert(obj)
    kind = type(obj)
    raise TypeError(
        f"cannot serialize {kind.__module__}.{kind.__qualname__} ({obj!r:.80}): checkpoints hold only "
        "JSON-like values, set, frozenset, tuple, datetime, uuid.UUID, bytes and types registered "
        "with lab.checkpoint.serde.register_type"
    )


def _load_registered(data: bytes) -> Any:
    name, *values = _unpack(data)
    registered = _registered_by_name.get(name)
    if registered is None:
        raise ValueError(
            f"stored object of type {name!r} is not registered for loading: import the module that "
            "calls lab.checkpoint.serde.register_type for it (lab.types registers Interrupt and Send)"
        )
    if len(values) != len(registered.fields):
        raise ValueError(
            f"stored {name!r} has {len(values)} values but its registration has fields {registered.fields}"
        )
    return registered.cls(**dict(zip(registered.fields, values, strict=True)))


_DECODERS: dict[int, Callable[[bytes], Any]] = {
    _SET: lambda data: set(_unpack(data)),
    _FROZENSET: lambda data: frozenset(_unpack(data)),
    _TUPLE: lambda data: tuple(_unpack(data)),
    _DATETIME: lambda data: datetime.fromisoformat(data.decode()),
    _UUID: lambda data: uuid.UUID(bytes=data),
    _REGISTERED: _load_registered,
}


def _from_ext(code: int, data: bytes) -> Any:
    """msgpack's ``ext_hook``: rebuild an allow-listed value from its extension code."""
    decode = _DECODERS.get(code)
    if decode is None:
        raise ValueError(
            f"unknown msgpack extension type {code} ({len(data)} bytes): this serializer only "
            f"loads codes {sorted(_DECODERS)}"
        )
    return decode(data)


class MsgpackSerializer:
    """The default serializer of every lab saver (see the module docstring)."""

    def dumps_typed(self, obj: Any) -> TypedValue:
        if obj is None:
            return NULL
        return "msgpack", _pack(obj)

    def loads_typed(self, data: TypedValue) -> Any:
        kind, payload = data
        if kind == "msgpack":
            return _unpack(payload)
        if kind == "null":
            return None
        raise ValueError(
            f"cannot load a value serialized as {kind!r}: MsgpackSerializer reads 'msgpack' and 'null'"
        )
