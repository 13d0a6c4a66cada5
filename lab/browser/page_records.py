"""Records kept by the page, for a worker that has no IndexedDB: the storage layer's last resort.

LangGraph's ``InMemorySaver`` keeps its dicts in the process that runs the graph. The lab kills that
process on purpose (a crash is a real ``worker.terminate()``), so where the browser refuses
IndexedDB (a cross-site iframe, some private modes) the worker's records live one level up, in the
page (``static/page-records.mjs``), which outlives every worker. They are still memory: a reload
loses them.

The page only stores and returns records, like an IndexedDB object store: each store is a map
from a key (a list of strings and numbers) to a JSON record. What the records mean - the latest
checkpoint, history order, which write wins - is decided in Python, by
:mod:`lab.browser.page_storage` (the saver's rows) and :mod:`lab.browser.page_journal` (the
controller's journal). Two operations, each one round trip (:class:`lab.browser.page_calls.PageCalls`,
events ``{type: "records", call, op, args}``, answered by the worker command ``records_reply``):

=======  ========================================  ==============================================
op       args                                      result
=======  ========================================  ==============================================
read     ``{store, keys}``                         the record of each key, ``null`` where none
read     ``{store, prefix}``                       every record whose key starts with ``prefix``,
                                                   in the order their keys were first stored
write    ``{changes: [change, ...]}``              ``null`` once every change is applied, in order
=======  ========================================  ==============================================

A change is ``{do: "put" | "add", store, key, record}`` (``add`` keeps a record already stored
under ``key``), ``{do: "delete", store, key}``, ``{do: "delete_prefix", store, prefix}`` or
``{do: "clear", store}``. The page applies one ``write`` in one go, with nothing in between, so
like an IndexedDB transaction it is atomic: a worker killed mid-call leaves all of it or none.

This module imports nothing from Pyodide, so CPython can import and test it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from lab.browser.page_calls import REPLY_TIMEOUT_S, Emit, PageCalls

Key = list[str | int | float]
"""A record's key, compared element by element, as in IndexedDB."""
Change = dict[str, Any]


class PageRecordsError(Exception):
    """The page could not store or read records (or did not answer in time)."""


class Records(Protocol):
    """Where :mod:`lab.browser.page_storage` and :mod:`lab.browser.page_journal` keep their records."""

    async def get(self, store: str, keys: Sequence[Key]) -> list[Any]: ...

    async def with_prefix(self, store: str, prefix: Key) -> list[Any]: ...

    async def write(self, changes: Sequence[Change]) -> None: ...


def put(store: str, key: Key, record: Any) -> Change:
    """Store ``record`` under ``key``, replacing what was there."""
    return {"do": "put", "store": store, "key": key, "record": record}


def add(store: str, key: Key, record: Any) -> Change:
    """Store ``record`` under ``key`` unless a record is there already (first write wins)."""
    return {"do": "add", "store": store, "key": key, "record": record}


def delete(store: str, key: Key) -> Change:
    return {"do": "delete", "store": store, "key": key}


def delete_prefix(store: str, prefix: Key) -> Change:
    """Delete every record whose key starts with ``prefix``."""
    return {"do": "delete_prefix", "store": store, "prefix": prefix}


def clear(store: str) -> Change:
    return {"do": "clear", "store": store}


def _page_error(error: dict[str, str]) -> PageRecordsError:
    kind = error.get("type", "Error")
    return PageRecordsError(f"{kind}: {error.get('message', 'the page reported a failure')}")


class PageRecords:
    """:class:`Records` answered by the page; ``emit(event)`` posts an event to it."""

    def __init__(self, emit: Emit, *, timeout: float = REPLY_TIMEOUT_S) -> None:
        self._calls = PageCalls(
            emit,
            "records",
            timeout=timeout,
            failure=_page_error,
            timeout_error=PageRecordsError,
            what="the records call",
        )

    async def get(self, store: str, keys: Sequence[Key]) -> list[Any]:
        """The record stored under each key, ``None`` where there is none."""
        if not keys:
            return []
        return await self._calls.ask("read", {"store": store, "keys": list(keys)})

    async def with_prefix(self, store: str, prefix: Key) -> list[Any]:
        """Every record whose key starts with ``prefix``, in the order their keys were first stored."""
        return await self._calls.ask("read", {"store": store, "prefix": prefix})

    async def write(self, changes: Sequence[Change]) -> None:
        """Apply every change, atomically."""
        if changes:
            await self._calls.ask("write", {"changes": list(changes)})

    def reply(self, answer: dict[str, Any]) -> bool:
        """Settle a call with the page's ``answer`` (:meth:`lab.browser.page_calls.PageCalls.reply`)."""
        return self._calls.reply(answer)
