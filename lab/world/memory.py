"""The outside world in one process's memory: every request a raw row, in arrival order.

In the browser the world lives in the page (a ledger persisted next to the checkpoints), outside the
Python worker that may be killed at any moment. :class:`MemoryWorld` is its stand-in in CPython (tests,
lesson seeds, challenge checks, a program's own script): keep the same object while replacing the
controller, and it survives the simulated crash. Whether a request executes or replays its
idempotency key is :mod:`lab.world.decider`'s rule; this world only keeps the rows it decides.
It serves both ways a graph calls out: awaited (:meth:`request`, a profile's nodes) and synchronous
(:meth:`record`, ``lab.world``'s functions in a plain ``def`` node).
"""

from __future__ import annotations

from typing import Any

from lab.world.decider import Operation, decide_import, decide_request

__all__ = ["MemoryWorld"]


class MemoryWorld:
    """The outside world's services, in one process's memory (``rows``: one per request, oldest first)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def record(self, operation: Operation, request: dict[str, Any]) -> dict[str, Any]:
        """Decide ``request`` over the rows, keep its row, answer its receipt."""
        decision = decide_request(self.rows, operation, request)
        self.rows.append(decision.row)
        return decision.receipt

    async def request(self, operation: Operation, request: dict[str, Any]) -> dict[str, Any]:
        """:meth:`record`, awaited (a profile's nodes call the world so: the page answers them later)."""
        return self.record(operation, request)

    async def entries(self) -> list[dict[str, Any]]:
        """Every request received, oldest first (replayed ones included)."""
        return [dict(row) for row in self.rows]

    async def clear(self) -> None:
        self.rows.clear()

    async def add_entries(self, rows: list[dict[str, Any]]) -> None:
        """Append requests received elsewhere (an imported thread's), numbered after the existing ones."""
        for row in rows:
            self.rows.append(decide_import(self.rows, row).row)

    def record_now(self, row: dict[str, Any]) -> None:
        """Keep a row its caller decided (the playground's ledger copy, for ``lab.world``'s calls)."""
        self.rows.append(row)
