"""``view()``: what the page draws, computed in Python, checked on CPython at the story's moments.

The lab's guided lessons bind steps to facts such as "human_review is interrupted" or "the ledger
shows two charges for one export"; these tests check those facts on the controller's one view, and
that after any crash the status line names an action that is enabled and leads to the end.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from lab.aml import VARIANTS, build_graph, describe_graph
from lab.aml.cases import CASES
from lab.aml.graph import FINDINGS, OUTCOMES
from lab.aml.texts import PURPOSES
from lab.aml.world import AML_OPERATIONS
from lab.controller import DURABILITIES
from lab.controller.activity import RUN_ENDS, RUN_KINDS
from lab.controller.ledger_rules import CAUSES
from lab.controller.seam_catalog import seam_catalog
from lab.controller.status import FORWARD
from lab.world import PROGRAM_OPERATIONS, MemoryWorld
from tests.controller_lab import Lab
from tests.test_said_in_both_languages import catalogue_text

CASE = "S-1001"  # structuring: review, then a filed SAR
CATALOG = seam_catalog(describe_graph(build_graph(MemoryWorld(), VARIANTS[0])))
CRASH_POINTS = [(seam, None) for seam in CATALOG["step"]] + [
    (seam, node) for node, seams in CATALOG["nodes"].items() for seam in seams if seam != "error"
]
"""Every place the crash picker offers (``error`` never fires: no AML node raises on its own)."""
AFTER_REVIEW = ("file_sar", "close_case")
"""Nodes the first run never reaches (it stops at human_review's interrupt)."""
REVIEW_AND_AFTER = ("human_review", "file_sar")
"""Nodes the answer run reaches (approving: close_case is not on the path)."""
ACTION_NAMES = {"start": "Start", "run": "Run", "step": "Step", "resume": "Resume", "approve": "Approve"}


def states(view: dict[str, Any]) -> dict[str, str]:
    return {n["id"]: n["state"] for n in view["graph"]["nodes"] if n["kind"] == "node"}


def counts(view: dict[str, Any]) -> dict[str, int]:
    return {n["id"]: n["counts"]["started"] for n in view["graph"]["nodes"] if n["kind"] == "node"}


def enabled(view: dict[str, Any]) -> set[str]:
    return {name for name, action in view["actions"].items() if action["enabled"]}


async def follow_status_to_the_end(lab: Lab, limit: int = 8) -> dict[str, Any]:
    """Press what the status line names, again and again, until the case is finished."""
    for _ in range(limit):
        view = await lab.view()
        status = view["status"]
        if status["phase"] == "done":
            return view
        action = status["action"]
        assert action in enabled(view), status
        assert f"Press {ACTION_NAMES[action]}" in status["message"]["text"], status
        if action == "approve":
            await lab.do("answer", approve=True)
        else:
            await lab.do(action)
    raise AssertionError(f"still not finished after {limit} actions: {status}")


async def crash_then_follow(
    variant: str, durability: str, seam: str, node: str | None, *, during_answer: bool
) -> None:
    lab = Lab()
    await lab.do("start", case_id=CASE, variant=variant, durability=durability)
    if during_answer:
        assert (await lab.do("run"))["status"] == "interrupted"
    await lab.do("arm_crash", seam=seam, node=node)
    outcome = await (lab.do("answer", approve=True) if during_answer else lab.do("run"))
    if outcome["status"] == "crashed":
        await lab.crash_and_reboot()
    else:  # this path never reaches the crash point
        await lab.do("disarm_crash")
    view = await follow_status_to_the_end(lab)
    assert view["graph"]["nodes"] and view["frames"][-1]["values"]["outcome"].startswith("SAR sar_")
    await lab.assert_counts_are_true()
    await lab.controller.terminate()


@pytest.mark.parametrize("durability", DURABILITIES)
@pytest.mark.parametrize("variant", VARIANTS)
async def test_no_dead_end_after_any_crash(variant, durability):
    """Every crash point × durability × variant, during the first run and during Approve: a new
    controller on the same storage says what to press, that action is enabled, and it leads to the end."""
    for seam, node in CRASH_POINTS:
        if node not in AFTER_REVIEW:
            await crash_then_follow(variant, durability, seam, node, during_answer=False)
        if node is None or node in REVIEW_AND_AFTER:
            await crash_then_follow(variant, durability, seam, node, during_answer=True)


async def test_the_in_memory_fallback_loses_the_thread_and_says_start():
    lab = Lab()
    await lab.do("start", case_id=CASE, durability="sync")
    await lab.do("arm_crash", seam="task_start", node="classify_typology")
    await lab.do("run")
    await lab.controller.terminate()
    lost = Lab()  # a worker over memory: nothing survived the crash
    view = await lost.view()
    assert view["status"]["phase"] == "no_case" and view["status"]["action"] == "start"
    assert "start" in enabled(view) and not {"step", "run", "resume"} & enabled(view)
    assert view["actions"]["run"]["reason"]["code"] == "reason.no_case"


async def test_a_crash_after_one_sibling_saved(lab):
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync")
    await lab.do("arm_crash", seam="task_finish", node="screen_sanctions")
    await lab.do("run")
    await lab.crash_and_reboot()
    view = await lab.view()
    assert states(view) | {} == {
        "intake": "idle",
        "fetch_transactions": "saved",
        "screen_sanctions": "crashed",
        "classify_typology": "idle",
        "draft_sar": "idle",
        "human_review": "idle",
        "file_sar": "idle",
        "close_case": "idle",
    }
    assert counts(view)["screen_sanctions"] == 1 and counts(view)["fetch_transactions"] == 1
    reasons = {n["id"]: n["reason"]["text"] for n in view["graph"]["nodes"] if n["kind"] == "node"}
    assert "task_finish" in reasons["screen_sanctions"] and "Saved" in reasons["fetch_transactions"]
    assert view["status"]["phase"] == "crashed" and view["status"]["action"] == "resume"
    assert "task_finish of screen_sanctions" in view["status"]["message"]["text"]
    assert view["status"]["message"]["params"]["kept"] == 3


@pytest.mark.parametrize(
    ("seam", "crashed", "saved"),
    [
        ("task_start", "screen_sanctions", set()),  # killed before it ran: nothing of the step saved
        ("side_effect_done", "fetch_transactions", set()),  # paid, then killed before its writes
        ("put_writes", "fetch_transactions", {"fetch_transactions"}),  # killed right after its save
    ],
)
async def test_crash_at_each_kind_of_seam_draws_the_node_that_died(lab, seam, crashed, saved):
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync")
    await lab.do("arm_crash", seam=seam, node=crashed)
    await lab.do("run")
    await lab.crash_and_reboot()
    view = await lab.view()
    drawn = states(view)
    assert drawn[crashed] == ("saved" if crashed in saved else "crashed")
    assert {n for n, s in drawn.items() if s == "saved"} == saved
    assert view["status"]["action"] == "resume" and "resume" in enabled(view)


async def test_resume_draws_restored_and_rerun_nodes(lab):
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync")
    await lab.do("arm_crash", seam="task_finish", node="screen_sanctions")
    await lab.do("run")
    await lab.crash_and_reboot()
    seen: list[dict[str, Any]] = []

    async def at_step_end(event: dict[str, Any]) -> None:
        if event["type"] == "seam" and event["seam"] == "step_end" and not seen:
            seen.append(await lab.view())  # the page re-reads the view while the run goes on

    lab.probe = at_step_end
    await lab.do("resume")
    (mid_resume,) = seen
    assert states(mid_resume)["fetch_transactions"] == "restored"
    assert states(mid_resume)["screen_sanctions"] == "rerun"
    assert "did not run again" in next(
        n["reason"]["text"] for n in mid_resume["graph"]["nodes"] if n["id"] == "fetch_transactions"
    )
    assert counts(mid_resume)["screen_sanctions"] == 2 and counts(mid_resume)["fetch_transactions"] == 1
    assert mid_resume["status"]["phase"] == "running" and not {"step", "run", "resume"} & enabled(mid_resume)
    assert mid_resume["actions"]["resume"]["reason"]["code"] == "reason.running"


async def test_the_interrupt_survives_a_reload(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    for _ in range(2):  # before and after a new controller over the same storage (a reload)
        view = await lab.view()
        assert states(view)["human_review"] == "interrupted"
        assert view["status"]["phase"] == "waiting" and view["status"]["action"] == "approve"
        assert {"approve", "reject"} <= enabled(view) and not {"step", "run"} & enabled(view)
        assert "waits at human_review's interrupt()" in view["actions"]["run"]["reason"]["text"]
        kinds = [entry["kind"] for entry in view["activity"]]
        assert kinds[0] == "run_start" and "interrupt" in kinds and kinds[-1] == "run_end"
        await lab.crash_and_reboot()


async def test_misplaced_variant_double_charge_is_flagged_with_its_cause(lab):
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync")
    await lab.do("run")
    await lab.do("answer", approve=True)
    ledger = (await lab.view())["ledger"]
    assert ledger["verdict"]["double"] is True
    (export,) = ledger["duplicates"]
    assert export["purpose"] == "case-pack export" and export["times"] == 2
    assert export["causes"] == ["interrupt"] and "interrupt" in export["explanation"]["params"]["causes"]
    outcomes = [e["outcome"]["code"] for e in ledger["entries"]]
    assert outcomes == ["ledger.new.charge", "ledger.new.charge", "ledger.repeat.charge", "ledger.new.sar"]


async def test_fixed_variant_charges_each_operation_once(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    await lab.do("answer", approve=True)
    ledger = (await lab.view())["ledger"]
    assert ledger["verdict"] == {"double": False, "message": ledger["verdict"]["message"]}
    assert ledger["verdict"]["message"]["code"] == "ledger.verdict.clean"
    assert [e["purpose"] for e in ledger["entries"] if e["kind"] == "charge"] == [
        "transaction-graph query",
        "case-pack export",
    ]


async def test_the_thread_ledger_lists_the_open_threads_requests_alone(lab):
    """A lesson shows its own thread's ledger: another thread's charges stay in the lab's full ledger."""
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync", thread_id="earlier")
    await lab.do("run")
    await lab.do("answer", approve=True)
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync", thread_id="lesson")
    await lab.do("run")
    view = await lab.view()
    assert {e["thread_id"] for e in view["ledger"]["entries"]} == {"earlier", "lesson"}
    mine = view["thread_ledger"]
    assert [(e["thread_id"], e["purpose"]) for e in mine["entries"]] == [
        ("lesson", "transaction-graph query")
    ]
    assert (
        mine["totals"]["counts"]["charge"] == 1
        and mine["totals"]["cents"] == mine["entries"][0]["amount_cents"]
    )
    assert mine["verdict"]["double"] is False and view["ledger"]["verdict"]["double"] is True


async def test_a_replay_that_pays_again_is_flagged_as_a_replay(lab):
    await lab.do("start", case_id=CASE, variant="misplaced", durability="sync")
    await lab.do("run")
    await lab.do("answer", approve=True)
    review = next(f for f in await lab.frames() if f["next"] == ["human_review"])
    assert (await lab.do("replay", checkpoint_id=review["checkpoint_id"]))["status"] == "interrupted"
    view = await lab.view()
    (export,) = view["ledger"]["duplicates"]
    assert export["times"] == 3 and export["causes"] == ["interrupt", "replay"]
    assert "replay of an old frame" in export["explanation"]["text"]
    tree = view["tree"]
    assert len(tree["branches"]) == 2 and tree["head"] == view["frames"][-1]["checkpoint_id"]
    head_branch = next(b for b in tree["branches"] if b["is_head"])
    assert head_branch["path"][-1] == tree["head"] and head_branch["forked_at"] == review["checkpoint_id"]


async def test_a_fork_adds_a_branch_and_moves_the_head(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    await lab.do("answer", approve=True)
    drafted = next(f for f in await lab.frames() if f["next"] == ["human_review"])
    forked = await lab.do(
        "fork", checkpoint_id=drafted["checkpoint_id"], values={"risk": 1}, as_node="draft_sar"
    )
    view = await lab.view()
    assert view["tree"]["head"] == forked["checkpoint_id"]
    paths = sorted(b["path"] for b in view["tree"]["branches"])
    assert len(paths) == 2 and all(p[: len(p) - 2] == paths[0][: len(p) - 2] for p in paths)
    head = next(b for b in view["tree"]["branches"] if b["is_head"])
    assert head["path"][-2:] == [drafted["checkpoint_id"], forked["checkpoint_id"]]
    assert view["status"]["phase"] == "ready" and view["status"]["action"] == "run"
    fork_frame = view["frames"][-1]
    assert fork_frame["diff"]["values"]["changed"]["risk"]["after"] == 1


async def test_disabled_actions_say_why(lab):
    view = await lab.view()
    assert view["actions"]["step"]["reason"]["text"] == "No case is open: start one first"
    assert not view["actions"]["disarm"]["enabled"]
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    view = await lab.view()
    assert view["actions"]["resume"]["reason"]["code"] == "reason.nothing_saved"
    assert view["actions"]["replay"]["reason"]["code"] == "reason.no_frames"
    assert view["status"]["phase"] == "new" and view["status"]["action"] == "run"
    await lab.do("step")
    view = await lab.view()
    assert view["status"]["phase"] == "paused" and {"step", "run"} <= enabled(view)
    assert view["actions"]["resume"]["reason"]["code"] == "reason.paused"
    assert view["actions"]["approve"]["reason"]["code"] == "reason.paused"
    await lab.do("run")
    await lab.do("answer", approve=True)
    view = await lab.view()
    assert view["status"]["phase"] == "done"
    for action in ("step", "run", "resume"):
        assert view["actions"][action]["reason"]["code"] == "reason.finished"
    assert view["actions"]["approve"]["reason"]["code"] == "reason.nothing_to_answer"
    assert {"replay", "fork", "checkout", "start"} <= enabled(view)


async def test_the_controller_refuses_with_the_reason_the_view_gives(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    view = await lab.view()
    assert (await lab.fail("run"))["message"] == view["actions"]["run"]["reason"]["text"]
    await lab.do("answer", approve=True)
    view = await lab.view()
    assert (await lab.fail("resume"))["message"] == view["actions"]["resume"]["reason"]["text"]


def test_the_seam_catalogue_offers_only_seams_a_node_can_reach():
    nodes = CATALOG["nodes"]
    assert [n for n, seams in nodes.items() if "side_effect" in seams] == [
        "fetch_transactions",
        "human_review",
        "file_sar",
    ]
    assert [n for n, seams in nodes.items() if "interrupt" in seams] == ["human_review"]
    assert CATALOG["step"] == ["step_start", "step_end", "put"]


async def test_arming_a_seam_a_node_never_reaches_is_refused(lab):
    error = await lab.fail("arm_crash", seam="side_effect", node="intake")
    assert (
        error["message"]
        == "intake calls no outside service, so it never reaches 'side_effect': the crash would never fire"
    )
    error = await lab.fail("arm_crash", seam="interrupt", node="draft_sar")
    assert "never calls interrupt()" in error["message"]
    assert (await lab.do("arm_crash", seam="side_effect", node="file_sar"))["armed"]["node"] == "file_sar"


@pytest.mark.parametrize("variant", VARIANTS)
async def test_every_seam_a_clean_run_meets_is_in_the_catalogue(lab, variant):
    for approve in (True, False):
        await lab.do("start", case_id=CASE, variant=variant, durability="sync")
        await lab.do("run")
        await lab.do("answer", approve=approve)
    met = {(e["seam"], e["node"]) for e in lab.events_of("seam") if e["node"] not in (None, "__start__")}
    offered = {(seam, node) for node, seams in CATALOG["nodes"].items() for seam in seams}
    assert met <= offered
    assert offered - met <= {(seam, node) for seam, node in offered if seam == "error"}


async def test_the_view_is_plain_data_with_defaults_from_python(lab):
    view = await lab.view()
    assert view["defaults"]["durability"] == "async" and view["defaults"]["delay"] == 0
    assert view["defaults"]["variants"] == [*VARIANTS, "subgraph", "task"]
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    first = await lab.view()
    await lab.do("step")
    assert (await lab.view())["seq"] > first["seq"]
    await lab.do("run")  # finish the paused run


async def test_a_diff_shows_what_an_appended_list_gained(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    frames = (await lab.view())["frames"]
    grown = next(f for f in frames if "log" in f["diff"]["values"]["changed"])
    change = grown["diff"]["values"]["changed"]["log"]
    assert change["appended"] == change["after"][len(change["before"]) :] and change["appended"]


async def test_a_process_killed_outside_any_seam_is_a_crash_after_the_reload(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("step")
    await lab.do("step")  # paused in step 1: the page kills the worker at a random moment
    await lab.crash_and_reboot()
    view = await lab.view()
    assert (
        view["status"]["phase"] == "crashed" and view["status"]["message"]["code"] == "status.crashed_unseen"
    )
    assert view["executions"]["runs"][-1]["status"] == "crashed"
    assert view["activity"][-1]["kind"] == "crash"
    await follow_status_to_the_end(lab)


async def test_the_review_says_what_was_bought_even_when_a_crash_hid_it(lab):
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    assert (await lab.view())["review"]["already_done"] == []
    await lab.do("arm_crash", seam="side_effect_done", node="human_review")
    await lab.do("answer", approve=True)  # the export is bought, then the process dies
    await lab.crash_and_reboot()
    view = await lab.view()
    assert view["review"]["request"]["export"] is None and len(view["review"]["already_done"]) == 1
    assert view["status"]["action"] in {"resume", "approve"} and view["status"]["action"] in enabled(view)


def python_message_codes() -> set[str]:
    """Every code ``lab.controller`` and the AML profile's words can say (``message("code", ...)``;
    f-string codes expanded)."""
    codes: set[str] = set()
    for path in [*Path("lab/controller").glob("*.py"), *Path("lab/aml").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            name = getattr(getattr(node, "func", None), "id", None)
            if isinstance(node, ast.Call) and name in {"message", "said"} and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    codes.add(first.value)
            if isinstance(node, ast.Call) and name == "choose":
                codes.add(f"input.unknown_{node.args[2].value}")  # choose(value, choices, what)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "BadInputError":
                codes.add(node.args[0].value)  # BadInputError(code, text, **params)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ThreadFileError":
                codes.add(node.args[1].value)  # ThreadFileError(reason, code, **params)
    codes |= {f"status.{phase}" for phase in FORWARD}
    codes |= {f"case.{case}.{text}" for case in CASES for text in ("title", "alert")}
    codes |= {f"case.purpose.{code}" for code in PURPOSES.values()}
    codes |= {f"case.finding.{name}" for name in FINDINGS}
    codes |= {f"case.outcome.{name}" for name in OUTCOMES}
    codes |= {f"run.kind.{kind}" for kind in RUN_KINDS} | {f"run.status.{end}" for end in RUN_ENDS}
    kinds = {operation.kind for operation in AML_OPERATIONS + PROGRAM_OPERATIONS}
    codes |= {f"ledger.{said}.{kind}" for said in ("repeat", "new", "count") for kind in kinds}
    return codes


def test_every_sentence_python_says_is_in_both_catalogues():
    """The page renders Python's sentences by code (``say()`` in static/i18n.mjs), in English and
    简体中文 (one catalogue each, static/i18n/<lang>.mjs and its parts). (``ledger.explain.*`` is English for
    logs and tests; the page composes explanations from the cause codes, which are checked here.)"""
    en, zh = (catalogue_text(lang) for lang in ("en", "zh"))
    wanted = {f"py.{code}" for code in python_message_codes() if not code.startswith("ledger.explain.")}
    wanted |= {f"py.ledger.cause.{cause}" for cause in CAUSES}
    for language in (en, zh):
        keys = set(re.findall(r"\"(py\.[\w.-]+)\":", language))
        assert wanted <= keys, sorted(wanted - keys)
