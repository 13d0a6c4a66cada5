"""Calls from the worker's Python to the page that runs it, one round trip each.

LangGraph has no such thing: its process owns its storage and its outside world. The lab's worker
is a process the lab kills on purpose, so whatever must outlive it is kept by the page (the main
thread outlives every worker): the outside world (:mod:`lab.browser.page_world`) and, where the
browser refuses IndexedDB, the saver's and the journal's records (:mod:`lab.browser.page_records`).
Both reach the page the same way, through one :class:`PageCalls` each.

One call is one round trip, matched by its number ``call`` (not ``id``: in ``static/protocol.mjs``
a message with a numeric ``id`` is the response to a page request):

1. Python emits the event ``{type, call, op, args}`` (``type`` names who answers: ``world``,
   ``records``) and awaits an ``asyncio.Future``;
2. the page does the work and sends a worker command (``world_reply``, ``records_reply``) with
   ``{call, ok: true, result}`` or ``{call, ok: false, error: {type, message}}``;
   :meth:`PageCalls.reply` settles the future.

This module imports nothing from Pyodide (the page is reached through the ``emit`` function it is
given), so CPython can import and test it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

REPLY_TIMEOUT_S = 30.0
"""How long a call waits for the page: a page that does not answer must not hang a run."""

Emit = Callable[[dict[str, Any]], None]


class PageCalls:
    """Round trips of one kind (``event_type``) to the page; ``emit(event)`` posts an event to it."""

    def __init__(
        self,
        emit: Emit,
        event_type: str,
        *,
        timeout: float = REPLY_TIMEOUT_S,
        failure: Callable[[dict[str, str]], Exception],
        timeout_error: type[Exception],
        what: str,
    ) -> None:
        self._emit = emit
        self._type = event_type
        self.timeout = timeout
        self._failure = failure  # the exception a failed answer raises, from its {type, message}
        self._timeout_error = timeout_error
        self._what = what  # what the calls are, for the timeout's message ("the external call")
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}

    async def ask(self, op: str, args: dict[str, Any]) -> Any:
        """Emit one call and return the page's result (or raise what its failure says)."""
        call = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._waiting[call] = future
        self._emit({"type": self._type, "call": call, "op": op, "args": args})
        try:
            return await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            raise self._timeout_error(
                f"The page did not answer {self._what} {op!r} within {self.timeout:g} s: "
                "the page side of the lab (LabSession) must be running"
            ) from None
        finally:
            self._waiting.pop(call, None)

    def tell(self, op: str, args: dict[str, Any]) -> None:
        """Emit one call and wait for nothing: the page's answer finds no call waiting, and is dropped."""
        self._emit({"type": self._type, "call": next(self._ids), "op": op, "args": args})

    def reply(self, answer: dict[str, Any]) -> bool:
        """Settle a call with the page's ``answer`` ``{call, ok, result | error}``; ``False`` if no
        call waits for that number (any more: it timed out, or was never made)."""
        future = self._waiting.pop(answer.get("call"), None)
        if future is None or future.done():
            return False
        if answer.get("ok") is True:
            future.set_result(answer.get("result"))
        else:
            future.set_exception(self._failure(answer.get("error") or {}))
        return True
