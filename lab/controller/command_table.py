"""The command table: every command the page may send by name, and the one door they all go through.

LangGraph's Python API is method calls on a compiled graph (``invoke``, ``get_state``,
``update_state``, ...); LangGraph Server puts the same operations behind named routes. The lab's page
reaches its controller the same way, by name: :meth:`CommandDispatch.dispatch` refuses a name not in
:data:`COMMANDS`, arguments that do not fit the command, and a command in :data:`WRITES` while another
tab writes the thread (LangGraph assumes one writer per thread). A part of ``LabController``.
"""

from __future__ import annotations

import inspect
from typing import Any

from lab.controller.actions import written_elsewhere
from lab.controller.session import error_payload, refused, said

COMMANDS = (
    "catalog",
    "start",
    "restore",
    "threads",
    "open",
    "state",
    "step",
    "run",
    "resume",
    "answer",
    "arm_crash",
    "disarm_crash",
    "frames",
    "frame",
    "replay",
    "fork",
    "branches",
    "checkout",
    "ledger",
    "executions",
    "view",
    "lesson_command",
    "lesson_check",
    "reset",
    "set_writer",
    # -- issue 10: links, damaged threads, thread files (lab.controller.thread_commands) --
    "link",
    "drop",
    "export_thread",
    "import_thread",
    # -- issue 11: the storage panel (lab.controller.storage_panel) --
    "storage",
    "prune",
)
"""The page's commands, in the order a lesson meets them."""
READS = ("catalog", "restore", "threads", "state", "frames", "frame", "branches", "ledger", "executions")
READS += ("view", "lesson_command", "lesson_check", "set_writer", "link", "export_thread", "storage")
"""Commands that change nothing a learner did: a lesson check looks at the answer to the last other one."""
WRITES = ("step", "run", "resume", "answer", "replay", "fork", "checkout", "reset", "prune")
"""Commands that write the thread (reset: every thread), refused while another tab writes it."""


class CommandDispatch:
    """``dispatch(name, args)``: one command by name (a part of ``LabController``)."""

    async def dispatch(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run the command ``name`` with keyword ``args`` (what the worker calls)."""
        if name not in COMMANDS:
            error = said(
                "input.unknown_command",
                "Unknown command {name}; the commands are: {commands}",
                name=repr(name),
                commands=", ".join(COMMANDS),
            )
            return {"ok": False, "error": error_payload(error)}
        method = getattr(self, name)
        try:
            inspect.signature(method).bind(**(args or {}))
        except TypeError as exc:
            refusal = said("input.bad_arguments", "{name}: {problem}", name=name, problem=str(exc))
            return {"ok": False, "error": error_payload(refusal)}
        if name in WRITES and (reason := written_elsewhere(self._writer_facts())) is not None:
            return {"ok": False, "error": error_payload(refused(reason))}
        answer = await method(**(args or {}))
        if name not in READS:
            self.last_answer = {"command": name, "args": args or {}, **answer}
        return answer
