"""The outside world a learner's program may call: a paid API and an email service whose every request
is recorded outside the process, so a node that re-runs after a crash or an interrupt shows its
double effect.

LangGraph has no such module: in a real application these would be Stripe, an email provider, a
bank. A playground program imports them like any library (``from lab.world import charge,
send_email``) and calls them from its nodes; each call is one raw request, shaped like the AML paid
API's (:func:`lab.controller.paid_api.request_row`): ``kind``, ``idempotency_key``, ``amount_cents``,
``purpose``, and the call site (``thread_id``, ``node``, ``task_id``, ``checkpoint_id``, read from the
running node's config). Who records it is pluggable (:func:`use_recorder`): in the page the lab's
ledger, which outlives the Python process; elsewhere :class:`MemoryLedger`. As with Stripe, a request
whose idempotency key was seen before is answered with the original receipt and moves nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

__all__ = ["MemoryLedger", "Recorder", "charge", "send_email", "set_recorder", "use_recorder"]


class Recorder(Protocol):
    """Records one raw request and answers its receipt (a dict: the row the world kept)."""

    def record(self, request: dict[str, Any]) -> dict[str, Any]: ...


class MemoryLedger:
    """A recorder in this process's memory: every request a row, in arrival order; a known key replays."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def record(self, request: dict[str, Any]) -> dict[str, Any]:
        from lab.controller.paid_api import check_same_parameters, executed_row  # the one idempotency rule

        original = executed_row(self.rows, request["kind"], request["idempotency_key"])
        if original is not None:
            check_same_parameters(original, request)
        executed = sum(1 for row in self.rows if row["kind"] == request["kind"] and not row["replayed"])
        row = {
            "seq": len(self.rows) + 1,
            **request,
            "id": original["id"] if original else f"{request['kind']}_{executed + 1:04d}",
            "replayed": original is not None,
            "amount_cents": 0 if original else request["amount_cents"],
        }
        self.rows.append(row)
        return dict(row)


_recorder: Recorder = MemoryLedger()


def set_recorder(recorder: Recorder) -> Recorder:
    """Send this module's requests to ``recorder`` from now on (the playground's worker: the lab's
    ledger, for as long as a program is loaded); returns the recorder it replaces."""
    global _recorder
    previous, _recorder = _recorder, recorder
    return previous


@contextmanager
def use_recorder(recorder: Recorder) -> Iterator[Recorder]:
    """Send this module's requests to ``recorder`` while the block runs (a test's ledger)."""
    previous = set_recorder(recorder)
    try:
        yield recorder
    finally:
        set_recorder(previous)


def charge(amount: float, purpose: str, idempotency_key: str | None = None) -> dict[str, Any]:
    """Charge ``amount`` (in dollars; recorded in cents) for ``purpose``; returns the receipt.

    With an ``idempotency_key`` seen before, nothing is charged again: the original receipt comes back
    with ``replayed`` true.
    """
    return _send("charge", idempotency_key, amount_cents=round(amount * 100), purpose=purpose)


def send_email(to: str, subject: str, body: str = "", idempotency_key: str | None = None) -> dict[str, Any]:
    """Send an email; returns the receipt (a repeated ``idempotency_key`` sends nothing new)."""
    return _send("email", idempotency_key, amount_cents=0, purpose=f"email to {to}: {subject}", body=body)


def _send(kind: str, idempotency_key: str | None, **request: Any) -> dict[str, Any]:
    return _recorder.record({"kind": kind, "idempotency_key": idempotency_key, **call_site(), **request})


def call_site() -> dict[str, Any]:
    """Where the request came from: the running node's thread, name, task and checkpoint (``None``
    outside a node). Read from lab's config, or from LangGraph's when real LangGraph runs the program."""
    for get_config in _config_readers():
        try:
            configurable = get_config().get("configurable", {})
        except RuntimeError:  # not inside a node of this runtime
            continue
        node, _, task_id = configurable.get("checkpoint_ns", "").partition(":")
        return {
            "thread_id": configurable.get("thread_id"),
            "node": node or None,
            "task_id": task_id or None,
            "checkpoint_id": configurable.get("checkpoint_id"),
        }
    return dict.fromkeys(("thread_id", "node", "task_id", "checkpoint_id"))


def _config_readers() -> Iterator[Callable[[], dict[str, Any]]]:
    from lab.config import get_config

    yield get_config
    try:  # real LangGraph, when it runs the program instead (the gallery's tests); never needed by lab
        from langgraph.config import get_config as get_langgraph_config
    except ImportError:
        return
    yield get_langgraph_config
