"""Worker commands of the playground (``/play``): a learner's program becomes the graph the lab drives.

LangGraph Studio loads the graph a ``langgraph.json`` names and runs it with the server's
checkpointer; the playground's page sends ``play_load {source, input?}`` and the worker does the
same: it loads the program (:func:`lab.playground.load_program`, ``langgraph.*`` answered by lab),
builds the lab's controller over its graph (:func:`lab.playground.session.playground_profile`: the
graph compiled again over the lab's IndexedDB saver, in the playground's own database
:data:`PLAY_DATABASE`, so the lab's threads and the playground's never mix), whose runs record
``lab.world``'s calls in the lab's ledger. From then on the lab's own commands (``lab {name, args}``: start,
step, run, resume, answer, arm_crash, frames, fork, view, ...) drive the program's graph.

=============  ===========================  ============================================================
command        args                         result
=============  ===========================  ============================================================
play_load      ``{source, input?,           ``{problem}`` at its line, or ``{graph, checkpointer,
               program?}``                  skipped, input, example, input_schema}``; every
                                            view of its controller then carries ``program`` (the
                                            page's name for this load) in its ``owner``;
                                            a program that builds no graph: ``{graph: null,
                                            printed}`` (it ran as plain Python)
play_script    ``{durability?, pace?,       ``{output, runs, problem, waiting}``: the loaded program's
               fresh?}``                    script run as written, each ``invoke`` a run on the lab's
                                            thread, until it ends or waits at ``pace`` (``end``,
                                            ``call``, ``step``: :class:`ScriptPace`); ``waiting``
                                            says where (``{call, total, line, text, at, ...}``) or
                                            is null. A waiting script goes on; ``fresh`` starts
                                            it again. Each print is told as it happens (an event
                                            ``{type: "script_output", text}``)
play_problem   ``{}``                       ``{problem}``: where the last failing run raised, or null
play_check     ``{challenge, source}``      ``{passed, say, problem}``: the challenge's goal checked by
                                            crashing and resuming ``source`` in a controller of its
                                            own (:mod:`lab.playground.challenges`); the loaded
                                            program and its thread are not touched
=============  ===========================  ============================================================

A script that waits (the learner steps through it) waits in a task of its own
(:class:`~lab.playground.script.ScriptRun`), so the lab's commands (``view``, ``arm_crash``) are
answered meanwhile. A crash kills the worker; the page sends the next one ``play_load`` with the
same program before it restores the thread (``static/play/instruments.mjs``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lab.browser import lab_rpc
from lab.browser.packages import PackageUnavailable, load_imported_packages
from lab.controller.controller import LabController
from lab.diagram import AnyGraph, node_functions
from lab.graph.subgraphs import SyncSubgraphCallRefused
from lab.graph.unsupported import NotSupportedError
from lab.playground import ProgramError, load_program
from lab.playground.challenges import CHALLENGES, check_challenge
from lab.playground.problems import Problem, problem, problem_at_error
from lab.playground.program import Program
from lab.playground.script import ScriptResult, ScriptRun
from lab.playground.script_calls import ScriptCalls, ScriptPace
from lab.playground.session import LabLedger, playground_profile

PLAY_DATABASE = "checkpoint-lab-play"
"""The playground's IndexedDB database: its threads' checkpoints and journal (the lab's schema)."""


@dataclass
class _Play:
    """This worker's loaded program, its controller, and where its last failing run raised."""

    problem: Problem | None = None
    program: Program | None = None
    controller: LabController | None = None
    script: ScriptRun | None = None  # the script's run, while it waits for the learner


_play = _Play()


def _remember(problem: Problem) -> None:
    _play.problem = problem


async def play_load(args: dict[str, Any]) -> dict[str, Any]:
    """Load ``args["source"]`` and make its graph the one the lab drives; a new thread starts with
    ``args["input"]`` if given, else with the input of the program's own first ``invoke``, else ``{}``."""
    source = args.get("source")
    if not isinstance(source, str):
        raise ValueError("'source' must be the program's text")
    if not isinstance(args.get("program"), str | None):
        raise ValueError("'program' must be the page's name for the program (a string)")
    await drop_script()
    try:
        await load_imported_packages(source)  # pydantic, when the program imports it (lab.browser.packages)
        program = load_program(source, graphless=True)
    except ProgramError as error:
        return {"problem": error.problem.as_dict()}
    except PackageUnavailable as error:
        return {"problem": problem("package_unavailable", module=error.name, reason=error.reason).as_dict()}
    if program.graph is None:
        return plain_program(program)
    given = next((value for value in (args.get("input"), program.example) if value is not None), {})
    ledger = LabLedger()
    _play.problem = None
    profile = playground_profile(program, ledger, given, _remember)
    try:
        controller = await lab_rpc.use_profile(profile, PLAY_DATABASE, args.get("program"))
        controller.graph_for("default")  # compiled over the browser's saver now: refused at load, at its line
    except SyncSubgraphCallRefused as refused:  # over the browser's saver (lab.graph.subgraphs)
        return {"problem": refused_at_node(program.graph, refused).as_dict()}
    _play.program, _play.controller = program, controller
    graph = program.graph
    return {
        "problem": None,
        "script": program.script is not None,
        "graph": program.graph_name,
        "checkpointer": type(graph.checkpointer).__name__ if graph.checkpointer is not None else None,
        "skipped": list(program.skipped) if program.skipped else None,
        "input": given,
        "example": program.example,
        "input_schema": input_schema(graph),
        "nodes": list(node_functions(controller.graph_for("default"))),
    }


def plain_program(program: Program) -> dict[str, Any]:
    """A program that builds no graph ran as plain Python while it loaded: what it printed is all it
    does. The lab's controller is left as it was (the page draws no view of it and drives nothing)."""
    _play.program, _play.controller, _play.problem = program, None, None
    return {"problem": None, "script": False, "graph": None, "printed": program.printed}


def refused_at_node(graph: AnyGraph, refused: SyncSubgraphCallRefused) -> Problem:
    """The refusal of a node the browser's saver cannot run, at the line the node's function starts
    (named as the lab's other refusals are: a ``NotSupportedError``)."""
    code = getattr(node_functions(graph)[refused.node], "__code__", None)
    return problem("load", code.co_firstlineno if code else None, error=f"NotSupportedError: {refused}")


def input_schema(graph: AnyGraph) -> dict[str, Any] | None:
    """The graph's input JSON schema, the input box's hint; ``None`` where lab has none for a field's
    type (a message class: ``MessagesState``)."""
    try:
        return graph.get_input_jsonschema()
    except NotSupportedError:
        return None


async def play_script(args: dict[str, Any]) -> dict[str, Any]:
    """Run the loaded program's script as written (:mod:`lab.playground.script`): each ``invoke`` it
    makes is a run on the lab's thread (its threads with ``args["durability"]``, async if not given),
    until it ends or waits at ``args["pace"]`` (a waiting script goes on, unless ``args["fresh"]``).
    ``{output, runs, problem, waiting}``: what it printed, how many runs it made, where it stopped if it
    raised (a failing node at the node's line, else the script's), and where it waits (null: it ended)."""
    program, controller = _play.program, _play.controller
    if program is None or controller is None or program.script is None:
        raise ValueError("the loaded program has no script to run: load one with play_load first")
    pace = args.get("pace") or "end"
    if args.get("fresh") or _play.script is None:
        await drop_script()
        _play.problem = None
        calls = ScriptCalls(controller, program.graph, args.get("durability") or "async", ScriptPace(pace))
        told_now = told(controller)
        _play.script = ScriptRun(program.script, vars(program.module), calls, told_now, program.printed)
        answer = await _play.script.until_it_waits()
    else:
        answer = await _play.script.go(pace)
    calls = _play.script.calls
    if not isinstance(answer, ScriptResult):
        return {"output": None, "runs": calls.runs, "problem": None, "waiting": answer}
    _play.script = None
    return {
        "output": answer.output,
        "runs": answer.runs,
        "problem": stopped_at(answer, calls),
        "waiting": None,
    }


def told(controller: LabController) -> Callable[[str], None]:
    """What the script prints, told to the page at once (an event of the program's controller)."""

    def tell(text: str) -> None:
        _told.add(task := asyncio.ensure_future(controller.emit({"type": "script_output", "text": text})))
        task.add_done_callback(_told.discard)

    return tell


_told: set[asyncio.Task[None]] = set()  # events on their way (the loop holds tasks weakly)


def stopped_at(result: ScriptResult, calls: ScriptCalls) -> dict[str, Any] | None:
    """Where the script stopped if it raised: a failing node at the node's line, else the script's."""
    if result.error is None:
        return None
    in_node = result.error is calls.raised and _play.problem is not None
    return (_play.problem if in_node else problem_at_error(result.error, "script")).as_dict()


async def drop_script() -> None:
    """A script that waits for the learner is dropped (a new program, or the script started again)."""
    if _play.script is not None:
        await _play.script.cancel()
        _play.script = None


async def play_problem(_args: dict[str, Any]) -> dict[str, Any]:
    """Where the last failing run of the loaded program raised: ``{problem: {kind, line, column, say}}``."""
    return {"problem": _play.problem.as_dict() if _play.problem else None}


async def play_check(args: dict[str, Any]) -> dict[str, Any]:
    """Check ``args["source"]`` against the goal of challenge ``args["challenge"]``."""
    challenge, source = args.get("challenge"), args.get("source")
    if challenge not in CHALLENGES:
        raise ValueError(f"unknown challenge {challenge!r}; the challenges are: {', '.join(CHALLENGES)}")
    if not isinstance(source, str):
        raise ValueError("'source' must be the program's text")
    return (await check_challenge(challenge, source)).as_dict()


COMMANDS = {
    "play_load": play_load,
    "play_script": play_script,
    "play_problem": play_problem,
    "play_check": play_check,
}
