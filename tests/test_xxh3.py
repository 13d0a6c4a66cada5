"""lab's pure-Python XXH3-128 against the ``xxhash`` C extension LangGraph hashes its ids with."""

from __future__ import annotations

import random

import pytest
import xxhash

from lab.pregel.xxh3 import xxh3_128_hexdigest

LENGTHS = [*range(601), 1023, 1024, 1025, 2048, 2049, 4096 + 65]
"""Every length up to 600 (each of XXH3's ranges and their edges: 0, 1–3, 4–8, 9–16, 17–128,
129–240, then whole and partial stripes), and block edges of long inputs."""


@pytest.mark.parametrize("length", LENGTHS)
def test_random_inputs_of_every_length_hash_as_xxhash_does(length: int) -> None:
    rng = random.Random(length)
    for _ in range(8):
        data = rng.randbytes(length)
        assert xxh3_128_hexdigest(data) == xxhash.xxh3_128_hexdigest(data)


@pytest.mark.parametrize("byte", [0x00, 0xFF])
def test_uniform_inputs_hash_as_xxhash_does(byte: int) -> None:
    """All-zero and all-one words exercise the carries the masks must drop."""
    for length in range(0, 300, 7):
        data = bytes([byte]) * length
        assert xxh3_128_hexdigest(data) == xxhash.xxh3_128_hexdigest(data)
