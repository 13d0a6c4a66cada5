"""The lab serves any graph: the whole command and view surface on graphs that are not the AML one.

The controller takes a compiled graph and its profile (``lab.controller.profile``): which nodes call
the outside world, what a thread starts with, what Approve / Reject resume an interrupt with. Here
two small graphs the lab has never seen run through every command the page sends: one with a
fan-out and a join whose one branch pays the outside world (so the crash picker, the ledger and
the execution counts have something to show), and one that stops at an ``interrupt()``.
"""

from __future__ import annotations

import base64
import operator
from contextvars import ContextVar
from typing import Annotated, Any, TypedDict

import pytest

from lab.config import get_config
from lab.controller.profile import graph_profile
from lab.graph import END, START, CompiledStateGraph, StateGraph
from lab.pregel.seams import Seam
from lab.types import interrupt
from lab.world import PAYMENT
from lab.world.decider import request_row
from tests.controller_lab import Lab

# -- a fan-out and a join, one branch paying the outside world -----------------------------------------


class Basket(TypedDict, total=False):
    items: Annotated[list[str], operator.add]
    paid: Annotated[list[int], operator.add]
    summary: str


step_checkpoint: ContextVar[dict[str, str]] = ContextVar("step_checkpoint")


def follow_steps(thread_id: str) -> Any:
    """The profile's run hook: the nodes learn their thread and their step's checkpoint."""
    where = {"thread_id": thread_id, "checkpoint_id": ""}
    step_checkpoint.set(where)

    async def follow(seam: Seam) -> None:
        if seam.name == "step_start":
            where["checkpoint_id"] = seam.checkpoint_id

    return follow


def build_basket(world: Any, *, checkpointer: Any) -> CompiledStateGraph:
    async def split(state: Basket) -> dict[str, Any]:
        """Hand the basket to both counters."""
        return {"items": ["split"]}

    async def count_fruit(state: Basket) -> dict[str, Any]:
        """Count the fruit (no outside call)."""
        return {"items": ["fruit"]}

    async def buy_bread(state: Basket) -> dict[str, Any]:
        """Buy the bread from the paid API."""
        node, task_id = get_config()["configurable"]["checkpoint_ns"].split(":")
        where = step_checkpoint.get()
        site = {**where, "node": node, "task_id": task_id}
        receipt = await world.request(
            PAYMENT, request_row(PAYMENT, None, **site, amount_cents=300, purpose="bread")
        )
        return {"items": ["bread"], "paid": [receipt["amount_cents"]]}

    async def join(state: Basket) -> dict[str, Any]:
        """Add it all up once both branches are done."""
        return {"summary": f"{len(state['items'])} items, {sum(state.get('paid', []))} cents"}

    builder = StateGraph(Basket)
    builder.add_node("split", split)
    builder.add_node("count_fruit", count_fruit)
    builder.add_node("buy_bread", buy_bread)
    builder.add_node("join", join)
    builder.add_edge(START, "split")
    builder.add_edge("split", "count_fruit")
    builder.add_edge("split", "buy_bread")
    builder.add_edge(["count_fruit", "buy_bread"], "join")
    builder.add_edge("join", END)
    return builder.compile(checkpointer=checkpointer)


BASKET = graph_profile(
    build_basket,
    calls_out=frozenset({"buy_bread"}),
    case_input=lambda case: {"items": []},
    enter_run=follow_steps,
    operations=(PAYMENT,),
)


# -- an interrupt ----------------------------------------------------------------------------------------


class Leave(TypedDict, total=False):
    days: int
    approved: bool


def build_leave(world: Any, *, checkpointer: Any) -> CompiledStateGraph:
    async def ask(state: Leave) -> dict[str, Any]:
        """Ask for three days off."""
        return {"days": 3}

    async def decide(state: Leave) -> dict[str, Any]:
        """The manager decides (interrupt)."""
        return {"approved": interrupt({"question": f"{state['days']} days off?"})}

    builder = StateGraph(Leave)
    builder.add_node("ask", ask)
    builder.add_node("decide", decide)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", "decide")
    builder.add_edge("decide", END)
    return builder.compile(checkpointer=checkpointer)


LEAVE = graph_profile(build_leave, interrupts=frozenset({"decide"}))


@pytest.fixture
async def basket() -> Any:
    yield Lab(profile=BASKET)


def node_ids(view: dict[str, Any]) -> list[str]:
    return [node["id"] for node in view["graph"]["nodes"] if node["kind"] == "node"]


async def test_the_catalog_and_the_crash_picker_come_from_the_graph_and_its_profile(basket: Lab) -> None:
    catalog = await basket.do("catalog")
    assert [case["id"] for case in catalog["cases"]] == ["default"] and catalog["variants"] == ["default"]
    assert catalog["storages"] == ["full"]  # nothing to opt in to DeltaChannel: the form shows no choice
    await basket.do("start", case_id="default", durability="sync")
    view = await basket.view()
    assert node_ids(view) == ["split", "count_fruit", "buy_bread", "join"]
    assert "side_effect" in view["seams"]["nodes"]["buy_bread"]
    assert "side_effect" not in view["seams"]["nodes"]["count_fruit"]
    assert "interrupt" not in view["seams"]["any_node"]
    error = await basket.fail("arm_crash", seam="side_effect", node="count_fruit")
    assert error["say"]["code"] == "crash.no_outside_call"
    assert (await basket.fail("start", case_id="groceries"))["say"]["code"] == "input.unknown_case"
    await basket.do("arm_crash", seam="side_effect", node="buy_bread")
    assert (await basket.view())["actions"]["disarm"]["enabled"]
    assert (await basket.do("disarm_crash"))["armed"] is None


async def test_every_command_the_page_sends_works_on_a_fan_out_and_join(basket: Lab) -> None:
    await basket.do("start", case_id="default", durability="sync", thread_id="basket-1")
    assert (await basket.do("step"))["status"] == "paused"
    done = await basket.do("run")
    assert done["status"] == "done" and done["values"]["summary"] == "3 items, 300 cents"
    view = await basket.view()
    assert view["status"]["phase"] == "done" and not view["actions"]["run"]["enabled"]
    assert {n: c["started"] for n, c in view["executions"]["nodes"].items() if n != "__start__"} == {
        "split": 1,
        "count_fruit": 1,
        "buy_bread": 1,
        "join": 1,
    }
    assert [(row["node"], row["purpose"]) for row in view["ledger"]["entries"]] == [("buy_bread", "bread")]
    frames = view["frames"]
    assert [f["source"] for f in frames] == ["input", "loop", "loop", "loop", "loop"]
    assert frames[3]["caption"]["params"]["nodes"] == "count_fruit, buy_bread"  # the fan-out's step
    first = frames[1]["checkpoint_id"]
    assert (await basket.do("frame", checkpoint_id=first))["frame"]["checkpoint_id"] == first
    forked = await basket.do("fork", checkpoint_id=first, values={"items": ["extra"]})
    assert forked["frame"]["values"]["items"] == ["extra"]
    assert (await basket.do("checkout", checkpoint_id=first))["frame"]["values"]["items"] == []
    replayed = await basket.do("replay", checkpoint_id=first)
    assert replayed["status"] == "done" and replayed["values"]["paid"] == [300]
    assert len((await basket.do("branches"))["branches"]) >= 2
    assert (await basket.do("ledger"))["totals"]["counts"]["charge"] == 2  # the replay bought the bread again
    exported = await basket.do("export_thread")
    await basket.do("drop", thread_id="basket-1")
    assert (await basket.do("threads"))["threads"] == []
    imported = await basket.do("import_thread", data=exported["data"])
    assert imported["session"]["thread_id"] == "basket-1" and base64.b64decode(exported["data"])
    await basket.do("start", case_id="default", thread_id="basket-2")
    assert (await basket.do("open", thread_id="basket-1"))["state"]["values"]["paid"] == [300]
    assert len(await basket.frames()) == len(frames) + 6  # fork, copy, the replay: its fork and 3 steps
    linked = await basket.do("link", thread="basket-1", frame="0")
    assert linked["thread_id"] == "basket-1" and linked["notices"] == []
    assert (await basket.do("state"))["values"]["summary"] == "3 items, 300 cents"
    assert (await basket.do("storage"))["thread"]["thread_id"] == "basket-1"
    assert len((await basket.do("prune"))["thread"]["checkpoints"]) == 1
    assert not (await basket.view())["actions"]["prune"]["enabled"]  # one checkpoint left
    await basket.do("set_writer", writer="elsewhere")
    assert (await basket.view())["status"]["phase"] == "read_only"
    await basket.do("set_writer", writer="here")
    assert (await basket.do("reset"))["threads_deleted"] == 1


async def test_a_crash_after_the_paid_call_reruns_the_branch_and_the_ledger_says_why(basket: Lab) -> None:
    await basket.do("start", case_id="default", durability="sync")
    await basket.do("arm_crash", seam="side_effect_done", node="buy_bread")
    assert (await basket.do("run"))["status"] == "crashed"
    await basket.crash_and_reboot()
    view = await basket.view()
    assert view["status"]["phase"] == "crashed" and view["actions"]["resume"]["enabled"]
    assert (await basket.do("resume"))["status"] == "done"
    ledger = await basket.do("ledger")
    assert ledger["totals"]["counts"]["charge"] == 2
    assert ledger["duplicates"][0]["causes"] == ["crash_rerun"]
    await basket.assert_counts_are_true()


async def test_an_interrupt_of_another_graph_is_answered_with_the_profiles_value() -> None:
    lab = Lab(profile=LEAVE)
    await lab.do("start", case_id="default", durability="sync")
    assert (await lab.do("run"))["status"] == "interrupted"
    view = await lab.view()
    assert view["status"]["phase"] == "waiting"
    assert view["actions"]["approve"]["enabled"] and not view["actions"]["run"]["enabled"]
    assert view["review"]["request"] == {"question": "3 days off?"}
    assert (
        "interrupt" in view["seams"]["nodes"]["decide"] and "interrupt" not in view["seams"]["nodes"]["ask"]
    )
    done = await lab.do("answer", approve=False)
    assert done["status"] == "done" and done["values"] == {"days": 3, "approved": False}
    assert (await lab.view())["status"]["phase"] == "done"


def said(view: dict[str, Any], *path: str) -> str:
    """The English text of the message at ``path`` in ``view``."""
    for key in path:
        view = view[key]
    return view["text"]


async def test_the_status_line_and_the_reasons_name_the_graphs_own_nodes() -> None:
    lab = Lab(profile=LEAVE)
    await lab.do("start", case_id="default", durability="sync", thread_id="leave-1")
    view = await lab.view()
    assert said(view, "status", "message") == (
        "Thread leave-1 is open: Press Run (or Step, one super-step at a time)."
    )
    assert said(view, "actions", "approve", "reason") == (
        "Nothing is waiting for an answer: no node of this thread is stopped at interrupt()"
    )
    await lab.do("run")
    view = await lab.view()
    assert said(view, "status", "message") == (
        "decide called interrupt() and waits for an answer: Press Approve or Reject."
    )
    assert said(view, "actions", "run", "reason") == (
        "The thread waits at decide's interrupt(): approve or reject first"
    )
    assert view["review"]["say"] is None and view["review"]["already_done"] == []
    await lab.do("arm_crash", seam="put_writes", node="decide")
    await lab.do("answer", approve=True)  # the answer is saved, then the process dies
    await lab.crash_and_reboot()
    assert said(await lab.view(), "actions", "approve", "reason") == (
        "The answer to decide's interrupt() is already saved: Resume continues with it"
    )
    await lab.do("resume")
    view = await lab.view()
    assert view["status"]["message"]["code"] == "status.done"  # no outcome: the profile says none
    assert said(view, "status", "message") == "The thread reached END."
    assert said(view, "actions", "run", "reason").startswith("This thread reached END")
    assert [said(node, "say_summary") for node in view["graph"]["nodes"] if node["kind"] == "node"] == [
        "Ask for three days off.",
        "The manager decides (interrupt).",
    ]


async def test_the_ledger_of_another_graph_says_its_rows_as_written(basket: Lab) -> None:
    await basket.do("start", case_id="default", durability="sync")
    await basket.do("run")
    (first,) = (await basket.do("frames"))["frames"][1:2]
    await basket.do("replay", checkpoint_id=first["checkpoint_id"])
    ledger = (await basket.view())["ledger"]
    assert [entry["purpose_say"] for entry in ledger["entries"]] == [
        {"code": "written", "params": {"value": "bread"}, "text": "bread"}
    ] * 2
    (twice,) = ledger["duplicates"]  # one business operation: this thread's bread
    assert twice["operation"] == ["charge", twice["thread_id"], "bread"] and twice["causes"] == ["replay"]


async def test_open_refuses_the_thread_that_is_open_already_and_threads_says_so(basket: Lab) -> None:
    await basket.do("start", case_id="default", thread_id="basket-1")
    await basket.do("start", case_id="default", thread_id="basket-2")
    listed = {thread["thread_id"]: thread["open"] for thread in (await basket.do("threads"))["threads"]}
    assert listed["basket-1"] == {"enabled": True, "reason": None}
    assert listed["basket-2"]["reason"]["text"] == "Thread basket-2 is open already"
    assert (await basket.fail("open", thread_id="basket-2"))["say"]["code"] == "reason.already_open"
    await basket.do("open", thread_id="basket-1")
