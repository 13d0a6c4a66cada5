"""What the lab knows about its thread at one moment, as plain data the view's rules read.

LangGraph answers ``get_state(thread)`` with the head checkpoint (its ``next``, its interrupts, its
pending writes). The lab also needs what no checkpoint records: whether a run is live or paused,
what the last run did (did its process crash? where?), which crash is armed, and whether this tab
may write the thread at all (LangGraph assumes one writer per thread; the lab's tabs take turns by a
lock the page holds). :class:`ThreadFacts` gathers it all - the head frame from the saver, the
records from the journal, the writer from the page - so that every learner-visible rule
(``status``, ``actions``, ``node_states``) is a pure function of one value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lab.controller.frames import NULL_WRITER

RESUME_CHANNEL = "__resume__"
WRITERS = ("here", "elsewhere")
"""Who may write the thread: this tab (``here``), or another tab that holds its lock (``elsewhere``)."""


@dataclass(frozen=True)
class ThreadFacts:
    """One moment of the lab: the session, the live run, the saved head, the journal."""

    session: dict[str, Any] | None
    run: dict[str, Any] | None = None  # the live run: {"run", "kind", "paused", "durability"}
    head: dict[str, Any] | None = None  # the newest checkpoint as a frame (``frames.frame_of``)
    records: list[dict[str, Any]] = field(default_factory=list)  # the thread's journal
    armed: dict[str, Any] | None = None  # the armed crash: {"seam", "node"}
    frame_ids: frozenset[str] = frozenset()  # every saved checkpoint of the thread
    writer: str = "here"  # one of WRITERS: the page reports which tab holds the thread's lock


def last_run(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The last run the journal saw: ``{"run", "kind", "durability", "status"}``; status is
    ``running`` until it ended (``done``, ``interrupted``, ``error``, ``stopped``) or ``crashed``."""
    run: dict[str, Any] | None = None
    for record in records:
        if record["type"] == "run_start":
            run = {k: record[k] for k in ("run", "kind", "durability")} | {"status": "running"}
        elif run is not None and record.get("run") == run["run"]:
            if record["type"] == "run_end":
                run["status"] = record["status"]
            elif record["type"] == "crash":
                run["status"] = "crashed"
    return run


def last_crash(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Where the last run's process was killed, if the last run crashed (``None`` otherwise)."""
    run = last_run(records)
    if run is None or run["status"] != "crashed":
        return None
    return next(r for r in reversed(records) if r["type"] == "crash" and r["run"] == run["run"])


def answer_saved(head: dict[str, Any] | None) -> bool:
    """The answer to the interrupt is already saved on the head (a crash came during Approve / Reject):
    a thread-only run picks it up, as ``Command(resume=...)`` would."""
    return head is not None and any(
        writer == NULL_WRITER and channel == RESUME_CHANNEL for writer, channel, _ in head["pending_writes"]
    )


def waits_for_answer(head: dict[str, Any] | None) -> bool:
    """The head stops at ``interrupt()`` and nobody answered yet."""
    return head is not None and bool(head["interrupts"]) and not answer_saved(head)


def waiting_nodes(head: dict[str, Any] | None) -> list[str]:
    """The nodes whose ``interrupt()`` the head stops at."""
    return [task["name"] for task in (head or {}).get("tasks", []) if task["interrupts"]]


def waiting_at(head: dict[str, Any] | None) -> str:
    """:func:`waiting_nodes`, as the lines that ask for an answer name them."""
    return ", ".join(waiting_nodes(head))


def is_finished(head: dict[str, Any] | None) -> bool:
    """The thread reached END: a head with nothing next."""
    return head is not None and not head["next"]
