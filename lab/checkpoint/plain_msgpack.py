"""msgpack in pure Python: the packer of the lab's serializer (``lab.checkpoint.serde``) where msgpack has
no C extension (the browser), which mirrors LangGraph's ``JsonPlusSerializer`` in msgpack mode. No
LangGraph concept of its own.

In the browser msgpack runs without its C extension, and its pure-Python ``Packer`` asks up to a dozen
``isinstance`` questions of every value. Nearly everything a checkpoint holds is plain - ``dict``,
``list``, ``str``, ``int``, ``float``, ``bool``, ``None``, ``bytes`` - so :func:`plain_packer` writes
those itself, choosing the writer by the value's exact type, and hands anything else (a tuple, a set,
a registered type, a subclass) to the ``convert`` function it is given, which says what to write
instead: a plain value, or an ``msgpack.ExtType`` (also written here). The same walk counts how deep
containers nest and refuses, with :class:`TooDeep`, one nested deeper than ``max_depth``: the depth
check costs no second walk. msgpack is concatenative - a container's bytes are its header followed by
its items' bytes - so the result is byte for byte what msgpack's own ``Packer`` writes
(``tests/test_plain_msgpack.py`` compares them). Only packing is here: loading stays with msgpack
and its allow-list.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import msgpack

_UINT = ((0xFF, ">BB", 0xCC), (0xFFFF, ">BH", 0xCD), (0xFFFFFFFF, ">BI", 0xCE), (2**64 - 1, ">BQ", 0xCF))
_INT = ((-(2**7), ">Bb", 0xD0), (-(2**15), ">Bh", 0xD1), (-(2**31), ">Bi", 0xD2), (-(2**63), ">Bq", 0xD3))
# (first byte of the short form, how many items it holds, then the 8 / 16 / 32-bit length prefixes)
_STR_HEADERS = (0xA0, 32, 0xD9, 0xDA, 0xDB)
_BIN_HEADERS = (None, 0, 0xC4, 0xC5, 0xC6)
_ARRAY_HEADERS = (0x90, 16, None, 0xDC, 0xDD)
_MAP_HEADERS = (0x80, 16, None, 0xDE, 0xDF)
_BYTE = [bytes((byte,)) for byte in range(256)]  # made once: most headers and small ints are one byte


def _int_bytes(value: int) -> bytes | None:
    """A 64-bit integer in msgpack's shortest form; ``None`` beyond 64 bits."""
    if 0 <= value < 0x80:
        return _BYTE[value]
    if -0x20 <= value < 0:
        return struct.pack("b", value)
    if value > 0:
        fitting = [(layout, marker) for largest, layout, marker in _UINT if value <= largest]
    else:
        fitting = [(layout, marker) for smallest, layout, marker in _INT if value >= smallest]
    if not fitting:
        return None
    layout, marker = fitting[0]
    return struct.pack(layout, marker, value)


def _sized(count: int, headers: tuple[int | None, int, int | None, int, int]) -> bytes:
    """The header of a str, bin, array or map of ``count`` bytes or items (msgpack's limit: 32 bits)."""
    short, short_limit, marker8, marker16, marker32 = headers
    if short is not None and count < short_limit:
        return _BYTE[short | count]
    if marker8 is not None and count <= 0xFF:
        return bytes((marker8, count))
    if count <= 0xFFFF:
        return struct.pack(">BH", marker16, count)
    if count <= 0xFFFFFFFF:
        return struct.pack(">BI", marker32, count)
    raise ValueError(f"{count} bytes or items are too many for msgpack")


class TooDeep(ValueError):
    """A container nested deeper than the packer's ``max_depth``."""


PackInner = Callable[[Any], bytes]
"""Packs the items of an extension value, at the depth of that value (see ``plain_packer``)."""
Convert = Callable[[Any, PackInner], Any]


def _ext_header(size: int) -> bytes:
    """The header of an extension value of ``size`` bytes, as msgpack writes it (type code not included)."""
    fixed = {1: b"\xd4", 2: b"\xd5", 4: b"\xd6", 8: b"\xd7", 16: b"\xd8"}.get(size)
    if fixed is not None:
        return fixed
    if size <= 0xFF:
        return bytes((0xC7, size))
    if size <= 0xFFFF:
        return struct.pack(">BH", 0xC8, size)
    return struct.pack(">BI", 0xC9, size)


def plain_packer(convert: Convert, max_depth: int) -> Callable[[Any], bytes]:
    """A function that packs a value as msgpack's ``Packer`` does, refusing containers (``list``,
    ``dict``, and whatever ``convert`` packs through ``pack_inner``) nested more than ``max_depth``
    deep with :class:`TooDeep`.

    A value it has no writer for goes to ``convert(value, pack_inner)``, which returns what to write in
    its place: a plain value, or an ``msgpack.ExtType`` whose data it packed with ``pack_inner`` (the
    items of a tuple, say: they count one level deeper than the tuple, as a list's would)."""

    def write(value: Any, out: list[bytes], depth: int) -> None:
        writer = writers.get(type(value))
        if writer is None:
            converted = convert(value, lambda inner: pack(inner, depth))
            writer = writers.get(type(converted))
            if writer is None:
                raise TypeError(f"cannot serialize {converted!r}")
            value = converted
        writer(value, out, depth)

    def write_str(value: str, out: list[bytes], _depth: int) -> None:
        data = value.encode()
        if len(data) < 32:  # most texts: keys, ids, names (checked first, it is the common case)
            out += (_BYTE[0xA0 | len(data)], data)
        else:
            out += (_sized(len(data), _STR_HEADERS), data)

    def write_bin(value: bytes, out: list[bytes], _depth: int) -> None:
        out += (_sized(len(value), _BIN_HEADERS), bytes(value))

    def write_int(value: int, out: list[bytes], _depth: int) -> None:
        data = _int_bytes(value)
        if data is None:
            raise OverflowError("Integer value out of range")  # msgpack's words
        out.append(data)

    def write_float(value: float, out: list[bytes], _depth: int) -> None:
        out.append(struct.pack(">Bd", 0xCB, value))

    def write_list(value: list[Any], out: list[bytes], depth: int) -> None:
        if depth > max_depth:
            raise TooDeep(f"containers nest more than {max_depth} deep")
        out.append(_sized(len(value), _ARRAY_HEADERS))
        for item in value:
            write(item, out, depth + 1)

    def write_dict(value: dict[Any, Any], out: list[bytes], depth: int) -> None:
        if depth > max_depth:
            raise TooDeep(f"containers nest more than {max_depth} deep")
        out.append(_sized(len(value), _MAP_HEADERS))
        for key, item in value.items():
            write(key, out, depth + 1)
            write(item, out, depth + 1)

    def write_none(_value: None, out: list[bytes], _depth: int) -> None:
        out.append(b"\xc0")

    def write_bool(value: bool, out: list[bytes], _depth: int) -> None:
        out.append(b"\xc3" if value else b"\xc2")

    def write_ext(value: msgpack.ExtType, out: list[bytes], _depth: int) -> None:
        out += (_ext_header(len(value.data)), struct.pack("b", value.code), value.data)

    writers: dict[type, Callable[[Any, list[bytes], int], None]] = {
        type(None): write_none,
        bool: write_bool,
        int: write_int,
        float: write_float,
        str: write_str,
        bytes: write_bin,
        bytearray: write_bin,
        list: write_list,
        dict: write_dict,
        msgpack.ExtType: write_ext,
    }

    def pack(value: Any, depth: int = 1) -> bytes:
        out: list[bytes] = []
        write(value, out, depth)
        return b"".join(out)

    return pack
