"""The outside world in CPython: an in-memory paid API and SAR registry that record raw requests.

In the browser these live in the page (a ledger persisted next to the checkpoints), outside the
Python worker that may be killed at any moment. :class:`InMemoryWorld` is their stand-in for tests:
keep the same object while replacing the controller, and it survives the simulated crash.

It honours idempotency keys the way Stripe does: the first request with a key is executed and its
result stored; a later request with the same key gets that stored result back (``replayed=True``)
and nothing new happens; reusing a key with different parameters is an error. Requests without a
key always execute. Each request is recorded as a raw row (what the page's ``static/ledger.mjs``
records too); what the rows mean is decided once, in :mod:`lab.controller.ledger_rules`.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from typing import Any

from lab.aml.graph import ChargeReceipt, FilingReceipt
from lab.controller.ledger_rules import annotate_ledger

__all__ = ["IdempotencyError", "InMemoryWorld", "annotate_ledger"]


class IdempotencyError(Exception):
    """An idempotency key reused with different parameters (Stripe answers HTTP 400)."""


class InMemoryWorld:
    """The paid transaction-graph API and the SAR registry, in one process's memory."""

    def __init__(self) -> None:
        self._rows: list[dict[str, Any]] = []  # one per request received, oldest first
        self._charges: dict[str, ChargeReceipt] = {}  # idempotency key -> first receipt
        self._filings: dict[str, FilingReceipt] = {}
        self._counts: Counter[str] = Counter()  # receipt id prefix -> last number used

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
    ) -> ChargeReceipt:
        site = {"thread_id": thread_id, "node": node, "task_id": task_id, "checkpoint_id": checkpoint_id}
        original = self._charges.get(idempotency_key) if idempotency_key else None
        if original is not None:
            _same_parameters(original, amount_cents=amount_cents, purpose=purpose)
            receipt = replace(original, replayed=True)
        else:
            receipt = ChargeReceipt(
                self._next_id("ch"), idempotency_key, amount_cents, purpose, **site, replayed=False
            )
            if idempotency_key:
                self._charges[idempotency_key] = receipt
        self._log(
            "charge", receipt.receipt_id, idempotency_key, receipt.replayed, site, purpose, amount_cents
        )
        return receipt

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
    ) -> FilingReceipt:
        site = {"thread_id": thread_id, "node": node, "task_id": task_id, "checkpoint_id": checkpoint_id}
        original = self._filings.get(idempotency_key) if idempotency_key else None
        if original is not None:
            _same_parameters(original, case_id=case_id)
            receipt = replace(original, replayed=True)
        else:
            receipt = FilingReceipt(self._next_id("sar"), idempotency_key, case_id, **site, replayed=False)
            if idempotency_key:
                self._filings[idempotency_key] = receipt
        self._log("sar", receipt.sar_id, idempotency_key, receipt.replayed, site, f"SAR for {case_id}", 0)
        self._rows[-1]["case_id"] = case_id
        return receipt

    async def entries(self) -> list[dict[str, Any]]:
        """Every request received, oldest first (replayed ones included)."""
        return [dict(row) for row in self._rows]

    async def clear(self) -> None:
        self._rows.clear()
        self._charges.clear()
        self._filings.clear()
        self._counts.clear()

    def _next_id(self, prefix: str) -> str:
        self._counts[prefix] += 1
        return f"{prefix}_{self._counts[prefix]:04d}"

    def _log(
        self,
        kind: str,
        receipt_id: str,
        key: str | None,
        replayed: bool,
        site: dict[str, str],
        purpose: str,
        amount_cents: int,
    ) -> None:
        self._rows.append(
            {
                "seq": len(self._rows) + 1,
                "kind": kind,
                "id": receipt_id,
                "idempotency_key": key,
                "replayed": replayed,
                "purpose": purpose,
                "amount_cents": 0 if replayed else amount_cents,
                **site,
                "at": time.time() * 1000,  # ms since 1970, as the page's ledger records it
            }
        )


def _same_parameters(original: ChargeReceipt | FilingReceipt, **parameters: Any) -> None:
    for name, value in parameters.items():
        if getattr(original, name) != value:
            raise IdempotencyError(
                "Keys for idempotent requests can only be used with the same parameters they were first "
                f"used with ({name}: {getattr(original, name)!r} then {value!r})."
            )
