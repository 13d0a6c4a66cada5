"""Typed msgpack serialization of checkpoint data, as in LangGraph's ``SerializerProtocol``.

A saver never stores Python objects: it stores ``(type, bytes)`` pairs made by
``dumps_typed`` and turns them back with ``loads_typed``. Like LangGraph's
``JsonPlusSerializer`` (msgpack mode) we use:

- ``("null", b"")`` for ``None``;
- ``("msgpack", <bytes>)`` for everything else.

(``("empty", b"")``, "a channel has a version but no value", is a marker of the saver, not of
the serializer: see ``lab.checkpoint.core``.)

msgpack natively knows ``None``, ``bool``, ``int``, ``float``, ``str``, ``bytes``, ``list`` and
``dict``. A ``tuple`` is written as a msgpack array, byte for byte as LangGraph writes it, so it comes
back a ``list``, as LangGraph's does (a tuple used as a dict key comes back a tuple: LangGraph's
loader turns array keys into tuples, and so does this one). Everything else must be on an
**allow-list** and travels as a msgpack *extension type* (a small integer code plus bytes):

============  ====================================================================
code          value
============  ====================================================================
1 / 2         ``set`` / ``frozenset`` (items packed as a msgpack array)
3             ``tuple``: only loaded, as a tuple (what the lab wrote for a tuple before it wrote arrays)
4             ``datetime`` (its ISO-8601 text; a time zone comes back as a fixed offset)
5             ``uuid.UUID`` (its 16 bytes)
6             a type registered with :func:`register_type`, e.g. ``Interrupt``, ``Send``
7             a model registered with :func:`register_model`: a chat message
============  ====================================================================

**Models** (code 7) are stored as LangGraph's ``JsonPlusSerializer`` stores a Pydantic v2 model
(its extension code 5): the bytes of ``[module, class name, obj.model_dump(), "model_validate_json"]``,
so a later tool can move such values between the two by changing one code. LangGraph imports
``module`` and calls the class it names; here ``(module, class name)`` is only a key into the
allow-list: loading builds the class registered for that key and refuses every other key.

Subclasses of ``dict``, ``list``, ``tuple``, ``str``, ``int`` and ``float`` (``defaultdict``,
a ``NamedTuple``, an ``IntEnum``...) are stored as that base type (a ``NamedTuple`` as an array).
Anything else raises :class:`UnsavableValueError` when saving.

**Depth.** Values may nest at most :data:`MAX_DEPTH` containers deep. Loading checks it for typed
values (C msgpack recurses through every extension value on the C stack, and about 190 levels
crash CPython), and saving checks it for everything, so the lab never writes what it could not
read back. Saving packs with msgpack's C extension where there is one (CPython), beside a depth
check that visits containers only; without it (the browser) the lab's pure-Python packer
(``lab.checkpoint.plain_msgpack``) checks depth in the same walk that writes the bytes.

**Loading never runs code found in the data**: an unknown extension code or an unregistered type
name is refused; the only constructors ever called are those of registered types, and only with
field values of the types they were registered with (``Interrupt(id=123)`` is refused). Whatever is
wrong, loading raises one error, :class:`CorruptRecordError`, saying what, in English and by a code
(with its values as data) that the page says in the learner's language; so does every
:class:`UnsavableValueError` of saving (an integer beyond 64 bits is one). This works with
msgpack's C extension and with its pure-Python fallback (the one Pyodide may use), which produce
identical bytes.
"""

from __future__ import annotations

import dataclasses
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

import msgpack
from msgpack import fallback as msgpack_fallback

from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.plain_msgpack import PackInner, TooDeep, plain_packer

TypedValue = tuple[str, bytes]
"""A serialized value: ``(type, payload)``, e.g. ``("msgpack", b"\\x81\\xa1x\\x01")``."""

NULL: TypedValue = ("null", b"")

MAX_DEPTH = 50
"""How many containers (dict, list, set, tuple, registered type) a value may nest. Far more than
any state needs, and far below the ~190 typed levels that overflow C msgpack's stack."""

_SET, _FROZENSET, _TUPLE, _DATETIME, _UUID, _REGISTERED, _MODEL = 1, 2, 3, 4, 5, 6, 7


class SerializerProtocol(Protocol):
    """What a saver needs from a serializer (LangGraph's ``SerializerProtocol``)."""

    def dumps_typed(self, obj: Any) -> TypedValue: ...

    def loads_typed(self, data: TypedValue) -> Any: ...


@dataclasses.dataclass(frozen=True)
class _RegisteredType:
    name: str
    cls: type
    fields: tuple[str, ...]
    field_types: Mapping[str, tuple[type, ...]]
    required: int
    """How many leading fields a stored record must hold: the others have defaults, so a record
    stored before they were added (an ``Interrupt`` before ``response_schema``) still loads."""


_registered_by_name: dict[str, _RegisteredType] = {}
_registered_by_class: dict[type, _RegisteredType] = {}


def register_type(
    cls: type,
    *,
    name: str | None = None,
    fields: Sequence[str] | None = None,
    field_types: Mapping[str, tuple[type, ...]] | None = None,
) -> None:
    """Allow instances of ``cls`` in checkpoints.

    An instance is stored as ``name`` plus the values of its ``fields`` (by default the
    init fields of a dataclass) and loaded as ``cls(**{field: value, ...})``. ``name``
    defaults to ``cls.__name__`` and is what the stored bytes contain, so keep it stable.
    ``field_types`` maps fields to the types a loaded value must have, e.g.
    ``{"id": (str,)}``: a stored record with another type is refused before ``cls`` is called.
    Registering a name again replaces the previous entry (re-running a notebook cell that
    defines the class works).

    ``lab.types`` registers ``Interrupt``, ``Send``, ``Command`` and ``Overwrite``.
    """
    if fields is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__qualname__} is not a dataclass: pass fields=(...) to register it")
        fields = [field.name for field in dataclasses.fields(cls) if field.init]
    unknown = set(field_types or {}) - set(fields)
    if unknown:
        raise TypeError(f"field_types names {sorted(unknown)}, which are not fields of {cls.__qualname__}")
    entry = _RegisteredType(
        name or cls.__name__, cls, tuple(fields), dict(field_types or {}), _required_count(cls, fields)
    )
    previous = _registered_by_name.get(entry.name)
    if previous is not None:
        _registered_by_class.pop(previous.cls, None)
    _registered_by_name[entry.name] = entry
    _registered_by_class[cls] = entry


def _required_count(cls: type, fields: Sequence[str]) -> int:
    """The fields up to the last one without a default (all of them, for a class not a dataclass)."""
    if not dataclasses.is_dataclass(cls):
        return len(fields)
    defaults = {f.name for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING}
    return max((index + 1 for index, field in enumerate(fields) if field not in defaults), default=0)


ModelKey = tuple[str, str]
"""``(module, class name)`` as a model's record names it, e.g.
``("langchain_core.messages.human", "HumanMessage")``."""

_model_key_by_class: dict[type, ModelKey] = {}
_model_class_by_key: dict[ModelKey, type] = {}


def register_model(cls: type, key: ModelKey) -> None:
    """Allow instances of ``cls``, a class with a ``model_dump()`` method that returns its fields and
    a constructor that takes them back as keywords (a Pydantic v2 model, or one of the lab's own
    message classes in ``lab.plain_messages``), in checkpoints, stored under ``key``.

    Several classes may be saved under one key (the lab's own ``HumanMessage`` and LangChain's both
    write ``("langchain_core.messages.human", "HumanMessage")``); loading builds the one registered
    *last* for it (``lab.messages`` decides which)."""
    _model_key_by_class[cls] = key
    _model_class_by_key[key] = cls


def is_registered(cls: type) -> bool:
    """Whether instances of ``cls`` are allowed in checkpoints already (:func:`register_type` or
    :func:`register_model`)."""
    return cls in _registered_by_class or cls in _model_key_by_class


# --- depth ------------------------------------------------------------------------------------

_LEAVES = frozenset({str, int, float, bool, bytes, type(None), datetime, uuid.UUID})


def _children(obj: Any) -> Iterable[tuple[Any, Any]] | None:
    """The ``(key, item)`` pairs inside a container (dict keys count too: they may be tuples);
    ``None`` for a value that holds no other value."""
    if type(obj) in _LEAVES:
        return None
    if isinstance(obj, dict):
        return [*obj.items(), *((key, key) for key in obj if type(key) not in _LEAVES)]
    if isinstance(obj, list | tuple | set | frozenset):
        return enumerate(obj)
    registered = _registered_by_class.get(type(obj))
    if registered is not None:
        return [(field, getattr(obj, field)) for field in registered.fields]
    if type(obj) in _model_key_by_class:
        return obj.model_dump().items()
    return None


def _path_too_deep(obj: Any, depth: int = 1) -> list[Any] | None:
    """The keys leading to the first container nested deeper than ``MAX_DEPTH``, or ``None``."""
    children = _children(obj)
    if children is None:
        return None
    if depth > MAX_DEPTH:
        return []
    for key, item in children:
        path = _path_too_deep(item, depth + 1)
        if path is not None:
            return [key, *path]
    return None


def _path_text(path: list[Any]) -> str:
    shown = "".join(f"[{key!r}]" for key in path[:4])
    return shown + "..." if len(path) > 4 else shown


_NOT_CONTAINER_HEADERS = bytes(
    byte
    for byte in range(256)
    if not (0x80 <= byte <= 0x9F or 0xC7 <= byte <= 0xC9 or 0xD4 <= byte <= 0xD8 or 0xDC <= byte <= 0xDF)
)
"""Every byte but those a container's header starts with in msgpack (a map, an array, an extension
value: how tuples, sets and registered types are stored)."""


def _may_nest_too_deep(packed: bytes) -> bool:
    """Could these bytes hold containers nested more than ``MAX_DEPTH`` deep? Not if they hold at most
    ``MAX_DEPTH`` bytes a container's header may start with: each container has one such byte (other
    bytes may look like one too, so this only rules values out), and nesting needs containers. (Bytes
    no longer than ``MAX_DEPTH`` cannot: ``dumps_typed`` asks only about longer ones.)"""
    return len(packed.translate(None, _NOT_CONTAINER_HEADERS)) > MAX_DEPTH


# --- saving -----------------------------------------------------------------------------------


def _ext_items(code: int) -> Callable[[Any, PackInner], msgpack.ExtType]:
    return lambda obj, pack_inner: msgpack.ExtType(code, pack_inner(list(obj)))


_ENCODERS: dict[type, Callable[[Any, PackInner], msgpack.ExtType]] = {
    set: _ext_items(_SET),
    frozenset: _ext_items(_FROZENSET),
    datetime: lambda obj, _: msgpack.ExtType(_DATETIME, obj.isoformat().encode()),
    uuid.UUID: lambda obj, _: msgpack.ExtType(_UUID, obj.bytes),
}

_BASE_TYPES: tuple[tuple[type, Callable[[Any, PackInner], Any]], ...] = (
    (dict, lambda obj, _: dict(obj)),
    (list, lambda obj, _: list(obj)),
    (tuple, lambda obj, _: list(obj)),  # LangGraph's bytes: an array, loaded as a list
    (str, lambda obj, _: str.__str__(obj)),  # str(x) would call an enum's __str__; this gives the plain text
    (int, lambda obj, _: int(obj)),
    (float, lambda obj, _: float(obj)),
)


def _storable(obj: Any, pack_inner: PackInner) -> Any:
    """What msgpack writes for a value it cannot write itself: an ``ExtType`` for an allow-listed type
    (its items packed with ``pack_inner``), the base type's value for a subclass of a native type."""
    encode = _ENCODERS.get(type(obj))
    if encode is not None:
        return encode(obj, pack_inner)
    registered = _registered_by_class.get(type(obj))
    if registered is not None:
        values = [getattr(obj, field) for field in registered.fields]
        return msgpack.ExtType(_REGISTERED, pack_inner([registered.name, *values]))
    model_key = _model_key_by_class.get(type(obj))
    if model_key is not None:
        return msgpack.ExtType(_MODEL, pack_inner([*model_key, obj.model_dump(), "model_validate_json"]))
    for base, convert in _BASE_TYPES:
        if isinstance(obj, base):
            return convert(obj, pack_inner)
    kind = type(obj)
    raise UnsavableValueError.coded(
        "unsavable_type",
        "{kind} ({value}) is not a type checkpoints hold: they hold only JSON-like values, set, "
        "frozenset, tuple, datetime, uuid.UUID, bytes and types registered with "
        "lab.checkpoint.serde.register_type",
        kind=f"{kind.__module__}.{kind.__qualname__}",
        value=f"{obj!r:.80}",
    )


_packing = threading.local()
"""How many typed values the current thread is packing inside each other."""


def _typed(obj: Any, pack_inner: PackInner) -> Any:
    """``_storable``, refusing an extension value nested in ``MAX_DEPTH`` others: loading refuses
    those (even a ``datetime``, which is no container), so saving must. It runs in the walk that
    packs: msgpack calls it for every value it cannot write itself."""
    depth = _packing.__dict__.get("depth", 0)
    if depth >= MAX_DEPTH:  # refused before its items are packed, so a deep value stops here
        stored = _storable(obj, _nest_no_further)
        if type(stored) is msgpack.ExtType:
            raise TooDeep(f"typed values nest more than {MAX_DEPTH} deep")
        return stored  # a subclass of a native type, stored as that type: no typed value
    _packing.depth = depth + 1
    try:
        return _storable(obj, pack_inner)
    finally:
        _packing.depth = depth


def _nest_no_further(_items: Any) -> bytes:
    raise TooDeep(f"typed values nest more than {MAX_DEPTH} deep")


def _to_ext(obj: Any) -> Any:
    """msgpack's ``default`` hook: called by its ``Packer`` for every object it cannot pack itself."""
    return _typed(obj, _pack_items)


_idle_packers: list[msgpack.Packer] = []
"""Idle ``msgpack.Packer`` objects, kept for reuse: making a packer costs ~8 times as much as packing
a small value. A packer is busy while it packs (``_to_ext`` packs nested payloads, and another thread
may pack at the same time), so each call takes one from here, or makes one, and puts it back when it
is done (``list.pop`` and ``list.append`` are atomic). There are never more than calls at once."""


def _new_packer() -> msgpack.Packer:
    # strict_types: a tuple (or a dict subclass...) is not silently packed as an array (or a map) but
    # handed to _to_ext, which decides what it becomes.
    return msgpack.Packer(default=_to_ext, strict_types=True, use_bin_type=True)


def _pack_items(items: Any) -> bytes:
    """Packs a typed value's items with an idle packer, inside the walk of the value that holds them
    (``MsgpackSerializer.dumps_typed``, which checks the depth of the whole)."""
    try:
        packer = _idle_packers.pop()
    except IndexError:
        packer = _new_packer()
    try:
        return packer.pack(items)  # on error the packer empties its buffer, so it stays reusable
    finally:
        _idle_packers.append(packer)


_pack_plain = plain_packer(_typed, MAX_DEPTH)
"""The packer without msgpack's C extension (the browser): pure Python, one walk that also checks depth."""

COMPILED_MSGPACK = msgpack.Packer is not msgpack_fallback.Packer
"""Does msgpack run its C extension here? (CPython: yes; the browser ships msgpack without it.)"""


# --- loading ----------------------------------------------------------------------------------


def _unpack(data: bytes) -> Any:
    # strict_map_key=False: dicts may have int, tuple... keys, not only str.
    try:
        return msgpack.unpackb(data, ext_hook=_from_ext, raw=False, strict_map_key=False)
    except TypeError as error:  # (a map with an array key: a tuple key, written as LangGraph writes it)
        if "unhashable" not in str(error):
            raise
        return msgpack.unpackb(
            data, ext_hook=_from_ext, raw=False, strict_map_key=False, object_pairs_hook=_dict_of_pairs
        )


def _dict_of_pairs(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """A map's pairs as a dict, its array keys (and arrays inside them) as tuples, as LangGraph's
    loader (ormsgpack's ``OPT_NON_STR_KEYS``) makes them."""
    return {_hashable(key): value for key, value in pairs}


def _hashable(key: Any) -> Any:
    return tuple(_hashable(item) for item in key) if isinstance(key, list) else key


def _checked_field(registered: _RegisteredType, field: str, value: Any) -> Any:
    expected = registered.field_types.get(field)
    if expected is not None and not isinstance(value, expected):
        wanted = " or ".join("None" if kind is type(None) else kind.__name__ for kind in expected)
        raise CorruptRecordError.coded(
            "registered_field_type",
            "stored {name} has {field}={value} ({type}); its {field} must be {wanted}",
            name=registered.name,
            field=field,
            value=f"{value!r:.60}",
            type=type(value).__name__,
            wanted=wanted,
        )
    return value


def _load_registered(data: bytes) -> Any:
    stored = _unpack(data)
    if not (isinstance(stored, list) and stored and isinstance(stored[0], str)):
        raise CorruptRecordError.coded(
            "typed_object_shape",
            "a typed object must be [type name, *field values], got {value}",
            value=f"{stored!r:.60}",
        )
    name, *values = stored
    registered = _registered_by_name.get(name)
    if registered is None:
        raise CorruptRecordError.coded(
            "unregistered_type",
            "stored object of type {name} is not registered for loading: import the module that "
            "calls lab.checkpoint.serde.register_type for it (lab.types registers Interrupt and Send)",
            name=repr(name),
        )
    if not registered.required <= len(values) <= len(registered.fields):
        raise CorruptRecordError.coded(
            "registered_field_count",
            "stored {name} has {count} values but its registration has fields {fields}",
            name=repr(name),
            count=len(values),
            fields=str(registered.fields),
        )
    return registered.cls(
        **{
            field: _checked_field(registered, field, value)
            for field, value in zip(registered.fields, values, strict=False)  # (fields not stored: defaults)
        }
    )


def _load_model(data: bytes) -> Any:
    stored = _unpack(data)
    if not (
        isinstance(stored, list)
        and len(stored) == 4
        and all(isinstance(part, str) for part in (stored[0], stored[1], stored[3]))
        and isinstance(stored[2], dict)
        and all(isinstance(field, str) for field in stored[2])
    ):
        raise CorruptRecordError.coded(
            "model_shape",
            "a stored model must be [module, class name, fields, method], got {value}",
            value=f"{stored!r:.60}",
        )
    module, name, fields, _ = stored
    cls = _model_class_by_key.get((module, name))
    if cls is None:
        raise CorruptRecordError.coded(
            "unregistered_model",
            "stored model {module}.{name} is not registered for loading: import the module that "
            "calls lab.checkpoint.serde.register_model for it (lab.messages registers chat messages)",
            module=module,
            name=name,
        )
    try:
        return cls(**fields)
    except (TypeError, ValueError) as error:  # a Pydantic ValidationError is a ValueError
        raise CorruptRecordError.coded(
            "model_fields",
            "stored {name} does not build from its fields ({error}: {detail})",
            name=name,
            error=type(error).__name__,
            detail=" ".join(str(error).split())[:160],
        ) from error


def _load_items(kind: type, *, hashed: bool) -> Callable[[bytes], Any]:
    """A loader of a stored set, frozenset or (old) tuple; ``hashed``: its array items come back as
    tuples (a set of tuples holds arrays: LangGraph could not load it back, the lab can)."""

    def load(data: bytes) -> Any:
        items = _unpack(data)
        if not isinstance(items, list):
            raise CorruptRecordError.coded(
                "items_not_array",
                "a stored {kind} must hold an array, got {value}",
                kind=kind.__name__,
                value=f"{items!r:.60}",
            )
        return kind(map(_hashable, items)) if hashed else kind(items)

    return load


def _load_uuid(data: bytes) -> uuid.UUID:
    if len(data) != 16:
        raise CorruptRecordError.coded(
            "uuid_size", "a stored UUID must be 16 bytes, got {size}", size=len(data)
        )
    return uuid.UUID(bytes=data)


_DECODERS: dict[int, Callable[[bytes], Any]] = {
    _SET: _load_items(set, hashed=True),
    _FROZENSET: _load_items(frozenset, hashed=True),
    _TUPLE: _load_items(tuple, hashed=False),
    _DATETIME: lambda data: datetime.fromisoformat(data.decode()),
    _UUID: _load_uuid,
    _REGISTERED: _load_registered,
    _MODEL: _load_model,
}

_loading = threading.local()
"""How many typed values the current thread is decoding inside each other."""


def _from_ext(code: int, data: bytes) -> Any:
    """msgpack's ``ext_hook``: rebuild an allow-listed value from its extension code."""
    decode = _DECODERS.get(code)
    if decode is None:
        raise CorruptRecordError.coded(
            "unknown_extension",
            "unknown msgpack extension type {ext} ({size} bytes): this serializer only loads codes {known}",
            ext=code,
            size=len(data),
            known=str(sorted(_DECODERS)),
        )
    depth = getattr(_loading, "depth", 0)
    if depth >= MAX_DEPTH:
        raise CorruptRecordError.coded(
            "typed_too_deep", "typed values are nested more than {limit} deep (the limit)", limit=MAX_DEPTH
        )
    _loading.depth = depth + 1
    try:
        return decode(data)
    finally:
        _loading.depth = depth


def _unpack_error(error: Exception) -> CorruptRecordError:
    """What is wrong with bytes msgpack (or a decoder) refused, in words (and by code)."""
    if isinstance(error, msgpack.ExtraData):
        return CorruptRecordError.coded(
            "extra_data",
            "{count} bytes follow the value: the record holds more than one value",
            count=len(error.extra),
        )
    if isinstance(error, msgpack.StackError | RecursionError):
        return CorruptRecordError.coded("too_deep", "the value is nested deeper than msgpack can read")
    if isinstance(error, msgpack.FormatError):
        return CorruptRecordError.coded("not_msgpack", "the bytes are not msgpack")
    if isinstance(error, msgpack.OutOfData) or "incomplete input" in str(error):
        return CorruptRecordError.coded("truncated", "the bytes end inside a value: the record is truncated")
    if isinstance(error, UnicodeDecodeError):
        return CorruptRecordError.coded("not_utf8", "a text in it is not valid UTF-8")
    return CorruptRecordError.coded(
        "does_not_decode",
        "it does not decode ({error}: {detail})",
        error=type(error).__name__,
        detail=str(error),
    )


def _pack_error(error: Exception) -> UnsavableValueError:
    """What msgpack could not pack, in words (and by code)."""
    if isinstance(error, OverflowError):
        return UnsavableValueError.coded(
            "int_beyond_64_bits",
            "it holds an integer beyond 64 bits: msgpack stores integers from -2**63 to 2**64 - 1",
        )
    return UnsavableValueError.coded(
        "does_not_pack",
        "msgpack cannot pack it ({error}: {detail})",
        error=type(error).__name__,
        detail=str(error),
    )


def _typed_pair(data: Any) -> tuple[str, bytes]:
    """``data`` as a ``(type, bytes)`` pair, or the error saying why it is not one."""
    if type(data) is tuple and len(data) == 2 and type(data[0]) is str and type(data[1]) is bytes:
        return data  # what every saver stores: checked in one line
    if isinstance(data, tuple | list) and len(data) == 2:
        kind, payload = data
        if isinstance(kind, str) and isinstance(payload, bytes | bytearray | memoryview):
            return kind, bytes(payload)
    raise CorruptRecordError.coded(
        "not_typed_pair", "a stored value must be a (type, bytes) pair, got {type}", type=type(data).__name__
    )


class MsgpackSerializer:
    """The default serializer of every lab saver (see the module docstring). It packs with msgpack's C
    extension where msgpack has one, else in pure Python (``lab.checkpoint.plain_msgpack``);
    ``pure_python=True`` asks for the pure-Python packer anyway. Both write the same bytes."""

    def __init__(self, *, pure_python: bool = not COMPILED_MSGPACK) -> None:
        self._pure_python = pure_python

    def dumps_typed(self, obj: Any) -> TypedValue:
        if obj is None:
            return NULL
        try:
            if self._pure_python:
                return "msgpack", _pack_plain(obj)
            # msgpack's own Packer (C on CPython), here rather than in a function: one call less a value
            try:
                packer = _idle_packers.pop()
            except IndexError:
                packer = _new_packer()
            try:
                packed = packer.pack(obj)  # on error the packer empties its buffer, so it stays reusable
            except ValueError:  # TooDeep, or msgpack's own limit (511 levels), or another refusal
                if _path_too_deep(obj) is None:
                    raise
                raise TooDeep(f"containers nest more than {MAX_DEPTH} deep") from None
            finally:
                _idle_packers.append(packer)
            # the depth check C msgpack cannot make: scan the bytes; walk a value with many containers
            if len(packed) > MAX_DEPTH and _may_nest_too_deep(packed) and _path_too_deep(obj) is not None:
                raise TooDeep(f"containers nest more than {MAX_DEPTH} deep")
            return "msgpack", packed
        except TooDeep:
            raise UnsavableValueError.coded(
                "too_deep_to_load_back",
                "it nests containers more than {limit} deep (at {path}), so it could not be loaded back",
                limit=MAX_DEPTH,
                path=_path_text(_path_too_deep(obj) or []),
            ) from None
        except UnsavableValueError:
            raise
        except (TypeError, ValueError, OverflowError) as error:
            raise _pack_error(error) from error

    def loads_typed(self, data: TypedValue) -> Any:
        kind, payload = _typed_pair(data)
        if kind == "null":
            return None
        if kind != "msgpack":
            raise CorruptRecordError.coded(
                "unknown_serialization",
                "cannot load a value serialized as {kind}: MsgpackSerializer reads 'msgpack' and 'null'",
                kind=repr(kind),
            )
        try:
            return _unpack(payload)
        except CorruptRecordError:
            raise
        except Exception as error:  # whatever msgpack or a decoder raised: the bytes are bad
            raise _unpack_error(error) from error
