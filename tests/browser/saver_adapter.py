"""Drive the lab's ``IndexedDBSaver``, which runs in Chromium's Web Worker, from CPython.

Each call goes page -> worker -> ``lab.browser.saver_rpc`` and back: ``page.evaluate`` asks the page's
``LabClient`` (``window.lab``) for a ``saver_*`` command; arguments and results travel as
``saver_rpc.encode`` d msgpack, so sets and bytes survive the trip (a tuple arrives as a list, as
LangGraph's serializer reads one back; a ``CheckpointTuple``'s pending writes are made tuples again).

- :func:`request` and :func:`call_saver` do that from the thread that owns the Playwright page.
- :class:`RemoteSaver` is a LangGraph ``BaseCheckpointSaver`` whose async methods forward each call, so
  ``langgraph-checkpoint-conformance`` can run against the browser saver. The conformance runner is a
  coroutine and Playwright's sync API belongs to the test's thread, so :meth:`PageBridge.run` runs the
  coroutine in a thread of its own while the test's thread carries the calls to the page.
"""

from __future__ import annotations

import asyncio
import builtins
import concurrent.futures
import queue
import threading
from collections.abc import AsyncIterator, Coroutine, Sequence
from typing import Any, TypeVar

from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from playwright.sync_api import Page

from lab.browser.saver_rpc import decode, encode

T = TypeVar("T")

# Runs in the page: one request to the worker; a failure comes back as data, not as a JS exception.
REQUEST = """
async ([cmd, args]) => {
  try {
    return { ok: true, result: await lab.request(cmd, args) };
  } catch (error) {
    return { ok: false, type: error.type ?? error.name, message: error.message };
  }
}
"""


class LabCommandError(Exception):
    """A worker command failed with an exception that is not a Python built-in (e.g. StorageFullError)."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(f"{type_name}: {message}")
        self.type = type_name
        self.message = message


def _raise_remote(type_name: str, message: str) -> None:
    """Raise what the worker raised: the built-in exception itself, or a :class:`LabCommandError`."""
    builtin = getattr(builtins, type_name, None)
    if isinstance(builtin, type) and issubclass(builtin, Exception):
        raise builtin(message)
    raise LabCommandError(type_name, message)


def _answer(response: dict[str, Any]) -> dict[str, Any]:
    if not response["ok"]:
        _raise_remote(response["type"], response["message"])
    return response["result"]


def request(page: Page, cmd: str, args: dict[str, Any]) -> dict[str, Any]:
    """Send a command to the worker and return its result (from the thread that owns ``page``)."""
    return _answer(page.evaluate(REQUEST, [cmd, args]))


def saver_call_args(
    database: str, method: str, args: Sequence[Any], kwargs: dict[str, Any]
) -> dict[str, Any]:
    return {"database": database, "call": encode([method, list(args), kwargs])}


def saver_result(method: str, result: dict[str, Any]) -> Any:
    """Decode a ``saver_call`` result; ``CheckpointTuple`` s come back as LangGraph's own."""
    value = decode(result["result"])
    if method == "aget_tuple":
        return None if value is None else checkpoint_tuple(value)
    if method == "alist":
        return [checkpoint_tuple(saved) for saved in value]
    return value


def checkpoint_tuple(fields: dict[str, Any]) -> CheckpointTuple:
    """A ``CheckpointTuple`` from its fields as they travelled: its pending writes ``(task_id, channel,
    value)`` tuples again (msgpack carries a tuple as an array)."""
    writes = fields.get("pending_writes")
    if writes is not None:
        fields = {**fields, "pending_writes": [tuple(write) for write in writes]}
    return CheckpointTuple(**fields)


def call_saver(page: Page, database: str, method: str, *args: Any, **kwargs: Any) -> Any:
    """``await saver.<method>(*args, **kwargs)`` in the worker, on the saver of ``database``."""
    return saver_result(method, request(page, "saver_call", saver_call_args(database, method, args, kwargs)))


class PageBridge:
    """Carries commands from coroutines in another thread to the page, which only its own thread may use."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self._requests: queue.Queue[tuple[str, dict[str, Any], concurrent.futures.Future]] = queue.Queue()
        self.calls = 0

    def submit(self, cmd: str, args: dict[str, Any]) -> concurrent.futures.Future:
        """Queue a command for the page (from any thread); the future gets the raw response."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._requests.put((cmd, args, future))
        return future

    async def arequest(self, cmd: str, args: dict[str, Any]) -> dict[str, Any]:
        """Send a command from a coroutine of :meth:`run` and wait for its result."""
        return _answer(await asyncio.wrap_future(self.submit(cmd, args)))

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` to completion in a new thread, serving its page requests meanwhile."""
        outcome: concurrent.futures.Future = concurrent.futures.Future()

        def main() -> None:
            try:
                outcome.set_result(asyncio.run(coroutine))
            except BaseException as error:
                outcome.set_exception(error)

        threading.Thread(target=main, name="conformance", daemon=True).start()
        while not outcome.done():
            try:
                cmd, args, future = self._requests.get(timeout=0.05)
            except queue.Empty:
                continue
            self.calls += 1
            try:
                future.set_result(self.page.evaluate(REQUEST, [cmd, args]))
            except Exception as error:  # the page itself failed (closed, crashed...)
                future.set_exception(error)
        return outcome.result()


class RemoteSaver(BaseCheckpointSaver):
    """A LangGraph saver whose async methods run on the lab's ``IndexedDBSaver`` in the browser.

    It overrides exactly the async methods LangGraph's capability detection looks at, so all eight
    capabilities are detected, plus ``get_next_version`` (it blocks its thread until the page answers,
    so call it from :meth:`PageBridge.run` only). Use it inside :meth:`PageBridge.run`.
    """

    def __init__(self, bridge: PageBridge, database: str) -> None:
        super().__init__()
        self.bridge = bridge
        self.database = database

    async def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        result = await self.bridge.arequest(
            "saver_call", saver_call_args(self.database, method, args, kwargs)
        )
        return saver_result(method, result)

    async def aget_tuple(self, config):
        return await self._call("aget_tuple", config)

    async def alist(self, config, *, filter=None, before=None, limit=None) -> AsyncIterator[CheckpointTuple]:
        for saved in await self._call("alist", config, filter=filter, before=before, limit=limit):
            yield saved

    async def aput(self, config, checkpoint, metadata, new_versions):
        return await self._call("aput", config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config, writes, task_id, task_path=""):
        await self._call("aput_writes", config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id):
        await self._call("adelete_thread", thread_id)

    async def adelete_for_runs(self, run_ids):
        await self._call("adelete_for_runs", run_ids)

    async def acopy_thread(self, source_thread_id, target_thread_id):
        await self._call("acopy_thread", source_thread_id, target_thread_id)

    async def aprune(self, thread_ids, *, strategy="keep_latest"):
        await self._call("aprune", thread_ids, strategy=strategy)

    def get_next_version(self, current, channel=None):
        args = saver_call_args(self.database, "get_next_version", [current, channel], {})
        return saver_result("get_next_version", _answer(self.bridge.submit("saver_call", args).result()))
