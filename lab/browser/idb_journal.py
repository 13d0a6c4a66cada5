"""The lab controller's journal in IndexedDB: what the lab observed, kept where a crash cannot reach.

The controller writes down every seam it observes (``lab.controller.journal``): checkpoints say what
a run *saved*, the journal says how often each node *ran*, and which session (thread, case, variant,
durability) the lab was working on. Both must outlive the Web Worker, so in the browser the journal
lives in IndexedDB, in the same database as the checkpoints (``lab.browser.lab_rpc`` opens it).

Three object stores::

    store     key                          holds
    journal   auto-increment               {thread_id, record}: one observation, in the order made
      by_thread  thread_id      (index)    (the same records: one thread's, oldest first)
    threads   thread_id (key path)         every session saved: {thread_id, case_id, variant,
                                           durability, started_at} (``started_at``: first saved)
    lab       "session" (out-of-line key)  the session the lab works on now

Every method is one transaction whose requests are all made before the first ``await``
(``lab.browser.idb`` explains why); an ``append`` returns once its record is durable.
"""

from __future__ import annotations

from typing import Any

from js import Object
from pyodide.ffi import JsProxy, to_js

from lab.browser import idb
from lab.controller.journal import newest_first, remembered_session

JOURNAL, THREADS, LAB = "journal", "threads", "lab"
BY_THREAD = "by_thread"
STORES = (JOURNAL, THREADS, LAB)
SESSION_KEY = "session"


def _js(value: Any) -> JsProxy:
    return to_js(value, dict_converter=Object.fromEntries)


def _py(value: Any) -> Any:
    """A value read from IndexedDB as Python (``undefined`` - no record - is ``None``)."""
    return value.to_py() if isinstance(value, JsProxy) else value


def create_stores(db: JsProxy) -> None:
    """The schema step that adds the journal's stores to a database (inside its upgrade)."""
    journal = db.createObjectStore(JOURNAL, _js({"autoIncrement": True}))
    journal.createIndex(BY_THREAD, "thread_id")
    db.createObjectStore(THREADS, _js({"keyPath": "thread_id"}))
    db.createObjectStore(LAB)


class IndexedDBJournal:
    """:class:`lab.controller.journal.Journal` over an open database that has :data:`STORES`."""

    def __init__(self, db: JsProxy) -> None:
        self.db = db

    async def append(self, thread_id: str, record: dict[str, Any]) -> None:
        tx = idb.transaction(self.db, [JOURNAL], "readwrite")
        done = idb.tx_done(tx)
        tx.objectStore(JOURNAL).add(_js({"thread_id": thread_id, "record": record}))
        await done

    async def records(self, thread_id: str) -> list[dict[str, Any]]:
        tx = idb.transaction(self.db, [JOURNAL])
        rows = await idb.request_promise(tx.objectStore(JOURNAL).index(BY_THREAD).getAll(thread_id))
        return [row["record"] for row in _py(rows)]

    async def save_session(self, session: dict[str, Any] | None) -> None:
        # read first (no await may fall inside the writing transaction)
        row = None if session is None else await self._remembered(session)
        tx = idb.transaction(self.db, [THREADS, LAB], "readwrite")
        done = idb.tx_done(tx)
        if session is None:
            tx.objectStore(LAB).delete(SESSION_KEY)
        else:
            tx.objectStore(LAB).put(_js(session), SESSION_KEY)
            tx.objectStore(THREADS).put(_js(row))
        await done

    async def remember_session(self, session: dict[str, Any]) -> None:
        """Keep ``session`` among the saved ones without making it the current one."""
        row = await self._remembered(session)
        tx = idb.transaction(self.db, [THREADS], "readwrite")
        done = idb.tx_done(tx)
        tx.objectStore(THREADS).put(_js(row))
        await done

    async def _remembered(self, session: dict[str, Any]) -> dict[str, Any]:
        """The row ``threads`` keeps for ``session`` (its ``started_at`` kept from an earlier save)."""
        tx = idb.transaction(self.db, [THREADS])
        previous = _py(await idb.request_promise(tx.objectStore(THREADS).get(session["thread_id"])))
        return remembered_session(session, previous)

    async def session(self) -> dict[str, Any] | None:
        tx = idb.transaction(self.db, [LAB])
        return _py(await idb.request_promise(tx.objectStore(LAB).get(SESSION_KEY)))

    async def sessions(self) -> list[dict[str, Any]]:
        """Every session saved (until a reset), newest first."""
        tx = idb.transaction(self.db, [THREADS])
        return newest_first(_py(await idb.request_promise(tx.objectStore(THREADS).getAll())))

    async def clear(self) -> None:
        tx = idb.transaction(self.db, STORES, "readwrite")
        done = idb.tx_done(tx)
        for name in STORES:
            tx.objectStore(name).clear()
        await done

    async def forget(self, thread_id: str) -> None:
        """Drop one thread: its records, its saved session, and the current session if it is that one."""
        current = await self.session()
        tx = idb.transaction(self.db, [JOURNAL])  # read the keys first: no await inside the writing one
        keys = _py(await idb.request_promise(tx.objectStore(JOURNAL).index(BY_THREAD).getAllKeys(thread_id)))
        tx = idb.transaction(self.db, STORES, "readwrite")
        done = idb.tx_done(tx)
        for key in keys:
            tx.objectStore(JOURNAL).delete(key)
        tx.objectStore(THREADS).delete(thread_id)
        if current and current["thread_id"] == thread_id:
            tx.objectStore(LAB).delete(SESSION_KEY)
        await done
