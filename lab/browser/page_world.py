"""The external world of the browser lab, answered by the page: one recorder of :mod:`lab.world`.

Durable execution is about what survives the death of the process that runs the graph. A payment made
by a node is exactly such a thing: once the paid API has taken the money, killing the Web Worker
does not give it back. So the world a graph calls (:class:`~lab.world.World`) must not live in the
worker's Python: the page's ledger (``static/ledger.mjs``) keeps the raw requests in an IndexedDB
database of its own. The page only stores and lists rows; what a request does (execute, or replay
its idempotency key the way Stripe does) is decided here, by the one rule of
:mod:`lab.world.decider` that the in-memory world uses too. A request is two calls: read the rows
(``entries``), then ``record`` the row the rule decided (outcome, receipt id, amount, time); the
receipt is answered once the page has recorded it.

Each call is one round trip of :class:`lab.browser.page_calls.PageCalls`: the event
``{type: "world", call, op, args}`` (``op``: ``entries``, ``record`` (``args``: the row) or
``clear``), answered by the worker command ``world_reply``.

If the worker dies in between, nothing is lost that the page has not already recorded: the page
writes the row before it replies, and a dead worker's calls are no longer served. Requests are
decided one at a time (a lock spans read, decide, record), so parallel nodes never take one
receipt number. Another browser tab runs another process over the same ledger, which no lock here
reaches: a row carries its ``seq`` (its place after the rows it was decided over), the ledger
refuses a ``seq`` that is taken (IndexedDB's ``ConstraintError``), and the request is decided again
over the fresh rows - optimistic concurrency, so no two tabs ever record one ``seq`` or one receipt.

This module imports nothing from Pyodide (the page is reached through the ``emit`` function it is
given), so CPython can import and test it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from lab.browser.page_calls import REPLY_TIMEOUT_S, Emit, PageCalls
from lab.world import Operation
from lab.world.decider import Decision, decide_import, decide_request

MAX_DECISIONS = 20
"""How often one request is decided again because another tab recorded a row first."""
STALE_DECISION = "ConstraintError"
"""The error the page's ledger answers when a row's ``seq`` is taken (IndexedDB's name for it)."""


class ExternalWorldError(Exception):
    """The page could not serve a call to the external world (or did not answer in time)."""


class StaleDecision(ExternalWorldError):
    """Another process recorded a row after this one read the rows: decide again."""


class PageWorld:
    """:class:`~lab.world.World` whose every call is answered by the page.

    ``emit(event)`` posts an event to the page (``lab.browser.worker_api.emit`` in the worker).
    """

    def __init__(self, emit: Emit, *, timeout: float = REPLY_TIMEOUT_S) -> None:
        self._calls = PageCalls(
            emit,
            "world",
            timeout=timeout,
            failure=_page_error,
            timeout_error=ExternalWorldError,
            what="the external call",
        )
        self._deciding = asyncio.Lock()  # read the rows, decide, record: one request at a time

    # -- the World interface -----------------------------------------------------------------------
    async def request(self, operation: Operation, request: dict[str, Any]) -> dict[str, Any]:
        """Serve one request of ``operation``: decided here, recorded by the page, then answered."""
        decision = await self._record(lambda kept: decide_request(kept, operation, request))
        return decision.receipt

    async def entries(self) -> list[dict[str, Any]]:
        """Every request the page's ledger received, oldest first."""
        return await self._ask("entries", {})

    async def clear(self) -> None:
        """Empty the page's ledger (the lab's reset)."""
        await self._ask("clear", {})

    async def add_entries(self, rows: list[dict[str, Any]]) -> None:
        """Append requests received elsewhere (an imported thread's) to the page's ledger, in order,
        each at the next place in arrival order."""
        for row in rows:
            await self._record(lambda kept, row=row: decide_import(kept, row))

    def record_now(self, row: dict[str, Any]) -> None:
        """Ask the page to record a row decided in Python, without waiting for its answer:
        ``lab.world``'s calls are synchronous. The event leaves before the node goes on, so a crash
        after it (the page kills the worker on a later event) still finds the row recorded."""
        self._calls.tell("record", row)

    async def _record(self, decide: Callable[[list[dict[str, Any]]], Decision]) -> Decision:
        """Read the rows, ``decide`` the row to record over them, record it; decide again when another
        tab recorded first."""
        async with self._deciding:
            for _ in range(MAX_DECISIONS):
                decision = decide(await self.entries())
                try:
                    await self._ask("record", decision.row)
                except StaleDecision:
                    continue  # another tab recorded first: read again, decide again
                return decision
        raise ExternalWorldError(
            f"The ledger kept changing under this request ({MAX_DECISIONS} decisions went stale)"
        )

    # -- the round trip -----------------------------------------------------------------------------
    def reply(self, answer: dict[str, Any]) -> bool:
        """Settle a call with the page's ``answer`` (:meth:`lab.browser.page_calls.PageCalls.reply`)."""
        return self._calls.reply(answer)

    async def _ask(self, op: str, args: dict[str, Any]) -> Any:
        return await self._calls.ask(op, args)


def _page_error(error: dict[str, str]) -> Exception:
    """The exception a failed page call raises in Python."""
    kind, message = error.get("type", "Error"), error.get("message", "the page reported a failure")
    failure = StaleDecision if kind == STALE_DECISION else ExternalWorldError
    return failure(f"{kind}: {message}")
