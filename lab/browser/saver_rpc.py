"""Worker commands that forward calls to an ``IndexedDBSaver``: how CPython drives the browser saver.

The tests run LangGraph's conformance suite in CPython against the saver in the worker, and the
benchmark times it there; both send these commands through the page (``lab.request(cmd, args)``):

=============  ==========================================  ===========================================
command        args                                        result
=============  ==========================================  ===========================================
saver_open     ``{database, room?}``                       ``{database, schema_version, stores}``
saver_call     ``{database, call}``                        ``{result, ms}``
saver_calls    ``{database, calls}``                       ``{results, ms}``
saver_close    ``{database, delete}``                      ``{database, deleted}``
=============  ==========================================  ===========================================

``saver_open`` opens (creating or upgrading it) the saver database named ``database``; each test uses
a database of its own. With ``room: {code, teacher_key}`` the saver named ``database`` is instead the
saver core over a class room's records on this site (``lab.browser.room_records``, through ``fetch``):
the same conformance suite then runs in Pyodide against the room's D1 database.
``saver_call`` runs ``await saver.<method>(*args, **kwargs)`` on it (or the sync
``get_next_version``); ``ms`` is how long the saver took, measured in the worker. ``saver_calls`` runs
several calls one after another, as the runtime makes a super-step's calls (``ms`` covers them all, with
no message between them). ``saver_close`` closes the connection and, with ``delete: true``, deletes the
database.

Checkpoints hold tuples, sets, bytes and other values JSON cannot carry, so ``call`` (the list
``[method, args, kwargs]``) and ``result`` travel as :func:`encode` d text: the lab's own msgpack
(``lab.checkpoint.serde``), base64-encoded, which round-trips everything a checkpoint may hold. A
``CheckpointTuple`` travels as the dict of its fields, ``alist`` as a list of them.

Pyodide is imported only inside the handlers, so CPython imports this module too: the tests' adapter
uses this very :func:`encode` / :func:`decode`.
"""

from __future__ import annotations

import base64
import time
from typing import Any

from lab.checkpoint.base import CheckpointTuple
from lab.checkpoint.serde import MsgpackSerializer

METHODS = (
    "aput",
    "aput_writes",
    "aget_tuple",
    "alist",
    "adelete_thread",
    "adelete_for_runs",
    "acopy_thread",
    "aprune",
    "get_next_version",  # the one sync method: it does no I/O
)
"""The saver methods ``saver_call`` runs."""

_WIRE = MsgpackSerializer()
_savers: dict[str, Any] = {}  # database name -> its open IndexedDBSaver


def encode(value: Any) -> str:
    """Any value a checkpoint may hold, as base64 text of its msgpack bytes."""
    _, data = _WIRE.dumps_typed([value])  # wrapped, so that None is msgpack too
    return base64.b64encode(data).decode("ascii")


def decode(text: str) -> Any:
    """The value :func:`encode` turned into ``text``."""
    (value,) = _WIRE.loads_typed(("msgpack", base64.b64decode(text)))
    return value


def _wire_result(value: Any) -> Any:
    """A saver method's result as it travels: a ``CheckpointTuple`` as the dict of its fields."""
    if isinstance(value, CheckpointTuple):
        return value._asdict()
    if isinstance(value, list):
        return [_wire_result(item) for item in value]
    return value


def _database(args: dict[str, Any]) -> str:
    name = args.get("database")
    if not isinstance(name, str) or not name:
        raise ValueError("'database' must be a non-empty string: the name of the saver's IndexedDB database")
    return name


async def saver_open(args: dict[str, Any]) -> dict[str, Any]:
    """Open the saver database ``args["database"]`` (once; later calls reuse the connection), or, with
    ``args["room"]``, the saver of that room's records under the name ``args["database"]``."""
    from lab.browser import idb
    from lab.checkpoint.indexeddb import SCHEMA_VERSION, STORES, IndexedDBSaver, upgrade

    name = _database(args)
    if name not in _savers:
        room = args.get("room")
        if room is None:
            _savers[name] = IndexedDBSaver(await idb.open_database(name, SCHEMA_VERSION, upgrade))
        else:
            _savers[name] = _room_saver(room)
    saver = _savers[name]
    stores = idb.store_names(saver.storage.db) if isinstance(saver, IndexedDBSaver) else list(STORES)
    return {"database": name, "schema_version": SCHEMA_VERSION, "stores": stores}


def _room_saver(room: Any) -> Any:
    """The saver core over the records of class room ``room`` (``{code, teacher_key}``) on this site."""
    from lab.browser.page_storage import PageStorage
    from lab.browser.room_rpc import room_records
    from lab.checkpoint.core import CheckpointSaver

    if not (isinstance(room, dict) and isinstance(room.get("code"), str)):
        raise ValueError("'room' must be {code, teacher_key}: a class room's code and (to write) its key")
    return CheckpointSaver(PageStorage(room_records(room["code"], room.get("teacher_key"))))


def _open_saver(args: dict[str, Any]) -> Any:
    """The saver of the database ``args`` names, which ``saver_open`` opened."""
    name = _database(args)
    saver = _savers.get(name)
    if saver is None:
        raise ValueError(f"database {name!r} is not open here: send saver_open first")
    return saver


def _checked_call(call: Any) -> tuple[str, list[Any], dict[str, Any]]:
    """A decoded ``[method, args, kwargs]``, if ``method`` is one of :data:`METHODS`."""
    method, call_args, call_kwargs = call
    if method not in METHODS:
        raise ValueError(f"saver_call runs only {', '.join(METHODS)}; not {method!r}")
    return method, call_args, call_kwargs


async def _run(saver: Any, method: str, call_args: list[Any], call_kwargs: dict[str, Any]) -> Any:
    """What ``saver.<method>(*call_args, **call_kwargs)`` gives (``alist`` as a list)."""
    if method == "alist":
        return [saved async for saved in saver.alist(*call_args, **call_kwargs)]
    if method == "get_next_version":
        return saver.get_next_version(*call_args, **call_kwargs)
    return await getattr(saver, method)(*call_args, **call_kwargs)


async def saver_call(args: dict[str, Any]) -> dict[str, Any]:
    """Run one saver method: ``args["call"]`` is :func:`encode` d ``[method, args, kwargs]``."""
    saver = _open_saver(args)
    method, call_args, call_kwargs = _checked_call(decode(args["call"]))
    started = time.perf_counter()
    result = await _run(saver, method, call_args, call_kwargs)
    ms = (time.perf_counter() - started) * 1000
    return {"result": encode(_wire_result(result)), "ms": ms}


async def saver_calls(args: dict[str, Any]) -> dict[str, Any]:
    """Run saver methods one after another: ``args["calls"]`` is :func:`encode` d ``[[method, args,
    kwargs], ...]``; ``ms`` is the time of them all."""
    saver = _open_saver(args)
    calls = [_checked_call(call) for call in decode(args["calls"])]
    started = time.perf_counter()
    results = [await _run(saver, *call) for call in calls]
    ms = (time.perf_counter() - started) * 1000
    return {"results": encode(_wire_result(results)), "ms": ms}


async def saver_close(args: dict[str, Any]) -> dict[str, Any]:
    """Close the database ``args["database"]``; with ``args["delete"]``, delete it too."""
    from lab.browser import idb

    name = _database(args)
    saver = _savers.pop(name, None)
    if hasattr(saver, "close"):  # an IndexedDB saver; a room's has no connection to close
        saver.close()
    if args.get("delete"):
        await idb.delete_database(name)
    return {"database": name, "deleted": bool(args.get("delete"))}


COMMANDS = {
    "saver_open": saver_open,
    "saver_call": saver_call,
    "saver_calls": saver_calls,
    "saver_close": saver_close,
}
