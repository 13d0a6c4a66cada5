"""The page's protocol module cannot drift from the controller's one command table.

``lab.controller.command_table.COMMANDS`` is the one list of commands (each with its function and
whether it reads, writes or acts), and the lab page's worker plugs in the lessons' two
(``lab.lessons.commands``); ``static/controller-protocol.mjs`` documents them all for the page.
These tests read the JSDoc and check it against the table: every command, in the table's order,
with the arguments its function takes (optional exactly when the function has a default), and the
same lists of writing and reading commands.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from lab.controller.command_table import COMMANDS
from lab.lessons.commands import LESSON_COMMANDS

TABLE = {**COMMANDS, **LESSON_COMMANDS}
"""The lab page's commands: the controller's table, then the lessons'."""
READS = [name for name, command in TABLE.items() if command.access == "read"]
WRITES = [name for name, command in TABLE.items() if command.access == "write"]

PROTOCOL = Path(__file__).resolve().parents[1] / "static" / "controller-protocol.mjs"


def commands_block() -> str:
    """The JSDoc of ``ControllerCommands``, its ``*`` margins removed."""
    text = PROTOCOL.read_text()
    start = text.rindex("/**", 0, text.index("@typedef {object} ControllerCommands"))
    block = text[start : text.index("*/", start)]
    return "\n".join(line.strip().removeprefix("*") for line in block.splitlines())


def balanced(text: str, start: int) -> str:
    """The ``{...}`` that opens at ``text[start]``, braces balanced."""
    depth = 0
    for index in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[start : index + 1]
    raise AssertionError(f"unbalanced braces after {text[start : start + 40]!r}")


def documented() -> dict[str, dict[str, bool]]:
    """``{command: {argument: optional}}`` from each ``@property {{args: {...}, ...}} name``."""
    block = commands_block()
    found: dict[str, dict[str, bool]] = {}
    for match in re.finditer(r"@property \{", block):
        typed = balanced(block, match.end() - 1)
        name = re.match(r"\s*(\w+)", block[match.end() - 1 + len(typed) :]).group(1)
        args = balanced(typed, typed.index("args: {") + len("args: "))
        top_level = re.sub(r"\{[^{}]*\}|\[[^\[\]]*\]", "", args[1:-1])  # nested types out
        found[name] = {arg: bool(optional) for arg, optional in re.findall(r"(\w+)(\??):", top_level)}
    return found


def taken(name: str) -> dict[str, bool]:
    """``{argument: optional}`` of the command's function (its first parameter is the lab)."""
    parameters = list(inspect.signature(TABLE[name].handler).parameters.values())[1:]
    return {p.name: p.default is not inspect.Parameter.empty for p in parameters}


def listed_after(label: str) -> list[str]:
    """The command names the protocol lists after ``label`` up to the next period."""
    block = " ".join(commands_block().split())
    return re.findall(r"\w+", block[block.index(label) + len(label) :].split(".")[0])


def test_the_protocol_documents_every_command_in_the_tables_order():
    assert list(documented()) == list(TABLE)


@pytest.mark.parametrize("name", list(TABLE))
def test_each_command_is_documented_with_the_arguments_its_function_takes(name):
    assert documented()[name] == taken(name)


def test_the_protocol_lists_the_writing_and_reading_commands_of_the_table():
    assert listed_after("(writes):") == list(WRITES)
    assert listed_after("last other command):") == list(READS)


def test_every_command_that_deletes_or_changes_a_thread_is_a_write():
    """The one-writer refusal applies to them (``drop`` deletes a thread: it once was in neither list)."""
    assert {"step", "run", "resume", "answer", "replay", "fork", "checkout", "reset", "drop", "prune"} <= set(
        WRITES
    )
    assert set(READS).isdisjoint(WRITES)


def test_the_checker_sees_a_missing_argument():
    """The parser reads nested types as one argument each: a real drift would show."""
    assert documented()["arm_crash"] == {"seam": False, "node": True, "step": True, "after": True}
    assert documented()["import_thread"] == {"data": False, "size": True}
