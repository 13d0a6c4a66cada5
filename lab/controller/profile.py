"""A graph profile: what the lab must know about a compiled graph that LangGraph's API does not say.

LangGraph runs any compiled graph the same way (``ainvoke``, ``aget_state``, ``aupdate_state``), and
the lab drives it with those calls only. What the lab also shows is not in the graph: which nodes
call the outside world (so a crash can be armed between the call and its saved writes), what a
thread starts with, what the page sends to answer an ``interrupt()`` (Approve / Reject), and what a
node needs to know about its run to call out (the thread, the checkpoint of its step). A
:class:`GraphProfile` says it, in a few plain fields; :func:`graph_profile` makes one for a graph
built by a function, and the AML investigation is one such profile (``lab.aml.profile``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from lab.diagram import NodeTraits, describe_graph, no_traits
from lab.graph import CompiledStateGraph
from lab.pregel.loop import Seam

SeamHook = Callable[[Seam], Awaitable[None]]


class BuildGraph(Protocol):
    """Compile the graph of one variant over the lab's outside world and checkpointer."""

    def __call__(
        self, world: Any, variant: str, *, checkpointer: Any, delay: float
    ) -> CompiledStateGraph: ...


def no_run_context(thread_id: str) -> SeamHook | None:
    """A graph whose nodes need nothing from the lab about their run."""
    return None


def approved(approve: bool) -> Any:
    """The resume value of Approve / Reject when the profile says nothing else: the bool itself."""
    return approve


@dataclass(frozen=True)
class GraphProfile:
    """What the lab knows about a graph beyond the graph (see the module docstring)."""

    build: BuildGraph
    variants: tuple[str, ...] = ("default",)
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

    def describe(self, graph: CompiledStateGraph) -> dict[str, Any]:
        """The diagram of ``graph`` with this profile's node traits (``lab.diagram``)."""
        return describe_graph(graph, self.node_traits)


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
) -> GraphProfile:
    """The profile of one graph ``build(world, checkpointer=...)`` compiles, with one case ("default")
    that starts with ``case_input("default")`` (``{}`` if not given)."""

    def built(world: Any, variant: str, *, checkpointer: Any, delay: float) -> CompiledStateGraph:
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
    )
