"""Every lesson's "The same in LangGraph" code, run against real LangGraph (issue 27): the code a step
shows (``Step.code`` in lab/lessons/) is the code run, against tests/lesson_langgraph_prelude.py (the
lab's case graph built with LangGraph's classes), one namespace per lesson, step after step.

A statement whose comment starts with a Python literal states its result: ``graph.get_state(config).next
# ('intake',)`` is asserted equal to what LangGraph returns. A snippet that defines a node function (a
lesson's own ``human_review``) rebuilds ``graph`` with it. Between the snippets, :data:`STORY` plays what
the lab's step does that its code does not show (running to the review, arming the crash) and checks the
step's numbers (what was paid, which nodes ran twice) on LangGraph, as tests/test_lessons.py checks them
on the lab.
"""

from __future__ import annotations

import ast
import linecache
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from lab.lessons import LESSONS, PENDING
from lab.lessons.model import Lesson
from narratives.course import NO_RESULT, comments, stated_result

PRELUDE = Path(__file__).with_name("lesson_langgraph_prelude.py").read_text()

RUN_TO_REVIEW = 'graph.invoke({"case_id": "S-1001"}, config)'
NEW_THREAD = "config = {{'configurable': {{'thread_id': '{}'}}}}; api.requests.clear(); ran.clear()"


def fresh(thread: str) -> str:
    return NEW_THREAD.format(thread)


STORY: dict[tuple[str, str], tuple[str, str]] = {
    # (lesson, step): (before the step's code, after it: the lab's move not shown, and its checks)
    ("checkpoints", "pending-writes"): (
        "crash_in.add('screen_sanctions')",
        "assert ran['fetch_transactions'] == 1",
    ),
    ("threads", "first-thread"): ("", "assert graph.get_state(config).next == ('human_review',)"),
    ("crash", "arm"): ("crash_in.add('screen_sanctions')", ""),
    ("crash", "resume"): ("", "assert sorted(n for n, k in ran.items() if k > 1) == ['screen_sanctions']"),
    ("crash", "ledger"): ("", "assert (api.count(replayed=False), api.paid()) == (2, '14.50')"),
    ("interrupt", "to-review"): ("", f"{RUN_TO_REVIEW}; assert api.paid() == '14.50'"),
    ("interrupt", "approve"): ("", "assert api.paid() == '26.50'"),
    ("interrupt", "why"): ("", "assert ran['human_review'] == 2 and api.count(replayed=False) == 3"),
    ("interrupt", "fixed"): (fresh("case-fixed"), f"{RUN_TO_REVIEW}; assert api.paid() == '2.50'"),
    ("interrupt", "fixed-approve"): ("", "assert api.paid() == '14.50'"),
    ("idempotency", "fixed-crash"): (
        "",
        f"{RUN_TO_REVIEW}\napi.crash_after = 'export'\n"
        "try:\n    graph.invoke(Command(resume={'approved': True}), config)\nexcept Crash:\n    pass\n"
        "else:\n    raise AssertionError('no crash')\nassert api.paid() == '14.50'",
    ),
    ("idempotency", "resume"): ("", "assert (api.count(replayed=True), api.paid()) == (1, '14.50')"),
    ("idempotency", "task-key-crash"): (
        fresh("case-task-key") + "\napi.crash_after = 'query'",
        "assert list(graph.get_state_history(config)) == [] and api.count(replayed=False) == 1",
    ),
    ("idempotency", "task-key-rerun"): (
        "",
        # two keys for one thread and one query: the re-run's task had a new id (a new checkpoint)
        "keys = [key for key in api.receipts if key.startswith('case-task-key:fetch_transactions:')]\n"
        "assert (api.count(replayed=False), api.paid(), len(keys)) == (2, '5.00', 2)",
    ),
    ("idempotency", "business-key-crash"): (
        fresh("case-business-key") + "\napi.crash_after = 'query'",
        "assert list(graph.get_state_history(config)) == [] and api.count(replayed=False) == 1",
    ),
    ("idempotency", "business-key-rerun"): (
        "",
        "assert (api.count(replayed=False), api.count(replayed=True), api.paid()) == (1, 1, '2.50')",
    ),
    ("replay-fork", "finished"): (RUN_TO_REVIEW, "assert (len(sars), api.paid()) == (1, '26.50')"),
    ("replay-fork", "replay"): ("", "assert api.paid() == '38.50'"),
    ("replay-fork", "replay-approve"): ("", "assert len(sars) == 2"),
    ("replay-fork", "fork"): ("", "assert api.paid() == '50.50'"),
    ("replay-fork", "fork-run"): ("", "assert api.paid() == '50.50' and len(sars) == 2"),
    ("edit-past", "to-review"): (
        "",
        f"replaced.clear()\ngraph = build().compile(checkpointer=saver)\n{RUN_TO_REVIEW}\n"
        "values = graph.get_state(config).values\n"
        "assert (len(values['log']), len(values['findings'])) == (5, 1)",
    ),
    ("edit-past", "run"): ("", "assert graph.get_state(config).values['outcome'].startswith('Closed: no')"),
    ("secrets", "input-key"): ("", "assert graph.get_state(other).values['outcome'].startswith('Closed')"),
    ("storage", "to-review"): (RUN_TO_REVIEW, ""),
    ("storage", "back"): ("graph = build().compile(checkpointer=saver)  # the default channels again", ""),
    ("storage", "continue"): ("", "assert sars == ['S-1001']"),
    ("one-writer", "two-tabs"): ("together['human_review'] = threading.Barrier(2)", "together.clear()"),
    ("one-writer", "approve"): (f"{fresh('case-locked')}; sars.clear()\n{RUN_TO_REVIEW}", ""),
    ("subgraphs", "resume"): ("", "assert ran['human_review'] == 2 and sars == ['S-1001']"),
}
for mode, kept in (("sync", 4), ("exit", 0)):
    STORY[("durability", f"{mode}-crash")] = (
        fresh(f"case-{mode}") + "\ncrash_in.add('classify_typology')",
        f"assert len(list(graph.get_state_history(config))) == {kept}",
    )
STORY[("durability", "async-crash")] = (fresh("case-async") + "\ncrash_in.add('classify_typology')", "")
STORY[("durability", "sync-after")] = (
    "",
    "assert not [n for n, k in ran.items() if k > 1 and n != 'classify_typology'] and api.paid() == '14.50'",
)
STORY[("durability", "async-after")] = STORY[("durability", "sync-after")]
STORY |= {
    ("tasks", "to-review"): ("", "assert api.paid() == '14.50'"),
    # human_review ran again from its first line; the task's result came from the pending writes
    ("tasks", "approve"): (
        "",
        "assert (ran['human_review'], api.count(False), api.paid()) == (2, 2, '14.50')",
    ),
    ("tasks", "crash"): (
        fresh("case-task-crash") + "\napi.crash_after = 'export'",
        "assert api.paid() == '14.50'",
    ),
    ("tasks", "resume"): ("", "assert (ran['human_review'], api.paid()) == (2, '26.50')"),
    ("tasks", "saved-crash"): (
        fresh("case-task-saved") + "\ncrash_at_interrupt['human_review'] = True",  # once its result is saved
        "assert api.paid() == '14.50'",
    ),
    ("tasks", "saved-resume"): ("", "assert (ran['human_review'], api.paid()) == (2, '14.50')"),
    ("tasks", "exit-crash"): (
        fresh("case-task-exit") + "\ncrash_at_interrupt['human_review'] = False",  # exit: nothing to wait for
        "assert list(graph.get_state_history(config)) == [] and api.paid() == '14.50'",
    ),
    ("tasks", "exit-rerun"): ("", "assert (ran['fetch_transactions'], api.paid()) == (2, '29.00')"),
}
STORY[("durability", "exit-after")] = (
    "",
    "assert {'intake', 'fetch_transactions', 'screen_sanctions'} <= {n for n, k in ran.items() if k > 1}\n"
    "assert api.paid() == '17.00'",
)


def run_snippet(code: str, namespace: dict[str, Any], where: str) -> int:
    """Run ``code`` statement by statement; assert every stated result. Returns how many were checked."""
    said = {line: comment for line, (_, comment) in comments(code).items()}
    # the snippet's source, where inspect finds a function's (LangGraph reads a node's to find the
    # subgraph it calls, as it reads a learner's module)
    linecache.cache[where] = (len(code), None, code.splitlines(keepends=True), where)
    crash = namespace["Crash"]
    checked = 0
    for statement in ast.parse(code).body:
        expected = stated_result(said.get(statement.end_lineno, ""))
        try:
            if isinstance(statement, ast.Expr) and expected is not NO_RESULT:
                actual = eval(compile(ast.Expression(statement.value), where, "eval"), namespace)
                said_wrong = f"{where}: {ast.unparse(statement)} is {actual!r}, the lesson says {expected!r}"
                assert actual == expected, said_wrong
                checked += 1
            else:
                exec(compile(ast.Module([statement], []), where, "exec"), namespace)
                if isinstance(statement, ast.FunctionDef | ast.ClassDef):
                    rebuild_with(statement.name, namespace)
        except crash:
            namespace["crashes"] += 1
    return checked


def rebuild_with(name: str, namespace: dict[str, Any]) -> None:
    """A snippet defined a function or a class: if it is a node's (``def human_review``), the graph now
    runs it; if it is a state schema (``class DeltaState(CaseState)``), the graph is built on it."""
    if name.endswith("State"):
        builder = namespace["build"](namespace[name], **namespace["replaced"])
        namespace["graph"] = builder.compile(checkpointer=namespace["saver"])
    elif name in namespace["NODES"]:
        namespace["replaced"][name] = namespace[name]
        builder = namespace["build"](**namespace["replaced"])
        namespace["graph"] = builder.compile(checkpointer=namespace["saver"])


def prelude(name: str) -> dict[str, Any]:
    """A fresh copy of the prelude, as module ``name`` (LangGraph reads the state's type hints from
    its module), with the harness's counters."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    namespace = module.__dict__
    exec(compile(PRELUDE, "lesson_langgraph_prelude.py", "exec"), namespace)
    namespace.update(crashes=0, replaced={})
    return namespace


def play(lesson: Lesson) -> int:
    namespace = prelude(f"lesson_langgraph_{lesson.id.replace('-', '_')}")
    checked = 0
    for step in lesson.steps:
        before, after = STORY.get((lesson.id, step.id), ("", ""))
        where = f"{lesson.id}/{step.id}"
        namespace["saver"].dead = False  # the lab's new worker, after a crash
        exec(compile(before, f"{where} (before)", "exec"), namespace)
        armed = bool(namespace["crash_in"] or namespace["crash_at_interrupt"])
        armed = armed or namespace["api"].crash_after is not None
        crashes = namespace["crashes"]
        checked += run_snippet(step.code, namespace, where)
        exec(compile(after, f"{where} (after)", "exec"), namespace)
        if armed and not after:
            came = namespace["crashes"] > crashes or namespace["crash_in"]
            assert came, f"{where}: the armed crash never came"
    return checked


@pytest.mark.parametrize("lesson", LESSONS + PENDING, ids=[lesson.id for lesson in LESSONS + PENDING])
def test_the_langgraph_code_of_every_step_runs_and_returns_what_it_says(lesson: Lesson) -> None:
    assert all(step.code for step in lesson.steps), "every step shows its LangGraph code"
    checked = play(lesson)
    assert checked >= 1, f"lesson {lesson.id}: no stated result was checked against LangGraph"


def test_a_stated_result_that_is_wrong_fails() -> None:
    namespace = prelude("lesson_langgraph_wrong")
    closed = 'graph.invoke({"case_id": "S-1003"}, config)["outcome"]  # \'Closed: no suspicious typology\''
    assert run_snippet(closed, namespace, "ok") == 1
    with pytest.raises(AssertionError, match="the lesson says"):
        run_snippet("graph.get_state(config).next  # ('intake',): wrong on purpose", namespace, "wrong")
