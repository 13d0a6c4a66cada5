"""The class room's D1 schema (``migrations/``) as D1 applies it, on SQLite (D1's engine), with foreign
keys on as D1 has them: 0003 (a room follows the presenter from lesson to lesson) keeps every row the
first two migrations' rooms hold, under its room's lesson, and keys votes, learners' progress and the
shared thread by lesson. The API over it runs in ``tests/browser/test_room_api.py`` and
``tests/browser/test_room_thread.py`` (``wrangler pages dev`` applies every migration first)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

MIGRATIONS = sorted((Path(__file__).parent.parent / "migrations").glob("*.sql"))


def database(upto: int) -> sqlite3.Connection:
    """An in-memory database with the first ``upto`` migrations applied."""
    db = sqlite3.connect(":memory:")
    db.execute("PRAGMA foreign_keys = ON")
    for path in MIGRATIONS[:upto]:
        db.executescript(path.read_text(encoding="utf-8"))
    return db


def test_the_migrations_are_numbered_in_order_and_0003_follows_lessons() -> None:
    assert [path.name[:4] for path in MIGRATIONS] == ["0001", "0002", "0003"]
    assert MIGRATIONS[2].name == "0003_room_lessons.sql"


def rows(db: sqlite3.Connection, sql: str) -> list[tuple]:
    return db.execute(sql).fetchall()


def test_0003_keeps_every_room_s_rows_under_its_lesson() -> None:
    db = database(2)
    for code, lesson in (("AAAAAA", "crash"), ("BBBBBB", "threads")):
        db.execute(
            "INSERT INTO rooms (code, teacher_key_hash, lesson, shape, created_at, expires_at) "
            "VALUES (?, 'h', ?, '[2, 0]', 1, 2)",
            (code, lesson),
        )
        db.execute(
            "INSERT INTO learners (code, learner, step, finished, seen_at) VALUES (?, 'l1', 1, 1, 5)", (code,)
        )
        db.execute("INSERT INTO votes (code, learner, step, choice, at) VALUES (?, 'l1', 0, 1, 6)", (code,))
        db.execute(
            "INSERT INTO thread_records (seq, code, store, key, record) "
            "VALUES (?, ?, 'checkpoints', '[\"t\"]', '{}')",
            (10 if code == "AAAAAA" else 20, code),
        )
    db.executescript(MIGRATIONS[2].read_text(encoding="utf-8"))
    assert rows(db, "SELECT code, lesson, learner, step, finished, seen_at FROM learners ORDER BY code") == [
        ("AAAAAA", "crash", "l1", 1, 1, 5),
        ("BBBBBB", "threads", "l1", 1, 1, 5),
    ]
    assert rows(db, "SELECT code, lesson, learner, step, choice, at FROM votes ORDER BY code") == [
        ("AAAAAA", "crash", "l1", 0, 1, 6),
        ("BBBBBB", "threads", "l1", 0, 1, 6),
    ]
    assert rows(db, "SELECT seq, code, lesson, store, key FROM thread_records ORDER BY seq") == [
        (10, "AAAAAA", "crash", "checkpoints", '["t"]'),
        (20, "BBBBBB", "threads", "checkpoints", '["t"]'),
    ]
    assert rows(db, "PRAGMA foreign_key_check") == []


def test_after_0003_a_learner_votes_once_per_step_of_each_lesson_and_a_room_takes_its_rows_along() -> None:
    db = database(3)
    db.execute(
        "INSERT INTO rooms (code, teacher_key_hash, lesson, shape, created_at, expires_at) "
        "VALUES ('AAAAAA', 'h', 'threads', '[2]', 1, 2)"
    )
    vote = "INSERT INTO votes (code, lesson, learner, step, choice, at) VALUES ('AAAAAA', ?, 'l1', 0, 1, 1)"
    record = (
        "INSERT INTO thread_records (code, lesson, store, key, record) VALUES ('AAAAAA', ?, 'blobs', ?, '{}')"
    )
    for lesson in ("crash", "threads"):  # the same step of two lessons: two votes, two records
        db.execute(vote, (lesson,))
        db.execute(record, (lesson, "[1]"))
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(vote, ("threads",))  # a second vote on the same step of the same lesson
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(record, ("threads", "[1]"))
    with pytest.raises(sqlite3.IntegrityError):  # no row names a room that is not there
        db.execute(
            "INSERT INTO votes (code, lesson, learner, step, choice, at) VALUES ('ZZZZZZ', 'x', 'l', 0, 0, 0)"
        )
    db.execute("DELETE FROM rooms WHERE code = 'AAAAAA'")  # expired: its rows go with it
    assert rows(db, "SELECT COUNT(*) FROM votes") == [(0,)]
    assert rows(db, "SELECT COUNT(*) FROM thread_records") == [(0,)]
