"""The name of a stored record, and whether a loaded checkpoint has the shape of one.

LangGraph's savers trust what they read back: a checkpoint whose ``channel_versions`` is a
list fails later, far away, with ``'list' object has no attribute 'items'``. The lab's saver
names the record (thread, checkpoint, and which part of it) and says what is wrong, in a
:class:`lab.checkpoint.errors.CorruptRecordError`, as soon as it reads it.
"""

from __future__ import annotations

from typing import Any

from lab.checkpoint.errors import CorruptRecordError

_CHECKPOINT_FIELDS: dict[str, type] = {"id": str, "channel_versions": dict, "versions_seen": dict}
"""The fields the runtime reads from every stored checkpoint, with their types."""

_VERSION_TYPES = (str, int, float)


def record_name(thread_id: str, checkpoint_ns: str, checkpoint_id: str, part: str) -> str:
    """E.g. ``thread 't-1', checkpoint '1f0...', channel 'x' (version '0002.5')``."""
    namespace = f" (namespace {checkpoint_ns!r})" if checkpoint_ns else ""
    return f"thread {thread_id!r}{namespace}, checkpoint {checkpoint_id!r}, {part}"


PARTS = {
    "checkpoint": "the checkpoint",
    "metadata": "the metadata",
    "write": "the write to {channel} of task {task}",
    "channel": "channel {channel}",
    "channel_version": "channel {channel} (version {version})",
}
"""The parts of a stored checkpoint a value is loaded from, by code (names filled in as ``repr``)."""


def record_place(key: tuple[str, str, str], part: str, **names: Any) -> dict[str, Any]:
    """A record as data: ``thread``, ``namespace``, ``checkpoint``, the ``part`` (a :data:`PARTS`
    code) and the names that part has (a channel, a task, a version)."""
    thread_id, checkpoint_ns, checkpoint_id = key
    return {
        "thread": thread_id,
        "namespace": checkpoint_ns,
        "checkpoint": checkpoint_id,
        "part": part,
        **names,
    }


def part_names(place: dict[str, Any]) -> dict[str, str]:
    """The names the place's part has, as its English sentence shows them (``repr``)."""
    return {name: repr(value) for name, value in place.items() if name not in _PLACE_KEYS}


def place_name(place: dict[str, Any]) -> str:
    """The place's :func:`record_name`."""
    part = PARTS[place["part"]].format(**part_names(place))
    return record_name(place["thread"], place["namespace"], place["checkpoint"], part)


_PLACE_KEYS = ("thread", "namespace", "checkpoint", "part")


def checkpoint_problem(checkpoint: Any) -> CorruptRecordError | None:
    """What makes a loaded checkpoint unusable (a coded problem), or ``None`` if it has the fields
    the runtime reads."""
    if not isinstance(checkpoint, dict):
        return _not_a_dict(checkpoint)
    for field, kind in _CHECKPOINT_FIELDS.items():
        if not isinstance(checkpoint.get(field), kind):
            return CorruptRecordError.coded(
                "field_type",
                "its {field} is {value}, not a {kind}",
                field=repr(field),
                value=f"{checkpoint.get(field)!r:.40}",
                kind=kind.__name__,
            )
    for channel, version in checkpoint["channel_versions"].items():
        if not isinstance(channel, str) or not isinstance(version, _VERSION_TYPES):
            return CorruptRecordError.coded(
                "channel_version",
                "channel_versions maps {channel} to {version}: want a name and a version",
                channel=f"{channel!r:.40}",
                version=f"{version!r:.40}",
            )
    for node, seen in checkpoint["versions_seen"].items():
        if not isinstance(seen, dict):
            return CorruptRecordError.coded(
                "versions_seen",
                "versions_seen[{node}] is {seen}, not a dict",
                node=f"{node!r:.40}",
                seen=f"{seen!r:.40}",
            )
    return None


def metadata_problem(metadata: Any) -> CorruptRecordError | None:
    """What makes loaded metadata unusable (a coded problem), or ``None``."""
    return None if isinstance(metadata, dict) else _not_a_dict(metadata)


def _not_a_dict(value: Any) -> CorruptRecordError:
    return CorruptRecordError.coded("not_a_dict", "it is a {type}, not a dict", type=type(value).__name__)
