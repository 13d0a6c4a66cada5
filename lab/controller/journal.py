"""The lab's notebook: what it observed about each thread, kept outside the Python process.

Checkpoints record what a run *saved*; they cannot say how often a node actually *ran*. A node
that ran, paid for something and then crashed before its writes were saved leaves no trace in the
checkpoints. So the controller writes down the seams it observes (``task_start``, ``task_finish``,
each step's task list, each run's start, end or crash) in a :class:`Journal` that survives the
process, like the external world: in the browser the page keeps it; in tests the same
:class:`MemoryJournal` object is handed to the next controller. The journal also remembers the
session (current thread, case, variant, durability) so a new process can pick the thread up, and
every session ever saved (:meth:`Journal.sessions`, newest first) so a learner can go back to an
earlier thread.

:func:`executions_report` derives, from those records alone, how many times each node ran over
the thread's life and, for the last run that resumed the thread, which tasks were *restored from
pending writes* (listed in the step but never started: LangGraph reused their saved writes) and
which were *re-run*.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any, Protocol

RESUMING_KINDS = frozenset(("continue", "resume", "answer"))
"""Runs that pick the thread up at its latest checkpoint, reusing saved writes (a thread-only
config); a ``replay`` travels to an old checkpoint and re-runs its whole step instead."""


class Journal(Protocol):
    async def append(self, thread_id: str, record: dict[str, Any]) -> None: ...

    async def records(self, thread_id: str) -> list[dict[str, Any]]: ...

    async def save_session(self, session: dict[str, Any] | None) -> None: ...

    async def remember_session(self, session: dict[str, Any]) -> None: ...

    async def session(self) -> dict[str, Any] | None: ...

    async def sessions(self) -> list[dict[str, Any]]: ...

    async def clear(self) -> None: ...

    async def forget(self, thread_id: str) -> None: ...


def remembered_session(session: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    """The row a journal keeps for a saved session: the session plus ``started_at``, the time it was
    first saved (opening an old thread again keeps its place in :func:`newest_first`)."""
    return {**session, "started_at": previous["started_at"] if previous else time.time()}


def newest_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Saved sessions, the most recently started first."""
    return sorted(rows, key=lambda row: row["started_at"], reverse=True)


class MemoryJournal:
    """A journal in memory: pass the same object to the controller that replaces a crashed one."""

    def __init__(self) -> None:
        self._records: dict[str, list[dict[str, Any]]] = {}
        self._session: dict[str, Any] | None = None
        self._sessions: dict[str, dict[str, Any]] = {}

    async def append(self, thread_id: str, record: dict[str, Any]) -> None:
        self._records.setdefault(thread_id, []).append(dict(record))

    async def records(self, thread_id: str) -> list[dict[str, Any]]:
        return [dict(r) for r in self._records.get(thread_id, [])]

    async def save_session(self, session: dict[str, Any] | None) -> None:
        self._session = dict(session) if session else None
        if session:
            await self.remember_session(session)

    async def remember_session(self, session: dict[str, Any]) -> None:
        """Keep ``session`` among the saved ones (a thread the learner can open) without making it the
        lab's current one: a fork a learner made from a class room's thread."""
        thread_id = session["thread_id"]
        self._sessions[thread_id] = remembered_session(session, self._sessions.get(thread_id))

    async def session(self) -> dict[str, Any] | None:
        return dict(self._session) if self._session else None

    async def sessions(self) -> list[dict[str, Any]]:
        """Every session saved (until a reset), newest first."""
        return newest_first([dict(row) for row in self._sessions.values()])

    async def clear(self) -> None:
        self._records.clear()
        self._session = None
        self._sessions.clear()

    async def forget(self, thread_id: str) -> None:
        """Drop one thread: its records, its saved session, and the current session if it is that one."""
        self._records.pop(thread_id, None)
        self._sessions.pop(thread_id, None)
        if self._session and self._session["thread_id"] == thread_id:
            self._session = None


def executions_report(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Node executions over the thread's life, the runs, and the last resume's restored/re-run split."""
    started = Counter(r["node"] for r in records if r["type"] == "task_start")
    finished = Counter(r["node"] for r in records if r["type"] == "task_finish")
    return {
        "nodes": {
            node: {"started": started[node], "finished": finished[node]} for node in started | finished
        },
        "runs": _runs(records),
        "last_resume": _last_resume(records),
    }


def _runs(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    runs: dict[int, dict[str, Any]] = {}
    for r in records:
        if r["type"] == "run_start":
            runs[r["run"]] = {
                "run": r["run"],
                "kind": r["kind"],
                "durability": r["durability"],
                "status": "running",
            }
        elif r["type"] == "run_end":
            runs[r["run"]]["status"] = r["status"]
        elif r["type"] == "crash":
            runs[r["run"]]["status"] = "crashed"
    return list(runs.values())


def _last_resume(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first step of the last resuming run: the tasks it re-ran and the ones it restored
    (the loop's ``step_start`` seam names both; a restored task never emits ``task_start``)."""
    resumes = [r for r in records if r["type"] == "run_start" and r["kind"] in RESUMING_KINDS]
    if not resumes:
        return None
    run = resumes[-1]
    first = next((r for r in records if r.get("run") == run["run"] and r["type"] == "step_start"), None)
    return {
        "run": run["run"],
        "kind": run["kind"],
        "step": first["step"] if first else None,
        "checkpoint_id": first["checkpoint_id"] if first else None,
        "rerun": first["tasks"] if first else [],
        "restored": first["restored"] if first else [],
    }
