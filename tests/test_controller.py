"""The lab controller on CPython with ``InMemorySaver``: every capability of the page, minus the page.

A simulated crash keeps what lives outside the process (saver, world, journal) and replaces the
controller, as the browser replaces the worker. Execution counts are checked against the truth:
each test wraps the compiled node functions of every controller it builds and counts real calls.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from lab.controller import SEAMS

CASE = "S-1001"  # structuring: goes through review to a filed SAR


IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|ch_\d+|sar_\d+")


def shape(frames: list[dict[str, Any]], thread_id: str) -> list[tuple]:
    """What a checkpoint table shows, minus ids, the thread, times and the random tail of versions."""

    def versions(mapping: dict[str, str]) -> dict[str, int]:
        return {k: int(v.partition(".")[0]) for k, v in mapping.items()}

    return [
        (
            f["step"],
            f["source"],
            f["next"],
            IDS.sub("<id>", json.dumps(f["values"], sort_keys=True)).replace(thread_id, "<thread>"),
            versions(f["channel_versions"]),
            {node: versions(seen) for node, seen in f["versions_seen"].items()},
            [(node, channel) for node, channel, _ in f["pending_writes"]],
        )
        for f in frames
    ]


# -- run, step, approve ----------------------------------------------------------------------------------


async def test_full_run_with_approval(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync", thread_id="full")
    asked = await lab.do("run")
    assert asked["status"] == "interrupted" and asked["next"] == ["human_review"]
    assert asked["interrupts"][0]["value"]["question"] == f"File a SAR for {CASE}?"
    done = await lab.do("answer", approve=True)
    assert done["status"] == "done" and done["values"]["outcome"] == "SAR sar_0001 filed"

    frames = await lab.frames()
    assert [f["step"] for f in frames] == [-1, 0, 1, 2, 3, 4, 5, 6]
    assert [f["checkpoint_id"] for f in frames] == [
        e["frame"]["checkpoint_id"] for e in lab.events_of("checkpoint")
    ]
    assert frames[-1]["next"] == [] and frames[3]["next"] == ["classify_typology"]
    assert lab.calls["human_review"] == 2 and lab.calls["file_sar"] == 1
    await lab.assert_counts_are_true()
    assert {e["type"] for e in lab.events} >= {"run_started", "seam", "checkpoint", "writes", "interrupt"}
    assert [e["status"] for e in lab.events_of("run_finished")] == ["interrupted", "done"]
    (interrupt,) = lab.events_of("interrupt")
    assert interrupt["node"] == "human_review" and interrupt["interrupts"] == asked["interrupts"]
    answers = [w for e in lab.events_of("writes") if e["node"] == "<null>" for w in e["writes"]]
    assert answers == [["<null>", "__resume__", {"approved": True}]]


async def test_catalog_describes_the_lab(lab):
    catalog = await lab.do("catalog")
    assert [c["id"] for c in catalog["cases"]] == ["S-1001", "S-1002", "S-1003"]
    assert catalog["seams"] == list(SEAMS)
    assert set(catalog["graphs"]) == {"misplaced", "task-key", "fixed", "subgraph", "task"}
    assert catalog["session"] is None
    assert catalog["storages"] == ["full", "delta"]  # the start form offers both (AML's lists opt in)
    assert (await lab.view())["defaults"]["storage"] == "full"  # LangGraph's default is chosen first


async def test_durability_is_chosen_per_run(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run", durability="exit")
    assert len(await lab.frames()) == 1  # the exit run saved once, at its end
    await lab.do("answer", approve=True)  # the session's default: sync
    assert [f["source"] for f in await lab.frames()] == ["loop"] * 3
    assert [r["durability"] for r in (await lab.do("executions"))["runs"]] == ["exit", "sync"]


@pytest.mark.parametrize("durability", ["sync", "async"])
async def test_step_pauses_once_per_super_step_and_matches_a_normal_run(lab, durability):
    await lab.do("start", case_id=CASE, variant="fixed", durability=durability, thread_id="normal")
    await lab.do("run")
    normal = await lab.frames()

    await lab.do("start", case_id=CASE, variant="fixed", durability=durability, thread_id="stepped")
    seen = []
    while (result := await lab.do("step"))["status"] == "paused":
        seen.append(result["step"])
        assert len(await lab.frames()) == len(seen)  # exactly one new frame per step
    assert result["status"] == "interrupted" and seen == [0, 1, 2, 3, 4, 5]
    assert shape(await lab.frames(), "stepped") == shape(normal, "normal")


async def test_a_paused_run_is_closed_by_time_travel(lab):
    await lab.do("start", case_id=CASE, durability="sync", thread_id="closing")
    for _ in range(3):
        await lab.do("step")
    first = (await lab.frames())[0]
    replayed = await lab.do("replay", checkpoint_id=first["checkpoint_id"])
    assert replayed["status"] == "interrupted"
    assert [e["status"] for e in lab.events_of("run_finished")] == ["stopped", "interrupted"]


# -- the double charge --------------------------------------------------------------------------------


async def test_misplaced_variant_charges_twice_after_approval(lab):
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync")
    await lab.do("run")
    done = await lab.do("answer", approve=True)
    ledger = await lab.do("ledger")
    (duplicate,) = ledger["duplicates"]
    assert duplicate["node"] == "human_review" and duplicate["label"] == "charged ×2"
    assert (
        ledger["totals"]["counts"]["charge"] == 3 and len(done["values"]["charges"]) == 2
    )  # the state saw only one export
    await lab.assert_counts_are_true()


async def test_fixed_variant_charges_once(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    await lab.do("answer", approve=True)
    ledger = await lab.do("ledger")
    assert ledger["duplicates"] == [] and ledger["totals"]["counts"]["charge"] == 2
    assert [e["node"] for e in ledger["entries"] if e["kind"] == "charge"] == [
        "fetch_transactions",
        "human_review",
    ]
    await lab.assert_counts_are_true()


# -- crash and resume -----------------------------------------------------------------------------------


@pytest.mark.parametrize("durability", ["sync", "async"])
async def test_crash_in_screen_after_fetch_finished_restores_fetch(lab, durability):
    await lab.do("start", case_id=CASE, variant="misplaced", durability=durability, thread_id="crash-screen")
    await lab.do("arm_crash", seam="task_finish", node="screen_sanctions")
    crashed = await lab.do("run")
    assert crashed["status"] == "crashed" and crashed["crash_point"]["node"] == "screen_sanctions"
    assert lab.events[-1]["type"] == "crash_point"

    await lab.crash_and_reboot()
    fetch_step = await lab.frame_where(next=["fetch_transactions", "screen_sanctions"])
    assert {node for node, _, _ in fetch_step["pending_writes"]} == {"fetch_transactions"}  # saved in time
    resumed = await lab.do("resume")
    assert resumed["status"] == "interrupted"
    report = await lab.do("executions")
    assert report["last_resume"]["restored"] == ["fetch_transactions"]
    assert report["last_resume"]["rerun"] == ["screen_sanctions"]
    assert lab.calls["fetch_transactions"] == 1 and lab.calls["screen_sanctions"] == 2
    await lab.assert_counts_are_true()
    assert (await lab.do("ledger"))["totals"]["counts"][
        "charge"
    ] == 2  # the query once, the misplaced export once


async def test_a_crash_armed_after_a_sibling_seam_waits_for_it(lab):
    """``after`` orders parallel siblings: fetch_transactions dies at its task_finish only once
    screen_sanctions' writes are saved, so on resume screen is restored and fetch re-runs."""
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync", thread_id="after")
    armed = await lab.do(
        "arm_crash", seam="task_finish", node="fetch_transactions", after=["put_writes", "screen_sanctions"]
    )
    assert armed["armed"]["after"] == ["put_writes", "screen_sanctions"]
    crashed = await lab.do("run")
    assert crashed["status"] == "crashed" and crashed["crash_point"]["node"] == "fetch_transactions"
    await lab.crash_and_reboot()
    fan_out = await lab.frame_where(next=["fetch_transactions", "screen_sanctions"])
    assert {node for node, _, _ in fan_out["pending_writes"]} == {"screen_sanctions"}
    assert (await lab.do("resume"))["status"] == "interrupted"
    report = await lab.do("executions")
    assert (report["last_resume"]["restored"], report["last_resume"]["rerun"]) == (
        ["screen_sanctions"],
        ["fetch_transactions"],
    )


@pytest.mark.parametrize(
    ("after", "message"),
    [
        ("put_writes", "after must be [seam, node], got 'put_writes'"),
        (["put_writes", "nobody"], "Unknown node 'nobody'; the nodes are: intake, fetch_transactions, "),
    ],
)
async def test_arm_crash_refuses_an_after_it_cannot_wait_for(lab, after, message):
    await lab.do("start", case_id=CASE, durability="sync")
    answer = await lab.controller.dispatch("arm_crash", {"seam": "put", "after": after})
    assert not answer["ok"] and answer["error"]["message"].startswith(message)


@pytest.mark.parametrize(("variant", "charges", "replayed"), [("misplaced", 2, 0), ("fixed", 1, 1)])
async def test_crash_between_side_effect_and_saved_writes_reruns_the_node(lab, variant, charges, replayed):
    await lab.do("start", case_id=CASE, variant=variant, durability="sync")
    await lab.do("arm_crash", seam="task_finish", node="fetch_transactions")
    await lab.do("run")
    await lab.crash_and_reboot()
    await lab.do("resume")

    assert (await lab.do("executions"))["last_resume"]["rerun"] == ["fetch_transactions", "screen_sanctions"]
    assert lab.calls["fetch_transactions"] == 2
    await lab.assert_counts_are_true()
    queries = [e for e in (await lab.do("ledger"))["entries"] if e["node"] == "fetch_transactions"]
    assert len(queries) == 2 and len({q["task_id"] for q in queries}) == 1  # the same task, twice
    assert (
        sum(not q["replayed"] for q in queries) == charges and sum(q["replayed"] for q in queries) == replayed
    )
    assert (queries[1]["flag"] == "charged ×2") is (variant == "misplaced")


async def test_a_crash_inside_a_node_before_its_side_effect_charges_nothing_until_the_rerun(lab):
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync")
    await lab.do("arm_crash", seam="side_effect", node="fetch_transactions")
    crashed = await lab.do("run")
    assert crashed["crash_point"]["seam"] == "side_effect"
    await lab.crash_and_reboot()
    assert [e for e in (await lab.do("ledger"))["entries"] if e["node"] == "fetch_transactions"] == []
    await lab.do("resume")
    queries = [e for e in (await lab.do("ledger"))["entries"] if e["node"] == "fetch_transactions"]
    assert len(queries) == 1 and not queries[0]["replayed"]  # the call never left the dead process
    assert lab.calls["fetch_transactions"] == 2
    await lab.assert_counts_are_true()


async def test_a_crashed_controller_refuses_commands(lab):
    await lab.do("start", case_id=CASE, durability="sync")
    await lab.do("arm_crash", seam="task_start", node="intake")
    await lab.do("run")
    error = await lab.fail("frames")
    assert "crashed at task_start of intake" in error["message"]
    await lab.controller.terminate()


# -- durability --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("durability", "kept"), [("sync", [-1, 0, 1, 2]), ("async", [-1, 0, 1]), ("exit", [])]
)
async def test_durability_decides_what_a_crash_leaves(lab, durability, kept):
    """sync: every checkpoint before the crash; async: the last one was still being saved in the
    background when the process died; exit: nothing, a run saves only when it ends."""
    await lab.do("start", case_id=CASE, variant="misplaced", durability=durability)
    await lab.do("arm_crash", seam="task_start", node="classify_typology")
    await lab.do("run")
    await lab.crash_and_reboot()
    assert [f["step"] for f in await lab.frames()] == kept
    if not kept:
        error = await lab.fail("resume")
        assert "Nothing was saved" in error["message"]
        assert (await lab.do("run"))["status"] == "interrupted"  # starts the case over: pays again
        assert lab.calls["fetch_transactions"] == 2
    else:
        assert (await lab.do("resume"))["status"] == "interrupted"
        assert lab.calls["fetch_transactions"] == 1
    await lab.assert_counts_are_true()


async def test_exit_durability_loses_an_answer_given_before_a_crash(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="exit")
    await lab.do("run")
    assert [f["next"] for f in await lab.frames()] == [["human_review"]]  # one checkpoint per run
    await lab.do("arm_crash", seam="task_start", node="file_sar")
    await lab.do("answer", approve=True)
    await lab.crash_and_reboot()
    assert len(await lab.frames()) == 1
    assert (await lab.do("resume"))["status"] == "interrupted"  # the approval never reached storage


# -- time travel and forks -----------------------------------------------------------------------------


async def test_replay_from_an_early_frame_forks_and_reruns_from_there(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    await lab.do("answer", approve=True)
    before = await lab.frames()
    early = await lab.frame_where(next=["classify_typology"])

    replayed = await lab.do("replay", checkpoint_id=early["checkpoint_id"])
    assert replayed["status"] == "interrupted"
    frames = await lab.frames()
    fork = next(f for f in frames if f["source"] == "fork")
    assert fork["parent_id"] == early["checkpoint_id"] and fork["step"] == early["step"] + 1
    assert frames[: len(before)] == before  # the old branch is untouched
    tree = await lab.do("branches")
    assert len(tree["branches"]) == 2 and tree["head"] == frames[-1]["checkpoint_id"]
    assert {b["forked_at"] for b in tree["branches"]} == {early["checkpoint_id"]}
    assert lab.calls["classify_typology"] == 2 and lab.calls["fetch_transactions"] == 1
    await lab.assert_counts_are_true()

    old_leaf = before[-1]
    switched = await lab.do("checkout", checkpoint_id=old_leaf["checkpoint_id"])
    assert switched["frame"]["parent_id"] == old_leaf["parent_id"] and switched["frame"]["source"] == "fork"
    assert switched["frame"]["values"] == old_leaf["values"]
    assert (await lab.do("state"))["checkpoint_id"] == switched["checkpoint_id"]


async def test_fork_with_edited_state_gives_two_branches(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    classified = await lab.frame_where(next=["draft_sar"])

    forked = await lab.do(
        "fork",
        checkpoint_id=classified["checkpoint_id"],
        values={"typology": "none"},
        as_node="classify_typology",
    )
    assert forked["frame"]["source"] == "update" and forked["frame"]["next"] == ["close_case"]
    done = await lab.do("run")
    assert done["status"] == "done" and done["values"]["outcome"] == "Closed: no suspicious typology"

    tree = await lab.do("branches")
    assert len(tree["branches"]) == 2
    head = next(b for b in tree["branches"] if b["is_head"])
    assert forked["checkpoint_id"] in head["path"] and head["forked_at"] == classified["checkpoint_id"]
    detail = await lab.do("frame", checkpoint_id=forked["checkpoint_id"])
    assert detail["diff"]["values"]["changed"]["typology"] == {"before": "structuring", "after": "none"}


# -- plain errors -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ({"case_id": CASE, "thread_id": "x" * 256}, "at most 255"),
        ({"case_id": CASE, "thread_id": 7.5}, "must be text"),
        ({"case_id": "S-9"}, "the seeded cases are"),
        ({"case_id": CASE, "durability": "later"}, "choose one of: sync, async, exit"),
        ({"case_id": CASE, "variant": "sloppy"}, "choose one of: misplaced, task-key, fixed"),
        ({"case_id": CASE, "colour": "red"}, "unexpected keyword argument"),
    ],
)
async def test_start_refuses_bad_input_with_a_clear_message(lab, args, says):
    assert says in (await lab.fail("start", **args))["message"]


async def test_a_thread_id_is_keyed_by_its_text_as_langgraph_savers_key_it(lab):
    """LangGraph's savers key a thread by the text of its id: 42 and "42" are one thread, "" is a thread."""
    assert (await lab.do("start", case_id=CASE, thread_id=42))["session"]["thread_id"] == "42"
    assert (await lab.do("start", case_id=CASE, thread_id=""))["session"]["thread_id"] == ""
    assert (await lab.do("open", thread_id="42"))["session"]["thread_id"] == "42"


async def test_misuse_is_answered_not_raised(lab):
    assert "No case is open" in (await lab.fail("run"))["message"]
    assert "Unknown command" in (await lab.fail("explode"))["message"]
    await lab.do("start", case_id=CASE, durability="sync")
    assert "Nothing is waiting" in (await lab.fail("answer", approve=True))["message"]
    assert "has no checkpoint" in (await lab.fail("replay", checkpoint_id="nope"))["message"]
    assert "belongs to no node" in (await lab.fail("arm_crash", seam="put", node="intake"))["message"]
    await lab.do("run")
    assert "waits at human_review's interrupt()" in (await lab.fail("run"))["message"]
    unknown = await lab.fail("fork", checkpoint_id=(await lab.frames())[0]["checkpoint_id"], values={"x": 1})
    assert "Unknown state key" in unknown["message"]


async def test_a_failing_node_is_reported_as_events_and_a_plain_error(lab):
    await lab.do("start", case_id=CASE, durability="sync")
    await lab.do("run")
    classified = await lab.frame_where(next=["classify_typology"])
    await lab.do(
        "fork",
        checkpoint_id=classified["checkpoint_id"],
        values={"sanctions": {}},
        as_node="screen_sanctions",
    )
    failed = await lab.do("run")
    assert failed["status"] == "error" and failed["error"]["type"] == "KeyError"
    assert "During task with name 'classify_typology'" in failed["error"]["notes"][0]
    (task_error,) = [e for e in lab.events_of("error") if e["scope"] == "task"]
    assert task_error["node"] == "classify_typology" and task_error["error"]["type"] == "KeyError"


async def test_reset_forgets_everything(lab):
    await lab.do("start", case_id=CASE, durability="sync")
    await lab.do("run")
    assert (await lab.do("reset"))["threads_deleted"] == 1
    assert (await lab.do("ledger"))["entries"] == []
    assert (await lab.do("restore"))["session"] is None


# -- going back to an earlier thread ------------------------------------------------------------------------


def no_saved_thread(listed: dict) -> bool:
    """``threads()`` lists nothing, and its picker says there is nothing to choose, and why."""
    return (
        listed["current"],
        listed["threads"],
        listed["pick"]["enabled"],
        listed["pick"]["reason"]["code"],
    ) == (
        None,
        [],
        False,
        "reason.no_saved_thread",
    )


async def test_threads_lists_saved_threads_and_open_goes_back_to_one(lab):
    assert no_saved_thread(await lab.do("threads"))
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync", thread_id="first")
    await lab.do("run")
    first_frames = await lab.frames()
    await lab.do("start", case_id="S-1002", durability="async", thread_id="second")
    for _ in range(2):
        await lab.do("step")  # a paused run: open closes it, as start does
    second_count = len(await lab.frames())
    listed = await lab.do("threads")
    assert listed["current"] == "second"
    summary = [
        (t["thread_id"], t["case_id"], t["variant"], t["durability"], t["current"]) for t in listed["threads"]
    ]
    assert summary == [
        ("second", "S-1002", "misplaced", "async", True),
        ("first", CASE, "fixed", "sync", False),
    ]
    assert [t["checkpoints"] for t in listed["threads"]] == [second_count, len(first_frames)]
    assert listed["pick"] == {"enabled": True, "reason": None}

    opened = await lab.do("open", thread_id="first")
    assert opened["session"] == {
        "thread_id": "first",
        "case_id": CASE,
        "variant": "fixed",
        "durability": "sync",
        "storage": "full",
    }
    assert opened["state"]["interrupts"] and opened["graph"]["nodes"]
    assert lab.events_of("run_finished")[-1]["status"] == "stopped"
    assert lab.events_of("session")[-1]["session"]["thread_id"] == "first"
    assert await lab.frames() == first_frames
    listed = await lab.do("threads")
    assert [(t["thread_id"], t["current"]) for t in listed["threads"]] == [("second", False), ("first", True)]

    await lab.crash_and_reboot()  # the journal remembers the opened thread as the session
    assert (await lab.do("state"))["session"]["thread_id"] == "first"
    assert (await lab.do("answer", approve=True))["status"] == "done"
    await lab.assert_counts_are_true()

    await lab.do("reset")
    assert no_saved_thread(await lab.do("threads"))


@pytest.mark.parametrize(
    ("thread_id", "says"),
    [
        ("nope", "No saved thread 'nope'"),
        ("", "No saved thread ''"),
        ("x" * 256, "at most 255"),
        (7.5, "must be text"),
    ],
)
async def test_open_refuses_an_unknown_or_invalid_thread(lab, thread_id, says):
    await lab.do("start", case_id=CASE, thread_id="kept")
    assert says in (await lab.fail("open", thread_id=thread_id))["message"]
    assert (await lab.do("state"))["session"]["thread_id"] == "kept"


async def test_a_spare_booting_mid_run_only_reads_and_the_takeover_notes_the_death(lab):
    """Every worker restores while it boots, the warm spare too, and it may boot while the active
    process is in the middle of a run: that restore must write nothing (it once wrote a bogus crash,
    and the ledger then blamed a crash for an interrupt's second charge)."""
    await lab.do("start", case_id=CASE, durability="sync")
    assert (await lab.do("step"))["status"] == "paused"  # a run in progress, held between steps
    spare = lab.boot()
    assert (await spare.dispatch("restore", {"observe_only": True}))["ok"]
    records = await lab.journal.records(lab.controller.state.session.thread_id)
    assert [r for r in records if r["type"] == "crash"] == []
    await lab.controller.terminate()  # the active process dies; the spare takes over for real
    lab.controller = spare
    assert (await lab.do("restore"))["session"] is not None
    records = await lab.journal.records(lab.controller.state.session.thread_id)
    assert [r["seam"] for r in records if r["type"] == "crash"] == ["kill"]
