"""The storage side of LangGraph's ``DeltaChannel`` (beta): a blob that holds a sentinel instead
of the whole value, a full ``DeltaSnapshot`` now and then, and ``get_delta_channel_history``,
the walk up a checkpoint's ancestors that collects what is needed to rebuild the value.

A delta channel's value at checkpoint ``C`` is its value at the nearest ancestor that stored a
real value (the *seed*: a ``DeltaSnapshot``, or a plain value stored before the channel became a
delta channel) followed by the writes that moved it since, oldest first. The writes that made a
child are the pending writes stored on its parent, so the walk collects, along the parent chain,
the parent's writes to the channel.

One rule makes the walk unambiguous where LangGraph's own walk needs care: **a parent's writes
count only if the channel's version moved between the parent and its child on this path.** A
parent's pending writes belong to whichever child consumed them; a sibling branch that did not
touch the channel keeps its version, so the walk skips them. (A branch that did touch it stores a
snapshot there: see ``lab.pregel.delta``.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

PendingWrite = tuple[str, str, Any]
"""``(task_id, channel, value)``, as in ``lab.checkpoint.base`` (which imports this module)."""

DELTA: tuple[str, bytes] = ("delta", b"")
"""The stored blob of a delta channel at a checkpoint that did not snapshot it: "rebuild me"."""


@dataclass(frozen=True)
class DeltaSentinel:
    """The value a checkpoint dict holds for a delta channel it does not snapshot (every instance
    is equal; registered with the serializer, so a checkpoint holding it can travel, e.g. to the
    browser's saver)."""


DELTA_SENTINEL: Any = DeltaSentinel()
"""Put in ``channel_values`` by the loop; the saver stores it as the ``DELTA`` blob and leaves
the channel out of ``channel_values`` when it loads the checkpoint (as LangGraph does)."""


@dataclass(frozen=True)
class DeltaSnapshot:
    """A delta channel's whole value, stored every ``snapshot_frequency`` updates (LangGraph's
    ``_DeltaSnapshot``): the ancestor walk stops here."""

    value: Any


class DeltaChannelHistory(TypedDict):
    """What one channel needs to be rebuilt at a checkpoint (LangGraph's ``DeltaChannelHistory``):
    ``writes`` oldest first, and ``seed``, the stored value they start from (absent: start empty)."""

    writes: list[PendingWrite]
    seed: NotRequired[Any]


@dataclass(frozen=True)
class PathStep:
    """One ancestor on the walk: its id, its channel versions, and its child's on this path."""

    checkpoint_id: str
    versions: Mapping[str, Any]
    child_versions: Mapping[str, Any]


def moved(step: PathStep, channel: str) -> bool:
    """Did the channel change between this ancestor and its child on the path?"""
    return step.child_versions.get(channel) != step.versions.get(channel)


def contributing(path: Sequence[PathStep], channel: str, seed_index: int | None) -> list[str]:
    """The ids of the ancestors (nearest first, up to and including the seed) whose writes to
    ``channel`` built the child on this path."""
    reach = path if seed_index is None else path[: seed_index + 1]
    return [step.checkpoint_id for step in reach if moved(step, channel)]


def history(
    writes_by_checkpoint: Mapping[str, Iterable[PendingWrite]],
    contributors: Sequence[str],
    channel: str,
    seed: Any,
) -> DeltaChannelHistory:
    """One channel's history: the contributors' writes to it, oldest ancestor first."""
    writes = [
        write
        for checkpoint_id in reversed(contributors)
        for write in writes_by_checkpoint.get(checkpoint_id, ())
        if write[1] == channel
    ]
    entry: DeltaChannelHistory = {"writes": writes}
    if seed is not NO_SEED:
        entry["seed"] = seed
    return entry


NO_SEED: Any = object()
"""``history``'s ``seed`` when the walk reached the root without a stored value."""


def _allow_in_checkpoints() -> None:
    from lab.checkpoint.serde import register_type

    register_type(DeltaSnapshot)
    register_type(DeltaSentinel)


_allow_in_checkpoints()
