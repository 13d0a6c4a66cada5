"""The Web Worker's Python entry point: the commands the page can send and the events Python emits.

The protocol between the page and the worker is documented in one place, ``static/protocol.mjs``.
This module is its Python half. The worker (``static/worker.mjs``) calls, in this order:

1. :func:`connect` once, handing over a function that posts an event to the page;
2. :func:`restore` as the "restore" boot stage, with the graph the page named (the worker's name, or
   none): it opens the lab's IndexedDB database, or falls back to memory and says so with a boot event;
3. :func:`dispatch` for every request from the page.

Requests and responses cross the JS/Python boundary as JSON text, so no proxy outlives a call.

A command is a named async handler in :data:`COMMANDS`: it takes the request's ``args`` (a dict) and
returns a JSON-compatible dict, or raises - the exception becomes the response's
``error: {type, message}``. To add a command, write a handler and add it to the dict.
"""

import asyncio
import json
import sys
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pyodide
from js import Object
from pyodide.ffi import JsProxy, to_js

from lab.browser import idb, lab_rpc, play_rpc, room_publish, room_rpc, saver_rpc

DB_NAME = "checkpoint-lab"
SCHEMA_VERSION = 1
META_STORE = "meta"  # small key -> JSON-like value records about the lab itself (settings, probes)
STORAGE_UNAVAILABLE = "Storage unavailable: checkpoints live in memory only and vanish on reload."

Args = dict[str, Any]
Handler = Callable[[Args], Awaitable[dict[str, Any]]]


@dataclass
class _Worker:
    """The worker's state: how to reach the page, and where records are stored."""

    post: Callable[[str], None] | None = None
    db: JsProxy | None = None  # the open IDBDatabase, or None when storage is in memory
    memory: dict[str, Any] = field(default_factory=dict)  # the meta store when db is None


_worker = _Worker()


def connect(post: Callable[[str], None]) -> None:
    """Remember how to post events to the page: ``post(json_text)``."""
    _worker.post = post


def emit(event: dict[str, Any]) -> None:
    """Post an event (a dict with a ``type``) to the page."""
    if _worker.post is None:
        raise RuntimeError("emit() before connect(): the worker has not connected Python to the page")
    _worker.post(json.dumps(event))


# --------------------------------------------------------------------------------------------------
# Boot: the "restore" stage
# --------------------------------------------------------------------------------------------------


def _upgrade(db: JsProxy, old_version: int, _tx: JsProxy) -> None:
    """Bring the database schema up to :data:`SCHEMA_VERSION`, one version step at a time."""
    if old_version < 1:
        db.createObjectStore(META_STORE)


async def restore(graph: str = "") -> str:
    """Open the lab's database and return what the page should know about storage, as JSON.

    If IndexedDB is unavailable (some private modes, a cross-site iframe), records live in memory, and
    the page is told so plainly with a boot event ``{stage: "restore", state: "warning"}``. Then
    :func:`lab_rpc.open_lab` opens the lab's threads and the controller of ``graph``, the module the
    page named (``""``: none, the controller waits for a program), the result's ``lab`` key.
    """
    named = graph or None
    try:
        _worker.db = await idb.open_database(
            DB_NAME, SCHEMA_VERSION, _upgrade, lab_rpc.version_change_notice(emit, DB_NAME)
        )
    except Exception as error:  # JsException, or a SecurityError thrown by indexedDB.open itself
        _worker.db = None
        print(f"IndexedDB unavailable ({error}); keeping records in memory", file=sys.stderr)
        emit({"type": "boot", "stage": "restore", "state": "warning", "message": STORAGE_UNAVAILABLE})
        return json.dumps({"storage": "memory", **await lab_rpc.open_lab(emit, indexeddb=False, graph=named)})
    storage = {"storage": "indexeddb", "database": DB_NAME, "schema_version": SCHEMA_VERSION}
    return json.dumps({**storage, **await lab_rpc.open_lab(emit, indexeddb=True, graph=named)})


# --------------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------------


def _key(args: Args) -> str:
    key = args.get("key")
    if not isinstance(key, str) or not key:
        raise ValueError("'key' must be a non-empty string")
    return key


def python_version() -> str:
    """The running Python's version, e.g. ``3.14.0``: ``platform.python_version()``, without its import."""
    return sys.version.split()[0]


async def ping(_args: Args) -> dict[str, Any]:
    """A round trip through Python: answers with the versions it runs on."""
    return {"pong": True, "python": python_version(), "pyodide": pyodide.__version__}


async def stats(_args: Args) -> dict[str, Any]:
    """Facts about the Python side: versions, where records are stored, what is loaded."""
    db = _worker.db
    return {
        "python": python_version(),
        "pyodide": pyodide.__version__,
        "storage": "memory" if db is None else "indexeddb",
        "stores": [] if db is None else idb.store_names(db),
        "event_loop": type(asyncio.get_event_loop()).__name__,  # BatchingWebLoop (event_loop.py)
        "modules_loaded": len(sys.modules),
        "lab_modules": sorted(name for name in sys.modules if name == "lab" or name.startswith("lab.")),
    }


async def meta_set(args: Args) -> dict[str, Any]:
    """Store ``args["value"]`` (JSON-like) under ``args["key"]``; answers once the write is durable."""
    key, value = _key(args), args.get("value")
    if _worker.db is None:
        _worker.memory[key] = value
        return {"key": key, "durable": False}
    tx = idb.transaction(_worker.db, [META_STORE], "readwrite")
    done = idb.tx_done(tx)
    tx.objectStore(META_STORE).put(to_js(value, dict_converter=Object.fromEntries), key)
    await done
    return {"key": key, "durable": True}


async def meta_get(args: Args) -> dict[str, Any]:
    """The value stored under ``args["key"]``, or ``None``."""
    key = _key(args)
    if _worker.db is None:
        return {"key": key, "value": _worker.memory.get(key)}
    tx = idb.transaction(_worker.db, [META_STORE])
    value = await idb.request_promise(tx.objectStore(META_STORE).get(key))
    return {"key": key, "value": value.to_py() if isinstance(value, JsProxy) else value}


COMMANDS: dict[str, Handler] = {
    "ping": ping,
    "stats": stats,
    "meta_get": meta_get,
    "meta_set": meta_set,
    **saver_rpc.COMMANDS,  # saver_open / saver_call(s) / saver_close: the IndexedDB saver, for tests
    **lab_rpc.COMMANDS,  # lab / world_reply / lab_info / lab_configure: the lab controller
    **play_rpc.COMMANDS,  # play_load / play_problem: the playground's program as the lab's graph
    **room_rpc.COMMANDS,  # room_frames / room_fork: a class room's shared thread, for a learner
    **room_publish.COMMANDS,  # room_publish: the presenter's thread into the class room
}


class UnknownCommand(Exception):
    """The request named a command that :data:`COMMANDS` does not have."""


async def handle(cmd: str, args: Args) -> dict[str, Any]:
    """Run one command and return its result."""
    handler = COMMANDS.get(cmd)
    if handler is None:
        raise UnknownCommand(f"unknown command {cmd!r}; the commands are: {', '.join(sorted(COMMANDS))}")
    return await handler(args)


async def dispatch(request_json: str) -> str:
    """Answer one request ``{id, cmd, args}`` with ``{id, ok: true, result}`` or ``{id, ok: false, error}``.

    A failing command answers with the exception's type and message; the full traceback goes to the
    worker's console, for developers.
    """
    request = json.loads(request_json)
    try:
        result = await handle(request["cmd"], request.get("args") or {})
        return json.dumps({"id": request["id"], "ok": True, "result": result})
    except Exception as error:
        traceback.print_exc()
        failure = {"type": type(error).__name__, "message": str(error)}
        return json.dumps({"id": request["id"], "ok": False, "error": failure})
