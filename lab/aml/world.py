"""The AML investigation's outside world: the paid transaction-graph API and the SAR registry, two
operations of the lab's one world (:mod:`lab.world`).

A node pays for a query or an export (:meth:`AmlWorld.charge`, the playground's own payment
operation) and files a SAR (:meth:`AmlWorld.file_sar`); the world decides each by the one
idempotency rule and answers a receipt, kept in the graph's state as :class:`ChargeReceipt` or
:class:`FilingReceipt` (the shape stored checkpoints hold).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from lab.world import PAYMENT, Operation, World
from lab.world.decider import SITE_FIELDS, request_row

__all__ = ["AML_OPERATIONS", "FILING", "SAR_PURPOSE", "AmlWorld", "ChargeReceipt", "FilingReceipt"]

FILING = Operation(
    "sar", "sar", label="filed", noun="filing", compared=("amount_cents", "purpose", "case_id")
)
AML_OPERATIONS = (PAYMENT, FILING)
"""What the investigation asks of the world: pay the transaction-graph API, file a SAR."""

SAR_PURPOSE = "SAR for {case}"
"""The purpose the registry's ledger rows carry (a filing names its case)."""


@dataclass(frozen=True, kw_only=True)
class Receipt:
    """Where the request came from, and ``replayed``: the idempotency key was seen before, so this is
    the original receipt again and nothing happened again (Stripe's behaviour)."""

    thread_id: str
    node: str
    task_id: str
    checkpoint_id: str
    replayed: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ChargeReceipt(Receipt):
    """What the paid API answers."""

    receipt_id: str
    idempotency_key: str | None
    amount_cents: int
    purpose: str


@dataclass(frozen=True)
class FilingReceipt(Receipt):
    """What the SAR registry answers."""

    sar_id: str
    idempotency_key: str | None
    case_id: str


class AmlWorld:
    """The paid API and the SAR registry, over the lab's ``world`` (the graph's nodes call these)."""

    def __init__(self, world: World) -> None:
        self.world = world

    async def charge(self, idempotency_key: str | None, **request: Any) -> ChargeReceipt:
        """Charge (``request``: the call site, ``amount_cents``, ``purpose``)."""
        receipt = await self.world.request(PAYMENT, request_row(PAYMENT, idempotency_key, **request))
        key, amount, purpose = receipt["idempotency_key"], receipt["amount_cents"], receipt["purpose"]
        return ChargeReceipt(receipt["id"], key, amount, purpose, **_site(receipt))

    async def file_sar(self, idempotency_key: str | None, *, case_id: str, **request: Any) -> FilingReceipt:
        """File a SAR (``request``: the call site, ``report``)."""
        purpose = SAR_PURPOSE.format(case=case_id)
        row = request_row(FILING, idempotency_key, case_id=case_id, purpose=purpose, **request)
        receipt = await self.world.request(FILING, row)
        return FilingReceipt(receipt["id"], receipt["idempotency_key"], receipt["case_id"], **_site(receipt))


def _site(receipt: dict[str, Any]) -> dict[str, Any]:
    """The call site and whether the receipt is a replay, as the receipts hold them."""
    return {**{name: receipt[name] for name in SITE_FIELDS}, "replayed": receipt["replayed"]}
