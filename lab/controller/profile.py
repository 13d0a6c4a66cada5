"""A graph profile: what the lab must know about a compiled graph that LangGraph's API does not say.

LangGraph runs any compiled graph the same way (``ainvoke``, ``aget_state``, ``aupdate_state``), and
the lab drives it with those calls only. What the lab also shows is not in the graph: which nodes
call the outside world (so a crash can be armed between the call and its saved writes), what a
thread starts with, what the page sends to answer an ``interrupt()`` (Approve / Reject), and what a
node needs to know about its run to call out (the thread, the checkpoint of its step), and the
words for what its nodes and its outside calls mean (what a node does, what a paid request was for,
which requests are one business operation, how a finished thread ended, how to caption a frame, what
the graph is called and what its calls to the outside world are).
A :class:`GraphProfile` says it, in a few plain fields whose defaults say only what any graph
shows (its nodes' docstrings, its data as written); :func:`graph_profile` makes one for a graph
built by a function, and the AML investigation is one such profile (``lab.aml.profile``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from lab.controller.frame_captions import frame_caption
from lab.controller.messages import Message, message
from lab.diagram import NodeTraits, describe_graph, no_traits
from lab.graph import CompiledStateGraph
from lab.pregel.seams import Seam
from lab.world import Operation

SeamHook = Callable[[Seam], Awaitable[None]]


class BuildGraph(Protocol):
    """Compile the graph of one variant over the lab's outside world and checkpointer, its lists
    stored one of the profile's ``storages`` ways."""

    def __call__(
        self, world: Any, variant: str, *, checkpointer: Any, delay: float, storage: str = "full"
    ) -> CompiledStateGraph: ...


def no_run_context(thread_id: str) -> SeamHook | None:
    """A graph whose nodes need nothing from the lab about their run."""
    return None


def approved(approve: bool) -> Any:
    """The resume value of Approve / Reject when the profile says nothing else: the bool itself."""
    return approve


def written(value: Any) -> Message:
    """Data shown as written: no sentence of the lab's or the graph's, so nothing to say by code."""
    return message("written", "{value}", value=value)


def summary_as_written(node: dict[str, Any]) -> Message:
    """What a node does: the first line of its function's docstring (``describe_graph``'s ``summary``)."""
    return written(node.get("summary", ""))


def purpose_as_written(row: dict[str, Any]) -> Message:
    """What a request to the outside world was for: its ``purpose``, as the node wrote it."""
    return written(row.get("purpose", ""))


def same_purpose(row: dict[str, Any]) -> tuple[str, ...]:
    """The business operation a ledger row performed: this thread's request of one kind for one purpose."""
    return row["kind"], row["thread_id"], row.get("purpose", "")


def no_outcome(values: dict[str, Any]) -> Message | None:
    """A finished thread's outcome when the profile says nothing: none beyond reaching END."""
    return None


def no_review_texts(request: Any, values: dict[str, Any]) -> dict[str, Any] | None:
    """What an open interrupt asks, in words, when the profile says nothing: its payload as it is."""
    return None


@dataclass(frozen=True)
class GraphProfile:
    """What the lab knows about a graph beyond the graph (see the module docstring)."""

    build: BuildGraph
    variants: tuple[str, ...] = ("default",)
    storages: tuple[str, ...] = ("full",)
    """How the graph may store its appending lists: ``"full"`` (LangGraph's default), and ``"delta"``
    where the profile can build its graph with them opted in to ``DeltaChannel``."""
    cases: Callable[[], list[dict[str, Any]]] = lambda: [{"id": "default", "title": "default"}]
    """The threads a learner may start: ``[{"id", ...}]`` (the page shows each ``say`` if given)."""
    case_input: Callable[[str], dict[str, Any]] = lambda case_id: {}
    """The input a new thread of a case starts with; raises ``KeyError`` for a case it does not know."""
    node_traits: NodeTraits = no_traits
    """Per node: ``calls_out`` (it calls the outside world), ``interrupts``, and what the diagram marks."""
    answer: Callable[[bool], Any] = approved
    """What Approve / Reject resume an ``interrupt()`` with (``Command(resume=answer(approve))``)."""
    enter_run: Callable[[str], SeamHook | None] = no_run_context
    """Called in a run's task before ``ainvoke``: the hook that tells the nodes about their run."""
    node_summary: Callable[[dict[str, Any]], Message] = summary_as_written
    """What a node of the diagram does (its tooltip), as a message."""
    purpose: Callable[[dict[str, Any]], Message] = purpose_as_written
    """What a ledger row's request was for, as a message."""
    business_operation: Callable[[dict[str, Any]], tuple[str, ...]] = same_purpose
    """Which ledger rows are one business operation: the ledger flags one done more than once."""
    outcome: Callable[[dict[str, Any]], Message | None] = no_outcome
    """How a finished thread ended, from its values (the status line says it)."""
    review_texts: Callable[[Any, dict[str, Any]], dict[str, Any] | None] = no_review_texts
    """What an open interrupt asks (its payload and the thread's values), in words the page says:
    ``question`` and the ``facts`` the page lists (``[{label, value}]``), each a message."""
    caption: Callable[[dict[str, Any], dict[str, Any] | None], Message] = frame_caption
    """What made a frame (the scrubber's caption), from the frame and its parent."""
    title: Message = field(default_factory=lambda: message("graph.any", "The graph"))
    """What the diagram is called (its picture's title)."""
    operations: tuple[Operation, ...] = ()
    """What the graph's nodes ask the outside world to do (:mod:`lab.world`): the ledger's words for
    each kind of request, its receipt numbers, what a reused key must repeat."""
    outside_calls: Message = field(default_factory=lambda: message("world.any", "calls the outside world"))
    """What a node that calls out does, in the graph's own words (said where a crash can be armed right
    before that call, the ``side_effect`` seam)."""

    def operation(self, kind: str) -> Operation:
        """The operation of ledger rows of ``kind`` (one the profile does not declare: named by its kind)."""
        declared = {operation.kind: operation for operation in self.operations}
        return declared.get(kind) or Operation(kind, kind, label=kind, noun=kind)

    def describe(self, graph: CompiledStateGraph) -> dict[str, Any]:
        """The diagram of ``graph`` with this profile's node traits (``lab.diagram``) and, on each
        node, what it does as a message (``say_summary``; START and END have none)."""
        return summarised(describe_graph(graph, self.node_traits), self.node_summary)


def summarised(diagram: dict[str, Any], node_summary: Callable[[dict[str, Any]], Message]) -> dict[str, Any]:
    """``diagram`` with each node's ``node_summary`` as ``say_summary`` (START and END have none)."""
    nodes = [
        {**node, "say_summary": node_summary(node)} if node.get("kind") == "node" else node
        for node in diagram["nodes"]
    ]
    return {**diagram, "nodes": nodes}


def declared_traits(
    calls_out: frozenset[str] = frozenset(), interrupts: frozenset[str] = frozenset()
) -> NodeTraits:
    """Node traits from two sets of node names: those that call the outside world, those that interrupt."""

    def traits(name: str, fn: Callable[..., Any]) -> dict[str, Any]:
        return {"calls_out": name in calls_out, "interrupts": name in interrupts}

    return traits


def graph_profile(
    build: Callable[..., CompiledStateGraph],
    *,
    calls_out: frozenset[str] = frozenset(),
    interrupts: frozenset[str] = frozenset(),
    case_input: Callable[[str], dict[str, Any]] | None = None,
    enter_run: Callable[[str], SeamHook | None] = no_run_context,
    operations: tuple[Operation, ...] = (),
) -> GraphProfile:
    """The profile of one graph ``build(world, checkpointer=...)`` compiles, with one case ("default")
    that starts with ``case_input("default")`` (``{}`` if not given)."""

    def built(
        world: Any, variant: str, *, checkpointer: Any, delay: float, storage: str = "full"
    ) -> CompiledStateGraph:
        return build(world, checkpointer=checkpointer)

    def one_case(case_id: str) -> dict[str, Any]:
        if case_id != "default":
            raise KeyError(f"Unknown case {case_id!r}; this graph has one: 'default'")
        return case_input(case_id) if case_input else {}

    return GraphProfile(
        build=built,
        case_input=one_case,
        node_traits=declared_traits(calls_out, interrupts),
        enter_run=enter_run,
        operations=operations,
    )
