"""Checkpoints in the browser's IndexedDB: the lab's durable saver, as LangGraph's ``SqliteSaver`` and
``PostgresSaver`` are its database savers.

LangGraph's database savers keep three tables - ``checkpoints``, ``checkpoint_blobs`` and
``checkpoint_writes`` - and this saver keeps the same three kinds of row in three IndexedDB object
stores. As in every lab saver, all the contract logic is ``lab.checkpoint.core.CheckpointSaver``;
this module only implements the storage protocol of ``lab.checkpoint.storage`` with Pyodide's JS
FFI, so it imports ``js`` and ``pyodide`` and runs only inside Pyodide (the lab's Web Worker).

Layout (schema version 1; every key is an array, compared element by element)::

    store        key path                                                  holds
    checkpoints  [thread_id, checkpoint_ns, checkpoint_id]                 a checkpoint without its values
      by_thread  [thread_id, checkpoint_id]            (index)             (the same records)
    blobs        [thread_id, checkpoint_ns, channel, version]              one channel value
    writes       [thread_id, checkpoint_ns, checkpoint_id, task_id, idx]   one pending write

Records are plain objects, readable from JavaScript or DevTools: the key fields, plus each serialized
value as ``{type, bytes}`` (``bytes`` a ``Uint8Array``). Every question the saver asks is a key-range
look-up, never a scan of the store (``[..., []]`` is the smallest key after every key that starts
with ``...``, because arrays sort after strings and numbers)::

    checkpoint by id             checkpoints.get([t, ns, id])
    latest checkpoint            checkpoints.openCursor(bound([t, ns], [t, ns, []]), "prev"), first record
    history of (t, ns), newest   the same cursor, stopped after `limit` records (getAll + reverse if no limit)
    history of t, all ns         by_thread.openCursor(bound([t], [t, []]), "prev")
    ... before id                upper bound [t, ns, id] (or [t, id]), excluded
    a checkpoint's writes        writes.getAll(bound([t, ns, id], [t, ns, id, []]))
    blobs                        one blobs.get(key) per key
    delete a thread              delete(bound([t], [t, []])) on each store

(Only ``adelete_for_runs``, which matches ``run_id`` inside the metadata, reads every checkpoint; so
do LangGraph's savers.)

Transactions follow the rule Pyodide's event loop imposes (``lab.browser.idb``): every call of the
storage protocol is one transaction whose requests are all issued synchronously, then the transaction's
``complete`` event is awaited. A checkpoint and its new blobs are one ``readwrite`` transaction, a
task's writes another; ``complete`` is the durability point, so ``aput`` returns only once the data
survives a reload, a crash or a closed tab. Durability is ``"relaxed"`` (only an OS crash or a power
cut can lose a committed transaction). A pending write that must keep the first value stored uses
``add()``; when a row is already there, its ``ConstraintError`` is cancelled (``preventDefault``),
otherwise it would abort the whole transaction.

Crossing from Python into JavaScript costs more in Pyodide than the request it makes, so a write
(``put``) crosses once: its rows go, as lists of values converted by one ``to_js``, to
``writeRows`` in ``static/indexeddb-writes.mjs``, which makes the transaction and every request,
commits it with ``commit()`` right after the last request when none may fail on purpose, and
returns a promise of how it ended. This module still decides every request; the JavaScript only
makes them (``bench/superstep_indexeddb.py`` measures a super-step against raw IndexedDB from
JavaScript).

Failures are explicit: :class:`StorageFullError` when the browser's quota is exhausted (nothing of
that transaction is stored), :class:`CorruptRecordError` naming the record when stored data does not
load, :class:`IndexedDBError` for anything else IndexedDB refuses.

This module never opens a database itself (``lab.checkpoint`` does not depend on the worker code in
``lab.browser``): the worker opens one and hands the ``IDBDatabase`` in. Usage, in the worker::

    db = await lab.browser.idb.open_database("my-checkpoints", SCHEMA_VERSION, upgrade)
    saver = IndexedDBSaver(db)
    config = await saver.aput(config, checkpoint, metadata, new_versions)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from js import IDBKeyRange, Object, labIndexedDBWrites
from pyodide.ffi import JsException, JsProxy, create_once_callable, create_proxy, jsnull, to_js

from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.errors import CorruptRecordError
from lab.checkpoint.serde import SerializerProtocol, TypedValue
from lab.checkpoint.storage import BlobKey, BlobRow, CheckpointKey, CheckpointRow, WriteRow

SCHEMA_VERSION = 1
"""The version of the layout above; :func:`upgrade` brings older databases up to it."""

CHECKPOINTS, BLOBS, WRITES = "checkpoints", "blobs", "writes"
BY_THREAD = "by_thread"
STORES = (CHECKPOINTS, BLOBS, WRITES)

CHECKPOINT_KEY = ["thread_id", "checkpoint_ns", "checkpoint_id"]
BLOB_KEY = ["thread_id", "checkpoint_ns", "channel", "version"]
WRITE_KEY = ["thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"]
_KEY_PATHS = {CHECKPOINTS: CHECKPOINT_KEY, BLOBS: BLOB_KEY, WRITES: WRITE_KEY}


class IndexedDBError(Exception):
    """IndexedDB refused a request or a transaction."""


class StorageFullError(IndexedDBError):
    """The browser's storage quota for this site is exhausted; the transaction stored nothing."""


# --------------------------------------------------------------------------------------------------
# Schema
# --------------------------------------------------------------------------------------------------


def _js(value: Any) -> JsProxy:
    """A Python value as a JavaScript one: dicts become plain objects, lists arrays, bytes Uint8Arrays."""
    return to_js(value, dict_converter=Object.fromEntries, create_pyproxies=False)


def create_stores(db: JsProxy) -> None:
    """The schema step that adds the saver's stores and index (schema version 1 of a saver database).

    A database that holds other stores too calls this from its own upgrade, at the version where it
    introduces checkpoints.
    """
    for name, key_path in _KEY_PATHS.items():
        store = db.createObjectStore(name, _js({"keyPath": key_path}))
        if name == CHECKPOINTS:
            store.createIndex(BY_THREAD, _js(["thread_id", "checkpoint_id"]))


def upgrade(db: JsProxy, old_version: int, _tx: JsProxy) -> None:
    """Bring a saver database from ``old_version`` up to :data:`SCHEMA_VERSION`, one step per version.

    A later layout adds a step (``if old_version < 2: ...``) and bumps ``SCHEMA_VERSION``; it may use
    ``_tx`` (the version-change transaction) to rewrite existing records.
    """
    if old_version < 1:
        create_stores(db)


# Relaxed durability: only an OS crash or power loss can lose a committed transaction; a killed
# browser loses nothing (platform notes section 2), and it is the browser's default anyway.
_RELAXED = to_js({"durability": "relaxed"}, dict_converter=Object.fromEntries)


def transaction(db: JsProxy, stores: Sequence[str], mode: str = "readonly") -> JsProxy:
    """Start a transaction over ``stores`` (``"readonly"`` or ``"readwrite"``), with relaxed durability."""
    return db.transaction(_store_names(tuple(stores)), mode, _RELAXED)


@cache
def _store_names(stores: tuple[str, ...]) -> JsProxy:
    """``stores`` as a JavaScript array, made once per combination of stores."""
    return to_js(list(stores))


def absent(value: object) -> bool:
    """JavaScript ``undefined`` (``None`` in Python) or ``null`` (``jsnull``): no value."""
    return value is None or value is jsnull


# --------------------------------------------------------------------------------------------------
# Rows <-> records
# --------------------------------------------------------------------------------------------------


def _describe(store: str, key: Sequence[Any]) -> str:
    """A record's name for messages, e.g. ``blobs record ['t-1', '', 'messages', 3]``."""
    return f"{store} record {list(key)!r}"


# Each store's fields: the key fields first, then the rest. A write sends every row as the list of its
# values in this order, and static/indexeddb-writes.mjs zips them back into the record (a serialized
# value, a (type, bytes) pair, arrives as an array and becomes {type, bytes}).
_FIELDS = {
    CHECKPOINTS: [*CHECKPOINT_KEY, "parent_checkpoint_id", "checkpoint", "metadata"],
    BLOBS: [*BLOB_KEY, "value"],
    WRITES: [*WRITE_KEY, "channel", "task_path", "value"],
}
_FIELDS_JS = {store: to_js(fields) for store, fields in _FIELDS.items()}  # made once, sent by reference


def _checkpoint_values(row: CheckpointRow) -> list[Any]:
    parent = row["parent_checkpoint_id"]
    return [
        row["thread_id"],
        row["checkpoint_ns"],
        row["checkpoint_id"],
        jsnull if parent is None else parent,
        row["checkpoint"],
        row["metadata"],
    ]


def _blob_values(row: BlobRow) -> list[Any]:
    return [row["thread_id"], row["checkpoint_ns"], row["channel"], row["version"], row["value"]]


def _write_values(row: WriteRow) -> list[Any]:
    return [*(row[field] for field in WRITE_KEY), row["channel"], row["task_path"], row["value"]]


def _batch(store: str, method: str, rows: list[list[Any]]) -> list[Any]:
    """The requests ``store.<method>(record)`` (``put`` or ``add``) for ``rows``, as
    ``writeRows`` in static/indexeddb-writes.mjs takes them."""
    return [store, method, _FIELDS_JS[store], rows]


_write_rows = labIndexedDBWrites.writeRows  # worker.mjs puts static/indexeddb-writes.mjs on the global scope


def _rows(store: str, records: JsProxy, make: Callable[[dict[str, Any]], Any]) -> list[Any]:
    """Turn JS records of ``store`` into rows with ``make(fields)``; a malformed record raises a
    :class:`CorruptRecordError` that names it (records always have their key fields: IndexedDB
    refuses to store a record without them)."""
    rows = []
    for record in records:
        fields = record.to_py()
        name = _describe(store, [fields.get(field) for field in _KEY_PATHS[store]])
        try:
            rows.append(make(fields))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise CorruptRecordError(
                f"the record is malformed ({type(error).__name__}: {error}); it was not written by this "
                "saver, or by an incompatible version of it",
                name,
            ) from None
    return rows


def _stored(value: Any) -> TypedValue:
    kind = value["type"]
    if not isinstance(kind, str):
        raise TypeError(f"value type is {type(kind).__name__}, not str")
    return kind, bytes(value["bytes"])


def _checkpoint_row(fields: dict[str, Any]) -> CheckpointRow:
    parent = fields["parent_checkpoint_id"]
    return {
        "thread_id": fields["thread_id"],
        "checkpoint_ns": fields["checkpoint_ns"],
        "checkpoint_id": fields["checkpoint_id"],
        "parent_checkpoint_id": None if absent(parent) else parent,
        "checkpoint": _stored(fields["checkpoint"]),
        "metadata": _stored(fields["metadata"]),
    }


def _write_row(fields: dict[str, Any]) -> WriteRow:
    return {
        **{field: fields[field] for field in WRITE_KEY},
        "channel": fields["channel"],
        "task_path": fields["task_path"],
        "value": _stored(fields["value"]),
        "overwrite": False,
    }


def _range(prefix: Sequence[Any], before: Any = None) -> JsProxy:
    """The keys that start with ``prefix`` (and, with ``before``, whose next element is smaller)."""
    lower = list(prefix)
    if before is None:
        return IDBKeyRange.bound(_js(lower), _js([*lower, []]))
    return IDBKeyRange.bound(_js(lower), _js([*lower, before]), False, True)


# --------------------------------------------------------------------------------------------------
# The storage
# --------------------------------------------------------------------------------------------------


class IndexedDBStorage:
    """``CheckpointStorage`` in an open IndexedDB database: one transaction per method."""

    supports_sync = False  # every method awaits IndexedDB: the saver is async-only

    def __init__(self, db: JsProxy) -> None:
        missing = [name for name in STORES if not db.objectStoreNames.contains(name)]
        if missing:
            raise IndexedDBError(
                f"database {db.name!r} (version {db.version}) has no object store {', '.join(missing)}: "
                "open it with lab.checkpoint.indexeddb.upgrade as its upgrade, or call create_stores in yours"
            )
        self.db = db

    async def _commit(self, stores: list[str], issue: Callable[[JsProxy], None], what: str) -> None:
        """Run one readwrite transaction: ``issue(tx)`` makes every request, synchronously; then wait for
        the transaction to end. ``complete`` is the durability point; a failure stores nothing."""
        tx = transaction(self.db, stores, "readwrite")
        ended = _ended(tx)  # before any await
        try:
            issue(tx)
            tx.commit()
        except BaseException as error:
            tx.abort()  # a request could not even be made: drop the ones already made
            await ended
            if isinstance(error, JsException):  # e.g. a DataError: a key IndexedDB cannot store
                raise _refused(what, error) from None
            raise
        if await ended != "complete":
            raise _not_stored(what, *_error(tx))

    async def _read(self, stores: list[str], issue: Callable[[JsProxy], Callable[[], Any]]) -> Any:
        """Run one readonly transaction: ``issue(tx)`` makes every request and returns a function that
        reads their results, called once the transaction is complete."""
        tx = transaction(self.db, stores)
        ended = _ended(tx)
        try:
            read = issue(tx)
        except BaseException as error:
            tx.abort()
            await ended
            if isinstance(error, JsException):  # e.g. a DataError: a key IndexedDB cannot compare
                raise IndexedDBError(f"IndexedDB refused to read {', '.join(stores)}: {error}") from None
            raise
        if await ended != "complete":
            name, message = _error(tx)
            raise IndexedDBError(f"IndexedDB could not read {', '.join(stores)}: {name}: {message}")
        return read()

    # --- writing ------------------------------------------------------------------------------

    async def put(
        self,
        *,
        checkpoints: Sequence[CheckpointRow] = (),
        blobs: Sequence[BlobRow] = (),
        writes: Sequence[WriteRow] = (),
    ) -> None:
        first_wins = [_write_values(row) for row in writes if not row["overwrite"]]
        batches = [
            batch
            for batch in (
                _batch(CHECKPOINTS, "put", [_checkpoint_values(row) for row in checkpoints]),
                _batch(BLOBS, "put", [_blob_values(row) for row in blobs]),
                _batch(WRITES, "put", [_write_values(row) for row in writes if row["overwrite"]]),
                _batch(WRITES, "add", first_wins),
            )
            if batch[3]
        ]
        if not batches:
            return
        what = _what(checkpoints, blobs, writes)
        stores = _store_names(tuple(dict.fromkeys(batch[0] for batch in batches)))
        # One call makes the transaction and every request; an add() that keeps the first write may fail
        # on purpose, and Chromium aborts a transaction already committing when one does, so such a
        # transaction commits on its own, after the last request's event.
        try:
            ended = _write_rows(self.db, stores, to_js(batches, create_pyproxies=False), not first_wins)
        except JsException as error:  # e.g. a DataError: a key IndexedDB cannot store
            raise _refused(what, error) from None
        outcome = await ended
        if outcome[0] != "complete":
            raise _not_stored(what, outcome[1], outcome[2])

    # --- reading ------------------------------------------------------------------------------

    async def checkpoint(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str | None
    ) -> CheckpointRow | None:
        def issue(tx: JsProxy) -> Callable[[], Any]:
            store = tx.objectStore(CHECKPOINTS)
            if checkpoint_id is not None:
                request = store.get(_js([thread_id, checkpoint_ns, checkpoint_id]))
                return lambda: request.result
            request = store.openCursor(_range([thread_id, checkpoint_ns]), "prev")  # the latest only
            return lambda: None if absent(request.result) else request.result.value

        record = await self._read([CHECKPOINTS], issue)
        return None if absent(record) else _rows(CHECKPOINTS, [record], _checkpoint_row)[0]

    async def checkpoints(
        self,
        thread_id: str | None,
        checkpoint_ns: str | None,
        *,
        before: str | None = None,
        limit: int | None = None,
    ) -> list[CheckpointRow]:
        if limit is not None and limit <= 0:
            return []
        if thread_id is None:  # every thread: the one full read (adelete_for_runs)
            records = await self._read(
                [CHECKPOINTS], lambda tx: _result(tx.objectStore(CHECKPOINTS).getAll())
            )
            rows = [
                row
                for row in _rows(CHECKPOINTS, records, _checkpoint_row)
                if (checkpoint_ns is None or row["checkpoint_ns"] == checkpoint_ns)
                and (before is None or row["checkpoint_id"] < before)
            ]
            rows.sort(key=lambda row: row["checkpoint_id"], reverse=True)
            return rows if limit is None else rows[:limit]

        def issue(tx: JsProxy) -> Callable[[], list[JsProxy]]:
            store = tx.objectStore(CHECKPOINTS)
            if checkpoint_ns is None:  # all namespaces of the thread, by checkpoint id
                source, keys = store.index(BY_THREAD), _range([thread_id], before)
            else:
                source, keys = store, _range([thread_id, checkpoint_ns], before)
            if limit is None:  # the whole range in one request; it comes oldest first
                read = _result(source.getAll(keys))
                return lambda: list(reversed(read()))
            return _newest_first(source.openCursor(keys, "prev"), limit)

        return _rows(CHECKPOINTS, await self._read([CHECKPOINTS], issue), _checkpoint_row)

    async def blobs(self, keys: Sequence[BlobKey]) -> dict[BlobKey, TypedValue]:
        if not keys:
            return {}

        def issue(tx: JsProxy) -> Callable[[], list[Any]]:
            store = tx.objectStore(BLOBS)
            requests = [store.get(_js(list(key))) for key in keys]
            return lambda: [request.result for request in requests]

        found: dict[BlobKey, TypedValue] = {}
        for key, record in zip(keys, await self._read([BLOBS], issue), strict=True):
            if not absent(record):
                found[key] = _rows(BLOBS, [record], lambda fields: _stored(fields["value"]))[0]
        return found

    async def writes(self, keys: Sequence[CheckpointKey]) -> list[WriteRow]:
        if not keys:
            return []

        def issue(tx: JsProxy) -> Callable[[], list[JsProxy]]:
            store = tx.objectStore(WRITES)
            reads = [_result(store.getAll(_range(key))) for key in keys]
            return lambda: [record for read in reads for record in read()]

        return _rows(WRITES, await self._read([WRITES], issue), _write_row)

    # --- deleting -----------------------------------------------------------------------------

    async def delete(
        self,
        *,
        threads: Sequence[str] = (),
        checkpoints: Sequence[CheckpointKey] = (),
        blobs: Sequence[BlobKey] = (),
    ) -> None:
        if not (threads or checkpoints or blobs):
            return

        def issue(tx: JsProxy) -> None:
            for thread_id in threads:
                for name in STORES:
                    tx.objectStore(name).delete(_range([thread_id]))
            for key in checkpoints:
                tx.objectStore(CHECKPOINTS).delete(_js(list(key)))
                tx.objectStore(WRITES).delete(_range(key))
            for key in blobs:
                tx.objectStore(BLOBS).delete(_js(list(key)))

        what = f"the deletion of {len(threads)} threads, {len(checkpoints)} checkpoints, {len(blobs)} blobs"
        await self._commit(list(STORES), issue, what)


def _ended(tx: JsProxy) -> asyncio.Future[str]:
    """A future for the name of the event that ends ``tx``: ``"complete"`` (committed) or ``"abort"``
    (nothing stored; a failed request aborts the transaction too).

    Unlike ``lab.browser.idb.tx_done`` it never fails; the failure is then read from ``tx.error``.
    Pyodide 314 does not take Chromium's ``QuotaExceededError`` (a ``DOMException`` subclass) for an
    error: awaiting a promise rejected with one never returns ("invalid exception object"), so a full
    disk would hang.
    One Python listener for both events, freed after its one call; a future rather than a JavaScript
    promise, so the saver resumes without a round trip through a promise's callbacks.
    """
    ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def settle(event: JsProxy) -> None:
        if not ended.done():  # the caller may have been cancelled meanwhile
            ended.set_result(event.type)

    tx.oncomplete = tx.onabort = create_once_callable(settle)
    return ended


def _error(tx: JsProxy) -> tuple[str, str]:
    """The name and message of the error that aborted ``tx``."""
    error = tx.error
    if absent(error):
        return "AbortError", "the transaction was aborted"
    return str(error.name), str(error.message)


def _what(checkpoints: Sequence[CheckpointRow], blobs: Sequence[BlobRow], writes: Sequence[WriteRow]) -> str:
    """What a ``put`` stores, in words, for its error messages."""
    if checkpoints:
        first = checkpoints[0]
        if len(checkpoints) > 1:
            return f"{len(checkpoints)} checkpoints of thread {first['thread_id']!r}"
        return f"checkpoint {first['checkpoint_id']} of thread {first['thread_id']!r}"
    if writes:
        return f"{len(writes)} pending writes of task {writes[0]['task_id']}"
    return f"{len(blobs)} channel values"


def _refused(what: str, error: JsException) -> IndexedDBError:
    """A request IndexedDB refused as it was made (a ``DataError``: a key it cannot store)."""
    return IndexedDBError(f"IndexedDB refused {what}: {error.name}: {error.message}")


def _not_stored(what: str, name: str, message: str) -> IndexedDBError:
    """A write transaction that aborted with the error ``name``: nothing of it was stored."""
    if name == "QuotaExceededError":
        return StorageFullError(
            f"the browser's storage for this site is full, so {what} was not saved (nothing of it "
            "was stored). Free space by deleting threads you no longer need (adelete_thread, "
            "aprune), or clear this site's data in the browser settings."
        )
    return IndexedDBError(f"IndexedDB did not store {what}: {name}: {message}")


def _result(request: JsProxy) -> Callable[[], JsProxy]:
    """Read a request's result later (once its transaction is complete)."""
    return lambda: request.result


def _newest_first(request: JsProxy, limit: int) -> Callable[[], list[JsProxy]]:
    """Collect up to ``limit`` records from a cursor request.

    The cursor must be advanced inside its ``success`` event (a Python listener that runs while the
    transaction is active): awaiting each record instead would let the transaction commit in between.
    """
    records: list[JsProxy] = []

    def on_success(_event: JsProxy) -> None:
        cursor = request.result
        if absent(cursor):  # past the last record
            return
        records.append(cursor.value)
        if len(records) < limit:
            cursor.continue_()

    listener = create_proxy(on_success)
    request.addEventListener("success", listener)

    def read() -> list[JsProxy]:
        listener.destroy()
        return records

    return read


# --------------------------------------------------------------------------------------------------
# The saver
# --------------------------------------------------------------------------------------------------


class IndexedDBSaver(CheckpointSaver):
    """The checkpoint saver of the browser: ``CheckpointSaver`` over :class:`IndexedDBStorage`.

    Async only (``aput``, ``aput_writes``, ``aget_tuple``, ``alist``, ``adelete_thread``,
    ``adelete_for_runs``, ``acopy_thread``, ``aprune``): the sync methods raise, saying so.
    """

    def __init__(self, db: JsProxy, *, serde: SerializerProtocol | None = None) -> None:
        super().__init__(IndexedDBStorage(db), serde=serde)

    def close(self) -> None:
        """Close the database connection (after that, every call fails)."""
        self.storage.db.close()
