"""A thread as one file to hand out: its checkpoints, pending writes, journal and ledger requests.

LangGraph has no export format; its closest tool is ``copy_thread``, within one saver. A teacher
prepares a thread in the lab (say, paused at the SAR review after a double charge) and hands the
file to a class; each learner imports it and opens the same thread.

The file is our msgpack serializer's encoding of one plain dict::

    {"format": "checkpoint-lab/thread", "version": 1, "exported_at": "...",
     "thread_id": "...", "session": {case_id, variant, durability} | None,
     "checkpoints": [CheckpointRow...], "blobs": [BlobRow...], "writes": [WriteRow...],
     "journal": [record...], "ledger": [entry...]}

The rows are the saver's own (``lab.checkpoint.storage``): stored values stay the exact bytes the
saver wrote, so an import changes nothing. Reading a file validates everything before anything is
stored (:func:`read_thread_file`): the size, the format and version, every row's shape, that every
stored value loads through the serializer's allow-list (loading never executes code), and that the
chain is whole (every parent, blob and written-to checkpoint is in the file). Any problem is one
:class:`ThreadFileError` saying what and where; :func:`import_thread` then stores all rows at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from lab.checkpoint.core import MARKERS, CheckpointSaver
from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.records import checkpoint_problem, record_name
from lab.checkpoint.serde import MsgpackSerializer
from lab.checkpoint.storage import BlobRow, CheckpointRow, WriteRow

FORMAT = "checkpoint-lab/thread"
VERSION = 1
"""The layout above. A later layout bumps it; this code refuses files newer than it knows."""
MAX_FILE_BYTES = 5 * 1024 * 1024
"""A finished case is ~60 KB as a file; 5 MB leaves room for many branches and nothing absurd."""

_SERDE = MsgpackSerializer()

_ROW_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "checkpoints": {
        "thread_id": (str,),
        "checkpoint_ns": (str,),
        "checkpoint_id": (str,),
        "parent_checkpoint_id": (str, type(None)),
        "checkpoint": (list, tuple),
        "metadata": (list, tuple),
    },
    "blobs": {
        "thread_id": (str,),
        "checkpoint_ns": (str,),
        "channel": (str,),
        "version": (str, int, float),
        "value": (list, tuple),
    },
    "writes": {
        "thread_id": (str,),
        "checkpoint_ns": (str,),
        "checkpoint_id": (str,),
        "task_id": (str,),
        "idx": (int,),
        "channel": (str,),
        "value": (list, tuple),
        "task_path": (str,),
        "overwrite": (bool,),
    },
}
"""Each kind of row, its fields and their types (stored values are ``(type, bytes)`` pairs)."""


class ThreadFileError(ValueError):
    """A thread file the lab refuses: the message says what is wrong and where; nothing was stored."""


@dataclasses.dataclass(frozen=True)
class ThreadFile:
    """A validated thread file."""

    thread_id: str
    session: dict[str, Any] | None
    checkpoints: list[CheckpointRow]
    blobs: list[BlobRow]
    writes: list[WriteRow]
    journal: list[dict[str, Any]]
    ledger: list[dict[str, Any]]
    exported_at: str
    version: int = VERSION


# -- export ---------------------------------------------------------------------------------------


async def export_thread(
    saver: CheckpointSaver,
    thread_id: str,
    *,
    session: dict[str, Any] | None = None,
    journal: Sequence[dict[str, Any]] = (),
    ledger: Sequence[dict[str, Any]] = (),
) -> bytes:
    """The file of ``thread_id``: every checkpoint of every namespace, their blobs and writes, plus
    the ``journal`` records and ``ledger`` entries the caller keeps for it."""
    storage = saver.storage
    checkpoints = await storage.checkpoints(thread_id, None)
    if not checkpoints:
        raise ThreadFileError(f"Thread {thread_id!r} has no checkpoints to export")
    blob_keys = {
        (row["thread_id"], row["checkpoint_ns"], channel, version)
        for row in checkpoints
        for channel, version in _loaded_checkpoint(row)["channel_versions"].items()
    }
    blobs = await storage.blobs(sorted(blob_keys, key=repr))
    writes = await storage.writes([_checkpoint_key(row) for row in checkpoints])
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "thread_id": thread_id,
        "session": session,
        "checkpoints": [dict(row) for row in checkpoints],
        "blobs": [
            {"thread_id": t, "checkpoint_ns": ns, "channel": channel, "version": version, "value": value}
            for (t, ns, channel, version), value in blobs.items()
        ],
        "writes": [dict(row) for row in writes],
        "journal": list(journal),
        "ledger": list(ledger),
    }
    try:
        return _SERDE.dumps_typed(document)[1]
    except UnsavableValueError as error:
        raise ThreadFileError(f"Thread {thread_id!r} cannot be written to a file: {error}") from None


# -- reading and validating ----------------------------------------------------------------------


def read_thread_file(data: bytes) -> ThreadFile:
    """Validate a thread file completely; store nothing."""
    if not isinstance(data, bytes | bytearray):
        raise ThreadFileError(f"A thread file is bytes, not {type(data).__name__}")
    if len(data) > MAX_FILE_BYTES:
        raise ThreadFileError(
            f"The file has {len(data) / 1024 / 1024:.1f} MB; a thread file may have at most "
            f"{MAX_FILE_BYTES // 1024 // 1024} MB"
        )
    try:
        document = _SERDE.loads_typed(("msgpack", bytes(data)))
    except CorruptRecordError as error:
        raise ThreadFileError(f"This is not a readable thread file: {error.problem}") from None
    _check_header(document)
    thread_id = document["thread_id"]
    rows = {kind: _rows(document, kind, thread_id) for kind in _ROW_FIELDS}
    for kind in ("journal", "ledger"):
        if not (isinstance(document.get(kind), list) and all(isinstance(r, dict) for r in document[kind])):
            raise ThreadFileError(f"The file's {kind} must be a list of objects")
    session = document.get("session")
    if session is not None and not isinstance(session, dict):
        raise ThreadFileError("The file's session must be an object or null")
    for problem in _chain_problems(rows["checkpoints"], rows["blobs"], rows["writes"]):
        raise ThreadFileError(f"The file's thread is not whole: {problem}")
    return ThreadFile(
        thread_id,
        session,
        rows["checkpoints"],
        rows["blobs"],
        rows["writes"],
        document["journal"],
        document["ledger"],
        str(document.get("exported_at", "")),
        document["version"],
    )


def _check_header(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ThreadFileError(f"This is not a thread file of Checkpoint Lab (no format {FORMAT!r})")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ThreadFileError(f"The file's version {version!r} is not a version number")
    if version > VERSION:
        raise ThreadFileError(
            f"The file comes from a newer lab (format version {version}); this lab reads versions up to "
            f"{VERSION}. Open it in the newer lab, or export it again from there in version {VERSION}."
        )
    thread_id = document.get("thread_id")
    if not isinstance(thread_id, str) or not 0 < len(thread_id) <= 255:
        raise ThreadFileError("The file's thread_id must be text of 1 to 255 characters")


def _rows(document: dict[str, Any], kind: str, thread_id: str) -> list[Any]:
    rows = document.get(kind)
    if not isinstance(rows, list):
        raise ThreadFileError(f"The file's {kind} must be a list")
    fields = _ROW_FIELDS[kind]
    checked = []
    for position, row in enumerate(rows):
        where = f"{kind}[{position}]"
        if not isinstance(row, dict) or set(row) != set(fields):
            raise ThreadFileError(f"{where} must have exactly the fields {', '.join(fields)}")
        for field, types in fields.items():
            if not isinstance(row[field], types):
                raise ThreadFileError(
                    f"{where}.{field} is {type(row[field]).__name__}, not {types[0].__name__}"
                )
        if row["thread_id"] != thread_id:
            raise ThreadFileError(f"{where} belongs to thread {row['thread_id']!r}, not {thread_id!r}")
        checked.append({**row, **{field: _checked_value(row, field, where) for field in _values(kind)}})
    return checked


def _values(kind: str) -> tuple[str, ...]:
    return ("checkpoint", "metadata") if kind == "checkpoints" else ("value",)


def _checked_value(row: dict[str, Any], field: str, where: str) -> tuple[str, bytes]:
    """A stored value that loads through the serializer's allow-list (as the saver will load it)."""
    value = tuple(row[field])
    if value in MARKERS:  # a blob: "a version but no value", or a delta channel's sentinel
        return value  # type: ignore[return-value]
    try:
        loaded = _SERDE.loads_typed(value)  # type: ignore[arg-type]
    except CorruptRecordError as error:
        raise ThreadFileError(f"{where}.{field} does not load: {error.problem}") from None
    if field == "checkpoint" and (problem := checkpoint_problem(loaded)):
        raise ThreadFileError(f"{where}.checkpoint is malformed: {problem}")
    if field == "metadata" and not isinstance(loaded, dict):
        raise ThreadFileError(f"{where}.metadata is {type(loaded).__name__}, not an object")
    return value  # type: ignore[return-value]


def _checkpoint_key(row: CheckpointRow | WriteRow) -> tuple[str, str, str]:
    return row["thread_id"], row["checkpoint_ns"], row["checkpoint_id"]


def _loaded_checkpoint(row: CheckpointRow) -> dict[str, Any]:
    return _SERDE.loads_typed(row["checkpoint"])


def _chain_problems(
    checkpoints: list[CheckpointRow], blobs: list[BlobRow], writes: list[WriteRow]
) -> list[str]:
    """Every parent, every blob a checkpoint's versions name, every checkpoint a write is on: present."""
    ids = {_checkpoint_key(row) for row in checkpoints}
    blob_keys = {(b["thread_id"], b["checkpoint_ns"], b["channel"], b["version"]) for b in blobs}
    problems = []
    for row in checkpoints:
        name = record_name(*_checkpoint_key(row), "the checkpoint")
        parent = row["parent_checkpoint_id"]
        if parent is not None and (row["thread_id"], row["checkpoint_ns"], parent) not in ids:
            problems.append(f"{name} has parent {parent!r}, which is not in the file")
        for channel, version in _loaded_checkpoint(row)["channel_versions"].items():
            if (row["thread_id"], row["checkpoint_ns"], channel, version) not in blob_keys:
                problems.append(
                    f"{name} needs the value of {channel!r} at version {version!r}, not in the file"
                )
    problems += [
        f"a write of task {w['task_id']!r} is on checkpoint {w['checkpoint_id']!r}, not in the file"
        for w in writes
        if _checkpoint_key(w) not in ids
    ]
    return problems


# -- import ---------------------------------------------------------------------------------------


async def import_thread(
    saver: CheckpointSaver, thread_file: ThreadFile, *, as_thread: str | None = None
) -> str:
    """Store a validated thread file's rows under ``as_thread`` (default: its own thread id), in one
    atomic ``put``. A thread that already has checkpoints is never overwritten."""
    target = as_thread or thread_file.thread_id
    if not isinstance(target, str) or not 0 < len(target) <= 255:
        raise ThreadFileError("A thread id is text of 1 to 255 characters")
    if await saver.storage.checkpoints(target, None, limit=1):
        raise ThreadFileError(
            f"Thread {target!r} already exists here; import the file under another thread id"
        )
    await saver.storage.put(
        checkpoints=[{**row, "thread_id": target} for row in thread_file.checkpoints],
        blobs=[{**row, "thread_id": target} for row in thread_file.blobs],
        writes=[{**row, "thread_id": target, "overwrite": True} for row in thread_file.writes],
    )
    return target
