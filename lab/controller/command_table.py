"""The command table: every command the page may send, by name, and the one door they all go through.

LangGraph's Python API is method calls on a compiled graph (``invoke``, ``get_state``,
``update_state``, ...); LangGraph Server puts the same operations behind named routes. The lab's page
reaches its controller the same way, by name. :data:`COMMANDS` is the one list: each name, the
function that does it (a function of the controller, ``lab``), and what it may change:

- ``read``: nothing a learner did (a lesson check looks at the answer to the last other command);
- ``write``: the thread (``reset``: every thread; ``drop``: a saved one), so it is refused while
  another tab writes the thread (LangGraph assumes one writer per thread);
- ``act``: the lab's own choices (which thread is open, the armed crash).

:func:`dispatch` is generated from it (and from the commands a layer above plugged in): it refuses a name
not in the table, arguments that do not fit the function, and a ``write`` while another tab writes; it
turns any exception into the plain ``{"ok": false, "error"}`` the page shows. The answer to every command
but a read, a refusal included, is kept as the last answer (what a lesson's ``refused`` fact reads).
``static/controller-protocol.mjs`` documents the same commands for the page, and
``tests/test_command_table.py`` checks it against this table.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from lab.controller import observation_commands as observe
from lab.controller import run_commands as runs
from lab.controller import session_commands as sessions
from lab.controller import thread_commands as thread_files
from lab.controller import thread_reading as read
from lab.controller import time_travel as travel
from lab.controller.actions import written_elsewhere
from lab.controller.frames import to_jsonable
from lab.controller.session import error_payload, refused, said
from lab.controller.state import Lab

Access = Literal["read", "write", "act"]


@dataclass(frozen=True)
class Command:
    """One of the page's commands: the function that does it, and what it may change."""

    handler: Callable[..., Awaitable[dict[str, Any]]]
    access: Access


COMMANDS: dict[str, Command] = {
    "catalog": Command(sessions.catalog, "read"),
    "start": Command(sessions.start, "act"),
    "restore": Command(sessions.restore, "read"),
    "threads": Command(sessions.threads, "read"),
    "open": Command(sessions.open_thread, "act"),
    "state": Command(sessions.state, "read"),
    "step": Command(runs.step, "write"),
    "run": Command(runs.run, "write"),
    "invoke": Command(runs.invoke, "write"),
    "resume": Command(runs.resume, "write"),
    "answer": Command(runs.answer, "write"),
    "arm_crash": Command(runs.arm_crash, "act"),
    "disarm_crash": Command(runs.disarm_crash, "act"),
    "frames": Command(travel.frames, "read"),
    "frame": Command(travel.frame, "read"),
    "replay": Command(travel.replay, "write"),
    "fork": Command(travel.fork, "write"),
    "branches": Command(travel.branches, "read"),
    "checkout": Command(travel.checkout, "write"),
    "ledger": Command(observe.ledger, "read"),
    "executions": Command(observe.executions, "read"),
    "view": Command(observe.view, "read"),
    "reset": Command(sessions.reset, "write"),
    "set_writer": Command(sessions.set_writer, "read"),
    # -- issue 10: links, damaged threads, thread files (lab.controller.thread_commands) --
    "link": Command(thread_files.link, "read"),
    "drop": Command(thread_files.drop, "write"),
    "export_thread": Command(thread_files.export, "read"),
    "import_thread": Command(thread_files.import_file, "act"),
    # -- issue 11: the storage panel (lab.controller.storage_panel) --
    "storage": Command(observe.storage, "read"),
    "prune": Command(observe.prune, "write"),
}
"""The page's commands, in the order a lesson meets them. A layer above the controller may plug in
more (``LabController(commands=...)``: the guided lessons' two, ``lab.lessons.commands``)."""

READS = tuple(name for name, command in COMMANDS.items() if command.access == "read")
WRITES = tuple(name for name, command in COMMANDS.items() if command.access == "write")


async def dispatch(lab: Lab, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run the command ``name`` with keyword ``args``: ``{"ok": true, "result"}`` or
    ``{"ok": false, "error": {"type", "message"[, "say", "notes"]}}``, JSON-able, never a traceback."""
    args = args or {}
    command = lab.commands.get(name)
    if command is None:
        error = said(
            "input.unknown_command",
            "Unknown command {name}; the commands are: {commands}",
            name=repr(name),
            commands=", ".join(lab.commands),
        )
        return {"ok": False, "error": error_payload(error)}
    try:
        inspect.signature(command.handler).bind(lab, **args)
    except TypeError as exc:
        refusal = said("input.bad_arguments", "{name}: {problem}", name=name, problem=str(exc))
        return {"ok": False, "error": error_payload(refusal)}
    if command.access == "write" and (reason := written_elsewhere(read.quick_facts(lab))) is not None:
        answer = {"ok": False, "error": error_payload(refused(reason))}
    else:
        answer = await answered(command, lab, args)
    if command.access != "read":
        lab.state.last_answer = {"command": name, "args": args, **answer}
    return answer


async def answered(command: Command, lab: Lab, args: dict[str, Any]) -> dict[str, Any]:
    """The command's result as plain data, or what went wrong as plain data."""
    try:
        read.require_alive(lab)
        result = await command.handler(lab, **args)
    except Exception as exc:
        return {"ok": False, "error": error_payload(exc)}
    return {"ok": True, "result": to_jsonable(result)}
