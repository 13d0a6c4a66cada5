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
