"""The serializer's packer without msgpack's C extension (``lab.checkpoint.plain_msgpack``, what the
browser runs) writes, byte for byte, what msgpack's own Packer writes, at every size boundary of
msgpack's formats and for every value it converts, and checks depth in the same walk."""

from __future__ import annotations

import enum
from collections import defaultdict
from typing import Any

import msgpack
import pytest

from lab.checkpoint.plain_msgpack import TooDeep, plain_packer
from lab.checkpoint.serde import MsgpackSerializer, _to_ext
from lab.types import Interrupt


def packer_bytes(value: Any) -> bytes:
    """What msgpack's Packer writes with the serializer's settings."""
    return msgpack.packb(value, default=_to_ext, strict_types=True, use_bin_type=True)


INTEGERS = [
    *(0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**64 - 1),
    *(-1, -32, -33, -128, -129, -(2**15), -(2**15) - 1, -(2**31), -(2**31) - 1, -(2**63)),
]
TEXTS = ["", "a" * 31, "a" * 32, "a" * 255, "a" * 256, "é" * 16, "中" * 11, "x" * 65535, "x" * 65536]
BINARY = [b"", b"x" * 255, b"x" * 256, b"x" * 65536, bytearray(b"ab")]
CONTAINERS = [
    [],
    list(range(15)),
    list(range(16)),
    list(range(65536)),
    {},
    {str(key): key for key in range(15)},
    {str(key): key for key in range(16)},
    {str(key): key for key in range(65536)},
    {"nested": [{"deep": [None, True, False, 1.5, -0.0, float("inf")]}]},
]


class Level(enum.IntEnum):
    HIGH = 3


MIXED = [
    {1: (1, 2), (1, "a"): {3}, "set": frozenset({"x"})},
    defaultdict(list, a=[1]),
    [Level.HIGH, {"k": (Level.HIGH,)}],
    Interrupt(value={"a": [1, (2,)]}, id="i-1"),
]


ALL = [*INTEGERS, *TEXTS, *BINARY, *CONTAINERS, *MIXED]


@pytest.mark.parametrize("value", ALL, ids=repr)
@pytest.mark.parametrize("pure_python", [True, False], ids=["pure-Python packer", "msgpack's packer"])
def test_the_same_bytes_as_msgpacks_packer(value: Any, pure_python: bool) -> None:
    assert MsgpackSerializer(pure_python=pure_python).dumps_typed(value) == ("msgpack", packer_bytes(value))


def as_list(value: Any, pack_inner: Any) -> Any:
    """A ``convert`` that writes a tuple as an extension value holding its items as a list (one level,
    like a list's own)."""
    return msgpack.ExtType(3, pack_inner(list(value))) if isinstance(value, tuple) else int(value)


def as_list_bytes(value: Any) -> bytes:
    """What msgpack's Packer writes with ``as_list`` as its ``default``."""
    return msgpack.packb(
        value, default=lambda item: as_list(item, as_list_bytes), strict_types=True, use_bin_type=True
    )


def test_only_values_that_are_not_plain_are_converted() -> None:
    handed_over: list[Any] = []

    def convert(value: Any, pack_inner: Any) -> Any:
        handed_over.append(value)
        return as_list(value, pack_inner)

    pack = plain_packer(convert, max_depth=50)
    value = {"plain": [1, "two", 3.0, None, True, b"4", {"five": 2**63}], "tuple": (1,), "level": Level.HIGH}
    assert pack(value) == as_list_bytes(value)
    assert handed_over == [(1,), Level.HIGH]
    with pytest.raises(OverflowError, match="Integer value out of range"):  # msgpack's words
        pack([2**64])


@pytest.mark.parametrize("size", [1, 2, 3, 4, 8, 16, 17, 255, 256, 65535, 65536])
def test_extension_values_of_every_size(size: int) -> None:
    ext = msgpack.ExtType(5, b"x" * size)
    assert plain_packer(as_list, max_depth=50)([ext]) == msgpack.packb([ext])


def test_depth_is_counted_in_the_walk_that_packs() -> None:
    """Containers count, a tuple converted through ``pack_inner`` as one level; dict keys too."""
    pack = plain_packer(as_list, max_depth=3)
    assert pack([{"k": (None,)}]) == as_list_bytes([{"k": (None,)}])
    for too_deep in ([{"k": ([],)}], [[[[]]]], [{(((),),): 1}]):
        with pytest.raises(TooDeep):
            pack(too_deep)
