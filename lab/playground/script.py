"""A program's own script, run as written: its LangGraph calls (``invoke``, ``stream``, ...) on the lab.

A LangGraph program usually ends with a script: ``graph.invoke(...)`` on a thread, perhaps twice (the
second turn reads the first from the checkpointer), ``graph.get_state(config)``, ``print(...)``. On
LangGraph each call is synchronous; in the browser the lab's graph runs on the worker's event loop,
which a synchronous call cannot wait for. So the script part of the program (the top-level lines
:func:`~lab.playground.program.script_start` keeps from loading, and the bodies of
``if __name__ == "__main__":``) is compiled with each call of a graph method awaited
(:func:`compile_script`: ``graph.invoke(x, config)`` becomes ``await <calls>(<site>, graph,
"invoke", x, config)``, on the program's own lines, so an exception is reported at its line; ``for
chunk in graph.stream(...)`` becomes an ``async for`` over the run's chunks as they come, closed when
the loop ends (a ``break`` stops the run there, as closing LangGraph's generator does); the graph
calls of an ``async def main()`` are routed too, and ``asyncio.run(main())`` is ``await main()``,
as the script already runs on the worker's event loop), and
:class:`~lab.playground.script_calls.ScriptCalls` answers a call on the program's graph with the
lab's controller, as LangGraph's own methods would. Each call's ``<site>`` says where it is written
(its line, the call as written), so the learner can step through the script call by call
(:class:`~lab.playground.script_calls.ScriptPace`).

What the script prints is kept, in order, for the page, and told as it is printed (``on_output``):
its ``print`` writes there, nowhere else.
"""

from __future__ import annotations

import ast
import asyncio
import copy
import io
from collections.abc import Callable
from dataclasses import dataclass
from inspect import CO_COROUTINE
from types import CodeType
from typing import Any

from lab.playground.langgraph_imports import langgraph_resolves_to_lab
from lab.playground.problems import PROGRAM_FILE
from lab.playground.script_calls import AWAITED_BY_PROGRAM, GRAPH_METHODS, ITERATED, ScriptCalls

__all__ = ["CALLS_NAME", "ScriptResult", "ScriptRun", "compile_script", "is_main", "run_script"]

CALLS_NAME = "__lab_script_calls__"
"""The name the compiled script calls its graph methods through (:class:`ScriptCalls`)."""
ITERATOR_NAME = "__lab_chunks__"
"""The name a rewritten ``for`` loop iterates (a loop nested in it rebinds it: its own is held)."""
SHOWN_CHARS = 60
"""How much of a call the page shows ("graph.invoke({'messages': ...}, config)")."""
SIMPLE_STATEMENTS = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)
"""Statements that run once: calls in them can be counted before the script runs."""


def is_main(statement: ast.stmt) -> bool:
    """``if __name__ == "__main__":``, which the program's module (named otherwise) never runs."""
    test = statement.test if isinstance(statement, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _is_method_call(node: ast.AST, methods: Any) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods


def _is_asyncio_run(node: ast.Call) -> bool:
    owner = getattr(node.func, "value", None)
    return _is_method_call(node, ("run",)) and isinstance(owner, ast.Name) and owner.id == "asyncio"


class _AwaitGraphCalls(ast.NodeTransformer):
    """``x.invoke(...)`` -> ``await __lab_script_calls__(<site>, x, "invoke", ...)`` and ``for c in
    x.stream(...)`` -> ``async with __lab_script_calls__.stream_of(<site>, x, "stream", ...) as it:
    async for c in it``, outside nested functions (the ``async with`` closes the stream when the loop
    ends, as LangGraph's generator is closed: a ``break`` stops the run there). Each ``<site>`` is
    ``(line, text, counted)``: ``counted`` names the target of every call site of the script if each
    runs once (none in a loop or a branch), else ``None``."""

    def __init__(self) -> None:
        self.sites: list[ast.Constant] = []
        self.targets: list[str | None] = []  # each site's target, by name
        self.straight = True  # the statement being visited runs once
        self.statement: ast.stmt | None = None  # the top-level statement being visited

    def site(self, call: ast.Call) -> ast.Constant:
        text = ast.unparse(call)
        text = text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"
        constant = ast.Constant((call.lineno, text, None))
        self.sites.append(constant)
        target = call.func.value  # type: ignore[attr-defined]
        self.targets.append(target.id if isinstance(target, ast.Name) and self.straight else None)
        return constant

    def counted(self) -> None:
        """Fill each site's ``counted`` once every site is known."""
        counted = None if None in self.targets else tuple(self.targets)
        for constant in self.sites:
            constant.value = (*constant.value[:2], counted)

    def routed(self, call: ast.Call, via: ast.expr) -> ast.Call:
        site = self.site(call)
        target, method = call.func.value, ast.Constant(call.func.attr)  # type: ignore[attr-defined]
        return ast.copy_location(ast.Call(via, [site, target, method, *call.args], call.keywords), call)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if _is_asyncio_run(node):
            return ast.copy_location(ast.Await(node.args[0]), node)  # the script runs on the loop already
        if not _is_method_call(node, GRAPH_METHODS):
            return node
        call = self.routed(node, ast.Name(CALLS_NAME, ast.Load()))
        if node.func.attr in AWAITED_BY_PROGRAM:  # type: ignore[attr-defined]
            return call  # (``await graph.ainvoke(...)``: the program awaits it)
        return ast.copy_location(ast.Await(call), node)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> ast.AST:
        if not _is_method_call(node.iter, ITERATED):
            return self.generic_visit(node)
        call: ast.Call = node.iter  # type: ignore[assignment]
        call.args = [self.visit(arg) for arg in call.args]
        call.keywords = [self.visit(keyword) for keyword in call.keywords]
        call.func.value = self.visit(call.func.value)  # type: ignore[attr-defined]
        straight, self.straight = self.straight, node is self.statement  # (a top-level for's iter runs once)
        chunks = self.routed(call, ast.Attribute(ast.Name(CALLS_NAME, ast.Load()), "stream_of", ast.Load()))
        self.straight = False  # (its body runs any number of times)
        body = [self.visit(statement) for statement in node.body]
        orelse = [self.visit(statement) for statement in node.orelse]
        self.straight = straight
        iterated = ast.Name(ITERATOR_NAME, ast.Load())
        loop = ast.copy_location(ast.AsyncFor(node.target, iterated, body, orelse, type_comment=None), node)
        closing = ast.withitem(chunks, ast.Name(ITERATOR_NAME, ast.Store()))
        return ast.copy_location(ast.AsyncWith([closing], [loop], type_comment=None), node)

    visit_AsyncFor = visit_For  # type: ignore[assignment]

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a function's own calls are its own: an await there would not compile

    visit_Lambda = visit_FunctionDef  # type: ignore[assignment]

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        """An ``async def`` of the script (``async def main()``, run with ``asyncio.run``): its graph
        calls are the script's too (they may be made any number of times: not counted ahead)."""
        straight, self.straight = self.straight, False
        self.generic_visit(node)
        self.straight = straight
        return node


def compile_script(tree: ast.Module, start: int | None) -> CodeType | None:
    """The script part of ``tree`` (the statements from ``start`` on and every ``__main__`` block's
    body, in order), its graph calls awaited; ``None`` if the program has none."""
    statements: list[ast.stmt] = []
    for index, statement in enumerate(tree.body):
        if is_main(statement):
            statements.extend(statement.body)  # type: ignore[attr-defined]
        elif start is not None and index >= start:
            statements.append(statement)
    if not statements:
        return None
    awaiting = _AwaitGraphCalls()
    script = []
    for statement in copy.deepcopy(statements):  # (``tree`` itself stays as parsed)
        awaiting.straight, awaiting.statement = isinstance(statement, SIMPLE_STATEMENTS), statement
        script.append(awaiting.visit(statement))
    awaiting.counted()
    module = ast.fix_missing_locations(ast.Module(script, type_ignores=[]))
    return compile(module, PROGRAM_FILE, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


@dataclass
class ScriptResult:
    """What the script printed, how many runs it made, and the exception that stopped it (if one did)."""

    output: str
    runs: int
    error: Exception | None = None


async def run_script(
    code: CodeType,
    namespace: dict[str, Any],
    calls: ScriptCalls,
    on_output: Callable[[str], None] = lambda text: None,
    printed_before: str = "",
) -> ScriptResult:
    """Run ``code`` (:func:`compile_script`) in the program's module ``namespace``, its graph calls
    answered by ``calls``; its ``print`` writes into the result (and tells ``on_output`` at once), and
    so does an exception that stops it. ``printed_before``: what the program printed while it loaded
    (its top level before the script), the start of the output."""
    printed = io.StringIO(printed_before)
    printed.seek(0, io.SEEK_END)
    if printed_before:
        on_output(printed_before)

    def script_print(*args: Any, **kwargs: Any) -> None:
        if kwargs.get("file") is not None:
            print(*args, **kwargs)
            return
        line = io.StringIO()
        print(*args, **kwargs, file=line)
        printed.write(line.getvalue())
        on_output(line.getvalue())

    namespace.update({CALLS_NAME: calls, "print": script_print})
    calls.namespace = namespace
    error = None
    try:
        with langgraph_resolves_to_lab():  # a script may import from langgraph too
            result = eval(code, namespace)  # noqa: S307 - the learner's own program, in its own module
            if code.co_flags & CO_COROUTINE:
                await result
    except Exception as raised:
        error = raised
    finally:
        namespace.pop("print", None)
    return ScriptResult(printed.getvalue(), calls.runs, error)


class ScriptRun:
    """One run of the script, which the learner may step through: it runs in a task of its own, and
    :meth:`until_it_waits` answers when it waits at the pace's next stop (``calls.pace``) or ends."""

    def __init__(
        self,
        code: CodeType,
        namespace: dict[str, Any],
        calls: ScriptCalls,
        on_output: Callable[[str], None],
        printed_before: str = "",
    ) -> None:
        self.calls = calls
        self.task = asyncio.ensure_future(run_script(code, namespace, calls, on_output, printed_before))

    @property
    def ended(self) -> bool:
        return self.task.done()

    async def until_it_waits(self) -> ScriptResult | dict[str, Any]:
        """The script's result once it ends, or where it waits (``ScriptPace.waiting``)."""
        stopped = self.calls.pace.stopped
        await asyncio.wait({self.task, stopped}, return_when=asyncio.FIRST_COMPLETED)
        return self.task.result() if self.task.done() else stopped.result()

    async def go(self, pace: str) -> ScriptResult | dict[str, Any]:
        """Let the waiting script go on at ``pace``; answer when it waits again or ends."""
        self.calls.pace.go(pace)
        return await self.until_it_waits()

    async def cancel(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
