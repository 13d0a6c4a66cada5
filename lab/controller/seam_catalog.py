"""Where a run can be crashed: LangGraph's seams (``put``, ``put_writes``, task start and finish)
plus the two inside a node that calls the outside world, offered only where they can fire.

The super-step loop reports every seam to one hook (``on_seam=``). Which seams a node meets
follows from what the node does, read from the graph's description (``lab.diagram``, with the
node traits of the graph's profile): every node starts, finishes (or raises) and saves its writes;
only a node that calls ``interrupt()`` meets ``interrupt``; only a node that calls the outside
world meets the two ``side_effect`` seams. A crash armed where it cannot fire would never happen,
so arming it is refused with the reason (:func:`arm_refusal`).
"""

from __future__ import annotations

from typing import Any

from lab.controller.actions import verdict
from lab.controller.messages import Message, message

SEAMS = (
    "step_start",
    "task_start",
    "side_effect",
    "side_effect_done",
    "task_finish",
    "put_writes",
    "step_end",
    "put",
    "interrupt",
    "error",
)
"""Where a run can be watched or crashed, in the order a step meets them: ``step_start`` (tasks
prepared, none started), per task ``task_start`` → (node runs: ``side_effect`` right before it calls
the outside world, ``side_effect_done`` right after the answer) → ``task_finish``
(before its writes are saved) → ``put_writes`` (saved), or ``interrupt`` / ``error``; ``step_end``
(all tasks done, before the checkpoint), ``put`` (checkpoint saved; also the input and fork
checkpoints). All come from the loop's seam hook except the two ``side_effect`` ones, which the
controller's view of the external world reports (the loop cannot see inside a node)."""

NODELESS_SEAMS = ("step_start", "step_end", "put")
"""Seams of the whole step: they belong to no node."""
THE_STEP = message("crash.the_step", "the step")
"""What stands for the node in a sentence about a crash at a seam of the whole step."""
EVERY_NODE_SEAMS = ("task_start", "task_finish", "put_writes", "error")
"""Seams every node meets (``error`` only if it raises)."""
SIDE_EFFECT_SEAMS = ("side_effect", "side_effect_done")


def node_seams(node: dict[str, Any]) -> list[str]:
    """The seams a node of the diagram can meet, in :data:`SEAMS` order."""
    possible = {
        *EVERY_NODE_SEAMS,
        *(SIDE_EFFECT_SEAMS if node.get("calls_out") else ()),
        *(("interrupt",) if node.get("interrupts") else ()),
    }
    return [seam for seam in SEAMS if seam in possible]


def graph_nodes(diagram: dict[str, Any]) -> list[dict[str, Any]]:
    """The diagram's real nodes (not ``__start__`` / ``__end__``)."""
    return [node for node in diagram["nodes"] if node["kind"] == "node"]


def seam_catalog(diagram: dict[str, Any]) -> dict[str, Any]:
    """``{"step": [...], "nodes": {node: [...]}, "any_node": [...], "node_choice": {seam: verdict}}``:
    what the crash picker offers. ``any_node`` are the node seams some node can meet (armed without a
    node: the first to meet it); ``node_choice`` says, for each seam offered, whether a node may be
    chosen with it (:func:`node_choice`), as ``{"enabled", "reason"}``."""
    per_node = {node["id"]: node_seams(node) for node in graph_nodes(diagram)}
    reachable = {seam for seams in per_node.values() for seam in seams}
    any_node = [seam for seam in SEAMS if seam in reachable and seam not in NODELESS_SEAMS]
    return {
        "step": list(NODELESS_SEAMS),
        "nodes": per_node,
        "any_node": any_node,
        "node_choice": {seam: verdict(node_choice(seam)) for seam in [*NODELESS_SEAMS, *any_node]},
    }


def node_choice(seam: str) -> Message | None:
    """Whether a crash at ``seam`` can be narrowed to one node: a seam of the whole step belongs to none."""
    if seam in NODELESS_SEAMS:
        return message("crash.nodeless", "The seam {seam} belongs to no node; arm it without one", seam=seam)
    return None


def arm_refusal(catalog: dict[str, Any], seam: Any, node: Any) -> Message | None:
    """Why a crash at ``seam`` (of ``node``) cannot be armed, or ``None`` if it can."""
    if seam not in SEAMS:
        return message(
            "crash.unknown_seam",
            "Unknown seam {seam!r}; choose one of: {seams}",
            seam=seam,
            seams=", ".join(SEAMS),
        )
    if node is None:
        return None
    if reason := node_choice(seam):
        return reason
    if node not in catalog["nodes"]:
        return message(
            "crash.unknown_node",
            "Unknown node {node!r}; the nodes are: {nodes}",
            node=node,
            nodes=", ".join(catalog["nodes"]),
        )
    if seam not in catalog["nodes"][node]:
        if seam in SIDE_EFFECT_SEAMS:
            return message(
                "crash.no_outside_call",
                "{node} calls no outside service, so it never reaches {seam!r}: the crash would never fire",
                node=node,
                seam=seam,
            )
        return message(
            "crash.no_interrupt",
            "{node} never calls interrupt(), so it never reaches {seam!r}: the crash would never fire",
            node=node,
            seam=seam,
        )
    return None
