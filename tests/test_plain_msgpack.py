"""The serializer's fast path for plain values (``lab.checkpoint.plain_msgpack``) writes, byte for byte,
what msgpack's own Packer writes, at every size boundary of msgpack's formats, and leaves every other
value to the Packer."""

from __future__ import annotations

import enum
from collections import defaultdict
from typing import Any

import msgpack
import pytest

from lab.checkpoint.plain_msgpack import plain_packer
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


@pytest.mark.parametrize("value", [*INTEGERS, *TEXTS, *BINARY, *CONTAINERS, *MIXED], ids=repr)
def test_the_same_bytes_as_msgpacks_packer(value: Any) -> None:
    assert plain_packer(packer_bytes)(value) == packer_bytes(value)
    assert MsgpackSerializer().dumps_typed(value) == ("msgpack", packer_bytes(value))


def test_only_values_that_are_not_plain_reach_the_fallback() -> None:
    handed_over: list[Any] = []

    def fallback(value: Any) -> bytes:
        handed_over.append(value)
        return packer_bytes(value)

    pack = plain_packer(fallback)
    value = {"plain": [1, "two", 3.0, None, True, b"4", {"five": 2**63}], "tuple": (1,), "level": Level.HIGH}
    assert pack(value) == packer_bytes(value)
    assert handed_over == [(1,), Level.HIGH]
    handed_over.clear()
    with pytest.raises(OverflowError):
        pack([2**64])  # beyond 64 bits: the Packer decides (it refuses)
    assert handed_over == [2**64]
