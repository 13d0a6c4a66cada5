"""The lab view: everything the page draws, as one plain JSON-able value computed in Python.

LangGraph's ``get_state`` / ``get_state_history`` describe a thread's checkpoints; the page needs
more (what each node is doing and why, which actions lead forward, what the outside world was
charged, what happened so far). :func:`build_view` puts it together from three sources and nothing
the page sends back: the saver (frames), the journal (the seams the lab recorded) and the outside
world's raw requests. Each rule lives in its own module: :mod:`~lab.controller.node_states`,
:mod:`~lab.controller.actions`, :mod:`~lab.controller.status`, :mod:`~lab.controller.ledger_rules`,
:mod:`~lab.controller.seam_catalog`, :mod:`~lab.controller.activity`. The page keeps the last view
in one store and renders from it; ``owner`` (the program, the thread) and ``seq`` let it drop a view
of another program or a stale answer. What the graph means beyond
its structure (what a request was for, how a thread ended, what an interrupt asks, a frame's
caption) is its profile's (:class:`~lab.controller.profile.GraphProfile`), so any graph has a view.
"""

from __future__ import annotations

from typing import Any

from lab.controller.actions import actions, with_travel
from lab.controller.activity import activity
from lab.controller.facts import ThreadFacts, waiting_nodes
from lab.controller.frames import branch_tree, diff_frames
from lab.controller.journal import executions_report
from lab.controller.ledger_rules import annotate_ledger, thread_ledger
from lab.controller.node_states import NODE_STATES, node_states
from lab.controller.profile import GraphProfile
from lab.controller.seam_catalog import graph_nodes, seam_catalog
from lab.controller.status import status
from lab.controller.task_rows import task_rows


def frames_with_diffs(frames: list[dict[str, Any]], profile: GraphProfile) -> list[dict[str, Any]]:
    """Every frame with its ``diff`` against its parent (a frame whose parent is unsaved: from nothing)
    and its ``caption`` (what made it, as the profile captions a frame)."""
    by_id = {f["checkpoint_id"]: f for f in frames}
    return [
        {
            **f,
            "diff": diff_frames(parent := by_id.get(f["parent_id"]), f),
            "caption": profile.caption(f, parent),
        }
        for f in frames
    ]


def graph_view(facts: ThreadFacts, diagram: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    """The diagram with a state, a reason and execution counts on every node."""
    names = [node["id"] for node in graph_nodes(diagram)]
    states = node_states(facts, names)
    counts = executions_report(records)["nodes"]
    nodes = [
        {
            **node,
            **states.get(node["id"], {}),
            "counts": counts.get(node["id"], {"started": 0, "finished": 0}),
        }
        for node in diagram["nodes"]
    ]
    return {**diagram, "nodes": nodes}


def review(
    facts: ThreadFacts, ledger_rows: list[dict[str, Any]], profile: GraphProfile
) -> dict[str, Any] | None:
    """What the open interrupt asks (its payload, and the profile's words for it), and what the
    interrupted node already did to the outside world on this thread (``already_done``: receipt ids):
    the payload alone cannot say it when a crash came after the request."""
    if facts.head is None or not facts.head["interrupts"] or facts.session is None:
        return None
    thread = facts.session["thread_id"]
    done = [
        row["id"]
        for row in ledger_rows
        if row["thread_id"] == thread and row["node"] in waiting_nodes(facts.head) and not row["replayed"]
    ]
    request = facts.head["interrupts"][0]["value"]
    return {
        "request": request,
        "already_done": done,
        "say": profile.review_texts(request, facts.head["values"]),
    }


def build_view(
    *,
    seq: int,
    program: str | None = None,
    profile: GraphProfile,
    facts: ThreadFacts,
    diagram: dict[str, Any],
    frames: list[dict[str, Any]],
    namespaces: list[dict[str, Any]],
    ledger_rows: list[dict[str, Any]],
    journals: dict[str, list[dict[str, Any]]],
    defaults: dict[str, Any],
) -> dict[str, Any]:
    """The lab at one moment of a graph with ``profile`` (``frames``: the root namespace's;
    ``namespaces``: every namespace of the thread, :func:`~lab.controller.frames.namespaces`;
    ``defaults``: the session's choices, the seams, the node delay; ``program``: what the page named
    the program this controller drives). ``owner`` says what the view belongs to: the page draws a
    view only under the program it shows, and keeps the newest ``seq`` of it per process."""
    records = facts.records
    return {
        "seq": seq,
        "owner": {"program": program, "thread": (facts.session or {}).get("thread_id")},
        "session": facts.session,
        "run": facts.run,
        "armed": facts.armed,
        "status": status(facts, profile.outcome),
        "actions": actions(facts),
        "graph": graph_view(facts, diagram, records),
        "seams": seam_catalog(diagram),
        "words": {"title": profile.title, "outside_calls": profile.outside_calls},
        "review": review(facts, ledger_rows, profile),
        "frames": frames_with_diffs(frames, profile),
        "namespaces": namespaces,
        "tree": with_travel(branch_tree(frames)),
        "executions": executions_report(records),
        "task_calls": task_rows(records),
        "ledger": annotate_ledger(ledger_rows, journals, profile=profile),
        "thread_ledger": thread_ledger(
            ledger_rows, (facts.session or {}).get("thread_id"), journals, profile=profile
        ),
        "activity": activity(records),
        "defaults": {**defaults, "node_states": NODE_STATES},
    }
