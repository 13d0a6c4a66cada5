"""A thread as one file to hand out: its checkpoints, pending writes, journal and ledger requests.

LangGraph has no export format; its closest tool is ``copy_thread``, within one saver. A teacher
prepares a thread in the lab (say, paused at a review after a double payment) and hands the
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
from lab.checkpoint.records import checkpoint_problem, record_place
from lab.checkpoint.serde import MsgpackSerializer
from lab.checkpoint.storage import BlobKey, BlobRow, CheckpointRow, WriteRow
from lab.controller.messages import Message, SaidError, message
from lab.controller.record_texts import problem_message, said_place

FORMAT = "checkpoint-lab/thread"
VERSION = 1
"""The layout above. A later layout bumps it; this code refuses files newer than it knows."""
MAX_FILE_BYTES = 16 * 1024 * 1024
"""A finished case is ~60 KB as a file; a 200-turn chat stored as LangGraph stores it by default
(every checkpoint holds the whole list) is 12.1 MB (``bench/interop_sizes.py``); 16 MB takes it and
nothing absurd."""

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

_RUN_STEP = {"run": (int,), "step": (int,)}
_TASK = {**_RUN_STEP, "node": (str,), "task_id": (str,)}
_JOURNAL_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "run_start": {"run": (int,), "kind": (str,)},
    "run_end": {"run": (int,), "status": (str,)},
    "crash": {"run": (int,), "step": (int,)},
    "step_start": {**_RUN_STEP, "tasks": (list,), "restored": (list,)},
    "step_end": _RUN_STEP,
    "put": {**_RUN_STEP, "checkpoint_id": (str,)},
    **{name: _TASK for name in ("task_start", "task_finish", "interrupt", "error")},
    # a @task a node called: it ran, or its saved result came back (lab.controller.task_rows)
    "task_call": {**_TASK, "caller": (str,), "caller_task_id": (str,), "restored": (bool,)},
    # a resume value's writes belong to no task: node and task_id None
    "put_writes": {**_RUN_STEP, "node": (str, type(None)), "task_id": (str, type(None))},
}
"""The journal's records (``lab.controller.journal``): the fields the lab reads, by record type."""
_LEDGER_FIELDS: dict[str, tuple[type, ...]] = {
    "kind": (str,),
    "id": (str,),
    "idempotency_key": (str, type(None)),
    "replayed": (bool,),
    "purpose": (str,),
    "amount_cents": (int,),
    "thread_id": (str,),
    "node": (str,),
    "task_id": (str,),
}
"""The ledger's rows (``static/ledger.mjs``): the fields the lab reads."""


class ThreadFileError(SaidError):
    """A thread file the lab refuses: the message says what is wrong and where; nothing was stored.

    Every reason has a code of its own (``file.*``), ``reason`` its English template and ``params``
    the data it names as they are (field paths such as ``checkpoints[3].metadata``, type names,
    thread ids); a nested problem is itself a message."""

    def __init__(self, reason: str, code: str, **params: Any) -> None:
        super().__init__(code, reason, **params)


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
        raise ThreadFileError(
            "Thread {thread} has no checkpoints to export", "file.empty", thread=repr(thread_id)
        )
    blobs = await storage.blobs(sorted(named_blobs(checkpoints), key=repr))
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
        raise ThreadFileError(
            "Thread {thread} cannot be written to a file: {problem}",
            "file.unsavable",
            thread=repr(thread_id),
            problem=problem_message(error),
        ) from None


def named_blobs(checkpoints: Sequence[CheckpointRow]) -> set[BlobKey]:
    """The keys of the channel values these checkpoints hold (each names a version per channel)."""
    return {
        (row["thread_id"], row["checkpoint_ns"], channel, version)
        for row in checkpoints
        for channel, version in _loaded_checkpoint(row)["channel_versions"].items()
    }


# -- reading and validating ----------------------------------------------------------------------


def check_file_size(size: int) -> None:
    """Refuse a file of more than :data:`MAX_FILE_BYTES` (the page checks before it reads one)."""
    if size > MAX_FILE_BYTES:
        raise ThreadFileError(
            "The file has {size} MB; a thread file may have at most {limit} MB",
            "file.too_big",
            size=f"{size / 1024 / 1024:.1f}",
            limit=MAX_FILE_BYTES // 1024 // 1024,
        )


def already_exists(thread_id: str) -> ThreadFileError:
    return ThreadFileError(
        "Thread {thread} already exists here; import the file under another thread id",
        "file.exists",
        thread=repr(thread_id),
    )


def read_thread_file(data: bytes) -> ThreadFile:
    """Validate a thread file completely; store nothing."""
    if not isinstance(data, bytes | bytearray):
        raise ThreadFileError(
            "A thread file is bytes, not {type}", "file.not_bytes", type=type(data).__name__
        )
    check_file_size(len(data))
    try:
        document = _SERDE.loads_typed(("msgpack", bytes(data)))
    except CorruptRecordError as error:
        raise ThreadFileError(
            "This is not a readable thread file: {problem}",
            "file.unreadable",
            problem=problem_message(error),
        ) from None
    _check_header(document)
    thread_id = document["thread_id"]
    rows = {kind: _rows(document, kind, thread_id) for kind in _ROW_FIELDS}
    for kind in ("journal", "ledger"):
        if not (isinstance(document.get(kind), list) and all(isinstance(r, dict) for r in document[kind])):
            raise ThreadFileError(
                "The file's {kind} must be a list of objects", "file.not_objects", kind=kind
            )
    for position, record in enumerate(document["journal"]):
        _check_fields(record, _JOURNAL_FIELDS.get(record.get("type")), f"journal[{position}]")
    for position, entry in enumerate(document["ledger"]):
        _check_fields(entry, _LEDGER_FIELDS, f"ledger[{position}]")
        if entry["thread_id"] != thread_id:
            raise ThreadFileError(
                "{where} is not a request of thread {thread}",
                "file.foreign_entry",
                where=f"ledger[{position}]",
                thread=repr(thread_id),
            )
    session = document.get("session")
    if session is not None and not isinstance(session, dict):
        raise ThreadFileError("The file's session must be an object or null", "file.session")
    for problem in _chain_problems(rows["checkpoints"], rows["blobs"], rows["writes"]):
        raise ThreadFileError("The file's thread is not whole: {problem}", "file.not_whole", problem=problem)
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
        raise ThreadFileError(
            "This is not a thread file of Checkpoint Lab (no format {format})",
            "file.not_ours",
            format=repr(FORMAT),
        )
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ThreadFileError(
            "The file's version {version} is not a version number", "file.version", version=repr(version)
        )
    if version > VERSION:
        raise ThreadFileError(
            "The file comes from a newer lab (format version {version}); this lab reads versions up "
            "to {known}. Open it in the newer lab, or export it again from there in version {known}.",
            "file.newer",
            version=version,
            known=VERSION,
        )
    thread_id = document.get("thread_id")
    if not isinstance(thread_id, str) or not 0 < len(thread_id) <= 255:
        raise ThreadFileError("The file's thread_id must be text of 1 to 255 characters", "file.thread_id")


def _rows(document: dict[str, Any], kind: str, thread_id: str) -> list[Any]:
    rows = document.get(kind)
    if not isinstance(rows, list):
        raise ThreadFileError("The file's {kind} must be a list", "file.not_list", kind=kind)
    fields = _ROW_FIELDS[kind]
    checked = []
    for position, row in enumerate(rows):
        where = f"{kind}[{position}]"
        if not isinstance(row, dict) or set(row) != set(fields):
            raise ThreadFileError(
                "{where} must have exactly the fields {fields}",
                "file.row_fields",
                where=where,
                fields=", ".join(fields),
            )
        for field, types in fields.items():
            if not isinstance(row[field], types):
                raise ThreadFileError(
                    "{where} is {type}, not {expected}",
                    "file.row_type",
                    where=f"{where}.{field}",
                    type=type(row[field]).__name__,
                    expected=types[0].__name__,
                )
        if row["thread_id"] != thread_id:
            raise ThreadFileError(
                "{where} belongs to thread {other}, not {thread}",
                "file.foreign_row",
                where=where,
                other=repr(row["thread_id"]),
                thread=repr(thread_id),
            )
        checked.append({**row, **{field: _checked_value(row, field, where) for field in _values(kind)}})
    return checked


def _check_fields(record: dict[str, Any], fields: dict[str, tuple[type, ...]] | None, where: str) -> None:
    """``record`` has each of ``fields`` with a value of its type (``None``: an unknown record type)."""
    if fields is None:
        raise ThreadFileError(
            "{where} has the unknown type {type}",
            "file.unknown_type",
            where=where,
            type=repr(record.get("type")),
        )
    for field, types in fields.items():
        value = record.get(field)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ThreadFileError(
                "{where} must be {expected}, not {type}",
                "file.field_type",
                where=f"{where}.{field}",
                expected=types[0].__name__,
                type=type(value).__name__,
            )


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
        raise ThreadFileError(
            "{where} does not load: {problem}",
            "file.value_not_loading",
            where=f"{where}.{field}",
            problem=problem_message(error),
        ) from None
    if field == "checkpoint" and (problem := checkpoint_problem(loaded)):
        raise ThreadFileError(
            "{where} is malformed: {problem}",
            "file.malformed_checkpoint",
            where=f"{where}.checkpoint",
            problem=problem_message(problem),
        )
    if field == "metadata" and not isinstance(loaded, dict):
        raise ThreadFileError(
            "{where} is {type}, not an object",
            "file.metadata_not_object",
            where=f"{where}.metadata",
            type=type(loaded).__name__,
        )
    return value  # type: ignore[return-value]


def _checkpoint_key(row: CheckpointRow | WriteRow) -> tuple[str, str, str]:
    return row["thread_id"], row["checkpoint_ns"], row["checkpoint_id"]


def _loaded_checkpoint(row: CheckpointRow) -> dict[str, Any]:
    return _SERDE.loads_typed(row["checkpoint"])


def _chain_problems(
    checkpoints: list[CheckpointRow], blobs: list[BlobRow], writes: list[WriteRow]
) -> list[Message]:
    """Every parent, every blob a checkpoint's versions name, every checkpoint a write is on: present."""
    ids = {_checkpoint_key(row) for row in checkpoints}
    blob_keys = {(b["thread_id"], b["checkpoint_ns"], b["channel"], b["version"]) for b in blobs}
    problems = []
    for row in checkpoints:
        name = said_place(record_place(_checkpoint_key(row), "checkpoint"))
        parent = row["parent_checkpoint_id"]
        if parent is not None and (row["thread_id"], row["checkpoint_ns"], parent) not in ids:
            problems.append(_missing_parent(name, parent))
        for channel, version in _loaded_checkpoint(row)["channel_versions"].items():
            if (row["thread_id"], row["checkpoint_ns"], channel, version) not in blob_keys:
                problems.append(_missing_value(name, channel, version))
    problems += [_write_off_the_chain(w) for w in writes if _checkpoint_key(w) not in ids]
    return problems


def _missing_parent(name: Message, parent: str) -> Message:
    return message(
        "file.chain.parent",
        "{name} has parent {parent}, which is not in the file",
        name=name,
        parent=repr(parent),
    )


def _missing_value(name: Message, channel: str, version: Any) -> Message:
    return message(
        "file.chain.value",
        "{name} needs the value of {channel} at version {version}, not in the file",
        name=name,
        channel=repr(channel),
        version=repr(version),
    )


def _write_off_the_chain(write: WriteRow) -> Message:
    return message(
        "file.chain.write",
        "a write of task {task} is on checkpoint {checkpoint}, not in the file",
        task=repr(write["task_id"]),
        checkpoint=repr(write["checkpoint_id"]),
    )


# -- import ---------------------------------------------------------------------------------------


async def import_thread(
    saver: CheckpointSaver, thread_file: ThreadFile, *, as_thread: str | None = None
) -> str:
    """Store a validated thread file's rows under ``as_thread`` (default: its own thread id), in one
    atomic ``put``. A thread that already has checkpoints is never overwritten."""
    target = as_thread or thread_file.thread_id
    if not isinstance(target, str) or not 0 < len(target) <= 255:
        raise ThreadFileError("A thread id is text of 1 to 255 characters", "file.import_thread_id")
    if await saver.storage.checkpoints(target, None, limit=1):
        raise already_exists(target)
    await saver.storage.put(
        checkpoints=[{**row, "thread_id": target} for row in thread_file.checkpoints],
        blobs=[{**row, "thread_id": target} for row in thread_file.blobs],
        writes=[{**row, "thread_id": target, "overwrite": True} for row in thread_file.writes],
    )
    return target
