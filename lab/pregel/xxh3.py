"""XXH3-128, the hash LangGraph names its tasks and interrupts with, in pure Python.

LangGraph derives a task id as ``xxh3_128_hexdigest(checkpoint id bytes + node, step, triggers…)``
and an interrupt id as ``xxh3_128_hexdigest("<node>:<task id>")`` (``pregel/_algo.py``,
``types.py``), through the ``xxhash`` C extension. The browser has no C extensions of ours, so
this module computes the same 128 bits from Yann Collet's public XXH3 specification: seed 0, the
default 192-byte secret, every input length. ``tests/test_xxh3.py`` checks it against ``xxhash``
for every length up to 600 bytes.

XXH3 reads its input differently by length, each range a small function below:
0, 1–3, 4–8, 9–16 bytes (one or two words mixed with the secret), 17–128 and 129–240 bytes
(16-byte lanes mixed pairwise), and longer inputs (eight 64-bit accumulators fed 64-byte stripes,
scrambled after every 1 KiB block, then merged). All arithmetic is on unsigned 64-bit words;
Python's integers are unbounded, so every sum and product is masked with ``M64``.
"""

from __future__ import annotations

import struct

M64 = (1 << 64) - 1

PRIME32_1 = 0x9E3779B1
PRIME32_2 = 0x85EBCA77
PRIME32_3 = 0xC2B2AE3D
PRIME64_1 = 0x9E3779B185EBCA87
PRIME64_2 = 0xC2B2AE3D27D4EB4F
PRIME64_3 = 0x165667B19E3779F9
PRIME64_4 = 0x85EBCA77C2B2AE63
PRIME64_5 = 0x27D4EB2F165667C5
PRIME_MX1 = 0x165667919E3779F9
PRIME_MX2 = 0x9FB21C651E98DF25

SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
    "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
    "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e"
)
"""XXH3's default secret (``XXH3_kSecret``): 192 bytes the input is mixed with."""

_WORD = struct.Struct("<Q")
_LANE = struct.Struct("<2Q")
_STRIPE = struct.Struct("<8Q")
SECRET64 = tuple(_WORD.unpack_from(SECRET, i)[0] for i in range(len(SECRET) - 7))
"""The little-endian 64-bit word at every byte offset of the secret (offsets are not aligned)."""

STRIPE = 64
"""Bytes one accumulation round of a long input reads."""
STRIPES_PER_BLOCK = (len(SECRET) - STRIPE) // 8
BLOCK = STRIPE * STRIPES_PER_BLOCK
INIT_ACC = (PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1)


def xxh3_128_hexdigest(data: bytes) -> str:
    """The 32 hex digits ``xxhash.xxh3_128_hexdigest(data)`` returns (high word first)."""
    low, high = xxh3_128(data)
    return f"{high:016x}{low:016x}"


def xxh3_128(data: bytes) -> tuple[int, int]:
    """XXH3-128 of ``data`` with seed 0 and the default secret, as ``(low64, high64)``."""
    n = len(data)
    if n <= 16:
        if n > 8:
            return _len_9to16(data, n)
        if n >= 4:
            return _len_4to8(data, n)
        if n:
            return _len_1to3(data, n)
        return _avalanche64(SECRET64[64] ^ SECRET64[72]), _avalanche64(SECRET64[80] ^ SECRET64[88])
    if n <= 128:
        return _len_17to128(data, n)
    if n <= 240:
        return _len_129to240(data, n)
    return _long(data, n)


# --- the mixing primitives -------------------------------------------------------------------------


def _word(data: bytes, offset: int) -> int:
    return _WORD.unpack_from(data, offset)[0]


def _fold(a: int, b: int) -> int:
    """The 128-bit product of two words, its halves xored into one word."""
    product = a * b
    return (product ^ (product >> 64)) & M64


def _avalanche64(h: int) -> int:
    """XXH64's final scramble: every input bit reaches every output bit."""
    h ^= h >> 33
    h = (h * PRIME64_2) & M64
    h ^= h >> 29
    h = (h * PRIME64_3) & M64
    return h ^ (h >> 32)


def _avalanche(h: int) -> int:
    """XXH3's lighter final scramble."""
    h ^= h >> 37
    h = (h * PRIME_MX1) & M64
    return h ^ (h >> 32)


def _finish(low: int, high: int, n: int) -> tuple[int, int]:
    """The last step the 17–240 byte ranges share: cross the two lanes, then scramble."""
    return (
        _avalanche((low + high) & M64),
        (-_avalanche((low * PRIME64_1 + high * PRIME64_4 + n * PRIME64_2) & M64)) & M64,
    )


def _mix32(acc: tuple[int, int], data: bytes, a: int, b: int, secret_offset: int) -> tuple[int, int]:
    """Mix the 16-byte lanes at ``a`` and ``b`` into the two halves of ``acc``: each half takes its
    lane keyed by the secret (folded), and the plain sum of the other lane's two words."""
    a0, a1 = _LANE.unpack_from(data, a)
    b0, b1 = _LANE.unpack_from(data, b)
    s = secret_offset
    low = (acc[0] + _fold(a0 ^ SECRET64[s], a1 ^ SECRET64[s + 8])) ^ ((b0 + b1) & M64)
    high = (acc[1] + _fold(b0 ^ SECRET64[s + 16], b1 ^ SECRET64[s + 24])) ^ ((a0 + a1) & M64)
    return low & M64, high & M64


# --- short inputs ----------------------------------------------------------------------------------


def _len_1to3(data: bytes, n: int) -> tuple[int, int]:
    low = data[0] << 16 | data[n >> 1] << 24 | data[n - 1] | n << 8
    swapped = int.from_bytes(low.to_bytes(4, "little"), "big")
    high = ((swapped << 13) | (swapped >> 19)) & 0xFFFFFFFF
    flip_low = (SECRET64[0] & 0xFFFFFFFF) ^ (SECRET64[4] & 0xFFFFFFFF)
    flip_high = (SECRET64[8] & 0xFFFFFFFF) ^ (SECRET64[12] & 0xFFFFFFFF)
    return _avalanche64(low ^ flip_low), _avalanche64(high ^ flip_high)


def _len_4to8(data: bytes, n: int) -> tuple[int, int]:
    word = int.from_bytes(data[:4], "little") | int.from_bytes(data[n - 4 :], "little") << 32
    product = (word ^ SECRET64[16] ^ SECRET64[24]) * (PRIME64_1 + (n << 2))
    low, high = product & M64, product >> 64
    high = (high + (low << 1)) & M64
    low ^= high >> 3
    low ^= low >> 35
    low = (low * PRIME_MX2) & M64
    low ^= low >> 28
    return low, _avalanche(high)


def _len_9to16(data: bytes, n: int) -> tuple[int, int]:
    first, last = _word(data, 0), _word(data, n - 8)
    product = (first ^ last ^ SECRET64[32] ^ SECRET64[40]) * PRIME64_1
    low = ((product & M64) + ((n - 1) << 54)) & M64
    last ^= SECRET64[48] ^ SECRET64[56]
    high = ((product >> 64) + last + (last & 0xFFFFFFFF) * (PRIME32_2 - 1)) & M64
    low ^= int.from_bytes(high.to_bytes(8, "little"), "big")
    product = low * PRIME64_2
    return _avalanche(product & M64), _avalanche(((product >> 64) + high * PRIME64_2) & M64)


# --- mid-size inputs -------------------------------------------------------------------------------


def _len_17to128(data: bytes, n: int) -> tuple[int, int]:
    """Up to four pairs of lanes, each pair one from the front and its mirror from the back."""
    acc = ((n * PRIME64_1) & M64, 0)
    for i in range((n - 1) // 32, -1, -1):
        acc = _mix32(acc, data, 16 * i, n - 16 * (i + 1), 32 * i)
    return _finish(*acc, n)


def _len_129to240(data: bytes, n: int) -> tuple[int, int]:
    """Consecutive 32-byte lanes; after the first four the secret is re-read from offset 3."""
    acc = ((n * PRIME64_1) & M64, 0)
    for i in range(4):
        acc = _mix32(acc, data, 32 * i, 32 * i + 16, 32 * i)
    acc = (_avalanche(acc[0]), _avalanche(acc[1]))
    for i in range(4, n // 32):
        acc = _mix32(acc, data, 32 * i, 32 * i + 16, 3 + 32 * (i - 4))
    acc = _mix32(acc, data, n - 16, n - 32, 136 - 17 - 16)
    return _finish(*acc, n)


# --- long inputs -----------------------------------------------------------------------------------


def _accumulate(acc: list[int], data: bytes, offset: int, secret_offset: int) -> None:
    """One 64-byte stripe into the eight accumulators: each word, keyed by the secret, adds the
    product of its two halves to its own lane and its plain value to its neighbour's."""
    for i, value in enumerate(_STRIPE.unpack_from(data, offset)):
        keyed = value ^ SECRET64[secret_offset + 8 * i]
        acc[i ^ 1] = (acc[i ^ 1] + value) & M64
        acc[i] = (acc[i] + (keyed & 0xFFFFFFFF) * (keyed >> 32)) & M64


def _scramble(acc: list[int]) -> None:
    for i in range(8):
        a = acc[i] ^ (acc[i] >> 47) ^ SECRET64[len(SECRET) - STRIPE + 8 * i]
        acc[i] = (a * PRIME32_1) & M64


def _merge(acc: list[int], secret_offset: int, start: int) -> int:
    result = start
    for i in range(4):
        result += _fold(
            acc[2 * i] ^ SECRET64[secret_offset + 16 * i],
            acc[2 * i + 1] ^ SECRET64[secret_offset + 16 * i + 8],
        )
    return _avalanche(result & M64)


def _long(data: bytes, n: int) -> tuple[int, int]:
    acc = list(INIT_ACC)
    blocks = (n - 1) // BLOCK
    for block in range(blocks):
        for stripe in range(STRIPES_PER_BLOCK):
            _accumulate(acc, data, block * BLOCK + stripe * STRIPE, stripe * 8)
        _scramble(acc)
    for stripe in range((n - 1 - blocks * BLOCK) // STRIPE):
        _accumulate(acc, data, blocks * BLOCK + stripe * STRIPE, stripe * 8)
    _accumulate(acc, data, n - STRIPE, len(SECRET) - STRIPE - 7)
    return (
        _merge(acc, 11, (n * PRIME64_1) & M64),
        _merge(acc, len(SECRET) - STRIPE - 11, ~(n * PRIME64_2) & M64),
    )
