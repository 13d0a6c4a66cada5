"""The presenter's thread is published into a class room in requests the room takes
(``lab.browser.room_publish.batches``): at most 100 rows and about 512 KB of values each, in order. (The
publishing itself, against ``wrangler pages dev`` and D1: ``tests/browser/test_room_thread.py``.)"""

from __future__ import annotations

from lab.browser.room_publish import BATCH_BYTES, BATCH_ROWS, batches


def rows(count: int, size: int) -> list[dict]:
    return [{"n": n, "value": ("msgpack", b"x" * size)} for n in range(count)]


def test_batches_hold_at_most_so_many_rows_in_order() -> None:
    small = rows(250, 10)
    assert [len(batch) for batch in batches(small)] == [BATCH_ROWS, BATCH_ROWS, 50]
    assert [row for batch in batches(small) for row in batch] == small


def test_batches_hold_about_so_many_bytes_and_a_bigger_row_goes_alone() -> None:
    assert [len(batch) for batch in batches(rows(5, BATCH_BYTES // 3))] == [2, 2, 1]
    assert [len(batch) for batch in batches(rows(2, 2 * BATCH_BYTES))] == [1, 1]
    assert list(batches([])) == []
