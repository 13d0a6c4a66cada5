"""The outside world in CPython: an in-memory paid API and SAR registry that record raw requests.

In the browser these live in the page (a ledger persisted next to the checkpoints), outside the
Python worker that may be killed at any moment. :class:`InMemoryWorld` is their stand-in for tests:
keep the same object while replacing the controller, and it survives the simulated crash.

Whether a request executes or replays its idempotency key (Stripe's behaviour) is decided by the one
rule in :mod:`lab.controller.paid_api`, which the browser's ``PageWorld`` uses too; this world only
keeps the raw rows it is given (what the page's ``static/ledger.mjs`` keeps). What the rows mean to
a learner is decided once, in :mod:`lab.controller.ledger_rules`.
"""

from __future__ import annotations

from typing import Any

from lab.controller.ledger_rules import annotate_ledger
from lab.controller.paid_api import (
    ChargeReceipt,
    FilingReceipt,
    IdempotencyError,
    decide_import,
    decide_request,
    request_row,
)

__all__ = ["IdempotencyError", "InMemoryWorld", "annotate_ledger"]


class InMemoryWorld:
    """The paid transaction-graph API and the SAR registry, in one process's memory."""

    def __init__(self) -> None:
        self._rows: list[dict[str, Any]] = []  # one per request received, oldest first

    async def charge(self, idempotency_key: str | None, **request: Any) -> ChargeReceipt:
        """Charge (``request``: the call site, ``amount_cents``, ``purpose``)."""
        return self._serve(request_row("charge", idempotency_key, **request))  # type: ignore[return-value]

    async def file_sar(self, idempotency_key: str | None, **request: Any) -> FilingReceipt:
        """File a SAR (``request``: the call site, ``case_id``, ``report``)."""
        return self._serve(request_row("sar", idempotency_key, **request))  # type: ignore[return-value]

    async def entries(self) -> list[dict[str, Any]]:
        """Every request received, oldest first (replayed ones included)."""
        return [dict(row) for row in self._rows]

    async def clear(self) -> None:
        self._rows.clear()

    async def add_entries(self, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            self._rows.append(decide_import(self._rows, row).row)

    def record_now(self, row: dict[str, Any]) -> None:
        """Keep a row its caller decided (``lab.world``'s synchronous calls in the playground)."""
        self._rows.append(row)

    def _serve(self, request: dict[str, Any]) -> ChargeReceipt | FilingReceipt:
        decision = decide_request(self._rows, request)
        self._rows.append(decision.row)
        return decision.receipt
