"""The outside world the lab gives a graph (a paid API and a filing registry), and its one rule:
Stripe's idempotency keys, decided over the raw rows of a ledger.

LangGraph re-runs a node from its first line after a crash or an interrupt, so a paid call inside it
must be idempotent: the node sends an idempotency key, and the API answers a key it has seen with the
original receipt (no money moves). This module is that API's decision, written once. Both worlds use
it: :class:`lab.controller.world.InMemoryWorld` (CPython) and :class:`lab.browser.page_world.PageWorld`
(the browser, whose page only stores the rows, ``static/ledger.mjs``). Each reads its raw rows, asks
:func:`decide_request` for the row to record and the receipt to answer, and records that row.

The rule: the first request with a key executes (a new receipt id, the amount charged); a later
request with the same key of the same kind is a replay (the original receipt, ``replayed``, 0 cents);
the same key with other parameters is refused (:class:`IdempotencyError`, Stripe's HTTP 400); a
request without a key always executes. A raw row is::

    {kind: "charge" | "sar", id, idempotency_key, replayed, purpose, amount_cents,
     thread_id, node, task_id, checkpoint_id, at[, case_id, report]}

plus ``seq``, its place in arrival order: the row is decided over every row before it, so ``seq`` is
the number of those rows plus one. A ledger shared by several processes (two browser tabs) keeps
``seq`` unique, so it refuses a row whose ``seq`` is taken: that decision was made over stale rows,
and the caller decides again over fresh ones (:class:`lab.browser.page_world.PageWorld`). In the
browser the ledger also adds ``worker``. What the world answers is a :class:`ChargeReceipt` or a
:class:`FilingReceipt`; what a graph may call is :class:`ExternalWorld` (the AML graph calls both).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any, Literal, Protocol

__all__ = [
    "ChargeReceipt",
    "Decision",
    "ExternalWorld",
    "FilingReceipt",
    "IdempotencyError",
    "decide_import",
    "decide_request",
    "request_row",
]

Kind = Literal["charge", "sar", "email"]
RECEIPT_PREFIX: dict[str, str] = {"charge": "ch", "sar": "sar", "email": "em"}
"""Receipt numbers per kind (``email``: ``lab.world.send_email`` in the playground, answered by its row)."""
SITE_FIELDS = ("thread_id", "node", "task_id", "checkpoint_id")
COMPARED_PARAMETERS = ("amount_cents", "purpose", "case_id")
"""What a reused key must repeat exactly (Stripe compares the request's parameters)."""


class IdempotencyError(Exception):
    """An idempotency key reused with different parameters (Stripe answers HTTP 400)."""


@dataclass(frozen=True)
class ChargeReceipt:
    """What the paid API answers. ``replayed``: the idempotency key was seen before, so this is
    the original receipt again and no money moved (Stripe's behaviour)."""

    receipt_id: str
    idempotency_key: str | None
    amount_cents: int
    purpose: str
    thread_id: str
    node: str
    task_id: str
    checkpoint_id: str
    replayed: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class FilingReceipt:
    """What the SAR registry answers; ``replayed`` as for :class:`ChargeReceipt`."""

    sar_id: str
    idempotency_key: str | None
    case_id: str
    thread_id: str
    node: str
    task_id: str
    checkpoint_id: str
    replayed: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class ExternalWorld(Protocol):
    """The paid API and the SAR registry. The graph calls ``charge`` and ``file_sar``; the lab
    reads ``entries`` (one row per request received, oldest first) and ``clear``s on reset.

    With an ``idempotency_key`` seen before, an implementation must return the original receipt
    with ``replayed=True`` and charge or file nothing new; ``None`` means "no key": always new.
    """

    async def charge(
        self,
        idempotency_key: str | None,
        *,
        thread_id: str,
        node: str,
        task_id: str,
        checkpoint_id: str,
        amount_cents: int,
        purpose: str,
    ) -> ChargeReceipt: ...

    async def file_sar(
        self,
        idempotency_key: str | None,
        *,
        thread_id: str,
        node: str,
        task_id: str,
        checkpoint_id: str,
        case_id: str,
        report: dict[str, Any],
    ) -> FilingReceipt: ...

    async def entries(self) -> list[dict[str, Any]]: ...

    async def clear(self) -> None: ...

    async def add_entries(self, rows: list[dict[str, Any]]) -> None:
        """Append requests received elsewhere (an imported thread's), numbered after the existing ones."""
        ...


@dataclass(frozen=True)
class Decision:
    """What the world does with one request: the raw ``row`` to record and the ``receipt`` to answer
    (none for an imported row: its caller was answered in the lab that made it; none for an email,
    whose caller, ``lab.world``, answers with the row)."""

    row: dict[str, Any]
    receipt: ChargeReceipt | FilingReceipt | None


SAR_PURPOSE = "SAR for {case}"
"""The purpose the registry's ledger rows carry (a filing names its case)."""


def request_row(kind: Kind, idempotency_key: str | None, **request: Any) -> dict[str, Any]:
    """The raw request as the caller made it (before the world decides): ``kind``, key, call site,
    ``amount_cents`` and ``purpose`` for a charge, ``case_id`` and ``report`` for a filing."""
    if kind == "sar":
        request = {"purpose": SAR_PURPOSE.format(case=request["case_id"]), "amount_cents": 0, **request}
    return {"kind": kind, "idempotency_key": idempotency_key, **request}


def executed_row(rows: list[dict[str, Any]], kind: str, key: str | None) -> dict[str, Any] | None:
    """The row that executed ``key`` for this kind of request (keys are per service), if any."""
    if key is None:
        return None
    return next(
        (r for r in rows if r["kind"] == kind and r["idempotency_key"] == key and not r["replayed"]), None
    )


def next_receipt_id(rows: list[dict[str, Any]], kind: str) -> str:
    """The next receipt number of this kind: ``ch_0001``, ``sar_0001``, ... (replays take none)."""
    executed = sum(1 for r in rows if r["kind"] == kind and not r["replayed"])
    return f"{RECEIPT_PREFIX[kind]}_{executed + 1:04d}"


def check_same_parameters(original: dict[str, Any], request: dict[str, Any]) -> None:
    """Refuse a key reused with other parameters, as Stripe does."""
    for name in COMPARED_PARAMETERS:
        if name in request and original.get(name) != request[name]:
            raise IdempotencyError(
                "Keys for idempotent requests can only be used with the same parameters they were first "
                f"used with ({name}: {original.get(name)!r} then {request[name]!r})."
            )


def decide_request(rows: list[dict[str, Any]], request: dict[str, Any]) -> Decision:
    """Replay or execute ``request`` (a :func:`request_row`) given every row the world recorded so far."""
    original = executed_row(rows, request["kind"], request["idempotency_key"])
    if original is not None:
        check_same_parameters(original, request)
    row = {
        "seq": len(rows) + 1,
        **request,
        "id": original["id"] if original else next_receipt_id(rows, request["kind"]),
        "replayed": original is not None,
        "amount_cents": 0 if original else request["amount_cents"],
        "at": time.time() * 1000,  # ms since 1970, as a JavaScript clock reads it
    }
    receipt = receipt_for(original or row, replayed=original is not None) if row["kind"] != "email" else None
    return Decision(row, receipt)


def decide_import(rows: list[dict[str, Any]], row: dict[str, Any]) -> Decision:
    """Record ``row`` as another lab decided it (an imported thread's): its outcome stays as it was;
    only its place in this ledger, ``seq``, is decided here, over ``rows`` (no receipt: nobody waits)."""
    kept = {name: value for name, value in row.items() if name not in ("seq", "worker")}
    return Decision({**kept, "seq": len(rows) + 1}, receipt=None)


def receipt_for(executed: dict[str, Any], *, replayed: bool) -> ChargeReceipt | FilingReceipt:
    """The receipt of the row that executed the request (a replay answers with the original's)."""
    site = {name: executed[name] for name in SITE_FIELDS}
    key = executed["idempotency_key"]
    if executed["kind"] == "charge":
        return ChargeReceipt(
            executed["id"], key, executed["amount_cents"], executed["purpose"], **site, replayed=replayed
        )
    return FilingReceipt(executed["id"], key, executed["case_id"], **site, replayed=replayed)
