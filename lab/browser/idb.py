"""Awaitable IndexedDB for Python running in Pyodide.

IndexedDB is an event-based browser API: a request fires ``success`` or ``error``, a transaction fires
``complete`` or ``abort``. The helpers here turn those events into JavaScript promises that Python can
``await``, and they are shaped by two rules of Pyodide's event loop (measured in
``shared/platform-notes.md``, sections 1 and 2):

1. **Never await inside a transaction.** Pyodide resumes after every ``await`` in a new macrotask, and
   by then a transaction with no pending request has committed on its own; a request made after the
   ``await`` fails with ``TransactionInactiveError``. So issue all of a transaction's requests
   synchronously, then ``await tx_done(tx)``: its ``complete`` event is the point where the data is
   durable.
2. **Create every promise before the first await.** An event fires once. A promise made for a request
   whose ``success`` has already fired would wait forever, so :func:`request_promise` settles at once
   for a request that is already done - but the safe habit is to make all promises first.

One durable write, then a read::

    tx = transaction(db, ["meta"], "readwrite")
    done = tx_done(tx)                         # before any await
    tx.objectStore("meta").put(to_js(value, dict_converter=Object.fromEntries), key)
    await done                                 # committed: it survives a reload or a crash

    tx = transaction(db, ["meta"])
    value = await request_promise(tx.objectStore("meta").get(key))
"""

from collections.abc import Callable, Iterable

from js import Error, Promise, indexedDB
from pyodide.ffi import JsException, JsProxy, create_once_callable, create_proxy

# The saver's own helpers (lab.checkpoint must not import lab.browser), re-exported for the worker.
from lab.checkpoint.indexeddb import absent, transaction  # noqa: F401


def _event_promise(
    target: JsProxy,
    resolve_on: Iterable[str],
    reject_on: Iterable[str],
    value: Callable[[JsProxy], object],
    error: Callable[[JsProxy], object],
) -> JsProxy:
    """A promise that settles on the first of ``target``'s events named in ``resolve_on``/``reject_on``.

    It resolves with ``value(event)`` or rejects with ``error(event)``. The Python listeners are
    removed and their proxies destroyed once the promise has settled.
    """
    listeners: list[tuple[str, JsProxy]] = []

    def executor(resolve: JsProxy, reject: JsProxy) -> None:
        for names, settle, outcome in ((resolve_on, resolve, value), (reject_on, reject, error)):
            for name in names:
                listener = create_proxy(lambda event, settle=settle, outcome=outcome: settle(outcome(event)))
                target.addEventListener(name, listener)
                listeners.append((name, listener))

    def release() -> None:
        for name, listener in listeners:
            target.removeEventListener(name, listener)
            listener.destroy()

    return Promise.new(create_once_callable(executor)).finally_(release)


def request_promise(request: JsProxy) -> JsProxy:
    """A promise for an ``IDBRequest``'s result; it rejects with the request's ``DOMException``.

    A request that is already done (its event has fired) gives an already settled promise.
    """
    if request.readyState == "done":
        return (
            Promise.resolve(request.result)
            if absent(request.error)
            else Promise.reject(_plain(request.error))
        )
    return _event_promise(
        request,
        resolve_on=["success"],
        reject_on=["error"],
        value=lambda _event: request.result,
        error=_failure,
    )


def tx_done(tx: JsProxy) -> JsProxy:
    """A promise that resolves when the transaction commits (``complete``: the data is durable).

    It rejects on ``error`` (a request failed; the error bubbles up to the transaction) or ``abort``.
    Create it right after the transaction, before any ``await``.
    """
    return _event_promise(
        tx,
        resolve_on=["complete"],
        reject_on=["error", "abort"],
        value=lambda _event: None,
        error=_failure,
    )


def _failure(event: JsProxy) -> JsProxy:
    """Why a request or transaction failed: its ``error`` (none after an explicit ``abort()``)."""
    error = event.target.error
    return Error.new("AbortError: the transaction was aborted") if absent(error) else _plain(error)


def _plain(error: JsProxy) -> JsProxy:
    """The error as a plain ``Error`` named in its message. Pyodide 314 cannot await a promise rejected
    with Chromium's ``QuotaExceededError`` (a ``DOMException`` subclass): it would hang forever."""
    return Error.new(f"{error.name}: {error.message}")


async def open_database(
    name: str,
    version: int,
    upgrade: Callable[[JsProxy, int, JsProxy], None],
    on_version_change: Callable[[], None] | None = None,
) -> JsProxy:
    """Open (or create) a database at ``version`` and return the ``IDBDatabase``.

    When the stored version is older, ``upgrade(db, old_version, tx)`` runs first, inside the
    version-change transaction: it creates or changes object stores and indexes, synchronously (it
    must not await). If it raises, the upgrade is aborted, the database keeps its old version, and the
    exception propagates from here.

    When another tab later opens the database at a newer version, this connection gets a
    ``versionchange`` event, and the upgrade waits until every older connection is closed. So the
    connection closes itself then (every later request on it fails with ``InvalidStateError``), and
    ``on_version_change()`` is called to say so.

    Where IndexedDB is unavailable, this raises: ``indexedDB.open`` itself throws (a ``SecurityError``
    in an opaque origin), or the request fails (an ``UnknownError`` in a cross-site iframe).
    """
    request = indexedDB.open(name, version)
    upgrade_failures: list[Exception] = []

    def on_upgrade_needed(event: JsProxy) -> None:
        try:
            upgrade(request.result, event.oldVersion, request.transaction)
        except Exception as failure:
            upgrade_failures.append(failure)
            request.transaction.abort()

    listener = create_proxy(on_upgrade_needed)
    request.addEventListener("upgradeneeded", listener)
    try:
        db = await request_promise(request)
    except JsException:
        if upgrade_failures:
            raise upgrade_failures[0] from None
        raise
    finally:
        request.removeEventListener("upgradeneeded", listener)
        listener.destroy()
    close_on_version_change(db, on_version_change)
    return db


def close_on_version_change(db: JsProxy, on_version_change: Callable[[], None] | None) -> None:
    """Close ``db`` when another tab upgrades it, then call ``on_version_change()`` (if given). The
    listener lives as long as the connection (its proxy is never destroyed: the event may come late)."""

    def closed_for_upgrade(_event: JsProxy) -> None:
        db.close()
        if on_version_change is not None:
            on_version_change()

    db.addEventListener("versionchange", create_proxy(closed_for_upgrade))


async def delete_database(name: str) -> None:
    """Delete the database ``name`` (every connection to it must be closed first)."""
    await request_promise(indexedDB.deleteDatabase(name))


def store_names(db: JsProxy) -> list[str]:
    """The names of the database's object stores (``db.objectStoreNames`` is a ``DOMStringList``)."""
    names = db.objectStoreNames
    return [names.item(i) for i in range(names.length)]
