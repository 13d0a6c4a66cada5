"""The playground's lab: a learner's program driven by the lab controller, with the lab's saver and ledger.

LangGraph Studio runs the graph a ``langgraph.json`` names with the server's own checkpointer,
whatever the code passed to ``compile()``; the playground does the same in the browser. A loaded
:class:`~lab.playground.program.Program` becomes a
:class:`~lab.controller.profile.GraphProfile` (:func:`playground_profile`), so every instrument of the
lab (Step/Run, crash at a seam, resume, interrupts, time travel, the ledger) serves it:

- **the checkpointer is replaced by recompiling**: the program's ``StateGraph`` (the compiled graph's
  ``builder``) is compiled again with the lab's saver and the program's own ``interrupt_before``,
  ``interrupt_after`` and ``name``; an ``@entrypoint``'s function is decorated again with the
  lab's saver (and the program's ``cache`` and ``context_schema``). Whatever the program passed
  (``InMemorySaver()``, or none) is not used: the lab's saver stores in IndexedDB, so a killed
  worker's thread resumes;
- **the outside world**: ``lab.world``'s ``charge`` / ``send_email`` are synchronous (a node calls
  them like any library), while the lab's ledger lives in the page and answers asynchronously. So
  :class:`LabLedger` decides each request *synchronously* over its copy of the ledger's rows (the
  world's one rule, :func:`lab.world.decider.decide_request`), posts the decided row to the ledger
  without waiting, and keeps it in its copy. It is the recorder of every run of the program (set in
  the run's task, :mod:`lab.world.recorder`), and its copy is read again at the start of every
  super-step, so requests made by an earlier, killed process count, and a double charge is flagged;
- **the graph's words**: the diagram is the program's graph, by its name, and a node that calls out
  calls ``lab.world`` (no words of the AML lab's paid API or SAR);
- **what the crash picker offers**: a node interrupts if its code names ``interrupt`` (read from its
  code object, not run), and a node whose code names ``charge`` / ``send_email`` calls the outside
  world (``calls_out``, ``paid`` on the diagram), so it is offered the two ``side_effect`` seams:
  right before the request leaves and right after it was recorded. ``lab.world`` is called
  synchronously, so the controller meets them synchronously (``ProcessWorld.record_now``): a crash
  there kills the process before the node's next line;
- **the input** a new thread starts with is the JSON the learner gave (or the program's own
  ``invoke`` example, :func:`lab.playground.program.example_input`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from lab.controller.messages import message
from lab.controller.profile import GraphProfile, SeamHook, graph_profile
from lab.diagram import AnyGraph
from lab.func import EntrypointGraph, TaskFunction, entrypoint
from lab.playground.problems import Problem
from lab.playground.program import Program, code_names, describe_run_error
from lab.pregel.seams import Seam
from lab.world import PROGRAM_OPERATIONS, Operation
from lab.world.decider import decide_request
from lab.world.recorder import record_in_this_run

__all__ = ["LabLedger", "lab_graph", "node_calls", "playground_profile"]

WORLD_CALLS = frozenset({"charge", "send_email"})
"""``lab.world``'s functions: a node whose code names one calls the outside world."""


class RecordingWorld(Protocol):
    """The lab's outside world as the ledger copy needs it (the controller's ``ProcessWorld``)."""

    async def entries(self) -> list[dict[str, Any]]: ...

    def record_now(self, row: dict[str, Any]) -> None: ...


class LabLedger:
    """``lab.world``'s recorder in the lab: decides over a copy of the ledger, records in the lab's world."""

    def __init__(self) -> None:
        self.world: RecordingWorld | None = None  # the live controller's (set when it builds the graph)
        self.rows: list[dict[str, Any]] = []  # the ledger's rows as last read, plus those decided since
        self.checkpoint_id: str | None = None  # the checkpoint of the step that runs now

    async def refresh(self, checkpoint_id: str | None) -> None:
        """Read the ledger again (a new super-step begins at ``checkpoint_id``)."""
        self.checkpoint_id = checkpoint_id
        if self.world is not None:
            self.rows = await self.world.entries()

    def record(self, operation: Operation, request: dict[str, Any]) -> dict[str, Any]:
        """Decide ``request`` (``lab.world``'s raw request) over the copy, record it, answer the receipt."""
        if self.world is None:
            raise RuntimeError("lab.world called outside a run of the playground's lab")
        request = {**request, "checkpoint_id": request.get("checkpoint_id") or self.checkpoint_id}
        decision = decide_request(self.rows, operation, request)
        self.rows.append(decision.row)
        self.world.record_now(decision.row)
        return decision.receipt


def lab_graph(graph: AnyGraph, checkpointer: Any) -> AnyGraph:
    """``graph`` compiled again from its ``StateGraph`` with ``checkpointer`` instead of its own (an
    ``@entrypoint``: its function decorated again, with ``checkpointer``); its store stays its own."""
    if isinstance(graph, EntrypointGraph):
        again = entrypoint(
            checkpointer=checkpointer,
            store=graph.store,
            cache=graph.cache,
            context_schema=graph.context_schema,
        )
        return again(graph.function)
    return graph.builder.compile(
        checkpointer=checkpointer,
        store=graph.store,
        interrupt_before=graph.interrupt_before or None,
        interrupt_after=graph.interrupt_after or None,
        name=graph.name,
    )


def reporting_problems(program: Program, graph: AnyGraph, on_problem: Callable[[Problem], None]) -> AnyGraph:
    """``graph`` whose ``ainvoke`` (what the lab's run driver calls) tells ``on_problem`` where in the
    program a failing run raised (:func:`~lab.playground.program.describe_run_error`: the node or
    router, at its line) before the exception goes on as it would."""
    ainvoke = graph.ainvoke

    async def located(*args: Any, **kwargs: Any) -> Any:
        try:
            return await ainvoke(*args, **kwargs)
        except Exception as error:
            on_problem(describe_run_error(program, error))
            raise

    graph.ainvoke = located  # type: ignore[method-assign]
    return graph


def node_calls(function: Callable[..., Any]) -> set[str]:
    """Which of ``charge``, ``send_email``, ``interrupt`` a node's own code names, or the code of a
    ``@task`` it calls (``lab.func``: the task runs inside the node's task)."""
    code = getattr(function, "__code__", None)
    if code is None:
        return set()
    names = set(code_names(code))
    called = set()
    for name in names:
        task = getattr(function, "__globals__", {}).get(name)
        if isinstance(task, TaskFunction):
            called |= node_calls(task.func)
    return (names & (WORLD_CALLS | {"interrupt"})) | called


def playground_profile(
    program: Program,
    ledger: LabLedger,
    given_input: Any,
    on_problem: Callable[[Problem], None] = lambda problem: None,
) -> GraphProfile:
    """The profile of ``program``'s graph: recompiled over the lab's saver, one case started with
    ``given_input``, the nodes that call out or interrupt read from their code, ``ledger`` kept fresh,
    and a failing run's place in the program told to ``on_problem``."""

    def build(world: Any, *, checkpointer: Any) -> AnyGraph:
        ledger.world = world
        return reporting_problems(program, lab_graph(program.graph, checkpointer), on_problem)

    def follow(thread_id: str) -> SeamHook:
        record_in_this_run(ledger)

        async def on_seam(seam: Seam) -> None:
            if seam.name == "step_start":
                await ledger.refresh(seam.checkpoint_id)

        return on_seam

    def traits(name: str, function: Callable[..., Any]) -> dict[str, Any]:
        calls = node_calls(function)
        calls_out = bool(calls & WORLD_CALLS)
        return {"calls_out": calls_out, "interrupts": "interrupt" in calls, "paid": calls_out}

    profile = graph_profile(build, case_input=lambda case_id: given_input, enter_run=follow)
    return replace(
        profile,
        node_traits=traits,
        operations=PROGRAM_OPERATIONS,
        title=message("graph.program", "Your program's graph ({name})", name=program.graph_name),
        outside_calls=message("world.lab", "calls lab.world (charge or send_email)"),
    )
