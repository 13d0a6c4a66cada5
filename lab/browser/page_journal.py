"""The lab controller's journal in records the page keeps: what the lab observed, where a crash of
the worker cannot reach it (a reload can: it is the page's memory).

The journal (:mod:`lab.controller.journal`) must outlive the Web Worker like the checkpoints. With
IndexedDB it lives there (:mod:`lab.browser.idb_journal`); without, in the page's records
(:mod:`lab.browser.page_records`), in three stores like IndexedDB's::

    store             key                          holds
    journal           [thread_id, process, n]      {thread_id, record}: one observation; a thread's
                                                   come back in the order they were appended
    journal_threads   [thread_id]                  every session saved, with ``started_at``
    journal_lab       ["session"]                  the session the lab works on now

Every method is one read and/or one atomic ``write``. This module imports nothing from Pyodide.
"""

from __future__ import annotations

import itertools
import uuid
from typing import Any

from lab.browser.page_records import Change, Records, clear, delete, delete_prefix, put
from lab.controller.journal import newest_first, remembered_session

JOURNAL, THREADS, LAB = "journal", "journal_threads", "journal_lab"
STORES = (JOURNAL, THREADS, LAB)
SESSION_KEY = ["session"]


class PageJournal:
    """:class:`lab.controller.journal.Journal` over :class:`lab.browser.page_records.Records`."""

    def __init__(self, records: Records) -> None:
        self.page = records
        self._process = uuid.uuid4().hex[:12]  # keys stay unique across the processes of one page
        self._numbers = itertools.count()

    async def append(self, thread_id: str, record: dict[str, Any]) -> None:
        key = [thread_id, self._process, next(self._numbers)]
        await self.page.write([put(JOURNAL, key, {"thread_id": thread_id, "record": record})])

    async def records(self, thread_id: str) -> list[dict[str, Any]]:
        return [row["record"] for row in await self.page.with_prefix(JOURNAL, [thread_id])]

    async def save_session(self, session: dict[str, Any] | None) -> None:
        if session is None:
            await self.page.write([delete(LAB, SESSION_KEY)])
            return
        await self.page.write([put(LAB, SESSION_KEY, session), await self._remembered(session)])

    async def remember_session(self, session: dict[str, Any]) -> None:
        """Keep ``session`` among the saved ones without making it the current one."""
        await self.page.write([await self._remembered(session)])

    async def _remembered(self, session: dict[str, Any]) -> Change:
        key = [session["thread_id"]]
        (previous,) = await self.page.get(THREADS, [key])
        return put(THREADS, key, remembered_session(session, previous))

    async def session(self) -> dict[str, Any] | None:
        (session,) = await self.page.get(LAB, [SESSION_KEY])
        return session

    async def sessions(self) -> list[dict[str, Any]]:
        """Every session saved (until a reset), newest first."""
        return newest_first(await self.page.with_prefix(THREADS, []))

    async def clear(self) -> None:
        await self.page.write([clear(store) for store in STORES])

    async def forget(self, thread_id: str) -> None:
        """Drop one thread: its records, its saved session, and the current session if it is that one."""
        current = await self.session()
        changes = [delete_prefix(JOURNAL, [thread_id]), delete(THREADS, [thread_id])]
        if current and current["thread_id"] == thread_id:
            changes.append(delete(LAB, SESSION_KEY))
        await self.page.write(changes)
