"""The saver's records kept in a class room's D1 database: the teacher's thread, shared with the room.

LangGraph's database savers (``SqliteSaver``, ``PostgresSaver``) are one contract over tables; the lab's
savers are one core (:class:`lab.checkpoint.core.CheckpointSaver`) over a small storage layer. This is
the third place that layer keeps its rows, after memory and IndexedDB: the records of
:mod:`lab.browser.page_storage` (stores ``checkpoints``, ``blobs``, ``writes``; a key is a list, a
record JSON), kept not by the page but by the room's server (``functions/_room/thread.js``, table
``thread_records``), so every device in the room can read them (and, in a fourth store ``sessions``,
the session each thread was run with, :meth:`RoomRecords.keep_session`)::

    saver = CheckpointSaver(PageStorage(RoomRecords(site, code, teacher_key=key, post=urllib_post)))

Each :class:`lab.browser.page_records.Records` call is one HTTP request:
``POST /api/rooms/<code>/thread/read`` (anyone with the room's code) or ``.../thread/write`` (the
room's teacher key; a learner's ``RoomRecords`` has none and only reads). A write is one D1 batch, so
it is atomic like an IndexedDB transaction. A busy or restarting server (503) or a lost connection gets
the same request again, a few times: every change here may safely be applied twice. A refusal raises
:class:`RoomRecordsError` naming the server's reason (``unknown_room``, ``bad_teacher_key``,
``body_too_large``...).

The request itself is made by the ``post`` function given: :func:`urllib_post` on CPython (the tests,
against ``wrangler pages dev``), :func:`fetch_post` in Pyodide (the browser's ``fetch``). Both are
async, so the saver is async-only, as over IndexedDB.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from lab.browser.page_records import Change, Key, put

SESSIONS = "sessions"
"""The room's store beside the saver's three: each thread's session, under the key ``[thread_id]``."""

Post = Callable[[str, dict[str, Any], str | None], Awaitable[tuple[int, Any]]]
"""``post(url, body, teacher_key)``: the HTTP status and the JSON answer of a POST with a JSON body."""

TIMEOUT_S = 30.0
"""How long one request may take: a room that does not answer must not hang a run."""
ATTEMPTS = 4
"""How often a request is sent when the server is busy or restarting (503) or out of reach: every
request may be sent again, as every read is, and every change is one whose second application changes
nothing (put, add, delete)."""
MAX_KEYS = 200
"""The keys one read may name (the room's limit, ``functions/_room/thread.js``)."""
RETRY_PAUSE_S = 0.25
"""The pause before the second attempt; it doubles for each later one."""


class RoomRecordsError(Exception):
    """The room's server refused a read or a write (or could not be reached); ``name`` says why."""

    def __init__(self, name: str, message: str, status: int) -> None:
        super().__init__(f"the room refused the thread's records: {name}: {message}")
        self.name = name
        self.status = status


def _post_now(url: str, body: dict[str, Any], teacher_key: str | None) -> tuple[int, Any]:
    import urllib.error  # here: the worker (Pyodide, fetch_post) never loads urllib's HTTP stack
    import urllib.request

    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("content-type", "application/json")
    if teacher_key is not None:
        request.add_header("authorization", f"Bearer {teacher_key}")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _json_or_error(error.read())
    except (urllib.error.URLError, TimeoutError) as error:
        return 0, {"error": "offline", "message": str(error)}


def _json_or_error(text: bytes) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return {"error": "not_json", "message": text[:200].decode(errors="replace")}


async def urllib_post(url: str, body: dict[str, Any], teacher_key: str | None) -> tuple[int, Any]:
    """:data:`Post` with ``urllib`` on CPython, in a thread so the event loop goes on meanwhile."""
    return await asyncio.to_thread(_post_now, url, body, teacher_key)


async def fetch_post(url: str, body: dict[str, Any], teacher_key: str | None) -> tuple[int, Any]:
    """:data:`Post` with the browser's ``fetch``, in Pyodide."""
    from pyodide.http import pyfetch  # Pyodide only: CPython uses urllib_post

    headers = {"content-type": "application/json"}
    if teacher_key is not None:
        headers["authorization"] = f"Bearer {teacher_key}"
    try:
        response = await pyfetch(url, method="POST", headers=headers, body=json.dumps(body), cache="no-store")
    except OSError as error:  # pyfetch's network failure
        return 0, {"error": "offline", "message": str(error)}
    return response.status, _json_or_error(await response.bytes())


class RoomRecords:
    """:class:`lab.browser.page_records.Records` in room ``code`` on the site at ``site`` (its origin):
    the thread of the lesson the room is on, or of ``lesson`` where given (each lesson the room was on
    keeps its own thread; the teacher's lab names the lesson it publishes from)."""

    def __init__(
        self, site: str, code: str, *, teacher_key: str | None = None, lesson: str | None = None, post: Post
    ) -> None:
        self.url = f"{site.rstrip('/')}/api/rooms/{code}/thread"
        self.teacher_key = teacher_key
        self.lesson = lesson
        self._post = post

    async def _call(self, op: str, body: dict[str, Any]) -> Any:
        if self.lesson is not None:
            body = {**body, "lesson": self.lesson}
        for attempt in range(ATTEMPTS):
            status, answer = await self._post(f"{self.url}/{op}", body, self.teacher_key)
            if status not in (0, 503) or attempt == ATTEMPTS - 1:
                break
            await asyncio.sleep(RETRY_PAUSE_S * 2**attempt)
        if status != 200:
            error = answer if isinstance(answer, dict) else {}
            raise RoomRecordsError(
                str(error.get("error", "failed")), str(error.get("message", f"HTTP {status}")), status
            )
        return answer

    async def get(self, store: str, keys: Sequence[Key]) -> list[Any]:
        """The record stored under each key, ``None`` where there is none (in requests of at most
        :data:`MAX_KEYS` keys: a history's values may be many more)."""
        parts = [list(keys[start : start + MAX_KEYS]) for start in range(0, len(keys), MAX_KEYS)]
        found = await asyncio.gather(*(self._call("read", {"store": store, "keys": part}) for part in parts))
        return [record for answer in found for record in answer["records"]]

    async def with_prefix(self, store: str, prefix: Key) -> list[Any]:
        """Every record whose key starts with ``prefix``, in the order their keys were first stored."""
        return (await self._call("read", {"store": store, "prefix": prefix}))["records"]

    async def write(self, changes: Sequence[Change]) -> None:
        """Apply every change, atomically (the teacher key is needed)."""
        if changes:
            await self._call("write", {"changes": list(changes)})

    async def keep_session(self, thread_id: str, session: dict[str, Any]) -> None:
        """Keep the session ``thread_id`` was run with (case, variant, durability, storage): what a
        learner's lab needs to open a copy of it (the teacher key is needed)."""
        await self.write([put(SESSIONS, [thread_id], session)])

    async def session(self, thread_id: str) -> dict[str, Any] | None:
        """The session kept for ``thread_id``, if the teacher's lab published one."""
        (session,) = await self.get(SESSIONS, [[thread_id]])
        return session
