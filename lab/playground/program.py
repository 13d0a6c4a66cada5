"""Load a learner's LangGraph program and find the graph it compiles, as ``langgraph dev`` finds the
graph a ``langgraph.json`` names.

The program is LangGraph code (``from langgraph.graph import StateGraph``): it runs in a fresh module
(``__name__`` is ``playground_program``, so the lines under ``if __name__ == "__main__":``, what the
program does when run in a terminal, are skipped: in the playground the lab's Run drives the graph),
with ``langgraph.*`` answered by ``lab`` (:mod:`lab.playground.langgraph_imports`). A program that
drives its graph at the top level, outside that guard (``graph.invoke(...)`` right after
``compile()``, as LangGraph's five-minute example does), has its lines from the first such call on
skipped too (:func:`script_start`; ``Program.skipped`` says which, the page says so): lab's sync API
cannot run inside the worker's running event loop, and the lab's Run is what drives the graph here.
Those lines and the ``__main__`` block are the program's script (``Program.script``): Run as written
runs it with its graph calls awaited on the lab (:mod:`lab.playground.script`).
The input of the program's own first ``invoke`` (a literal) is what a new thread starts with, unless
the learner gives another (:func:`example_input`). Then the graph:
the one compiled graph the module holds, or, when there are several, the one named ``graph``. A
compiled graph that is a node of another (a subgraph) does not count. Anything else is a
:class:`~lab.playground.problems.ProgramError` whose problem names the line. Asked to
(``graphless=True``, as ``/play`` asks), a program that builds no graph and has no script part (the
persistence page's ``InMemoryStore`` snippet: ``put``, ``search``, ``print``) loads as the plain Python it
is: its top level ran, what it printed is ``Program.printed``, and it has no graph (``None``).
"""

from __future__ import annotations
import __future__

import ast
import contextlib
import io
import json
import sys
import types
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from types import CodeType
from typing import Any

from lab.diagram import AnyGraph, node_functions
from lab.graph.state import StateGraph
from lab.playground.langgraph_imports import NeedsNetworkError, NotInLabError, langgraph_resolves_to_lab
from lab.playground.problems import PROGRAM_FILE, Problem, ProgramError, Roles, problem, problem_at_error
from lab.playground.script import compile_script, is_main

__all__ = [
    "GRAPH_NAME",
    "MAX_PROGRAM_BYTES",
    "PROGRAM_MODULE",
    "Program",
    "describe_run_error",
    "example_input",
    "load_program",
    "script_start",
]

MAX_PROGRAM_BYTES = 256 * 1024
"""The largest program the playground takes (UTF-8 bytes): a gallery program is about 2 KB."""
PROGRAM_MODULE = "playground_program"
"""The loaded program's module name (in ``sys.modules``, so its dataclasses and TypedDicts resolve
their annotations); loading another program replaces it."""
GRAPH_NAME = "graph"
"""The name that picks the graph to run when a program compiles several."""
DRIVING_CALLS = frozenset(
    {"invoke", "stream", "batch", "ainvoke", "astream", "get_state", "get_state_history", "update_state",
     "bulk_update_state"}
)  # fmt: skip
"""Methods whose call at the top level means the program runs its graph there (its script part)."""
INPUT_CALLS = ("invoke", "stream", "ainvoke", "astream")


@dataclass(frozen=True)
class Program:
    """A loaded program: its source, its module, and the graph the lab will drive (``None``: a
    program loaded ``graphless`` that builds none)."""

    source: str
    module: types.ModuleType
    graph_name: str | None
    graph: AnyGraph | None
    skipped: tuple[int, int] | None = None
    """The first and last line of the top-level script part that did not run, if any."""
    example: Any = None
    """The input the program's own first ``invoke`` passes, as JSON data (``None``: none found)."""
    script: CodeType | None = None
    """The program's script (its skipped lines and ``__main__`` blocks), to run as written
    (:mod:`lab.playground.script`); ``None``: it has none."""
    start: int | None = None
    """The index of the top-level statement the script part starts at (``None``: none)."""
    printed: str = ""
    """What the top level printed while the program loaded, before its script: the script's output
    starts with it, as the program's own output would."""


def load_program(source: str, *, graphless: bool = False) -> Program:
    """Run ``source`` as a fresh module with ``langgraph`` answered by ``lab``, and find its graph.

    Raises :class:`ProgramError`: too large, a syntax error, an exception while loading (a module the
    browser lacks, a ``langgraph`` module lab does not have, a refused feature), no graph or several.
    With ``graphless``, a program that builds no graph and whose top level all ran (no script) loads
    with no graph instead of being refused.
    """
    size = len(source.encode())
    if size > MAX_PROGRAM_BYTES:
        raise ProgramError(problem("too_large", size=size, limit=MAX_PROGRAM_BYTES))
    try:
        tree = ast.parse(source, PROGRAM_FILE)
    except SyntaxError as error:
        raise ProgramError(problem_at_error(error, "syntax")) from None
    module = types.ModuleType(PROGRAM_MODULE)
    module.__file__ = PROGRAM_FILE
    sys.modules[PROGRAM_MODULE] = module
    printed = io.StringIO()
    with langgraph_resolves_to_lab(), contextlib.redirect_stdout(printed):
        try:
            start = run_top_level(tree, vars(module))
        except Exception as error:
            raise ProgramError(loading_problem(error)) from error
    skipped = None if start is None else (tree.body[start].lineno, tree.body[-1].end_lineno or 0)
    found = find_graph(module, tree)
    script = compile_script(tree, start)
    if found is None and not (graphless and script is None):
        raise ProgramError(problem("no_graph"))
    graph_name, graph = found or (None, None)
    example = example_input(tree)
    return Program(source, module, graph_name, graph, skipped, example, script, start, printed.getvalue())


def run_top_level(tree: ast.Module, namespace: dict[str, Any]) -> int | None:
    """Run the program's top level in ``namespace`` up to its first statement that drives a graph
    (:func:`drives_a_graph`: a chat model's ``llm.invoke(...)`` before any graph is built runs, as in
    LangGraph's and LangChain's notebooks); that statement's index (``None``: none does, all ran)."""
    flags = future_flags(tree)
    done, candidate = 0, script_start(tree)
    while True:
        part = ast.Module(tree.body[done:candidate], type_ignores=[])
        exec(compile(part, PROGRAM_FILE, "exec", flags=flags, dont_inherit=True), namespace)
        if candidate is None or drives_a_graph(tree.body[candidate], namespace):
            return candidate
        done, candidate = candidate, script_start(tree, candidate + 1)


def future_flags(tree: ast.Module) -> int:
    """The compiler flags of the program's ``from __future__ import ...`` (its parts compile apart)."""
    flags = 0
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            for alias in statement.names:
                flags |= getattr(__future__, alias.name).compiler_flag
    return flags


def script_start(tree: ast.Module, first: int = 0) -> int | None:
    """The index of the first top-level statement from ``first`` on that may drive a graph (calls
    ``.invoke``, ``.stream``, ``.get_state``, ... or ``asyncio.run``), outside functions and classes;
    ``None`` if there is none."""
    for index, statement in enumerate(tree.body[first:], start=first):
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if is_main(statement):
            continue
        if any(_drives(node) for node in ast.walk(statement)):
            return index
    return None


def drives_a_graph(statement: ast.stmt, namespace: dict[str, Any]) -> bool:
    """Whether ``statement`` drives a graph, as far as ``namespace`` tells: it does unless each of its
    driving calls is a method of a name bound to something else (a chat model, a tool)."""
    for node in ast.walk(statement):
        if _is_asyncio_run(node):
            return True
        if _is_call_of(node, DRIVING_CALLS):
            owner = node.func.value  # type: ignore[attr-defined]
            known = isinstance(owner, ast.Name) and owner.id in namespace
            if not known or isinstance(namespace[owner.id], AnyGraph):
                return True
    return False


def _drives(node: ast.AST) -> bool:
    """A call of a graph's driving method, or ``asyncio.run(...)``."""
    return _is_call_of(node, DRIVING_CALLS) or _is_asyncio_run(node)


def _is_asyncio_run(node: ast.AST) -> bool:
    owner = getattr(getattr(node, "func", None), "value", None)
    return _is_call_of(node, ("run",)) and isinstance(owner, ast.Name) and owner.id == "asyncio"


def _is_call_of(node: ast.AST, methods: Collection[str]) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods


def example_input(tree: ast.Module) -> Any:
    """The first literal first argument of an ``.invoke(...)`` (or ``stream``) in the program (tuples
    become lists: JSON data); ``None`` if there is none. A call whose input is computed (a node that
    invokes a subgraph with its ``state``) is passed over."""
    for node in ast.walk(tree):
        if _is_call_of(node, INPUT_CALLS) and node.args:
            try:
                return json.loads(json.dumps(ast.literal_eval(node.args[0])))
            except (ValueError, TypeError, SyntaxError, RecursionError):
                continue
    return None


def loading_problem(error: Exception) -> Problem:
    """What an exception while the program's top level ran means to the learner. A refused import is
    named even when a library wrapped it in an error of its own (its cause)."""
    refusal = _refused_import(error)
    if isinstance(refusal, NotInLabError):
        return problem_at_error(error, "not_in_lab", module=refusal.name, mirrored=refusal.mirrored)
    if isinstance(refusal, NeedsNetworkError):
        return problem_at_error(error, "network_module", module=refusal.name)
    if isinstance(error, ModuleNotFoundError) and error.name:
        return problem_at_error(error, "missing_module", module=error.name.split(".")[0])
    return problem_at_error(error, "load")


def _refused_import(error: BaseException | None) -> BaseException | None:
    """The resolver's refusal among ``error`` and its causes, if any."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, NotInLabError | NeedsNetworkError):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


def find_graph(module: types.ModuleType, tree: ast.Module) -> tuple[str, AnyGraph] | None:
    """The program's graph (a compiled ``StateGraph`` or an ``@entrypoint``): its only outermost graph
    (:func:`outermost`), else the one named ``graph``, else the first one its top level drives;
    ``None`` if it builds no graph at all (not even a ``StateGraph`` it never compiles)."""
    values = vars(module)
    graphs = {name: value for name, value in values.items() if isinstance(value, AnyGraph)}
    candidates = outermost(graphs)
    if len(candidates) == 1:
        (name,) = candidates.values()
        return name, graphs[name]
    if GRAPH_NAME in graphs and id(graphs[GRAPH_NAME]) in candidates:
        return GRAPH_NAME, graphs[GRAPH_NAME]
    for name in driven_names(tree):
        if name in graphs and id(graphs[name]) in candidates:
            return name, graphs[name]
    if candidates:
        names = ", ".join(sorted(candidates.values()))
        raise ProgramError(problem("several_graphs", count=len(candidates), names=names))
    builders = sorted(name for name, value in values.items() if isinstance(value, StateGraph))
    if builders:
        raise ProgramError(problem("not_compiled", name=builders[0]))
    return None


def outermost(graphs: dict[str, AnyGraph]) -> dict[int, str]:
    """The graphs no other graph runs (id -> its first name): neither a node of another (a subgraph)
    nor named by a node's code (``child_graph.invoke(...)`` in a node, an entrypoint calling another)."""
    inner = {id(value) for graph in graphs.values() for value in run_by(graph) if value is not graph}
    candidates: dict[int, str] = {}
    for name, graph in graphs.items():
        if id(graph) not in inner:
            candidates.setdefault(id(graph), name)  # one graph bound to two names is one graph
    return candidates


def run_by(graph: AnyGraph) -> Iterator[Any]:
    """What ``graph``'s nodes are, and the globals their code names."""
    for function in node_functions(graph).values():
        yield function
        code, named = getattr(function, "__code__", None), getattr(function, "__globals__", {})
        if code is not None:
            yield from (named[name] for name in code_names(code) if name in named)


def driven_names(tree: ast.Module) -> Iterator[str]:
    """The names whose driving methods (``invoke``, ``stream``, ...) the program's top level calls
    (outside functions and classes), in order."""
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for node in ast.walk(statement):
            owner = getattr(getattr(node, "func", None), "value", None)
            if _is_call_of(node, DRIVING_CALLS) and isinstance(owner, ast.Name):
                yield owner.id


def code_names(code: CodeType) -> Iterator[str]:
    """Every global or attribute name ``code`` and the functions defined in it refer to."""
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from code_names(constant)


def graph_roles(graph: AnyGraph) -> Roles:
    """The code of each node and router of ``graph``: which part of the program an exception came from
    (an ``@entrypoint``'s function is its one node)."""
    roles: Roles = {}
    for name, function in node_functions(graph).items():
        if code := getattr(function, "__code__", None):
            roles[code] = ("node", name)
    for branch in (branch for node in graph.nodes.values() for branch in node.branches):
        if code := getattr(branch.router, "__code__", None):
            roles[code] = ("router", branch.name)
    return roles


def describe_run_error(program: Program, error: BaseException) -> Problem:
    """An exception a run of ``program``'s graph raised, at the program's line: in a node, in a router,
    or (no frame of either) in the runtime itself."""
    return problem_at_error(error, "run", graph_roles(program.graph))
