"""Which of the lab's actions a learner can take now, and, when one is disabled, why, in words.

LangGraph decides the same things by raising: ``invoke`` on a thread that waits at an interrupt
re-runs the node and asks again, ``Command(resume=...)`` with no interrupt pending has nothing to
answer, a thread with nothing ``next`` has finished. The lab asks first: each action has one small
rule here, a pure function of :class:`~lab.controller.facts.ThreadFacts` that returns ``None``
(enabled) or the reason it is not. The controller refuses a command with the same reason
(:func:`refusal`), so the page's buttons and the controller cannot disagree. LangGraph also assumes
one writer per thread; the lab's tabs keep to it by a lock the page holds, and every writing action
is disabled in a tab whose thread another tab writes (:func:`written_elsewhere`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lab.controller.facts import ThreadFacts, answer_saved, is_finished, waiting_at, waits_for_answer
from lab.controller.messages import Message, message

Rule = Callable[[ThreadFacts], Message | None]

NO_CASE = message("reason.no_case", "No case is open: start one first")
RUNNING = message("reason.running", "A run is in progress; wait for it to pause or finish")
PAUSED = message("reason.paused", "A run is paused; press Step or Run to finish it first")
"""The reasons a command waits for a case or a run (the controller refuses with them too)."""


def no_case(facts: ThreadFacts) -> Message | None:
    return NO_CASE if facts.session is None else None


def run_in_progress(facts: ThreadFacts) -> Message | None:
    return RUNNING if facts.run is not None and not facts.run["paused"] else None


def run_paused(facts: ThreadFacts) -> Message | None:
    return PAUSED if facts.run is not None and facts.run["paused"] else None


def written_elsewhere(facts: ThreadFacts) -> Message | None:
    """One writer per thread: while another tab holds the thread's lock, this tab only watches."""
    if facts.session is not None and facts.writer == "elsewhere":
        return message(
            "reason.writer_elsewhere",
            "Another tab is writing this thread, so this tab is read-only: press Take over to write here",
        )
    return None


def can_take_over(facts: ThreadFacts) -> Message | None:
    """Take over: steal the thread's lock from the tab that writes it."""
    if facts.session is None:
        return NO_CASE
    if facts.writer != "elsewhere":
        return message("reason.writer_here", "This tab already writes this thread")
    return None


def first_of(*rules: Rule) -> Rule:
    """The rule that reports the first reason any of ``rules`` gives."""

    def check(facts: ThreadFacts) -> Message | None:
        return next((reason for rule in rules if (reason := rule(facts)) is not None), None)

    return check


def finished() -> Message:
    return message(
        "reason.finished", "This thread reached END: replay or fork an earlier frame, or start a new thread"
    )


def can_advance(facts: ThreadFacts) -> Message | None:
    """Step / Run: a paused run continues; otherwise the thread starts or continues from its head."""
    if facts.run is not None and facts.run["paused"]:
        return None
    if waits_for_answer(facts.head):
        return message(
            "reason.waits_for_answer",
            "The thread waits at {node}'s interrupt(): approve or reject first",
            node=waiting_at(facts.head),
        )
    if is_finished(facts.head):
        return finished()
    return None


def can_resume(facts: ThreadFacts) -> Message | None:
    """Resume: ``invoke(None, thread)`` continues from the saved head (after a crash)."""
    if facts.head is None:
        return message(
            "reason.nothing_saved",
            "Nothing was saved for this thread, so there is nothing to resume (durability 'exit' saves "
            "only when a run ends). Press Run to start the case again.",
        )
    if is_finished(facts.head):
        return finished()
    return None


def can_answer(facts: ThreadFacts) -> Message | None:
    """Approve / Reject: ``Command(resume=...)`` answers an interrupt nobody answered yet."""
    if answer_saved(facts.head):
        return message(
            "reason.answer_saved",
            "The answer to {node}'s interrupt() is already saved: Resume continues with it",
            node=waiting_at(facts.head),
        )
    if not waits_for_answer(facts.head):
        return message(
            "reason.nothing_to_answer",
            "Nothing is waiting for an answer: no node of this thread is stopped at interrupt()",
        )
    return None


def has_frames(facts: ThreadFacts) -> Message | None:
    if not facts.frame_ids:
        return message("reason.no_frames", "This thread has no checkpoint yet: press Step or Run first")
    return None


def crash_armed(facts: ThreadFacts) -> Message | None:
    if facts.armed is None:
        return message("reason.not_armed", "No crash is armed")
    return None


def always(_facts: ThreadFacts) -> Message | None:
    return None


def nothing_to_prune(facts: ThreadFacts) -> Message | None:
    """Prune keeps the newest checkpoint: with one (or none) there is nothing to delete."""
    if len(facts.frame_ids) <= 1:
        return message("reason.nothing_to_prune", "This thread has one checkpoint or none: nothing to prune")
    return None


RULES: dict[str, Rule] = {
    "start": run_in_progress,
    "step": first_of(no_case, written_elsewhere, run_in_progress, can_advance),
    "run": first_of(no_case, written_elsewhere, run_in_progress, can_advance),
    "invoke": first_of(no_case, written_elsewhere, run_in_progress),
    "resume": first_of(no_case, written_elsewhere, run_in_progress, run_paused, can_resume),
    "approve": first_of(no_case, written_elsewhere, run_in_progress, run_paused, can_answer),
    "reject": first_of(no_case, written_elsewhere, run_in_progress, run_paused, can_answer),
    "replay": first_of(no_case, written_elsewhere, run_in_progress, has_frames),
    "fork": first_of(no_case, written_elsewhere, run_in_progress, has_frames),
    "checkout": first_of(no_case, written_elsewhere, run_in_progress, has_frames),
    "arm": always,
    "disarm": crash_armed,
    "reset": first_of(written_elsewhere, run_in_progress),
    "take_over": can_take_over,
    "prune": first_of(no_case, written_elsewhere, run_in_progress, run_paused, nothing_to_prune),
    "open": run_in_progress,
    "export_thread": no_case,
    "import_thread": run_in_progress,
    "drop": first_of(written_elsewhere, run_in_progress),
}
"""One rule per action the page offers (Approve and Reject are the ``answer`` command; Open, Drop,
Export and Import act on whole threads, a paused run is closed first)."""


def nothing_saved(thread_count: int) -> Message | None:
    """The threads picker: with no thread saved in this browser there is nothing to choose or open."""
    if thread_count == 0:
        return message("reason.no_saved_thread", "No thread is saved in this browser yet: start a case first")
    return None


def already_open(thread_id: str, current: str | None) -> Message | None:
    """Open, for one saved thread: the thread that is open already has nothing to open (``threads()``
    lists this verdict with each thread, and ``open`` refuses with it)."""
    if thread_id == current:
        return message("reason.already_open", "Thread {thread} is open already", thread=thread_id)
    return None


def verdict(reason: Message | None) -> dict[str, Any]:
    """A rule's answer for one control of the page: ``{"enabled": bool, "reason": Message | None}``."""
    return {"enabled": reason is None, "reason": reason}


def actions(facts: ThreadFacts) -> dict[str, dict[str, Any]]:
    """``{action: {"enabled": bool, "reason": message | None}}`` for every action."""
    return {name: verdict(rule(facts)) for name, rule in RULES.items()}


# -- Time travel: the page keeps which frame is selected and which branch is in view; each frame of
# the branch tree carries where First / Previous and Next / Last can go from it, each branch whether
# its scrubber has anywhere to slide. A branch runs from a root to a leaf, so a frame with a saved
# parent has frames before it on every branch through it, and a frame with children is the end of none.


def can_go_back(node: dict[str, Any]) -> Message | None:
    """First / Previous, from one frame of the branch tree."""
    if node["parent_id"] is None:
        return message("reason.first_frame", "This is the branch's first saved checkpoint: nothing before it")
    return None


def can_go_forward(node: dict[str, Any]) -> Message | None:
    """Next / Last, from one frame of the branch tree."""
    if not node["children"]:
        return message("reason.last_frame", "This checkpoint ends its branch: nothing after it")
    return None


def can_scrub(branch: dict[str, Any]) -> Message | None:
    """The scrubber slides along a branch of two checkpoints or more."""
    if len(branch["path"]) < 2:
        return message("reason.one_frame", "This branch has one checkpoint: nothing to slide through")
    return None


def with_travel(tree: dict[str, Any]) -> dict[str, Any]:
    """The branch tree (:func:`lab.controller.frames.branch_tree`) with the verdicts of time travel:
    ``travel: {back, forward}`` on each node, ``scrub`` on each branch."""
    return {
        **tree,
        "nodes": [
            {**node, "travel": {"back": verdict(can_go_back(node)), "forward": verdict(can_go_forward(node))}}
            for node in tree["nodes"]
        ],
        "branches": [{**branch, "scrub": verdict(can_scrub(branch))} for branch in tree["branches"]],
    }


def refusal(action: str, facts: ThreadFacts) -> Message | None:
    """The reason the controller refuses ``action`` now, or ``None``."""
    return RULES[action](facts)
