"""Delta channels in the Pregel loop, as in LangGraph's ``pregel/_checkpoint.py`` (beta): which
channels a checkpoint snapshots, and how a loaded checkpoint gets its delta values back.

Writing. A ``DeltaChannel`` stores the sentinel at most checkpoints; the value is rebuilt from the
pending writes of the checkpoint's ancestors (``lab.checkpoint.delta``). A checkpoint must store a
``DeltaSnapshot`` instead when its value could not be rebuilt that way:

- the cadence: ``snapshot_frequency`` updates since the last snapshot, or an ``Overwrite``;
- the first checkpoint a run saves from a checkpoint that already holds writes to the channel
  (a resume, a replay, a fork): those writes belong to whichever child consumed them;
- a checkpoint saved without its writes being saved on its parent: ``durability="exit"`` (the
  steps in between were never stored) and ``update_state`` (its writes are saved only on a
  checkpoint that has no child yet).

In every case only a channel whose version moved is snapshotted: one that did not move shares its
parent's blob, and the walk skips writes across an unmoved version.

Encoding. ``DeltaEncoder`` stores a thread written whole (LangGraph's default) as these rules
would have stored it: a thread from LangGraph opened by a lab graph that opts in (``lab.interop``),
and the storage bill of a thread had its lists opted in (``lab.controller.storage_panel``).

Reading. ``load_channels`` rebuilds the channels of a loaded checkpoint (seed + replayed writes,
and the counter towards the next snapshot); ``complete`` returns a loaded checkpoint with its
delta values filled in (a ``DeltaSnapshot`` unwrapped), for everything that reads
``channel_values`` (``get_state``, the lab's frames).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from lab.checkpoint.base import BaseCheckpointSaver, Checkpoint, CheckpointTuple, PendingWrite
from lab.checkpoint.delta import DELTA_SENTINEL, DeltaSnapshot
from lab.pregel import algo
from lab.pregel.channels import MISSING, Channel, DeltaChannel


def to_replay(specs: Mapping[str, Channel], checkpoint: Checkpoint) -> list[str]:
    """The delta channels this checkpoint stores as a sentinel (a version but no value)."""
    return [
        name
        for name, spec in specs.items()
        if isinstance(spec, DeltaChannel)
        and name in checkpoint["channel_versions"]
        and name not in checkpoint["channel_values"]
    ]


async def load_channels(
    specs: Mapping[str, Channel], saved: CheckpointTuple, saver: BaseCheckpointSaver | None
) -> dict[str, Channel]:
    """The live channels of a stored checkpoint, delta channels rebuilt from their history."""
    channels = algo.channels_from_checkpoint(specs, saved.checkpoint)
    names = to_replay(specs, saved.checkpoint)
    if not names or saver is None:
        return channels
    histories = await saver.aget_delta_channel_history(config=saved.config, channels=names)
    for name, entry in histories.items():
        channel = specs[name].restore(entry.get("seed", MISSING))
        channel.replay_writes(entry["writes"])
        channels[name] = channel
    return channels


def unwrapped(values: Mapping[str, Any]) -> dict[str, Any]:
    """Stored channel values with every ``DeltaSnapshot`` replaced by the value it holds."""
    return {name: (v.value if isinstance(v, DeltaSnapshot) else v) for name, v in values.items()}


async def complete(
    specs: Mapping[str, Channel], saved: CheckpointTuple | None, saver: BaseCheckpointSaver | None
) -> CheckpointTuple | None:
    """``saved`` with its delta channels' values in ``channel_values`` (unchanged if none)."""
    if saved is None:
        return saved
    values = unwrapped(saved.checkpoint["channel_values"])
    rebuilt = to_replay(specs, saved.checkpoint)
    if values == saved.checkpoint["channel_values"] and not rebuilt:
        return saved
    if rebuilt:
        channels = await load_channels(specs, saved, saver)
        values.update({name: channels[name].value for name in rebuilt})
    return saved._replace(checkpoint={**saved.checkpoint, "channel_values": values})


async def complete_all(
    specs: Mapping[str, Channel], tuples: list[CheckpointTuple], saver: BaseCheckpointSaver | None
) -> list[CheckpointTuple]:
    """``complete`` for many checkpoints of one thread at once (a history, the lab's frames): one
    whose parent is among them is rebuilt from the parent's value and writes, without reading
    storage; the others ask the saver. Same values as the walk, in one pass."""
    done: dict[str, CheckpointTuple] = {}
    for saved in sorted(tuples, key=lambda t: t.checkpoint["id"]):  # ids sort by creation: parents first
        parent = (
            done.get(saved.parent_config["configurable"]["checkpoint_id"]) if saved.parent_config else None
        )
        done[saved.checkpoint["id"]] = (
            from_parent(specs, saved, parent) if parent is not None else await complete(specs, saved, saver)
        )
    return [done[saved.checkpoint["id"]] for saved in tuples]


def from_parent(
    specs: Mapping[str, Channel], saved: CheckpointTuple, parent: CheckpointTuple
) -> CheckpointTuple:
    """``saved`` completed from its completed parent: each delta channel is the parent's value, plus
    the parent's writes to it if its version moved (the walk's rule, one step at a time)."""
    values = unwrapped(saved.checkpoint["channel_values"])
    versions, parent_versions = saved.checkpoint["channel_versions"], parent.checkpoint["channel_versions"]
    for name in to_replay(specs, saved.checkpoint):
        channel = specs[name].restore(parent.checkpoint["channel_values"].get(name, MISSING))
        if versions.get(name) != parent_versions.get(name):
            channel.replay_writes([w for w in parent.pending_writes or [] if w[1] == name])
        values[name] = channel.value
    return saved._replace(checkpoint={**saved.checkpoint, "channel_values": values})


def written_channels(pending_writes: Iterable[PendingWrite]) -> set[str]:
    """The channels a checkpoint's pending writes touch (a new branch from it snapshots these)."""
    return {channel for _, channel, _ in pending_writes}


def to_snapshot(
    channels: Mapping[str, Channel], moved: Iterable[str], forced: Collection[str] | None
) -> set[str]:
    """The delta channels the checkpoint about to be stored snapshots: among those whose version moved
    since the stored parent (``moved``), those due by their cadence or ``forced`` (``None``: all)."""
    return {
        name
        for name in moved
        if isinstance(channel := channels.get(name), DeltaChannel)
        and (forced is None or name in forced or channel.snapshot_due())
    }


class DeltaEncoder:
    """Stores the ``specs`` keys of checkpoints stored whole, as the lab's ``DeltaChannel`` does. Where
    a key's version moved since the parent: the sentinel if the walk rebuilds the same list from the
    parent (its value plus its pending writes: :func:`from_parent`'s rule), else a ``DeltaSnapshot``,
    and a snapshot every ``snapshot_frequency`` sentinels in a row. Where it did not move, the
    checkpoint shares the parent's stored value (:func:`moved_versions`). Checkpoints are encoded
    parents first; ``parent`` is the parent's tuple as stored whole, with its pending writes in the
    order the lab's saver reads them back (``(task_path, task_id, idx)``)."""

    def __init__(self, specs: Mapping[str, DeltaChannel]) -> None:
        self.specs = dict(specs)
        self.whole: dict[str, dict[str, Any]] = {}  # checkpoint id -> its whole values
        self.chain: dict[tuple[str, str], int] = {}  # (checkpoint id, channel) -> sentinels since a snapshot

    def encode(self, checkpoint: Checkpoint, parent: CheckpointTuple | None) -> Checkpoint:
        values = dict(checkpoint["channel_values"])
        self.whole[checkpoint["id"]] = dict(values)
        moved = moved_versions(checkpoint, parent)
        for name, spec in self.specs.items():
            if name not in values:
                continue
            chain = self.chain.get((parent.checkpoint["id"], name), 0) if parent else 0
            if name not in moved:
                self.chain[checkpoint["id"], name] = chain
            elif chain + 1 < spec.snapshot_frequency and self.rebuilt(name, parent) == values[name]:
                values[name], self.chain[checkpoint["id"], name] = DELTA_SENTINEL, chain + 1
            else:
                values[name] = DeltaSnapshot(values[name])
        return {**checkpoint, "channel_values": values}

    def rebuilt(self, name: str, parent: CheckpointTuple | None) -> Any:
        """The list the walk gives a checkpoint whose version of ``name`` moved."""
        if parent is None:
            return self.specs[name].restore(MISSING).value
        channel = self.specs[name].restore(self.whole[parent.checkpoint["id"]].get(name, MISSING))
        channel.replay_writes([write for write in parent.pending_writes or [] if write[1] == name])
        return channel.value


def moved_versions(checkpoint: Checkpoint, parent: CheckpointTuple | None) -> dict[str, Any]:
    """The versions ``put`` stores values for: those that moved since the parent (a value that did
    not move is the parent's, stored once under its version)."""
    before = parent.checkpoint["channel_versions"] if parent else {}
    return {name: v for name, v in checkpoint["channel_versions"].items() if before.get(name) != v}
