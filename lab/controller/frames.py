"""Checkpoints as the page shows them: plain JSON-able "frames", diffs and the branch tree.

A *frame* is one checkpoint of a thread (LangGraph's ``CheckpointTuple`` merged with the
record-mode ``StateSnapshot`` of ``get_state_history``): what was stored (channel values, versions,
``versions_seen``, pending writes) next to what it means (state ``values``, ``next``, tasks,
interrupts), and the namespace it was saved in (``checkpoint_ns``: ``""`` for the graph the lab
runs, ``"<node>:<task id>"`` for a subgraph that node ran). The branch tree groups a thread's
checkpoints by parent id: replays and ``update_state`` on an old checkpoint (forks) add children to
old frames; the *head* is the newest checkpoint, the one ``get_state(thread)`` and a thread-only
``invoke`` continue from.
"""

from __future__ import annotations

import dataclasses
import math
from datetime import date, datetime
from typing import Any

from lab.checkpoint.base import NULL_TASK_ID, CheckpointTuple
from lab.pregel.graph import Pregel
from lab.pregel.nodes import END
from lab.pregel.subgraph import recast

NULL_WRITER = "<null>"
"""Name shown for writes no task made (resume values, ``Command`` updates)."""
UPDATE_WRITER = "<update>"
"""Name shown for writes of an ``update_state`` not attributed to a task of the step."""


# Type tuples built once: ``isinstance(x, int | str)`` builds the union on every call, and this
# function runs for every value of every frame the page is sent.
_SCALARS, _SETS, _SEQUENCES, _DATES = (bool, int, str), (set, frozenset), (list, tuple), (datetime, date)


def to_jsonable(value: Any) -> Any:
    """``value`` with only dict / list / str / int / float / bool / None inside: sets become sorted
    lists, ``Interrupt`` / ``Send`` / ``Command`` and named tuples become dicts, anything else its repr."""
    if value is None or isinstance(value, _SCALARS):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, _SETS):
        return sorted((to_jsonable(v) for v in value), key=repr)
    if hasattr(value, "_asdict"):
        return to_jsonable(value._asdict())
    if isinstance(value, _SEQUENCES):
        return [to_jsonable(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, _DATES):
        return value.isoformat()
    return repr(value)


def checkpoint_id_of(config: dict[str, Any] | None) -> str | None:
    return config["configurable"]["checkpoint_id"] if config else None


def frame_of(saved: CheckpointTuple, graph: Pregel) -> dict[str, Any]:
    """One stored checkpoint as a plain dict (JSON-able)."""
    snapshot = graph.snapshot(saved, saved.config, live=False)
    writers = {task.id: task.name for task in snapshot.tasks}
    checkpoint = saved.checkpoint
    return to_jsonable(
        {
            "checkpoint_id": checkpoint["id"],
            "checkpoint_ns": saved.config["configurable"].get("checkpoint_ns", ""),
            "parent_id": checkpoint_id_of(saved.parent_config),
            "step": saved.metadata.get("step"),
            "source": saved.metadata.get("source"),
            "created_at": checkpoint["ts"],
            "next": snapshot.next,
            "values": snapshot.values,
            "channel_values": checkpoint["channel_values"],
            "channel_versions": checkpoint["channel_versions"],
            "versions_seen": checkpoint["versions_seen"],
            "updated_channels": checkpoint.get("updated_channels"),
            "pending_writes": [
                (writer_name(task_id, writers), channel, value)
                for task_id, channel, value in saved.pending_writes or []
            ],
            "tasks": [
                {
                    "id": task.id,
                    "name": task.name,
                    "error": task.error,
                    "interrupts": task.interrupts,
                    "result": task.result,
                }
                for task in snapshot.tasks
            ],
            "interrupts": snapshot.interrupts,
            "metadata": saved.metadata,
        }
    )


def namespaces(frames_by_ns: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The thread's namespaces, the root (``""``, whose frames the view carries as ``frames``) first:
    each with the graph it holds checkpoints of (``None`` for the root, else the path of nodes that
    ran it, ``"review"``; ``"outer|inner"`` nested), how many, and a subgraph's frames."""
    return [
        {"checkpoint_ns": "", "graph": None, "count": len(frames_by_ns.get("", []))},
        *(
            {"checkpoint_ns": ns, "graph": recast(ns), "count": len(frames), "frames": frames}
            for ns, frames in sorted(frames_by_ns.items())
            if ns
        ),
    ]


def writer_name(task_id: str, writers: dict[str, str]) -> str:
    if task_id == NULL_TASK_ID:
        return NULL_WRITER
    return writers.get(task_id, UPDATE_WRITER)


def diff_mapping(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Keys added, removed and changed between two dicts."""
    return {
        "added": {k: v for k, v in after.items() if k not in before},
        "removed": {k: v for k, v in before.items() if k not in after},
        "changed": {k: change(before[k], v) for k, v in after.items() if k in before and before[k] != v},
    }


def change(before: Any, after: Any) -> dict[str, Any]:
    """One changed value; a list that grew at its end (a reducer such as ``operator.add``) also
    says what was ``appended``, so the new entries stand out."""
    changed = {"before": before, "after": after}
    if isinstance(before, list) and isinstance(after, list) and after[: len(before)] == before:
        changed["appended"] = after[len(before) :]
    return changed


def as_mapping(values: Any) -> dict[str, Any]:
    """A frame's values by key: a ``StateGraph``'s as they are; an ``@entrypoint``'s (what its function
    returned, ``None`` before it has) under ``__end__``, the channel that keeps it, unless a dict."""
    if isinstance(values, dict):
        return values
    return {} if values is None else {END: values}


def diff_frames(parent: dict[str, Any] | None, child: dict[str, Any]) -> dict[str, Any]:
    """What changed from ``parent`` to ``child`` (from nothing if there is no parent)."""
    base = parent or {"values": {}, "channel_versions": {}, "versions_seen": {}, "next": []}
    return {
        "against": parent["checkpoint_id"] if parent else None,
        "values": diff_mapping(as_mapping(base["values"]), as_mapping(child["values"])),
        "channel_versions": diff_mapping(base["channel_versions"], child["channel_versions"]),
        "versions_seen": diff_mapping(base["versions_seen"], child["versions_seen"]),
        "next": {"before": base["next"], "after": child["next"]},
    }


def branch_tree(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The thread's checkpoints as a tree by parent id (``frames`` oldest first).

    A *branch* is the path from a root to a leaf; ``forked_at`` is where it left another branch
    (the nearest ancestor with more than one child). The head is the newest checkpoint.
    """
    known = {f["checkpoint_id"] for f in frames}
    children: dict[str, list[str]] = {f["checkpoint_id"]: [] for f in frames}
    parent_of: dict[str, str | None] = {}
    for f in frames:
        parent = f["parent_id"] if f["parent_id"] in known else None  # exit durability: parent unsaved
        parent_of[f["checkpoint_id"]] = parent
        if parent is not None:
            children[parent].append(f["checkpoint_id"])
    head = frames[-1]["checkpoint_id"] if frames else None
    branches = [_branch(leaf, parent_of, children, head) for leaf in children if not children[leaf]]
    on_head = set(next((b["path"] for b in branches if b["is_head"]), []))
    return {
        "head": head,
        "nodes": [
            {
                "checkpoint_id": f["checkpoint_id"],
                "parent_id": parent_of[f["checkpoint_id"]],
                "step": f["step"],
                "source": f["source"],
                "next": f["next"],
                "children": children[f["checkpoint_id"]],
                "is_head": f["checkpoint_id"] == head,
                "on_head_branch": f["checkpoint_id"] in on_head,
            }
            for f in frames
        ],
        "branches": branches,
    }


def _branch(
    leaf: str, parent_of: dict[str, str | None], children: dict[str, list[str]], head: str | None
) -> dict[str, Any]:
    path = [leaf]
    while (parent := parent_of[path[-1]]) is not None:
        path.append(parent)
    path.reverse()
    forks = [cid for cid in path[:-1] if len(children[cid]) > 1]
    return {"leaf": leaf, "path": path, "forked_at": forks[-1] if forks else None, "is_head": leaf == head}
