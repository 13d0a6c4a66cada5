"""The tasks lesson's claims (narratives/*/lessons/tasks.toml), checked on real LangGraph with a real
process kill (issue 36): the export bought in a ``@task`` before ``interrupt()`` is charged once on
Approve though ``human_review`` runs again from its first line; a SIGKILL after the charge and before
the task's result is saved charges it again, in every durability mode; a SIGKILL once the task returned
charges it again only under ``"exit"``, which saves nothing (the task's result included) before the run
stops, while ``"sync"`` and ``"async"`` have saved the task's result by then.

Each process is tests/lesson_task_crash_child.py over one SqliteSaver file and one ledger file (what
the paid API charged). The kill comes at a marked point: the child prints where it stands and waits;
the test kills it with SIGKILL there, so the order is made, not raced. The lesson's own code is run
on LangGraph by tests/test_lessons_langgraph.py, and its steps on the lab by tests/test_lessons.py.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = Path(__file__).with_name("lesson_task_crash_child.py")
MODES = ("sync", "async", "exit")


class Case:
    """One thread's files, and the processes run on them one after another."""

    def __init__(self, folder: Path, durability: str) -> None:
        self.db, self.ledger, self.durability = folder / "thread.sqlite", folder / "ledger.txt", durability
        self.ledger.touch()

    def command(self, act: str, mark: str | None = None) -> list[str]:
        files = [str(self.db), str(self.ledger)]
        return [sys.executable, str(CHILD), *files, self.durability, act, *([mark] if mark else [])]

    def run(self, act: str) -> str:
        """A process that runs ``act`` to its end: what it printed last."""
        done = subprocess.run(self.command(act), capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().splitlines()[-1]

    def killed_at(self, act: str, mark: str) -> None:
        """A process that runs ``act`` until ``mark``, killed there with SIGKILL."""
        pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        child = subprocess.Popen(self.command(act, mark), text=True, **pipes)
        said = child.stdout.readline().strip()  # ends when the child reaches the mark, or dies
        if said != f"AT {mark}":
            child.kill()
            raise AssertionError(f"the child never reached {mark}: {said!r} {child.communicate()[1]}")
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=60) == -signal.SIGKILL

    def count(self, line: str) -> int:
        return self.ledger.read_text().splitlines().count(line)

    def saved(self, table: str) -> int:
        """Rows of SqliteSaver's ``checkpoints`` or ``writes`` table."""
        with sqlite3.connect(self.db) as db:
            return db.execute(f"select count(*) from {table}").fetchone()[0]

    def checkpoints(self) -> int:
        return self.saved("checkpoints")

    def finish(self) -> None:
        """A new process goes on as the lab's Resume (or Run, when nothing was saved), then approves."""
        act = "resume" if self.checkpoints() else "start"
        assert self.run(act) == "INTERRUPTED"
        assert self.run("approve") == "DONE True"


@pytest.mark.parametrize("mode", MODES)
def test_approve_runs_the_node_again_and_the_task_once(tmp_path, mode):
    """tasks/approve: human_review is entered twice, the export is charged once."""
    case = Case(tmp_path, mode)
    assert case.run("start") == "INTERRUPTED"
    assert case.run("approve") == "DONE True"
    assert (case.count("enter human_review"), case.count("charge export")) == (2, 1)


@pytest.mark.parametrize("mode", MODES)
def test_a_kill_after_the_charge_and_before_the_tasks_result_is_saved_charges_again(tmp_path, mode):
    """tasks/crash and resume: the window exists in every mode: the task runs again, pays again."""
    case = Case(tmp_path, mode)
    case.killed_at("start", "charged")
    case.finish()
    assert case.count("charge export") == 2


@pytest.mark.parametrize(("mode", "exports", "queries"), [("sync", 1, 1), ("async", 1, 1), ("exit", 2, 2)])
def test_a_kill_after_the_task_returned_charges_again_only_under_exit(tmp_path, mode, exports, queries):
    """tasks/saved-crash and exit-crash: under sync and async the task's result is saved while the node
    still runs (the child waits for it in the file before the kill), and the resume takes it back; under
    exit the kill leaves no checkpoint and no write, so the re-run pays the query and the export again."""
    case = Case(tmp_path, mode)
    case.killed_at("start", "returned")
    assert case.checkpoints() == (0 if mode == "exit" else 3)
    if mode == "exit":
        assert case.saved("writes") == 0  # the task's result neither
    case.finish()
    assert (case.count("charge export"), case.count("charge query")) == (exports, queries)
