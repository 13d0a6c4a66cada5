"""The resume rule of ``lab.pregel.algo`` on plain data: what a step's saved pending writes mean
when a thread runs again (LangGraph's ``_loop``/``_algo`` do the same across several places)."""

from __future__ import annotations

import operator

from lab.checkpoint.base import ERROR, INTERRUPT, NULL_TASK_ID, RESUME, empty_checkpoint
from lab.pregel import algo
from lab.pregel.algo import INTERRUPT_SEEN
from lab.pregel.channels import BinaryOperatorAggregate, LastValue
from lab.pregel.task import Task
from lab.types import Interrupt


def next_int(current, _channel):
    return 1 if current is None else current + 1


def test_null_writes_apply_as_input_and_task_writes_do_not():
    checkpoint = empty_checkpoint()
    channels = {"log": BinaryOperatorAggregate(list, operator.add), "status": LastValue(str, "status")}
    pending = [(NULL_TASK_ID, "log", ["upd"]), ("task-1", "status", "ignored"), (NULL_TASK_ID, RESUME, "yes")]
    updated = algo.apply_null_writes(checkpoint, channels, pending, next_int, {})
    assert updated == {"log"}
    assert channels["log"].value == ["upd"] and not channels["status"].is_available()
    assert checkpoint["channel_versions"] == {"log": 1}
    assert algo.apply_null_writes(checkpoint, channels, [("task-1", "log", ["x"])], next_int, {}) == set()


def test_only_tasks_that_finished_get_their_writes_back():
    tasks = {
        tid: Task(tid, name, (), {}) for tid, name in (("t1", "done"), ("t2", "asked"), ("t3", "failed"))
    }
    pending = [
        ("t1", "log", ["done"]),
        ("t2", INTERRUPT, [Interrupt("ok?", "i")]),
        ("t3", ERROR, "ValueError('boom')"),
        ("gone", "log", ["from a task not in this step"]),
    ]
    reused = algo.reuse_finished_writes(tasks, pending)
    assert [t.id for t in reused] == ["t1"]
    assert tasks["t1"].writes == [("log", ["done"])]
    assert tasks["t2"].writes == [] and tasks["t3"].writes == []


def test_new_versions_are_the_channels_that_moved_or_appeared():
    stored = {"a": 1, "b": 2}
    assert algo.new_versions({"a": 1, "b": 3, "c": 3}, stored) == {"b": 3, "c": 3}
    assert algo.new_versions(stored, stored) == {}


def test_a_breakpoint_stops_once_until_something_moves_again():
    checkpoint = empty_checkpoint()
    checkpoint["channel_versions"] = {"branch:to:b": 2}
    tasks = [Task("t", "b", ("branch:to:b",), {})]
    assert algo.breakpoint_hit(checkpoint, tasks, ["b"])
    assert algo.breakpoint_hit(checkpoint, tasks, "*")
    assert not algo.breakpoint_hit(checkpoint, tasks, ["c"])
    checkpoint["versions_seen"][INTERRUPT_SEEN] = {"branch:to:b": 2}  # resumed past it
    assert not algo.breakpoint_hit(checkpoint, tasks, ["b"])


def test_a_typed_response_schema_without_pydantic_is_refused_by_name() -> None:
    """The browser without Pydantic: ``interrupt(response_schema=<a type>)`` is refused by name (a JSON
    schema as a dict still works: nothing to validate with)."""
    import subprocess
    import sys
    from pathlib import Path

    script = """
import sys
sys.modules["pydantic"] = None
from dataclasses import dataclass
from typing import Any, TypedDict
from lab.graph import START, StateGraph
from lab.graph.unsupported import NotSupportedError
from lab.types import interrupt

@dataclass
class Decision:
    approved: bool

class State(TypedDict):
    answer: Any

def ask_with(schema):
    graph = StateGraph(State).add_node("ask", lambda s: {"answer": interrupt("ok?", response_schema=schema)})
    return graph.add_edge(START, "ask").compile()

print(ask_with({"type": "boolean"}).invoke({"answer": None})["__interrupt__"][0].response_schema)
try:
    ask_with(Decision).invoke({"answer": None})
except NotSupportedError as refused:
    print(refused)
"""
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    schema, refusal = done.stdout.splitlines()
    assert schema == "{'type': 'boolean'}"
    assert refusal.startswith(
        "lab does not support interrupt(response_schema=<a type>) without pydantic installed"
    )
