"""The pure rules of a super-step, as in LangGraph's ``pregel/_algo.py``.

Each rule is a small function over plain data (a checkpoint dict, a mapping of channels):

- ``channels_from_checkpoint``: rebuild live channels from a stored checkpoint;
- ``triggered``: does a node run? (a trigger channel moved past what the node last saw);
- ``prepare_tasks``: the tasks of the next step, with deterministic ids;
- ``task_statuses``: read a step's pending writes: finished, interrupted, failed;
- ``apply_writes``: fold a step's writes into the channels, in node-name order, and bump
  versions;
- ``create_checkpoint``: snapshot the channels into a new checkpoint dict.

The resume rule, used by the loop and by ``get_state``/``update_state`` alike:
``apply_null_writes`` (writes of no task), ``reuse_finished_writes`` (finished tasks do not run
again), ``new_versions`` (what a ``put`` adds) and ``breakpoint_hit`` (static interrupts).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lab.checkpoint.base import ERROR, INTERRUPT, NULL_TASK_ID, RESUME, Checkpoint
from lab.checkpoint.ids import timestamp_text, uuid6
from lab.pregel.channels import MISSING, Channel
from lab.pregel.ids import interrupt_id, task_id
from lab.pregel.nodes import (
    PULL,
    PUSH,
    START,
    TASKS,
    Branch,
    Node,
    is_whole_value,
    routed_writes,
    state_update,
)
from lab.pregel.task import Task
from lab.types import Interrupt, Send

logger = logging.getLogger(__name__)

INTERRUPT_SEEN = "__interrupt__"
"""The ``versions_seen`` entry a resume or fork writes: versions at that moment."""
CONTROL_WRITES = frozenset((ERROR, INTERRUPT, RESUME))
"""Writes that say what happened to a task rather than what it produced."""

NextVersion = Callable[[Any, None], Any]
PendingWrite = tuple[str, str, Any]


@functools.lru_cache(maxsize=4096)  # (a graph has few paths; every saved write asks for one)
def task_path_str(path: tuple[Any, ...]) -> str:
    """A task's path as the sortable string savers order pending writes by."""
    parts = (
        task_path_str(p) if isinstance(p, tuple) else f"{p:010d}" if type(p) is int else str(p) for p in path
    )
    return "~" + ", ".join(parts)


def channels_from_checkpoint(specs: Mapping[str, Channel], checkpoint: Checkpoint) -> dict[str, Channel]:
    values = checkpoint["channel_values"]
    return {name: spec.restore(values.get(name, MISSING)) for name, spec in specs.items()}


def null_version(checkpoint: Checkpoint) -> Any:
    """The version that means "never seen": "" for string versions, 0 for integers."""
    for sample in checkpoint["channel_versions"].values():  # (the first one)
        return type(sample)()
    return ""


def triggered(node: Node, channels: Mapping[str, Channel], checkpoint: Checkpoint, never: Any) -> bool:
    """Did a trigger channel of ``node`` move past the version it last saw (``never``: none seen)?"""
    versions = checkpoint["channel_versions"]
    seen = checkpoint["versions_seen"].get(node.name, {})
    for chan in node.triggers:
        if channels[chan].is_available() and versions.get(chan, never) > seen.get(chan, never):
            return True
    return False


def woken_nodes(trigger_to_nodes: Mapping[str, list[str]], updated: Iterable[str]) -> list[str]:
    """The nodes that a change of ``updated`` may trigger, in name order (the candidates of a step)."""
    names: list[str] = []
    for chan in updated:
        if chan in trigger_to_nodes:
            names += trigger_to_nodes[chan]
    return sorted(set(names)) if len(names) > 1 else names


def read_state(channels: Mapping[str, Channel], keys: Iterable[str]) -> Any:
    """The state as a dict of its keys; a whole-value state (one ``__root__`` key) as the value."""
    if is_whole_value(keys):
        whole = channels[keys[0]]  # (``__root__``, or an entrypoint's ``__end__``)
        return whole.value if whole.is_available() else None
    state = {}
    for k in keys:
        if (value := channels[k].value) is not MISSING:  # (empty exactly when it holds MISSING)
            state[k] = value
    return state


def read_channels(channels: Mapping[str, Channel], select: str | Sequence[str]) -> Any:
    """One channel's value (``None`` if empty), or a dict of the named channels that hold a value
    (LangGraph's ``read_channels``: what a ``NodeBuilder`` node reads, what a ``Pregel`` outputs)."""
    if isinstance(select, str):
        return channels[select].value if channels[select].is_available() else None
    return {k: channels[k].value for k in select if channels[k].is_available()}


@dataclass
class TaskStatus:
    output: list[tuple[str, Any]] = field(default_factory=list)
    interrupts: list[Interrupt] = field(default_factory=list)
    error: str | None = None

    @property
    def finished(self) -> bool:
        """A task finished if it saved at least one non-control write (``__no_writes__`` counts)."""
        return bool(self.output)

    @property
    def pending_interrupts(self) -> list[Interrupt]:
        return [] if self.finished else self.interrupts


def only_control_writes(writes: Iterable[tuple[str, Any]]) -> bool:
    """Did a task write nothing but control writes (or nothing at all)? Then it records ``__no_writes__``."""
    for chan, _ in writes:  # noqa: SIM110  (a plain loop: why, in bench/RESULTS.md)
        if chan not in CONTROL_WRITES:
            return False
    return True


def task_statuses(pending_writes: Iterable[PendingWrite]) -> dict[str, TaskStatus]:
    statuses: dict[str, TaskStatus] = {}
    for tid, channel, value in pending_writes:
        if tid == NULL_TASK_ID:
            continue
        status = statuses.setdefault(tid, TaskStatus())
        if channel == INTERRUPT:
            status.interrupts.extend(value if isinstance(value, list | tuple) else [value])
        elif channel == ERROR:
            status.error = status.error or value
        elif channel not in CONTROL_WRITES:
            status.output.append((channel, value))
    return statuses


def prepare_tasks(
    nodes: Mapping[str, Node],
    checkpoint: Checkpoint,
    channels: Mapping[str, Channel],
    pending_writes: list[PendingWrite],
    step: int,
    state_keys: list[str],
    *,
    candidates: Iterable[str] | None = None,
    resume_map: Mapping[str, Any] | None = None,
    namespace: str = "",
) -> dict[str, Task]:
    """The next step's tasks, keyed by their deterministic ids: one *push* task per ``Send``
    packet written last step, then one *pull* task per node whose trigger fired. ``namespace``:
    the graph's, when it runs as a subgraph (it goes into the ids)."""
    tasks: list[Task] = []
    if TASKS in channels:
        for index, packet in enumerate(channels[TASKS].value):
            if packet.node not in nodes:
                logger.warning(f"Ignoring unknown node name {packet.node} in pending sends")
                continue
            tid = task_id(checkpoint["id"], step, packet.node, PUSH, (str(index),), namespace)
            tasks.append(
                Task(tid, packet.node, (PUSH,), packet.arg, (PUSH, index, False), graph_namespace=namespace)
            )
    if candidates is None:
        candidates = nodes if checkpoint["channel_versions"] else ()
    never = null_version(checkpoint)
    for name in candidates:
        node = nodes[name]
        if not triggered(node, channels, checkpoint, never):
            continue
        triggers = node.sorted_triggers
        tid = task_id(checkpoint["id"], step, name, PULL, triggers, namespace)
        if node.reads is None:
            node_input = (
                channels[node.triggers[0]].value if node.func is None else read_state(channels, state_keys)
            )
        else:
            node_input = read_channels(channels, node.reads)
        tasks.append(Task(tid, name, triggers, node_input, (PULL, name), graph_namespace=namespace))
    if pending_writes or resume_map:  # (with neither, a task keeps the default: no answer)
        for task in tasks:
            give_answers(task, pending_writes, resume_map)
    by_id = {}
    for task in tasks:
        by_id[task.id] = task
    return by_id


def give_answers(
    task: Task, pending_writes: list[PendingWrite], resume_map: Mapping[str, Any] | None
) -> None:
    """Hand a task the resume values meant for it (see ``lab.pregel.task``)."""
    for tid, channel, value in pending_writes:
        if tid == task.id and channel == RESUME:
            task.answers = list(value) if isinstance(value, list) else [value]
            break
    if resume_map:
        next_id = interrupt_id(task.namespace, len(task.answers))
        if next_id in resume_map:
            task.answers.append(resume_map[next_id])

    def take_fresh_answer() -> Any:
        for write in pending_writes:
            if write[0] == NULL_TASK_ID and write[1] == RESUME:
                pending_writes.remove(write)
                return write[2]
        return None

    task.take_fresh_answer = take_fresh_answer


def fresh_read(channels: Mapping[str, Channel], keys: Sequence[str], writes: list[tuple[str, Any]]) -> Any:
    """The state a router reads (LangGraph's ``local_read(fresh=True)``): ``keys`` of the step's
    channels with one task's writes applied by the channels' own rules (a reducer folds, an
    ``Overwrite`` replaces), the live channels untouched; a whole-value state as its value."""
    by_channel: dict[str, list[Any]] = {}
    for chan, value in writes:
        if chan in keys:
            by_channel.setdefault(chan, []).append(value)
    local = dict(channels)
    for chan, values in by_channel.items():
        local[chan] = channels[chan].restore(channels[chan].value)
        local[chan].update(values)
    return read_state(local, keys)


def router_input(
    branch: Branch, channels: Mapping[str, Channel], writes: list[tuple[str, Any]], result: Any
) -> Any:
    """What ``branch``'s router is called with: its keys of the fresh state, as its schema shapes
    them; a router without a schema of its own also sees the keys of a dict the node returned
    that are not state keys (LangGraph's "passthrough")."""
    value = branch.as_input(fresh_read(channels, branch.reads, writes))
    if branch.input_schema is None and isinstance(value, dict) and isinstance(result, dict):
        return {**result, **value}
    return value


def static_writes(node: Node, result: Any, state_keys: Sequence[str]) -> list[tuple[str, Any]]:
    """What a node's return value writes before its conditional edges: its state update, then its
    static edges (all it writes, for a node without conditional edges); a ``NodeBuilder`` node's
    ``write_to`` channels."""
    if node.writers is not None:
        return [entry.write(result) for entry in node.writers]
    return state_update(result, state_keys) + node.edge_writes


async def node_writes(
    node: Node,
    result: Any,
    channels: Mapping[str, Channel],
    state_keys: Sequence[str],
    nodes: Mapping[str, Node],
) -> list[tuple[str, Any]]:
    """What a node's return value writes: its state update, its static edges, then its
    conditional edges (each router reads ``channels`` plus those writes)."""
    writes = static_writes(node, result, state_keys)
    for branch in node.branches:
        writes += await routed_writes(node, branch, router_input(branch, channels, writes, result), nodes)
    return writes


@dataclass
class StepWrites:
    """Writes applied together: a task's, or the caller's input (empty path, no triggers)."""

    name: str
    writes: list[tuple[str, Any]]
    triggers: tuple[str, ...] = ()
    path: tuple[str, ...] = ()


def apply_writes(
    checkpoint: Checkpoint,
    channels: Mapping[str, Channel],
    tasks: Iterable[Task | StepWrites],
    next_version: NextVersion | None,
    trigger_to_nodes: Mapping[str, list[str]],
    expiring: set[str] | None = None,
) -> set[str]:
    """Fold one step's writes into the channels; return the channels that changed. ``expiring``, if
    the caller keeps one (``holding_expiring``), names the expiring channels that may hold a value;
    it is kept true here, and a step looks only at those to clear, not at every channel."""
    tasks = list(tasks)
    if len(tasks) > 1:
        tasks.sort(key=lambda t: task_path_str(t.path))  # node-name order, not completion order
    versions = checkpoint["channel_versions"]
    versions_seen = checkpoint["versions_seen"]
    triggers: set[str] = set()
    for task in tasks:  # each task has now seen the triggers it ran on (a new dict: checkpoints share them)
        seen = dict(versions_seen.get(task.name, ()))
        for chan in task.triggers:
            if chan in versions:
                seen[chan] = versions[chan]
        versions_seen[task.name] = seen
        triggers.update(task.triggers)

    version = next_version(max(versions.values()) if versions else None, None) if next_version else None

    for chan in triggers:
        if chan in channels and channels[chan].consume() and version is not None:
            versions[chan] = version

    by_channel: dict[str, list[Any]] = {}
    for task in tasks:
        for chan, value in task.writes:
            if chan in by_channel:
                by_channel[chan].append(value)
            elif chan in channels:
                by_channel[chan] = [value]

    updated: set[str] = set()
    for chan, values in by_channel.items():
        channel = channels[chan]
        if channel.update(values) and version is not None:
            versions[chan] = version
            if channel.is_available():
                updated.add(chan)
        if expiring is not None and channel.expires:
            expiring.add(chan)

    if triggers:  # a step went by: ephemeral channels nobody wrote are cleared
        for chan in list(channels if expiring is None else expiring):
            channel = channels[chan]
            if chan in updated or not channel.expires:
                continue
            if channel.is_available() and channel.update([]) and version is not None:
                versions[chan] = version
                if channel.is_available():
                    updated.add(chan)
            if expiring is not None and not channel.is_available():
                expiring.discard(chan)
    if triggers and updated.isdisjoint(trigger_to_nodes):
        finish_channels(channels, version, versions, updated)
    return updated


def finish_channels(
    channels: Mapping[str, Channel], version: Any, versions: dict[str, Any], updated: set[str]
) -> None:
    """The step woke no node: the run would end here, so each channel is told ``finish()`` (LangGraph's
    "(tentatively) the last superstep"); a deferred node's trigger (``lab.pregel.deferred``) becomes
    available and the deferred node runs next."""
    for chan, channel in channels.items():
        if channel.finish() and version is not None:
            versions[chan] = version
            if channel.is_available():
                updated.add(chan)


def holding_expiring(channels: Mapping[str, Channel]) -> set[str]:
    """The expiring channels (``EphemeralValue``, ``Topic``) that hold a value now: what
    ``apply_writes`` keeps up to date when given it."""
    return {name for name, channel in channels.items() if channel.expires and channel.is_available()}


# -- the resume rule: what a saved step's pending writes mean when the thread runs again -------------


def apply_null_writes(
    checkpoint: Checkpoint,
    channels: Mapping[str, Channel],
    pending_writes: Iterable[PendingWrite],
    next_version: NextVersion | None,
    trigger_to_nodes: Mapping[str, list[str]],
) -> set[str]:
    """Apply the writes of no task in particular (``update_state`` of a ``Command``, a
    ``Command(update=..., goto=...)`` input) as if they were input; return what changed."""
    writes = [(channel, value) for tid, channel, value in pending_writes if tid == NULL_TASK_ID]
    if not writes:
        return set()
    return apply_writes(
        checkpoint, channels, [StepWrites("__input__", writes)], next_version, trigger_to_nodes
    )


def reuse_finished_writes(tasks: Mapping[str, Task], pending_writes: Sequence[PendingWrite]) -> list[Task]:
    """Give each task that finished before the crash or interrupt its saved writes back, so it
    does not run again; return those tasks."""
    reused: list[Task] = []
    if not pending_writes:
        return reused
    for tid, status in task_statuses(pending_writes).items():
        if tid in tasks and status.finished:
            tasks[tid].writes.extend(status.output)
            reused.append(tasks[tid])
    return reused


def new_versions(versions: Mapping[str, Any], stored: Mapping[str, Any]) -> dict[str, Any]:
    """The channel versions a new checkpoint adds to what its parent stored (what ``put`` saves)."""
    moved = {}
    for chan, v in versions.items():
        if chan not in stored or v > stored[chan]:
            moved[chan] = v
    return moved


def breakpoint_hit(checkpoint: Checkpoint, tasks: Iterable[Task], nodes: list[str] | str) -> bool:
    """``interrupt_before``/``interrupt_after``: one of ``nodes`` (or ``"*"``) is among the tasks and
    some channel moved since the last resume (so passing a breakpoint does not stop there again)."""
    seen = checkpoint["versions_seen"].get(INTERRUPT_SEEN, {})
    never = null_version(checkpoint)
    changed = any(v > seen.get(chan, never) for chan, v in checkpoint["channel_versions"].items())
    return changed and any(nodes == "*" or t.name in nodes for t in tasks if t.name != START)


def savable_writes(writes: Sequence[tuple[str, Any]], untracked: Collection[str]) -> list[tuple[str, Any]]:
    """A task's writes as the saver stores them: none to an ``UntrackedValue`` key, and no such key
    in a ``Send``'s argument, as LangGraph's loop saves them."""
    return [
        (c, without_untracked(v, untracked) if c == TASKS else v) for c, v in writes if c not in untracked
    ]


def without_untracked(packet: Any, untracked: Collection[str]) -> Any:
    """A ``Send`` whose dict argument holds no ``UntrackedValue`` key (LangGraph's
    ``sanitize_untracked_values_in_send``); any other packet as it is."""
    if isinstance(packet, Send) and isinstance(packet.arg, dict):
        return Send(packet.node, {k: v for k, v in packet.arg.items() if k not in untracked})
    return packet


def savable_checkpoint(checkpoint: Checkpoint, untracked: Collection[str]) -> Checkpoint:
    """A checkpoint as the saver stores it: the ``Send`` packets it holds without ``UntrackedValue``
    keys (as LangGraph's loop saves it)."""
    values = checkpoint["channel_values"]
    if TASKS not in values:
        return checkpoint
    packets = [without_untracked(packet, untracked) for packet in values[TASKS]]
    return {**checkpoint, "channel_values": {**values, TASKS: packets}}


def create_checkpoint(
    checkpoint: Checkpoint,
    channels: Mapping[str, Channel],
    step: int,
    updated: set[str] | None,
    snapshot: Collection[str] = (),
) -> Checkpoint:
    """The next checkpoint: the channels' values and versions. A delta channel stores its
    sentinel, or a ``DeltaSnapshot`` if it is in ``snapshot`` (see ``lab.pregel.delta``)."""
    versions = checkpoint["channel_versions"]
    values = {}
    for name in versions:
        channel = channels.get(name)
        if channel is not None and (value := channel.checkpoint()) is not MISSING:
            values[name] = value
    for name in snapshot:
        values[name] = channels[name].snapshot()
    return {
        "v": 4,
        "id": uuid6(clockseq=step),
        "ts": timestamp_text(),
        "channel_values": values,
        "channel_versions": dict(versions),
        "versions_seen": dict(checkpoint["versions_seen"]),  # each node's entry is replaced, never changed
        "updated_channels": sorted(updated) if updated is not None else None,
    }
