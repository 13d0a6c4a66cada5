"""A program's own script, run as written: its LangGraph calls (``invoke``, ``get_state``, ...) on the lab.

A LangGraph program usually ends with a script: ``graph.invoke(...)`` on a thread, perhaps twice (the
second turn reads the first from the checkpointer), ``graph.get_state(config)``, ``print(...)``. On
LangGraph each call is synchronous; in the browser the lab's graph runs on the worker's event loop,
which a synchronous call cannot wait for. So the script part of the program (the top-level lines
:func:`~lab.playground.program.script_start` keeps from loading, and the bodies of
``if __name__ == "__main__":``) is compiled with each call of a graph method awaited
(:func:`compile_script`: ``graph.invoke(x, config)`` becomes ``await <calls>(graph, "invoke", x,
config)``, on the program's own lines, so an exception is reported at its line), and
:class:`ScriptCalls` answers a call on the program's graph with the lab's controller, as LangGraph's
own methods would:

- ``invoke`` (``ainvoke``): the controller's ``invoke`` command on the script's thread, a run the
  page's instruments follow, then the thread's values, as ``invoke`` returns them;
- ``get_state`` / ``update_state`` (and their ``a`` twins): the lab graph's ``aget_state`` /
  ``aupdate_state`` on that thread;
- ``stream`` (``astream``): one run, its values once it ends (one chunk: ``stream_mode="values"``'s last).

Each thread id of the script is a thread of the lab's own (``<id>-<6 hex>``): a second run of the
script starts its conversation afresh, while the lab keeps the first one's checkpoints. What the
script prints is kept, in order, for the page (its ``print`` writes there, nowhere else).
"""

from __future__ import annotations

import ast
import copy
import io
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from inspect import CO_COROUTINE, isawaitable
from types import CodeType
from typing import Any, Protocol

from lab.controller import thread_reading as read
from lab.diagram import AnyGraph
from lab.func import EntrypointGraph
from lab.playground.langgraph_imports import langgraph_resolves_to_lab
from lab.playground.problems import PROGRAM_FILE

__all__ = [
    "CALLS_NAME",
    "GRAPH_METHODS",
    "ScriptCalls",
    "ScriptFailed",
    "ScriptResult",
    "compile_script",
    "run_script",
]

CALLS_NAME = "__lab_script_calls__"
"""The name the compiled script calls its graph methods through (:class:`ScriptCalls`)."""
GRAPH_METHODS = {
    "invoke": "invoke",
    "ainvoke": "invoke",
    "stream": "stream",
    "astream": "stream",
    "get_state": "get_state",
    "aget_state": "get_state",
    "update_state": "update_state",
    "aupdate_state": "update_state",
}
"""The graph methods a script may call, by the call that answers each."""
NO_THREAD = (
    "Checkpointer requires one or more of the following 'configurable' keys: thread_id, checkpoint_ns, "
    "checkpoint_id"
)
"""LangGraph's words when a graph with a checkpointer is called without a thread."""


def is_main(statement: ast.stmt) -> bool:
    """``if __name__ == "__main__":``, which the program's module (named otherwise) never runs."""
    test = statement.test if isinstance(statement, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


class _AwaitGraphCalls(ast.NodeTransformer):
    """``x.invoke(...)`` -> ``await __lab_script_calls__(x, "invoke", ...)``, outside nested functions."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not (isinstance(node.func, ast.Attribute) and node.func.attr in GRAPH_METHODS):
            return node
        target, method = node.func.value, ast.Constant(node.func.attr)
        call = ast.Call(ast.Name(CALLS_NAME, ast.Load()), [target, method, *node.args], node.keywords)
        return ast.copy_location(ast.Await(ast.copy_location(call, node)), node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a function's own calls are its own: an await there would not compile

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]
    visit_Lambda = visit_FunctionDef  # type: ignore[assignment]


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
    script = ast.Module(copy.deepcopy(statements), type_ignores=[])  # (``tree`` itself stays as parsed)
    module = ast.fix_missing_locations(_AwaitGraphCalls().visit(script))
    return compile(module, PROGRAM_FILE, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


class Controller(Protocol):
    """The lab's controller as the script's calls need it."""

    state: Any

    async def dispatch(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]: ...


class ScriptFailed(Exception):
    """A run the script started failed (a node raised): the script stops there, as on LangGraph."""


class ScriptCalls:
    """The script's calls of the program's graph, answered by the lab's controller (see the module
    docstring); a call on any other object is that object's own."""

    def __init__(self, controller: Controller, graph: AnyGraph, durability: str = "async") -> None:
        self.controller = controller
        self.graph = graph  # the program's own graph: the object the script calls
        self.durability = durability  # the lab threads' (the page's choice)
        self.threads: dict[str, str] = {}  # the script's thread id -> the lab's
        self.runs = 0

    async def __call__(self, target: Any, method: str, /, *args: Any, **kwargs: Any) -> Any:
        if target is not self.graph:
            result = getattr(target, method)(*args, **kwargs)
            return await result if isawaitable(result) else result
        answer: Callable[..., Any] = getattr(self, GRAPH_METHODS[method])
        return await answer(*args, **kwargs)

    async def command(self, name: str, **args: Any) -> dict[str, Any]:
        answer = await self.controller.dispatch(name, args)
        if not answer["ok"]:
            raise ScriptFailed(answer["error"]["message"])
        return answer["result"]

    async def thread(self, config: dict[str, Any] | None) -> dict[str, Any]:
        """Open the lab's thread for the script's ``config`` (started at its first call); its config."""
        thread = ((config or {}).get("configurable") or {}).get("thread_id")
        if thread is None:
            raise ValueError(NO_THREAD)
        lab_thread = self.threads.get(str(thread))
        if lab_thread is None:
            lab_thread = self.threads[str(thread)] = f"{thread}-{uuid.uuid4().hex[:6]}"
            await self.command("start", case_id="default", thread_id=lab_thread, durability=self.durability)
        elif self.controller.state.session.thread_id != lab_thread:
            await self.command("open", thread_id=lab_thread)
        return {"configurable": {"thread_id": lab_thread}}

    def lab_graph(self) -> AnyGraph:
        return read.graph(self.controller)  # type: ignore[arg-type]

    async def invoke(self, input: Any, config: dict[str, Any] | None = None, **_: Any) -> Any:
        lab_config = await self.thread(config)
        outcome = await self.command("invoke", input=input)
        self.runs += 1
        if outcome["status"] == "error":
            raise ScriptFailed(outcome["error"]["message"])
        snapshot = await self.lab_graph().aget_state(lab_config)
        interrupts = {"__interrupt__": list(snapshot.interrupts)} if snapshot.interrupts else {}
        if isinstance(self.graph, EntrypointGraph):  # what its function returned, or only the interrupts
            return interrupts or snapshot.values
        return {**snapshot.values, **interrupts}

    async def stream(self, input: Any, config: dict[str, Any] | None = None, **kwargs: Any) -> list[Any]:
        return [await self.invoke(input, config, **kwargs)]

    async def get_state(self, config: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        return await self.lab_graph().aget_state(await self.thread(config), **kwargs)

    async def update_state(
        self, config: dict[str, Any] | None, values: Any, as_node: str | None = None
    ) -> Any:
        lab_config = await self.thread(config)
        return await self.lab_graph().aupdate_state(lab_config, values, as_node=as_node)


@dataclass
class ScriptResult:
    """What the script printed, how many runs it made, and the exception that stopped it (if one did)."""

    output: str
    runs: int
    error: Exception | None = None


async def run_script(code: CodeType, namespace: dict[str, Any], calls: ScriptCalls) -> ScriptResult:
    """Run ``code`` (:func:`compile_script`) in the program's module ``namespace``, its graph calls
    answered by ``calls``; its ``print`` writes into the result, and so does an exception that stops it."""
    printed = io.StringIO()

    def script_print(*args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("file", printed)
        print(*args, **kwargs)

    namespace.update({CALLS_NAME: calls, "print": script_print})
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
