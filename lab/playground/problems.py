"""What went wrong with a learner's program, at its line: the editor marks it, the page says it.

LangGraph reports a failing program as Python does, with a traceback whose last line is the
exception (``ValueError: boom``). The playground keeps those words and adds where: the line and
column of the program that raised, and what was running there (the program loading, a node, a
router). A :class:`Problem` is plain data; its ``say`` is a coded sentence (``play.<kind>``) that the
page's catalogues say in English or 简体中文, as for every sentence of the controller.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from types import CodeType, TracebackType
from typing import Any, Literal

__all__ = ["PROGRAM_FILE", "TEXTS", "Problem", "ProgramError", "problem", "problem_at_error"]

PROGRAM_FILE = "<playground>"
"""The file name the program is compiled under: the frames of a traceback that are the learner's."""

Kind = Literal[
    "too_large",  # the program is bigger than the playground takes
    "syntax",  # it does not parse
    "load",  # an exception while its top level runs (the imports, building the graph, compile)
    "missing_module",  # it imports a module the browser does not have
    "network_module",  # it imports a client of the network or of an LLM (requests, openai, ...)
    "package_unavailable",  # it imports a package the site serves (pydantic), which could not be downloaded
    "not_in_lab",  # it imports a langgraph module the lab does not re-implement
    "no_graph",  # it compiles no graph
    "not_compiled",  # it builds a StateGraph but never compiles it
    "several_graphs",  # it compiles several that no other runs, none named ``graph`` nor run by its script
    "node",  # an exception inside a node
    "router",  # an exception inside a conditional edge's router
    "run",  # an exception during a run outside the program's nodes and routers (the runtime's own)
    "script",  # an exception in the program's script, run as written (lab.playground.script)
]


TEXTS: dict[Kind, str] = {
    "too_large": "The program is {size} bytes; the playground takes programs of up to {limit} bytes.",
    "syntax": "{error}",
    "load": "The program raised while loading, at line {line}: {error}",
    "missing_module": (
        "The program imports {module}, which the browser does not have: a program here can use "
        "Python's standard library, pydantic, langgraph (answered by lab), LangChain's messages, @tool "
        "and fake chat models (lab's twins) and lab.world. Replace those calls "
        "with plain functions."
    ),
    "package_unavailable": (
        "The program imports {module}, which the lab downloads from this site the first time a program "
        "imports it, and the download failed ({reason}). Connect to the network once: from then on it is "
        "kept for offline use."
    ),
    "not_in_lab": "lab does not re-implement {module}; it has {mirrored}.",
    "network_module": (
        "The program imports {module}, which needs the network: a program here runs in the browser with "
        "no network and no LLM. Replace those calls with plain functions."
    ),
    "no_graph": (
        "The program compiles no graph: build a StateGraph and call its compile() (name it graph), "
        "or decorate a function with @entrypoint()."
    ),
    "not_compiled": "{name} is a StateGraph that is never compiled: add graph = {name}.compile().",
    "several_graphs": (
        "The program compiles {count} graphs ({names}) and its script runs none of them: name the one "
        "to run graph."
    ),
    "node": "Node {name} raised at line {line}: {error}",
    "router": "The router {name} raised at line {line}: {error}",
    "run": "The run failed: {error}",
    "script": "The program's script raised at line {line}: {error}",
}
"""Each kind's English sentence; the page's catalogues hold it as ``py.play.<kind>`` in every language."""

Roles = dict[CodeType, tuple[Kind, str]]
"""The code object of each node and router of a graph -> ``("node" | "router", its name)``."""


@dataclass(frozen=True)
class Problem:
    """One problem: its kind, the English sentence, where (1-based line and column, when known)
    and the sentence's parameters (``error``: the exception in LangGraph's words, ``module``, ...)."""

    kind: Kind
    text: str
    line: int | None = None
    column: int | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """What the page gets: ``{kind, line, column, say: {code, params, text}}``."""
        say = {"code": f"play.{self.kind}", "params": self.params, "text": self.text}
        return {"kind": self.kind, "line": self.line, "column": self.column, "say": say}


class ProgramError(Exception):
    """A program the playground cannot load or run; ``problem`` says what and where."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.text)
        self.problem = problem


def in_langgraphs_words(error: BaseException) -> str:
    """The exception as a traceback's last line says it (``ValueError: boom``), without the notes
    LangGraph adds (the task's name and id) and, for a SyntaxError, without the place (we give it)."""
    detail = error.msg if isinstance(error, SyntaxError) else str(error)
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


@dataclass(frozen=True)
class _ProgramFrame:
    code: CodeType
    line: int | None
    column: int | None


def program_frames(tb: TracebackType | None) -> list[_ProgramFrame]:
    """The traceback's frames that run the learner's code, outermost first (columns 1-based)."""
    frames = []
    for summary, (frame, _) in zip(traceback.extract_tb(tb), traceback.walk_tb(tb), strict=True):
        if summary.filename == PROGRAM_FILE:
            column = summary.colno + 1 if summary.colno is not None else None
            frames.append(_ProgramFrame(frame.f_code, summary.lineno, column))
    return frames


def problem(kind: Kind, line: int | None = None, column: int | None = None, **params: Any) -> Problem:
    """The problem ``kind`` with its English sentence (:data:`TEXTS`) filled from ``params``."""
    return Problem(kind, TEXTS[kind].format(line=line, **params), line, column, {"line": line, **params})


def problem_at_error(error: BaseException, kind: Kind, roles: Roles | None = None, **params: Any) -> Problem:
    """The problem ``kind`` located at the innermost frame of the program that ``error`` passed through
    (a SyntaxError: where the parser stopped), with ``error`` in LangGraph's words.

    ``roles`` maps the code of each node and router to ``("node" | "router", name)``: the innermost
    frame that runs one of them decides the kind (and names it), so a helper function a node calls
    still counts as that node, at the helper's line.
    """
    frames = program_frames(error.__traceback__)
    for frame in reversed(frames):
        if roles and frame.code in roles:
            kind, params["name"] = roles[frame.code]
            break
    if isinstance(error, SyntaxError):
        line, column = error.lineno, error.offset
    else:
        line, column = (frames[-1].line, frames[-1].column) if frames else (None, None)
    return problem(kind, line, column, error=in_langgraphs_words(error), **params)
