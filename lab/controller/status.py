"""The lab's status line: where the thread stands, and the one action that leads forward.

LangGraph's answer to "where am I?" is ``get_state(thread)``: ``next`` says what runs next,
``interrupts`` what waits for a human, an empty ``next`` that the graph reached END. The lab adds
what a checkpoint cannot say (a live or paused run, a crash that killed the process, another tab
that writes the thread) and turns the whole into one sentence that names the action to press. Every
phase names an action that :mod:`lab.controller.actions` enables, so a learner is never told to
press a disabled button. The line names the graph's own nodes; how a finished thread ended is the
graph profile's to say (``GraphProfile.outcome``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lab.controller.activity import run_kind
from lab.controller.facts import ThreadFacts, is_finished, last_crash, last_run, waiting_at, waits_for_answer
from lab.controller.messages import Message, message
from lab.controller.profile import no_outcome
from lab.controller.seam_catalog import THE_STEP

Outcome = Callable[[dict[str, Any]], Message | None]


def phase(facts: ThreadFacts) -> str:
    """One word for where the thread stands (the first rule that matches wins)."""
    if facts.session is None:
        return "no_case"
    if facts.writer == "elsewhere":
        return "read_only"
    if facts.run is not None:
        return "paused" if facts.run["paused"] else "running"
    if is_finished(facts.head):
        return "done"  # even if the process died after the end was saved
    crashed = last_crash(facts.records) is not None
    if crashed and facts.head is None:
        return "crashed_nothing_saved"
    if waits_for_answer(facts.head):
        return "crashed_waiting" if crashed else "waiting"
    if crashed:
        return "crashed"
    if facts.head is None:
        return "new"
    if (last_run(facts.records) or {}).get("status") == "error":
        return "error"
    return "ready"


FORWARD = {
    "no_case": "start",
    "read_only": "take_over",
    "running": None,
    "paused": "step",
    "crashed_nothing_saved": "run",
    "crashed_waiting": "approve",
    "waiting": "approve",
    "crashed": "resume",
    "new": "run",
    "done": None,
    "error": "replay",
    "ready": "run",
}
"""The action each phase's status line names (``None``: nothing to press, the story moves or ended)."""


def status(facts: ThreadFacts, outcome: Outcome = no_outcome) -> dict[str, Any]:
    """``{"phase", "action", "message"}``: the status line, from the facts and how the graph's
    profile says a finished thread ended (``outcome`` of its values)."""
    now = phase(facts)
    return {"phase": now, "action": FORWARD[now], "message": status_message(now, facts, outcome)}


def status_message(now: str, facts: ThreadFacts, outcome: Outcome) -> dict[str, Any]:
    crash = last_crash(facts.records) or {}
    where = {"seam": crash.get("seam"), "node": crash.get("node") or THE_STEP, "step": crash.get("step")}
    run = facts.run or {}
    kind = run_kind(run["kind"]) if run else None
    head = facts.head or {}
    texts = {
        "no_case": ("Choose a case, a variant and a durability, then press Start.", {}),
        "read_only": (
            "Another tab is writing thread {thread}; this tab shows its checkpoints read-only. "
            "Press Take over to write here.",
            {"thread": (facts.session or {}).get("thread_id")},
        ),
        "running": (
            "Run {run} is running ({kind}).",
            {"run": run.get("run"), "kind": kind},
        ),
        "paused": (
            "Paused before step {step}: next {next}. Press Step (or Run, to the end).",
            _paused(facts),
        ),
        "crashed_nothing_saved": (
            "The process was killed at {seam} of {node}; nothing was saved (durability {durability}). "
            "Press Run to start the case again.",
            {**where, "durability": (last_run(facts.records) or {}).get("durability")},
        ),
        "crashed_waiting": (
            "The process was killed at {seam} of {node}; the saved thread waits at {waiting}'s interrupt(). "
            "Press Approve or Reject.",
            {**where, "waiting": waiting_at(facts.head)},
        ),
        "waiting": (
            "{node} called interrupt() and waits for an answer: Press Approve or Reject.",
            {"node": waiting_at(facts.head)},
        ),
        "crashed": (
            "The process was killed at {seam} of {node} (step {step}); {kept} checkpoint(s) survived. "
            "Press Resume.",
            {**where, "kept": len(facts.frame_ids)},
        ),
        "new": (
            "Thread {thread} is open: Press Run (or Step, one super-step at a time).",
            {"thread": (facts.session or {}).get("thread_id")},
        ),
        "done": ("The thread reached END.", {}),
        "error": ("The run failed; replay or fork an earlier frame.", {}),
        "ready": ("Next: {next}. Press Run to continue.", {"next": ", ".join(head.get("next", []))}),
    }
    if now == "crashed" and crash.get("seam") == "kill":
        return message(
            "status.crashed_unseen",
            "The process died outside any seam (a reload, a closed tab or a random kill) in step {step}; "
            "{kept} checkpoint(s) survived. Press Resume.",
            step=crash.get("step"),
            kept=len(facts.frame_ids),
        )
    if now == "done" and (ended := outcome(head.get("values", {}))) is not None:
        return message("status.done_with", "The thread reached END: {outcome}", outcome=ended)
    text, params = texts[now]
    return message(f"status.{now}", text, **params)


def _paused(facts: ThreadFacts) -> dict[str, Any]:
    run = facts.run or {}
    return {"step": run.get("step"), "next": ", ".join(run.get("next", [])) or "∅"}
