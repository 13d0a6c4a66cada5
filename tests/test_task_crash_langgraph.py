"""The ``task`` variant's crash outcomes, per durability mode and crash seam, checked on real LangGraph
with a real process kill, and the same table from the lab (issue 36).

LangGraph's remedy for a charge before ``interrupt()`` is to make it a ``@task``: on resume the node
re-runs from its first line, and the task's result comes back from the checkpoint's pending writes.
What a crash does depends on where it lands:

==================  ======  =======  ======
seam                sync    async    exit
==================  ======  =======  ======
side_effect         1       1        1        (killed before the charge left: it runs once, later)
side_effect_done    2       2        2        (charged; the task's result was never saved)
interrupt           1       1        2        (under "exit" nothing of the run is saved yet)
==================  ======  =======  ======

(charges of the export after resuming and approving). Not compared: a crash at ``put`` (LangGraph
saves on background threads, the checkpoint beside the nodes under "async" and beside the pending
writes in the save on exit, so a kill there lands at no fixed point; the lab saves one after the
other, and its crash at the exit save's ``put`` loses the task's result: charged twice, one of the
orders LangGraph's threads can take). The LangGraph side runs
``tests/task_crash_child.py`` in a child process, SIGKILLs it where it says it stopped, and resumes
in a new process over the same SQLite file; the lab side arms the same seam in the controller's
``task`` variant, crashes, reboots over the same storage and resumes, and its view's row for the
task (``task_calls``, :mod:`lab.controller.task_rows`) says whether it ran or was restored.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.controller_lab import Lab

CHILD = Path(__file__).with_name("task_crash_child.py")
EXPECTED = {
    ("side_effect", "sync"): 1,
    ("side_effect", "async"): 1,
    ("side_effect", "exit"): 1,
    ("side_effect_done", "sync"): 2,
    ("side_effect_done", "async"): 2,
    ("side_effect_done", "exit"): 2,
    ("interrupt", "sync"): 1,
    ("interrupt", "async"): 1,
    ("interrupt", "exit"): 2,
}
"""(seam, durability) -> how many times the export is charged, crash included, once approved."""
MARKER_TIMEOUT_S = 120.0
"""How long the child may take to reach its moment (it signals; this only bounds a broken child)."""


def run_child(folder: Path, durability: str, moment: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(CHILD.parent.parent)}
    return subprocess.Popen(
        [sys.executable, str(CHILD), str(folder), durability, moment],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def wait_for_marker(child: subprocess.Popen[str], marker: Path) -> None:
    """Until the child says it reached its moment (or fail at once if it ended instead)."""
    async with asyncio.timeout(MARKER_TIMEOUT_S):
        while not marker.exists():
            if child.poll() is not None:
                pytest.fail(f"the child ended before its moment: {child.communicate()}")
            await asyncio.sleep(0.05)


async def langgraph_charges(folder: Path, seam: str, durability: str) -> int:
    """Kill a real LangGraph process at ``seam``, resume in a new one, approve: the export's charges."""
    doomed = run_child(folder, durability, seam)
    try:
        await wait_for_marker(doomed, folder / "marker")
    finally:
        doomed.send_signal(signal.SIGKILL)
        doomed.communicate()
    assert doomed.returncode == -signal.SIGKILL
    survivor = run_child(folder, durability, "none")
    out, err = survivor.communicate(timeout=MARKER_TIMEOUT_S)
    assert survivor.returncode == 0, err
    assert json.loads(out)["outcome"] == "filed"
    return len((folder / "charges.log").read_text().splitlines())


@pytest.mark.parametrize(("seam", "durability"), list(EXPECTED))
async def test_langgraph_killed_in_the_task_variant_charges_as_the_table_says(tmp_path, seam, durability):
    assert await langgraph_charges(tmp_path, seam, durability) == EXPECTED[seam, durability]


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


@pytest.mark.parametrize(("seam", "durability"), list(EXPECTED))
async def test_the_lab_crashed_in_the_task_variant_charges_as_langgraph(seam, durability):
    """Same charges as LangGraph's, and the task's row says why: a result saved before the crash is
    restored; one lost to it (killed inside the task, or under "exit" before its save) runs again."""
    charges, states = await lab_charges(seam, durability)
    assert charges == EXPECTED[seam, durability]
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
