"""The name of a stored record, and whether a loaded checkpoint has the shape of one.

LangGraph's savers trust what they read back: a checkpoint whose ``channel_versions`` is a
list fails later, far away, with ``'list' object has no attribute 'items'``. The lab's saver
names the record (thread, checkpoint, and which part of it) and says what is wrong, in a
:class:`lab.checkpoint.errors.CorruptRecordError`, as soon as it reads it.
"""

from __future__ import annotations

from typing import Any

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


def checkpoint_problem(checkpoint: Any) -> str | None:
    """What makes a loaded checkpoint unusable, or ``None`` if it has the fields the runtime reads."""
    if not isinstance(checkpoint, dict):
        return f"it is a {type(checkpoint).__name__}, not a dict"
    for field, kind in _CHECKPOINT_FIELDS.items():
        if not isinstance(checkpoint.get(field), kind):
            return f"its {field!r} is {checkpoint.get(field)!r:.40}, not a {kind.__name__}"
    for channel, version in checkpoint["channel_versions"].items():
        if not isinstance(channel, str) or not isinstance(version, _VERSION_TYPES):
            return f"channel_versions maps {channel!r:.40} to {version!r:.40}: want a name and a version"
    for node, seen in checkpoint["versions_seen"].items():
        if not isinstance(seen, dict):
            return f"versions_seen[{node!r:.40}] is {seen!r:.40}, not a dict"
    return None


def metadata_problem(metadata: Any) -> str | None:
    """What makes loaded metadata unusable, or ``None``."""
    return None if isinstance(metadata, dict) else f"it is a {type(metadata).__name__}, not a dict"
