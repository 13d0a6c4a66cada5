"""The ``task`` variant's crash outcomes, per durability mode and kill moment, checked on real LangGraph
with a real process kill, and the same table from the lab (issue 36); with them the tasks lesson's claims
(narratives/*/lessons/tasks.toml).

LangGraph's remedy for a charge before ``interrupt()`` is to make it a ``@task``: on resume the node
re-runs from its first line, and the task's result comes back from the checkpoint's pending writes.
Approve after the review enters ``human_review`` twice and charges the export once. What a kill does
depends on where it lands (the export's charges, kill included, after resuming and approving):

==================  ======  =======  ======
moment              sync    async    exit
==================  ======  =======  ======
side_effect         1       1        1        (killed before the charge left: it runs once, later)
side_effect_done    2       2        2        (charged; the task's result was never saved)
returned            1       1        2        (the task returned: its result is saved, but not under "exit")
interrupt           1       1        2        (under "exit" nothing of the run is saved yet)
==================  ======  =======  ======

After a kill at ``returned`` under "sync" and "async" the file holds three checkpoints and the resume
takes the task's result back (the query is paid once too); under "exit" it holds no checkpoint and no
write, so the re-run pays the query and the export again. Not compared: a crash at ``put`` (LangGraph
saves on background threads, the checkpoint beside the nodes under "async" and beside the pending
writes in the save on exit, so a kill there lands at no fixed point; the lab saves one after the
other, and its crash at the exit save's ``put`` loses the task's result: charged twice, one of the
orders LangGraph's threads can take).

The LangGraph side is ``tests/task_crash_child.py``: one Python that imports LangGraph once and forks a
fresh process per run, which the test SIGKILLs where it says it stopped (so the order is made, not
raced); a new forked process then resumes over the same SQLite file. The lab side arms the same seam
(``returned`` is no seam of the lab) in the controller's ``task`` variant, crashes, reboots over the
same storage and resumes, and its view's row for the task (``task_calls``,
:mod:`lab.controller.task_rows`) says whether it ran or was restored. The lesson's own code is run on
LangGraph by tests/test_lessons_langgraph.py, and its steps on the lab by tests/test_lessons.py.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from tests.controller_lab import Lab

CHILD = Path(__file__).with_name("task_crash_child.py")
MODES = ("sync", "async", "exit")


@dataclass(frozen=True)
class Outcome:
    """What a kill at a moment left, once a new process resumed and approved (``None``: not claimed)."""

    exports: int
    queries: int | None = None
    checkpoints: int | None = None
    """Checkpoints in the file right after the kill."""
    writes: int | None = None
    """Pending writes in the file right after the kill."""


OUTCOMES = {
    **{("side_effect", mode): Outcome(1) for mode in MODES},
    **{("side_effect_done", mode): Outcome(2) for mode in MODES},
    ("returned", "sync"): Outcome(1, queries=1, checkpoints=3),
    ("returned", "async"): Outcome(1, queries=1, checkpoints=3),
    ("returned", "exit"): Outcome(2, queries=2, checkpoints=0, writes=0),
    ("interrupt", "sync"): Outcome(1),
    ("interrupt", "async"): Outcome(1),
    ("interrupt", "exit"): Outcome(2),
}
"""(moment, durability) -> what LangGraph does: the table above."""
LAB_SEAMS = ("side_effect", "side_effect_done", "interrupt")
"""The moments that are crash seams of the lab."""


class LangGraphProcesses:
    """The child: one Python that imported LangGraph, forking a fresh process per run it is sent."""

    def __init__(self) -> None:
        pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE}
        self.server = subprocess.Popen([sys.executable, str(CHILD)], text=True, **pipes)

    def send(self, folder: Path, durability: str, act: str, moment: str | None = None) -> None:
        request = {"folder": str(folder), "durability": durability, "act": act, "moment": moment}
        self.server.stdin.write(json.dumps(request) + "\n")
        self.server.stdin.flush()

    def said(self) -> str:
        line = self.server.stdout.readline()
        if not line:
            pytest.fail(f"the LangGraph child ended: {self.server.wait()}")
        return line.strip()

    def until_exit(self, said: list[str]) -> str:
        """Collect what the forked process prints until it ends: how it ended (``EXIT <code>``)."""
        while not (line := self.said()).startswith("EXIT "):
            said.append(line)
        return line

    def run(self, folder: Path, durability: str, act: str) -> list[str]:
        """A process that runs ``act`` to its end: what it printed."""
        self.send(folder, durability, act)
        said: list[str] = []
        assert self.until_exit(said) == "EXIT 0", said
        return said

    def killed_at(self, folder: Path, durability: str, moment: str) -> None:
        """A process that runs the case until ``moment``, killed there with SIGKILL."""
        self.send(folder, durability, "start", moment)
        said = [self.said()]
        if not said[0].startswith(f"AT {moment} "):
            pytest.fail(f"the process never reached {moment}: {said} {self.until_exit(said)}")
        os.kill(int(said[0].split()[-1]), signal.SIGKILL)
        assert self.until_exit(said) == f"EXIT {-signal.SIGKILL}", said

    def close(self) -> None:
        self.server.stdin.close()
        assert self.server.wait(timeout=60) == 0


@pytest.fixture(scope="module")
def langgraph() -> Iterator[LangGraphProcesses]:
    processes = LangGraphProcesses()
    yield processes
    processes.close()


class Thread:
    """One thread's files: the SqliteSaver file and the ledger (what the paid API charged)."""

    def __init__(self, folder: Path) -> None:
        self.db, self.ledger = folder / "thread.sqlite", folder / "ledger.txt"
        self.ledger.touch()

    def count(self, line: str) -> int:
        return self.ledger.read_text().splitlines().count(line)

    def saved(self, table: str) -> int:
        """Rows of SqliteSaver's ``checkpoints`` or ``writes`` table (none before its first save)."""
        if not self.db.exists():
            return 0
        with sqlite3.connect(self.db) as db:
            found = db.execute("select name from sqlite_master where name = ?", (table,)).fetchone()
            return db.execute(f"select count(*) from {table}").fetchone()[0] if found else 0


@pytest.mark.parametrize("mode", MODES)
def test_approve_runs_the_node_again_and_the_task_once(langgraph, tmp_path, mode):
    """tasks/approve: human_review is entered twice, the export is charged once."""
    thread = Thread(tmp_path)
    assert langgraph.run(tmp_path, mode, "start") == ["INTERRUPTED"]
    assert langgraph.run(tmp_path, mode, "approve") == ["DONE True"]
    assert (thread.count("enter human_review"), thread.count("charge export")) == (2, 1)


@pytest.mark.parametrize(("moment", "durability"), list(OUTCOMES))
def test_langgraph_killed_in_the_task_variant_charges_as_the_table_says(
    langgraph, tmp_path, moment, durability
):
    """Kill a real LangGraph process at ``moment``; a new one resumes (or runs, when nothing was saved)
    and approves. tasks/crash and resume: a kill after the charge, before the task's result is saved,
    charges again in every mode; tasks/saved-crash and exit-crash: a kill once the task returned charges
    again only under "exit"."""
    thread = Thread(tmp_path)
    langgraph.killed_at(tmp_path, durability, moment)
    checkpoints, writes = thread.saved("checkpoints"), thread.saved("writes")
    assert langgraph.run(tmp_path, durability, "finish") == ["INTERRUPTED", "DONE True"]
    seen = {
        "exports": thread.count("charge export"),
        "queries": thread.count("charge query"),
        "checkpoints": checkpoints,
        "writes": writes,
    }
    want = OUTCOMES[moment, durability]
    claimed = {f.name: getattr(want, f.name) for f in fields(Outcome) if getattr(want, f.name) is not None}
    assert {name: seen[name] for name in claimed} == claimed


async def export_task_states(lab: Lab) -> list[tuple[str, str]]:
    """The rows the view gives ``human_review``'s calls (of ``buy_export``): task id and state."""
    rows = (await lab.view())["task_calls"].get("human_review", [])
    assert {row["name"] for row in rows} <= {"buy_export"}
    return [(row["task_id"], row["state"]) for row in rows]


async def lab_charges(seam: str, durability: str) -> tuple[int, list[list[str]]]:
    """The same crash in the lab's ``task`` variant (at ``seam`` of human_review; ``put``: of the step):
    the export's charges in the ledger, and the task's rows after the crash, after the resume
    (re-asked) and after the approval."""
    lab = Lab()
    await lab.do("start", case_id="S-1001", variant="task", durability=durability, thread_id="t")
    await lab.do("arm_crash", seam=seam, **({} if seam == "put" else {"node": "human_review"}))
    assert (await lab.do("run"))["status"] == "crashed"
    await lab.crash_and_reboot()
    rows = [await export_task_states(lab)]
    saved = await lab.frames()  # nothing saved ("exit"): the thread starts again from its input
    resumed = await lab.do("resume" if saved else "run")
    assert resumed["status"] == "interrupted", resumed
    rows.append(await export_task_states(lab))
    assert (await lab.do("answer", approve=True))["status"] == "done"
    rows.append(await export_task_states(lab))
    exports = [e for e in await lab.world.entries() if e["purpose"] == "case-pack export"]
    assert all(not e["replayed"] for e in exports)  # no key: every request that got out was charged
    assert [tid for tid, _ in rows[2]] == [tid for tid, _ in rows[1]]  # the approval's re-run: same call
    return len(exports), [[state for _, state in states] for states in rows]


ROWS = {
    "lost": [["crashed"], ["rerun"], ["restored"]],
    "saved": [["saved"], ["restored"], ["restored"]],
    "not called yet": [[], ["saved"], ["restored"]],
}
"""The task's row after the crash, the resume and the approval, as the crash left its result."""


@pytest.mark.parametrize(("seam", "durability"), [key for key in OUTCOMES if key[0] in LAB_SEAMS])
async def test_the_lab_crashed_in_the_task_variant_charges_as_langgraph(seam, durability):
    """Same charges as LangGraph's, and the task's row says why: a result saved before the crash is
    restored; one lost to it (killed inside the task, or under "exit" before its save) runs again."""
    charges, states = await lab_charges(seam, durability)
    assert charges == OUTCOMES[seam, durability].exports
    assert states == ROWS["lost" if charges == 2 or seam.startswith("side_effect") else "saved"]


@pytest.mark.parametrize(
    ("durability", "charges", "rows"), [("sync", 1, "not called yet"), ("exit", 2, "lost")]
)
async def test_the_lab_crashed_at_the_first_put_in_the_task_variant(durability, charges, rows):
    """The first ``put`` a run meets: under "sync" the input's (the task is not called yet); under
    "exit" the save on the way out, which stores the checkpoint before the task's result."""
    assert await lab_charges("put", durability) == (charges, ROWS[rows])


@pytest.mark.parametrize("seam", ["side_effect", "side_effect_done"])
async def test_a_crash_inside_the_task_is_said_to_be_inside_it(seam):
    """The two side-effect seams of human_review strike inside its task: the crash names the task,
    and the task's row says it crashed there."""
    lab = Lab()
    await lab.do("start", case_id="S-1001", variant="task", durability="sync", thread_id="t")
    await lab.do("arm_crash", seam=seam, node="human_review")
    crashed = (await lab.do("run"))["crash_point"]
    assert (crashed["node"], crashed["in_task"]) == ("human_review", "buy_export")
    await lab.crash_and_reboot()
    [row] = (await lab.view())["task_calls"]["human_review"]
    assert row["task_id"] == crashed["in_task_id"]
    assert (row["reason"]["code"], row["reason"]["params"]) == ("task.crashed_inside", {"seam": seam})


async def test_a_crash_in_the_node_outside_its_task_names_no_task():
    lab = Lab()
    await lab.do("start", case_id="S-1001", variant="misplaced", durability="sync", thread_id="t")
    await lab.do("arm_crash", seam="side_effect_done", node="human_review")
    assert "in_task" not in (await lab.do("run"))["crash_point"]


async def test_the_task_variant_charges_once_without_a_crash():
    lab = Lab()
    await lab.do("start", case_id="S-1001", variant="task", durability="sync", thread_id="t")
    assert (await lab.do("run"))["status"] == "interrupted"
    [asked] = (await lab.view())["task_calls"]["human_review"]
    assert asked["state"] == "saved" and asked["reason"]["params"]["checkpoint"]
    assert (await lab.do("answer", approve=True))["status"] == "done"
    [approved] = (await lab.view())["task_calls"]["human_review"]
    assert (approved["state"], approved["task_id"], approved["name"]) == (
        "restored",
        asked["task_id"],
        "buy_export",
    )
    assert approved["run"] == asked["run"] + 1
    exports = [e for e in await lab.world.entries() if e["purpose"] == "case-pack export"]
    assert len(exports) == 1
    log = [e["message"]["code"] for e in (await lab.view())["activity"]]
    assert log.count("log.task_call") == 1 and log.count("log.task_restored") == 1


async def test_a_node_without_tasks_has_no_task_rows():
    lab = Lab()
    await lab.do("start", case_id="S-1001", variant="misplaced", durability="sync", thread_id="t")
    assert (await lab.do("run"))["status"] == "interrupted"
    assert (await lab.view())["task_calls"] == {}
