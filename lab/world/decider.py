"""The outside world's one rule: Stripe's idempotency keys, decided over the raw rows of a ledger.

LangGraph re-runs a node from its first line after a crash or an interrupt, so a call to the outside
world inside it must be idempotent: the node sends an idempotency key, and the service answers a key
it has seen with the original receipt (nothing happens again). LangGraph has no such module: in a
real application the service is Stripe, an email provider, a registry. This module is that service's
decision, written once; every recorder (:mod:`lab.world.memory`, the page's ledger through
:class:`lab.browser.page_world.PageWorld`, the playground's ledger copy) reads its raw rows, asks
:func:`decide_request` for the row to record and the receipt to answer, and records that row.

What a graph may ask the world to do is an :class:`Operation` of its profile (``kind``, the prefix of
its receipt numbers, the parameters a reused key must repeat); the world knows no operation by name.

The rule: the first request with a key executes (a new receipt id, its amount moved); a later request
with the same key of the same kind is a replay (the original receipt, ``replayed``, 0 cents); the
same key with other parameters is refused (:class:`IdempotencyError`, Stripe's HTTP 400); a request
without a key always executes. A raw row is::

    {seq, kind, id, idempotency_key, replayed, purpose, amount_cents,
     thread_id, node, task_id, checkpoint_id, at, ...the operation's own fields}

``seq`` is its place in arrival order: the row is decided over every row before it, so ``seq`` is the
number of those rows plus one. A ledger shared by several processes (two browser tabs) keeps ``seq``
unique and refuses a row whose ``seq`` is taken: that decision was made over stale rows, and the
caller decides again over fresh ones. In the browser the ledger also adds ``worker``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

__all__ = ["Decision", "IdempotencyError", "Operation", "decide_import", "decide_request", "request_row"]

SITE_FIELDS = ("thread_id", "node", "task_id", "checkpoint_id")
"""Where a request came from: the running node's thread, name, task and checkpoint."""


@dataclass(frozen=True)
class Operation:
    """One thing a graph asks the outside world to do, as its profile declares it."""

    kind: str
    """The ledger rows' ``kind``."""
    prefix: str
    """Receipt numbers: ``{prefix}_0001``, ``{prefix}_0002``, ... (replays take none)."""
    label: str
    """What the ledger says of one done: ``"charged"``, ``"sent"`` (``"charged ×2"`` for a repeat)."""
    noun: str
    """What one request is called: ``"charge"``, ``"email"`` (``"New charge"``)."""
    compared: tuple[str, ...] = ("amount_cents", "purpose")
    """What a reused key must repeat exactly (Stripe compares the request's parameters)."""


class IdempotencyError(Exception):
    """An idempotency key reused with different parameters (Stripe answers HTTP 400)."""


@dataclass(frozen=True)
class Decision:
    """What the world does with one request: the raw ``row`` to record and the ``receipt`` to answer
    (the row that executed the request, ``replayed`` or not; an imported row's is the row: its caller
    was answered in the lab that made it)."""

    row: dict[str, Any]
    receipt: dict[str, Any]


def request_row(operation: Operation, idempotency_key: str | None, **request: Any) -> dict[str, Any]:
    """The raw request as the caller made it (before the world decides): ``kind``, key, call site,
    ``purpose``, ``amount_cents`` (0 unless given) and the operation's own fields."""
    return {"kind": operation.kind, "idempotency_key": idempotency_key, "amount_cents": 0, **request}


def executed_row(rows: list[dict[str, Any]], kind: str, key: str | None) -> dict[str, Any] | None:
    """The row that executed ``key`` for this kind of request (keys are per service), if any."""
    if key is None:
        return None
    return next(
        (r for r in rows if r["kind"] == kind and r["idempotency_key"] == key and not r["replayed"]), None
    )


def next_receipt_id(rows: list[dict[str, Any]], operation: Operation) -> str:
    """The next receipt number of ``operation``: ``ch_0001``, ``em_0001``, ... (replays take none)."""
    executed = sum(1 for r in rows if r["kind"] == operation.kind and not r["replayed"])
    return f"{operation.prefix}_{executed + 1:04d}"


def check_same_parameters(original: dict[str, Any], request: dict[str, Any], operation: Operation) -> None:
    """Refuse a key reused with other parameters, as Stripe does."""
    for name in operation.compared:
        if name in request and original.get(name) != request[name]:
            raise IdempotencyError(
                "Keys for idempotent requests can only be used with the same parameters they were first "
                f"used with ({name}: {original.get(name)!r} then {request[name]!r})."
            )


def decide_request(rows: list[dict[str, Any]], operation: Operation, request: dict[str, Any]) -> Decision:
    """Replay or execute ``request`` (a :func:`request_row` of ``operation``) given every row the world
    recorded so far."""
    original = executed_row(rows, request["kind"], request["idempotency_key"])
    if original is not None:
        check_same_parameters(original, request, operation)
    row = {
        "seq": len(rows) + 1,
        **request,
        "id": original["id"] if original else next_receipt_id(rows, operation),
        "replayed": original is not None,
        "amount_cents": 0 if original else request["amount_cents"],
        "at": time.time() * 1000,  # ms since 1970, as a JavaScript clock reads it
    }
    return Decision(row, {**(original or row), "replayed": original is not None})


def decide_import(rows: list[dict[str, Any]], row: dict[str, Any]) -> Decision:
    """Record ``row`` as another lab decided it (an imported thread's): its outcome stays as it was;
    only its place in this ledger, ``seq``, is decided here, over ``rows``."""
    kept = {name: value for name, value in row.items() if name not in ("seq", "worker")}
    decided = {**kept, "seq": len(rows) + 1}
    return Decision(decided, receipt=decided)
