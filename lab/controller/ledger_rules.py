"""The ledger's verdict: was one business operation paid for (or filed) more than once, and why.

LangGraph re-executes a node from its first line whenever it runs again: after ``interrupt()`` is
answered, after a crash before its writes were saved, on a replay of an old checkpoint. Any side
effect in that node happens again unless the outside service recognises the request (an
idempotency key, as Stripe honours). The outside world (``MemoryWorld`` in CPython, the page's
``static/ledger.mjs`` in the browser) only records raw requests; this module is the one place that
says what they mean, for both worlds:

- each request's outcome: new (in the words of the profile's :class:`~lab.world.Operation` for its
  kind), or replayed by its idempotency key;
- the verdict, grouped by *business operation*, which the graph's profile defines (this thread's
  request of one kind for one purpose, unless it says otherwise) - never by task id, since a replay
  or a lost checkpoint runs the node as a new task;
- for every repeat, its cause, read from the journal: an interrupt answered, a crash (that lost
  the task's writes, or the checkpoint of its step), a replay, another thread of the same case.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lab.controller.messages import Message, message
from lab.controller.profile import GraphProfile
from lab.world import Operation

CAUSES = {
    "interrupt": "{node} ran again from its first line when its interrupt was answered, and did it again",
    "crash_rerun": "a crash came before the task's writes were saved, so the same task ran again",
    "crash_lost_checkpoint": "a crash lost the checkpoint of its step, so the step ran again as a new task",
    "replay": "a replay of an old frame ran the node again as a new task",
    "other_thread": "another thread of the same case did it already",
    "again": "the node ran again in a later run of this thread",
}
"""Why a business operation happened again, by cause code (``{node}``: the node that repeated it)."""


def run_at(records: list[dict[str, Any]], at_ms: float | None) -> dict[str, Any] | None:
    """The run that was going on when a request arrived (the last run started before it)."""
    if at_ms is None:
        return None
    starts = [r for r in records if r["type"] == "run_start" and r.get("at", 0) * 1000 <= at_ms]
    return starts[-1] if starts else None


def repeat_cause(first: dict[str, Any], again: dict[str, Any], records: list[dict[str, Any]]) -> str:
    """Why ``again`` repeated the operation ``first`` already did (``records``: ``again``'s thread)."""
    if first["thread_id"] != again["thread_id"]:
        return "other_thread"
    run = run_at(records, again.get("at"))
    if run is not None and run["kind"] == "replay":
        return "replay"
    crashed = [
        r
        for r in records
        if r["type"] == "crash" and first.get("at", 0) <= r.get("at", 0) * 1000 <= again.get("at", 0)
    ]
    if crashed:
        return "crash_rerun" if first["task_id"] == again["task_id"] else "crash_lost_checkpoint"
    if run is not None and run["kind"] == "answer" and first["task_id"] == again["task_id"]:
        return "interrupt"
    return "again"


def outcome_of(row: dict[str, Any], executed_before: int, operation: Operation) -> Message:
    """What one request did: a replay by key, the operation's first execution, or a repeat."""
    if row["replayed"]:
        return message(
            "ledger.replayed",
            "Replayed by idempotency key {key}: nothing new happened",
            key=row["idempotency_key"],
        )
    if executed_before:
        return message(
            f"ledger.repeat.{row['kind']}",
            "{label} ×{times}",
            label=operation.label,
            times=executed_before + 1,
        )
    return message(f"ledger.new.{row['kind']}", "New {kind}", kind=operation.noun)


def annotate_ledger(
    rows: list[dict[str, Any]],
    journals: dict[str, list[dict[str, Any]]] | None = None,
    *,
    profile: GraphProfile,
) -> dict[str, Any]:
    """The ledger as the page shows it: each request with its ``attempt`` (n-th request of the same
    business operation), ``outcome`` and ``flag``; the ``duplicates`` (operations executed more
    than once, each with its causes and explanation); totals; and the ``verdict``. ``journals``
    (thread id → journal records) lets the causes be told apart; without it a repeat is "again".
    ``profile`` says which rows are one business operation, and what each was for."""
    journals = journals or {}
    attempts: Counter[tuple[str, ...]] = Counter()
    executed: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    entries = []
    for row in rows:
        operation = profile.business_operation(row)
        attempts[operation] += 1
        done = executed.setdefault(operation, [])
        entries.append(
            {
                **row,
                "attempt": attempts[operation],
                "outcome": outcome_of(row, len(done), profile.operation(row["kind"])),
                "purpose_say": profile.purpose(row),
            }
        )
        if not row["replayed"]:
            done.append(row)
    duplicates = [
        duplicate(operation, done, journals, profile) for operation, done in executed.items() if len(done) > 1
    ]
    flagged = {tuple(d["operation"]): d for d in duplicates}
    for entry in entries:
        group = None if entry["replayed"] else flagged.get(profile.business_operation(entry))
        entry["flag"] = group["label"] if group else None
        entry["repeats"] = group["times"] if group else None
    return {
        "entries": entries,
        "duplicates": duplicates,
        "totals": totals(entries, profile),
        "verdict": verdict(duplicates),
    }


def totals(entries: list[dict[str, Any]], profile: GraphProfile) -> dict[str, Any]:
    """How many requests of each kind executed (replays excluded; the profile's operations first,
    then any other kind the rows hold), each count also in words (``say``), and the cents they moved."""
    executed = [entry for entry in entries if not entry["replayed"]]
    kinds = [operation.kind for operation in profile.operations] + [entry["kind"] for entry in executed]
    counts = Counter(entry["kind"] for entry in executed)
    ordered = {kind: counts[kind] for kind in dict.fromkeys(kinds)}
    return {
        "counts": ordered,
        "say": [
            message(f"ledger.count.{kind}", "{count} {noun}(s)", count=n, noun=profile.operation(kind).noun)
            for kind, n in ordered.items()
        ],
        "cents": sum(entry["amount_cents"] for entry in executed),
    }


def duplicate(
    operation: tuple[str, ...],
    done: list[dict[str, Any]],
    journals: dict[str, list[dict[str, Any]]],
    profile: GraphProfile,
) -> dict[str, Any]:
    """One business operation executed more than once, and why each repeat happened."""
    first, kind = done[0], done[0]["kind"]
    causes = [repeat_cause(first, again, journals.get(again["thread_id"], [])) for again in done[1:]]
    label = f"{profile.operation(kind).label} ×{len(done)}"
    return {
        "operation": list(operation),
        "kind": kind,
        "thread_id": first["thread_id"],
        "node": done[-1]["node"],
        "purpose": first["purpose"],
        "purpose_say": profile.purpose(first),
        "times": len(done),
        "label": label,
        "ids": [row["id"] for row in done],
        "causes": causes,
        "explanation": message(
            f"ledger.explain.{kind}",
            "{purpose} {label}: {why}",
            purpose=first["purpose"],
            label=label,
            why="; ".join(CAUSES[c].format(node=done[-1]["node"]) for c in dict.fromkeys(causes)),
            causes=list(dict.fromkeys(causes)),
        ),
    }


def thread_ledger(
    rows: list[dict[str, Any]],
    thread_id: str | None,
    journals: dict[str, list[dict[str, Any]]] | None = None,
    *,
    profile: GraphProfile,
) -> dict[str, Any]:
    """The ledger of one thread: only the requests ``thread_id`` made, annotated as a ledger of its own
    (what a lesson shows beside its step: the lesson's thread, not every thread of the browser)."""
    return annotate_ledger([row for row in rows if row["thread_id"] == thread_id], journals, profile=profile)


def verdict(duplicates: list[dict[str, Any]]) -> dict[str, Any]:
    """An operation done more than once or not, in one sentence."""
    if not duplicates:
        return {"double": False, "message": message("ledger.verdict.clean", "Every operation happened once")}
    labels = ", ".join(f"{d['purpose']} {d['label']}" for d in duplicates)
    return {
        "double": True,
        "message": message("ledger.verdict.double", "Paid or filed more than once: {labels}", labels=labels),
    }
