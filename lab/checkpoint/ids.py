"""Time-ordered checkpoint ids, as in ``langgraph.checkpoint.base.id.uuid6``.

A checkpoint id is a UUID version 6: the 60-bit timestamp (100 ns ticks since 1582-10-15) is
stored most significant bits first, so the canonical string of a newer id sorts after an
older one. Savers rely on this: "the latest checkpoint" is simply the largest id, and
``list(before=...)`` is a string comparison.

LangGraph puts the super-step into the 14-bit clock-sequence field, which makes the 4th group
readable: ``0x8000 | (step & 0x3fff)`` gives ``bfff`` for step -1, ``8000`` for step 0,
``8001`` for step 1 (the leading ``8`` is the RFC 4122 variant bits ``10``).

Two ids created in the same 100 ns tick would share a timestamp, so the timestamp is forced to
grow by at least one tick per call: ids are strictly increasing within a process.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime

_TICKS_FROM_1582_TO_1970 = 0x01B21DD213814000
"""100-ns intervals between the UUID epoch (1582-10-15) and the Unix epoch."""

_last_timestamp = 0
_lock = threading.Lock()


def _next_timestamp() -> int:
    global _last_timestamp
    now = time.time_ns() // 100 + _TICKS_FROM_1582_TO_1970
    with _lock:  # (only the comparison under the lock; a conditional, not ``max()``: every checkpoint)
        timestamp = _last_timestamp = now if now > _last_timestamp else _last_timestamp + 1
    return timestamp


_time_prefix: tuple[int, str] = (-1, "")
"""The time's 48 most significant bits that ``uuid6`` formatted last, and their text: the first two
groups and the version digit (``1f1efcf0-f67b-6``). They change every 4096 ticks (409.6 us), so
consecutive checkpoints mostly share them."""


def uuid6(clockseq: int) -> str:
    """A new UUIDv6 string whose 4th group is ``0x8000 | (clockseq & 0x3fff)``.

    Pass the super-step (``-1`` for an input checkpoint). The last 48 bits are random.
    """
    global _time_prefix
    timestamp = _next_timestamp()
    prefix = _time_prefix  # (read once: another thread may replace it)
    if prefix[0] != timestamp >> 12:  # time_high + time_mid: the 48 most significant bits; version 6
        prefix = _time_prefix = (timestamp >> 12, f"{timestamp >> 28:08x}-{(timestamp >> 12) & 0xFFFF:04x}-6")
    # (%-formatted: an f-string of these fields costs half as much again)
    return "%s%03x-%04x-%012x" % (  # noqa: UP031
        prefix[1],
        timestamp & 0xFFF,  # time_low: the 12 least significant bits
        0x8000 | (clockseq & 0x3FFF),  # variant 0b10 + 14-bit clock sequence
        random.getrandbits(48),  # node
    )


_second_text: tuple[int, str] = (-1, "")
"""The last whole second ``timestamp_text`` formatted, and its text (most checkpoints share one)."""


def timestamp_text() -> str:
    """Now, in UTC, as ``datetime.now(UTC).isoformat()`` writes it (``2026-01-02T03:04:05.678901+00:00``,
    the fraction left out on a whole second): a checkpoint's ``ts``. The date and time of day are
    formatted once a second; ``isoformat`` of an aware datetime costs three times as much."""
    global _second_text
    second, micro = divmod(time.time_ns() // 1000, 1_000_000)
    second_text = _second_text  # (read once: another thread may replace it)
    if second_text[0] != second:
        second_text = _second_text = (
            second,
            datetime.fromtimestamp(second, UTC).replace(tzinfo=None).isoformat(),
        )
    if not micro:
        return f"{second_text[1]}+00:00"
    return f"{second_text[1]}.{str(1_000_000 + micro)[1:]}+00:00"  # (the 6 digits: cheaper than :06d)
