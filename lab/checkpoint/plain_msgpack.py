"""msgpack for plain values, in pure Python: the fast path of the lab's serializer (``lab.checkpoint.serde``),
which mirrors LangGraph's ``JsonPlusSerializer`` in msgpack mode. No LangGraph concept of its own.

In the browser msgpack runs without its C extension, and its pure-Python ``Packer`` asks up to a dozen
``isinstance`` questions of every value. Nearly everything a checkpoint holds is plain - ``dict``,
``list``, ``str``, ``int``, ``float``, ``bool``, ``None``, ``bytes`` - so :func:`plain_packer` writes
those itself, choosing the writer by the value's exact type, and hands anything else (a tuple, a set,
a registered type, a subclass, an integer beyond 64 bits) to the ``fallback`` it is given, msgpack's
own ``Packer``. msgpack is concatenative - a container's bytes are its header followed by its items'
bytes - so the result is byte for byte what the fallback alone would write (``tests/test_serde.py``
compares them). Only packing is here: loading stays with msgpack and its allow-list.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

Packer = Callable[[Any], bytes]

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


def _header(count: int, headers: tuple[int | None, int, int | None, int, int]) -> bytes | None:
    """The header of a str, bin, array or map of ``count`` bytes or items; ``None`` past 32 bits."""
    short, short_limit, marker8, marker16, marker32 = headers
    if short is not None and count < short_limit:
        return _BYTE[short | count]
    if marker8 is not None and count <= 0xFF:
        return bytes((marker8, count))
    if count <= 0xFFFF:
        return struct.pack(">BH", marker16, count)
    if count <= 0xFFFFFFFF:
        return struct.pack(">BI", marker32, count)
    return None


def plain_packer(fallback: Packer) -> Packer:
    """A function that packs a value like ``fallback`` does, writing plain values itself."""

    def write(value: Any, out: list[bytes]) -> None:
        writer = writers.get(type(value))
        if writer is None or not writer(value, out):
            out.append(fallback(value))

    def write_str(value: str, out: list[bytes]) -> bool:
        data = value.encode()
        if len(data) < 32:  # most texts: keys, ids, names (checked first, it is the common case)
            out += (_BYTE[0xA0 | len(data)], data)
            return True
        header = _header(len(data), _STR_HEADERS)
        if header is not None:
            out += (header, data)
        return header is not None

    def write_bin(value: bytes, out: list[bytes]) -> bool:
        header = _header(len(value), _BIN_HEADERS)
        if header is not None:
            out += (header, bytes(value))
        return header is not None

    def write_int(value: int, out: list[bytes]) -> bool:
        data = _int_bytes(value)
        if data is not None:
            out.append(data)
        return data is not None

    def write_float(value: float, out: list[bytes]) -> bool:
        out.append(struct.pack(">Bd", 0xCB, value))
        return True

    def write_list(value: list[Any], out: list[bytes]) -> bool:
        header = _header(len(value), _ARRAY_HEADERS)
        if header is None:
            return False
        out.append(header)
        for item in value:
            write(item, out)
        return True

    def write_dict(value: dict[Any, Any], out: list[bytes]) -> bool:
        header = _header(len(value), _MAP_HEADERS)
        if header is None:
            return False
        out.append(header)
        for key, item in value.items():
            write(key, out)
            write(item, out)
        return True

    def write_none(_value: None, out: list[bytes]) -> bool:
        out.append(b"\xc0")
        return True

    def write_bool(value: bool, out: list[bytes]) -> bool:
        out.append(b"\xc3" if value else b"\xc2")
        return True

    # Each writer appends the value's bytes and returns True, or returns False (having written
    # nothing) for a value too large for it, which then goes to the fallback.
    writers: dict[type, Callable[[Any, list[bytes]], bool]] = {
        type(None): write_none,
        bool: write_bool,
        int: write_int,
        float: write_float,
        str: write_str,
        bytes: write_bin,
        bytearray: write_bin,
        list: write_list,
        dict: write_dict,
    }

    def pack(value: Any) -> bytes:
        out: list[bytes] = []
        write(value, out)
        return b"".join(out)

    return pack
