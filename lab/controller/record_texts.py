"""What a learner reads about a saved record that no longer loads, in their language.

LangGraph's serializer lets whatever ``msgpack`` raised escape, in English. The lab's saver raises
one :class:`~lab.checkpoint.errors.CorruptRecordError` that keeps, beside its English sentence, the
record as data (thread, checkpoint, the channel or write: ``place``) and the common problems by code
(a truncated record, bytes that are not msgpack...). Here they become
:data:`~lab.controller.messages.Message` codes (``record.*``) that the page says from its catalogue;
names and ids stay parameters, shown as they are. A rare problem is said as written.
"""

from __future__ import annotations

from typing import Any

from lab.checkpoint.errors import CorruptRecordError
from lab.checkpoint.records import PARTS, part_names
from lab.controller.messages import Message, message


def problem_message(error: CorruptRecordError) -> Message:
    """What is wrong with the record: by the saver's code, else its English as written."""
    if error.code:
        return message(f"record.problem.{error.code}", error.said, **error.params)
    return message("record.problem", "{problem}", problem=error.problem)


def place_message(error: CorruptRecordError) -> Message:
    """Which record: thread, checkpoint (and namespace) and part, each name as data; a record the
    saver could only describe (an IndexedDB record without its key fields) as written."""
    if error.place is None:
        return message("record.where", "{where}", where=error.where or "a stored value")
    return said_place(error.place)


def said_place(place: dict[str, Any]) -> Message:
    """A record as :func:`~lab.checkpoint.records.record_place` names it, as its English
    :func:`~lab.checkpoint.records.place_name` says it."""
    part = message(f"record.part.{place['part']}", PARTS[place["part"]], **part_names(place))
    names = {"thread": repr(place["thread"]), "checkpoint": repr(place["checkpoint"]), "part": part}
    if place["namespace"]:
        return message(
            "record.place_in_namespace",
            "thread {thread} (namespace {namespace}), checkpoint {checkpoint}, {part}",
            namespace=repr(place["namespace"]),
            **names,
        )
    return message("record.place", "thread {thread}, checkpoint {checkpoint}, {part}", **names)


def corrupt_record_message(error: CorruptRecordError) -> Message:
    """The whole error as the saver says it: ``<record> does not load: <problem>``."""
    return message(
        "record.corrupt",
        "{where} does not load: {problem}",
        where=place_message(error),
        problem=problem_message(error),
    )


def damage(thread_id: str, error: CorruptRecordError) -> Message:
    """What the page says about a saved thread whose records no longer load."""
    return message(
        "thread.damaged",
        "Thread {thread} cannot be read: {problem}. Drop it to delete its saved rows; the other "
        "threads are not affected.",
        thread=thread_id,
        problem=corrupt_record_message(error),  # names the record: thread, checkpoint, channel or write
    )
