"""The verdicts Python gives the page for controls that are not commands (issue 24): where time travel
can go from a frame and whether a branch can be scrubbed (the branch tree's ``travel`` and ``scrub``),
whether a crash's seam can be narrowed to a node (the seam catalogue's ``node_choice``), and whether
the threads picker has anything to choose (``threads()``'s ``pick``). The page only applies them
(``showAction``); these tests check the rules, and that they say what the page used to compute."""

from __future__ import annotations

from typing import Any

from lab.aml import VARIANTS, build_graph, describe_graph
from lab.controller.actions import can_go_back, can_go_forward, can_scrub, nothing_saved, verdict, with_travel
from lab.controller.frames import branch_tree
from lab.controller.seam_catalog import arm_refusal, node_choice, seam_catalog
from lab.world import MemoryWorld
from tests.controller_lab import Lab

CASE = "S-1001"
CATALOG = seam_catalog(describe_graph(build_graph(MemoryWorld(), VARIANTS[0])))


def frame(checkpoint_id: str, parent_id: str | None) -> dict[str, Any]:
    """The fields of a frame the branch tree reads."""
    return {"checkpoint_id": checkpoint_id, "parent_id": parent_id, "step": 0, "source": "loop", "next": []}


def code(answer: dict[str, Any]) -> str | None:
    return None if answer["enabled"] else answer["reason"]["code"]


def test_a_verdict_is_enabled_exactly_when_the_rule_gives_no_reason() -> None:
    assert verdict(None) == {"enabled": True, "reason": None}
    reason = nothing_saved(0)
    assert verdict(reason) == {"enabled": False, "reason": reason}


def test_back_and_forward_follow_the_frames_parent_and_children() -> None:
    tree = with_travel(branch_tree([frame("a", None), frame("b", "a"), frame("c", "b"), frame("d", "a")]))
    travel = {node["checkpoint_id"]: node["travel"] for node in tree["nodes"]}
    assert {cid: (code(t["back"]), code(t["forward"])) for cid, t in travel.items()} == {
        "a": ("reason.first_frame", None),
        "b": (None, None),
        "c": (None, "reason.last_frame"),
        "d": (None, "reason.last_frame"),
    }
    assert can_go_back({"parent_id": None})["text"] == (
        "This is the branch's first saved checkpoint: nothing before it"
    )
    assert can_go_forward({"children": []})["text"] == "This checkpoint ends its branch: nothing after it"


def test_a_frame_whose_parent_was_never_saved_starts_its_branch() -> None:
    """Durability "exit": the first frame saved names a parent that is not stored; nothing is before it."""
    tree = with_travel(branch_tree([frame("b", "unsaved"), frame("c", "b")]))
    first = next(node for node in tree["nodes"] if node["checkpoint_id"] == "b")
    assert code(first["travel"]["back"]) == "reason.first_frame"


def test_a_branch_of_one_checkpoint_has_nothing_to_scrub() -> None:
    (alone,) = with_travel(branch_tree([frame("a", None)]))["branches"]
    assert code(alone["scrub"]) == "reason.one_frame"
    (node,) = with_travel(branch_tree([frame("a", None)]))["nodes"]
    assert (code(node["travel"]["back"]), code(node["travel"]["forward"])) == (
        "reason.first_frame",
        "reason.last_frame",
    )
    assert can_scrub({"path": ["a", "b"]}) is None


async def test_on_every_branch_of_a_forked_thread_travel_says_what_the_frames_place_allows(lab: Lab) -> None:
    """What the scrubber used to compute from the selected frame's index on the branch in view
    (First / Previous off at the first, Next / Last off at the last, the slider off on a branch of
    one) is what each frame's verdicts say, whichever branch is in view."""
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    await lab.do("run")
    await lab.do("answer", approve=True)
    drafted = next(f for f in await lab.frames() if f["next"] == ["human_review"])
    await lab.do("fork", checkpoint_id=drafted["checkpoint_id"], values={"risk": 1}, as_node="draft_sar")
    tree = (await lab.view())["tree"]
    travel = {node["checkpoint_id"]: node["travel"] for node in tree["nodes"]}
    assert len(tree["branches"]) == 2
    for branch in tree["branches"]:
        path = branch["path"]
        assert branch["scrub"]["enabled"] == (len(path) >= 2)
        for index, checkpoint_id in enumerate(path):
            assert travel[checkpoint_id]["back"]["enabled"] == (index > 0)
            assert travel[checkpoint_id]["forward"]["enabled"] == (index < len(path) - 1)


def test_a_node_may_be_chosen_for_every_seam_offered_except_a_seam_of_the_whole_step() -> None:
    choice = CATALOG["node_choice"]
    assert list(choice) == [*CATALOG["step"], *CATALOG["any_node"]]
    assert {seam for seam, answer in choice.items() if not answer["enabled"]} == set(CATALOG["step"])
    assert choice["put"]["reason"]["text"] == "The seam put belongs to no node; arm it without one"
    assert node_choice("task_start") is None


def test_the_crash_picker_and_the_arming_refusal_give_one_reason() -> None:
    for seam in CATALOG["step"]:
        assert (
            arm_refusal(CATALOG, seam, "intake")
            == node_choice(seam)
            == CATALOG["node_choice"][seam]["reason"]
        )


def test_the_threads_picker_has_something_to_choose_once_a_thread_is_saved() -> None:
    assert nothing_saved(0)["text"] == "No thread is saved in this browser yet: start a case first"
    assert nothing_saved(1) is None


async def test_threads_says_whether_the_picker_has_anything_to_choose(lab: Lab) -> None:
    assert code((await lab.do("threads"))["pick"]) == "reason.no_saved_thread"
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync")
    assert (await lab.do("threads"))["pick"] == {"enabled": True, "reason": None}


async def test_while_a_run_goes_on_no_saved_thread_can_be_opened_and_each_says_why(lab: Lab) -> None:
    """Each listed thread carries Open's whole verdict: the lab's (no Open during a run), else the
    thread's own (it is open already); the page applies it and computes none."""
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync", thread_id="first")
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync", thread_id="second")
    seen: list[dict[str, Any]] = []

    async def at_step_end(event: dict[str, Any]) -> None:
        if event["type"] == "seam" and event["seam"] == "step_end" and not seen:
            seen.append(await lab.do("threads"))  # the page re-reads the threads while the run goes on

    lab.probe = at_step_end
    await lab.do("run")
    (mid_run,) = seen
    assert {t["thread_id"]: code(t["open"]) for t in mid_run["threads"]} == {
        "first": "reason.running",
        "second": "reason.running",
    }
    after = {t["thread_id"]: code(t["open"]) for t in (await lab.do("threads"))["threads"]}
    assert after == {"first": None, "second": "reason.already_open"}
