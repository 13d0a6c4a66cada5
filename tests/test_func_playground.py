"""LangGraph's remedy for the double charge, in the playground: the charge wrapped in a ``@task``.

The program's ``buy`` node (a plain ``def``) pays for the export through ``lab.world.charge`` inside a
task, then asks for approval. Approving re-runs the node from its top, but the task's saved result
comes back from the checkpoint: one charge. A crash *inside* the task, after the charge and before
its result is saved, is the window the task does not close: the re-run charges again.
"""

from __future__ import annotations

import pytest

from gallery import FOLDER
from lab.playground import load_program
from lab.playground.problems import ProgramError
from lab.world import use_recorder
from tests.test_playground_lab import PlayLab, play

PAYING_TASK = (FOLDER / "charge_in_a_task.py").read_text(encoding="utf-8")
"""The gallery's program: ``buy`` (a plain ``def``) calls the task ``pay_for_export``, then asks."""


async def charges(lab: PlayLab) -> list[int]:
    return [row["amount_cents"] for row in (await lab.do("ledger"))["entries"]]


async def task_states(lab: PlayLab) -> list[tuple[str, str]]:
    """The view's rows for the tasks ``buy`` called in its latest execution (lab.controller.task_rows)."""
    return [(row["name"], row["state"]) for row in (await lab.do("view"))["task_calls"].get("buy", [])]


async def test_approving_re_runs_the_node_but_not_the_task() -> None:
    lab = play(PAYING_TASK)
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default")
        asked = await lab.do("run")
        assert asked["status"] == "interrupted"
        assert await task_states(lab) == [("pay_for_export", "saved")]  # a plain def task, run at its call
        done = await lab.do("answer", value=True)
    assert done["status"] == "done"
    assert done["values"]["receipt"] == "ch_0001"
    assert await charges(lab) == [2500]
    assert await task_states(lab) == [("pay_for_export", "restored")]


Rows = list[tuple[str, str]]


async def crash_in_the_task_at(seam: str) -> tuple[PlayLab, Rows, Rows]:
    """Crash at ``seam`` of ``buy`` (the charge made inside its task ``pay_for_export`` meets the node's
    ``side_effect`` seams: a call site names the node), reboot and resume, then approve; with the task's
    rows after the crash and after the resume."""
    lab = play(PAYING_TASK)
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default", durability="sync")  # (the input is saved before the crash)
        await lab.do("arm_crash", seam=seam, node="buy")
        crashed = await lab.do("run")
        assert (crashed["status"], crashed["crash_point"]["seam"]) == ("crashed", seam)
        await lab.crash_and_reboot()
        after_crash = await task_states(lab)
        asked = await lab.do("resume")
        assert asked["status"] == "interrupted"
        after_resume = await task_states(lab)
        done = await lab.do("answer", value=True)
    assert done["status"] == "done"
    return lab, after_crash, after_resume


async def test_a_crash_before_the_charge_leaves_the_request_unsent() -> None:
    lab, after_crash, _ = await crash_in_the_task_at("side_effect")
    assert await charges(lab) == [2500]
    assert after_crash == [("pay_for_export", "crashed")]


async def test_a_crash_after_the_charge_before_the_task_is_saved_charges_again() -> None:
    lab, after_crash, after_resume = await crash_in_the_task_at("side_effect_done")
    assert await charges(lab) == [2500, 2500]
    assert (after_crash, after_resume) == ([("pay_for_export", "crashed")], [("pay_for_export", "rerun")])


async def test_a_crash_once_the_task_is_saved_does_not_charge_again() -> None:
    """Crashed as the node's interrupt is saved (its task's result was saved before): the node runs
    again on resume, its task's result comes back from the checkpoint."""
    lab, after_crash, after_resume = await crash_in_the_task_at("put_writes")
    assert await charges(lab) == [2500]
    assert (after_crash, after_resume) == ([("pay_for_export", "saved")], [("pay_for_export", "restored")])


def test_an_entrypoint_program_is_refused_by_name_pointing_to_a_node() -> None:
    source = (
        "from langgraph.func import entrypoint\n\n\n"
        "@entrypoint()\ndef workflow(x: int) -> int:\n    return x\n"
    )
    with pytest.raises(ProgramError) as refused:
        load_program(source)
    assert (refused.value.problem.kind, refused.value.problem.params["name"]) == ("entrypoint", "workflow")
