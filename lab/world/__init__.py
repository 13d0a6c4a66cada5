"""The outside world a graph may call: services whose every request is recorded outside the process,
so a node that re-runs after a crash or an interrupt shows its double effect.

LangGraph has no such module: in a real application these would be Stripe, an email provider, a
bank. The package is one decider and its recorders:

- :mod:`lab.world.decider`: the one rule (a receipt per request; a known idempotency key replays),
  over the :class:`Operation` s a graph's profile declares;
- :mod:`lab.world.memory`: the world in one process's memory; in the browser the page's ledger
  (:class:`lab.browser.page_world.PageWorld`) and the playground's ledger copy are the others;
- :mod:`lab.world.recorder`: who records a synchronous call, a context variable of the run.

A playground program imports its services like any library (``from lab.world import charge,
send_email``) and calls them from its nodes; each call is one raw request with its call site read
from the running node's config. As with Stripe, a request whose idempotency key was seen before is
answered with the original receipt and moves nothing.
"""

from __future__ import annotations

from typing import Any

from lab.world.decider import IdempotencyError, Operation, request_row
from lab.world.memory import MemoryWorld
from lab.world.recorder import Recorder, World, call_site, current_recorder, use_recorder

__all__ = [
    "EMAIL",
    "PAYMENT",
    "PROGRAM_OPERATIONS",
    "IdempotencyError",
    "MemoryLedger",
    "MemoryWorld",
    "Operation",
    "Recorder",
    "World",
    "charge",
    "send_email",
    "use_recorder",
]

MemoryLedger = MemoryWorld
"""The name the gallery's programs imported before this package: a program a learner kept in a tab or
shared by link still runs."""

PAYMENT = Operation("charge", "ch", label="charged", noun="charge")
EMAIL = Operation("email", "em", label="sent", noun="email")
PROGRAM_OPERATIONS = (PAYMENT, EMAIL)
"""What a playground program's services do: pay, send an email."""


def charge(amount: float, purpose: str, idempotency_key: str | None = None) -> dict[str, Any]:
    """Charge ``amount`` (in dollars; recorded in cents) for ``purpose``; returns the receipt.

    With an ``idempotency_key`` seen before, nothing is charged again: the original receipt comes back
    with ``replayed`` true.
    """
    return _send(PAYMENT, idempotency_key, amount_cents=round(amount * 100), purpose=purpose)


def send_email(to: str, subject: str, body: str = "", idempotency_key: str | None = None) -> dict[str, Any]:
    """Send an email; returns the receipt (a repeated ``idempotency_key`` sends nothing new)."""
    return _send(EMAIL, idempotency_key, purpose=f"email to {to}: {subject}", body=body)


def _send(operation: Operation, idempotency_key: str | None, **request: Any) -> dict[str, Any]:
    return current_recorder().record(
        operation, request_row(operation, idempotency_key, **call_site(), **request)
    )
