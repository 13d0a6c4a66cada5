"""LangGraph's remedy for the double charge, in the playground: the charge wrapped in a ``@task``.

The program's ``review`` node (a plain ``def``) buys the export through ``lab.world.charge`` inside a
task, then asks for approval. Approving re-runs the node from its top, but the task's saved result
comes back from the checkpoint: one charge. A crash *inside* the task, after the charge and before
its result is saved, is the window the task does not close: the re-run charges again.
"""

from __future__ import annotations

from lab.world import use_recorder
from tests.test_playground_lab import PlayLab, play

PAYING_TASK = """\
from typing import TypedDict

from langgraph.func import task
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from lab.world import charge


class Order(TypedDict, total=False):
    item: str
    receipt: str
    approved: bool


@task
def buy(item: str) -> str:
    return charge(12.00, f"export of {item}")["id"]


def review(state: Order) -> dict:
    receipt = buy(state["item"]).result()
    approved = interrupt({"question": f"Approve {receipt}?"})
    return {"receipt": receipt, "approved": approved}


builder = StateGraph(Order)
builder.add_node("review", review)
builder.add_edge(START, "review")
builder.add_edge("review", END)
graph = builder.compile()
"""


async def charges(lab: PlayLab) -> list[int]:
    return [row["amount_cents"] for row in (await lab.do("ledger"))["entries"]]


async def test_approving_re_runs_the_node_but_not_the_task() -> None:
    lab = play(PAYING_TASK, {"item": "a case pack"})
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default")
        asked = await lab.do("run")
        assert asked["status"] == "interrupted"
        done = await lab.do("answer", value=True)
    assert done["status"] == "done"
    assert done["values"]["receipt"] == "ch_0001"
    assert await charges(lab) == [1200]


async def crash_in_the_task_at(seam: str) -> PlayLab:
    """Crash at ``seam`` of ``review`` (the charge made inside its task ``buy`` meets the node's
    ``side_effect`` seams: a call site names the node), reboot and resume, then approve."""
    lab = play(PAYING_TASK, {"item": "a case pack"})
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default", durability="sync")  # (the input is saved before the crash)
        await lab.do("arm_crash", seam=seam, node="review")
        crashed = await lab.do("run")
        assert (crashed["status"], crashed["crash_point"]["seam"]) == ("crashed", seam)
        await lab.crash_and_reboot()
        asked = await lab.do("resume")
        assert asked["status"] == "interrupted"
        done = await lab.do("answer", value=True)
    assert done["status"] == "done"
    return lab


async def test_a_crash_before_the_charge_leaves_the_request_unsent() -> None:
    lab = await crash_in_the_task_at("side_effect")
    assert await charges(lab) == [1200]


async def test_a_crash_after_the_charge_before_the_task_is_saved_charges_again() -> None:
    lab = await crash_in_the_task_at("side_effect_done")
    assert await charges(lab) == [1200, 1200]


async def test_a_crash_once_the_task_is_saved_does_not_charge_again() -> None:
    """Crashed as the node's interrupt is saved (its task's result was saved before): the node runs
    again on resume, its task's result comes back from the checkpoint."""
    lab = await crash_in_the_task_at("put_writes")
    assert await charges(lab) == [1200]
