"""Challenges: goal levels on the learner's own code, checked by crashing and resuming it.

A level of Learn Git Branching is complete when the simulator's real state equals the goal. A
playground challenge is complete when the learner's LangGraph program keeps its promise to the
outside world through what LangGraph really does to it: a node resumed after ``interrupt()`` runs
again from its first line; a node whose process died after its side effect, before its writes were
saved, runs again on resume; a failed step's retry re-runs the failed node whole, while a finished
sibling's writes wait as pending writes; a ``@task`` the resumed node calls again returns its saved
result instead of running.

The checker is the lab itself, not a model of it: a :class:`Trial` (a simulated lab,
:mod:`lab.controller.simulated_lab`) loads the learner's source
(:func:`~lab.playground.program.load_program`), drives its graph with the lab's controller and the
playground's profile (:func:`~lab.playground.session.playground_profile`) over storage that outlives
a process (a saver, the outside world and the journal, in memory: nothing of the page's), kills the
process at the seam that matters, loads the program again in the new "process" and resumes. What
counts is what reached the world: the charges and emails the ledger executed for each thread.

Each challenge is a drive, which returns plain observations, and a judge, a pure function of them
(``tests/test_challenges.py`` drives the same programs on real LangGraph and asks the same judge).
A :class:`Verdict` says pass or fail with its reason as a coded sentence (``play.challenge.<reason>``,
in the page's catalogues in English and 简体中文).
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from lab.controller.messages import Message, message
from lab.controller.profile import GraphProfile
from lab.controller.simulated_lab import SimulatedLab
from lab.playground.problems import ProgramError
from lab.playground.program import PROGRAM_MODULE, Program, load_program
from lab.playground.session import LabLedger, node_calls, playground_profile
from lab.world.recorder import runs_record_for_themselves

__all__ = [
    "CHALLENGES",
    "TEXTS",
    "OTHER_ORDER",
    "REJECTED_ORDER",
    "Challenge",
    "KeySeen",
    "PurchaseSeen",
    "RetrySeen",
    "TaskSeen",
    "Trial",
    "Verdict",
    "check_challenge",
    "executed",
    "requests",
]

TEXTS: dict[str, str] = {
    "passed.ask_before_buying": (
        "Passed: the approved purchase was charged once although the node ran again after the crash, "
        "and the rejected one was not charged."
    ),
    "passed.business_key": (
        "Passed: after the crash the node ran again and sent the same key, so the API answered with the "
        "first receipt: one charge per order."
    ),
    "passed.email_once": "Passed: the failure was retried and the email went out once.",
    "passed.charge_in_task": (
        "Passed: the node ran again after the crash, but the task's saved result answered it: one request, "
        "one charge. A crash after the charge and before that result is saved would still charge again: "
        "an idempotency key closes that window."
    ),
    "not_asked": "The graph finished without asking: the purchase must wait for an interrupt() answer.",
    "charged_again": (
        "Not yet: the approved purchase was charged {count} times. Resuming runs the node again from its "
        "first line, so a charge before interrupt() runs again."
    ),
    "never_charged": "Not yet: the approved purchase was never charged.",
    "charged_rejected": "Not yet: the rejected purchase was charged. Charge only after a yes.",
    "no_payer": "No node calls charge(): the order must still be paid.",
    "not_crashed": "The run never reached the end of node {node}, where the check crashes the process.",
    "charged_after_crash": (
        "Not yet: order {order} was charged {count} times. The process died after the charge and before "
        "the node's writes were saved; the resume ran the node again with a new key ({keys})."
    ),
    "other_order": (
        "Not yet: order {order} was charged {count} times, not once: the key must name the order, so two "
        "orders never share one."
    ),
    "never_asked": "The graph finished without asking: the node must still ask with interrupt().",
    "bought_after_asking": (
        "Not yet: nothing was bought before the question. The officer decides with the export in hand: "
        "keep the purchase before interrupt()."
    ),
    "requested_again": (
        "Not yet: the node asked the API {count} times; its idempotency key kept it to one charge, but a "
        "task's saved result answers the node's second run without a request."
    ),
    "never_failed": "The run did not fail: the stock service must still time out on its first call.",
    "sent_again": (
        "Not yet: the email went out {count} times. The retry ran the node that sent it again, from its "
        "first line."
    ),
    "never_sent": "Not yet: no email went out.",
    "run_failed": "The run ended in an error: {error}",
}
"""Each reason's English sentence; the page's catalogues hold it as ``py.play.challenge.<reason>``."""


@dataclass(frozen=True)
class Verdict:
    """Whether the learner's program reached the goal, and why (``say``); ``problem``: the program
    did not load (at its line)."""

    passed: bool
    say: Message
    problem: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "say": self.say, "problem": self.problem}


def said(reason: str, **params: Any) -> Message:
    return message(f"play.challenge.{reason}", TEXTS[reason], **params)


def failed(reason: str, **params: Any) -> Verdict:
    return Verdict(False, said(reason, **params))


def passed(challenge_id: str) -> Verdict:
    return Verdict(True, said(f"passed.{challenge_id}"))


class RunFailed(Exception):
    """A run of the learner's graph ended in an error the challenge did not provoke."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", ""))
        self.verdict = failed("run_failed", error=f"{error.get('type')}: {error.get('message')}")


def requests(rows: list[dict[str, Any]], kind: str, thread_id: str) -> list[dict[str, Any]]:
    """The requests of ``kind`` the world received from ``thread_id``'s nodes."""
    return [row for row in rows if row["kind"] == kind and row["thread_id"] == thread_id]


def executed(rows: list[dict[str, Any]], kind: str, thread_id: str) -> list[dict[str, Any]]:
    """The requests of ``kind`` the world carried out for ``thread_id`` (replayed keys moved nothing)."""
    return [row for row in requests(rows, kind, thread_id) if not row["replayed"]]


class Trial(SimulatedLab):
    """The learner's program in a simulated lab (:mod:`lab.controller.simulated_lab`): each process
    loads the program afresh, and :meth:`crash` replaces the process as the page replaces a killed
    worker."""

    program: Program

    def __init__(self, source: str) -> None:
        self.source = source
        self.given: Any = None
        super().__init__(self.load)

    def load(self) -> GraphProfile:
        """A new process's graph: the program loaded afresh, ``lab.world`` recording in this trial's world."""
        self.program = load_program(self.source)
        ledger = LabLedger()
        return playground_profile(
            self.program, ledger, self.program.example if self.given is None else self.given
        )

    async def do(self, name: str, /, **args: Any) -> dict[str, Any]:
        answer = await self.dispatch(name, **args)
        if not answer["ok"]:
            raise RunFailed(answer["error"])
        result = answer["result"]
        if result.get("status") == "error":
            raise RunFailed(result["error"])
        return result

    async def new_thread(self, given: Any = None) -> str:
        """A new thread that starts with ``given`` (``None``: the program's own example input)."""
        if given != self.given:
            self.given = given
            await self.restart()
        started = await self.do("start", case_id="default", durability="sync")  # each step saved at once
        return started["session"]["thread_id"]

    async def executed(self, kind: str, thread_id: str) -> list[dict[str, Any]]:
        return executed(await self.world.entries(), kind, thread_id)

    def node_calling(self, function: str) -> str | None:
        """The first node whose own code names ``function``."""
        nodes = self.program.graph.builder.nodes.items()
        return next((name for name, node in nodes if function in node_calls(node)), None)


# -- 1. ask before buying: the charge after interrupt() ------------------------------------------------


REJECTED_ORDER = {"item": "case C-8", "approved": False}
"""The order the check answers no to, on a second thread (another item: a key cannot replay the first's)."""


@dataclass(frozen=True)
class PurchaseSeen:
    asked: bool
    approved_charges: int
    rejected_charges: int


def judge_purchase(seen: PurchaseSeen) -> Verdict:
    if not seen.asked:
        return failed("not_asked")
    if seen.approved_charges > 1:
        return failed("charged_again", count=seen.approved_charges)
    if seen.approved_charges == 0:
        return failed("never_charged")
    if seen.rejected_charges:
        return failed("charged_rejected")
    return passed("ask_before_buying")


async def drive_purchase(trial: Trial) -> PurchaseSeen:
    """Approve after the process died while the question waited; then reject on a second thread."""
    approved = await trial.new_thread()
    if (await trial.do("run"))["status"] != "interrupted":
        return PurchaseSeen(False, len(await trial.executed("charge", approved)), 0)
    await trial.crash()
    await trial.do("answer", approve=True)
    rejected = await trial.new_thread(REJECTED_ORDER)
    await trial.do("run")
    await trial.do("answer", approve=False)
    count = [len(await trial.executed("charge", thread)) for thread in (approved, rejected)]
    return PurchaseSeen(True, *count)


# -- 2. the idempotency key from business ids ------------------------------------------------------------

OTHER_ORDER = {"order_id": "B-2", "amount": 40.0}
"""The second order the check pays for (no crash): a key that ignores the order collides with the first."""


@dataclass(frozen=True)
class KeySeen:
    order: str
    keys: tuple[str | None, ...]
    """The idempotency key of every charge request for the crashed order (replays included)."""
    charges: int
    other_order: str
    other_charges: int


def judge_key(seen: KeySeen) -> Verdict:
    if seen.charges != 1:
        keys = ", ".join(str(key) for key in seen.keys)
        return failed("charged_after_crash", order=seen.order, count=seen.charges, keys=keys)
    if seen.other_charges != 1:
        return failed("other_order", order=seen.other_order, count=seen.other_charges)
    return passed("business_key")


async def drive_key(trial: Trial) -> KeySeen | Verdict:
    """Kill the process right after the paying node ran (its writes not saved), resume; then one more
    order on a new thread."""
    payer = trial.node_calling("charge")
    if payer is None:
        return failed("no_payer")
    first = await trial.new_thread()
    example = trial.program.example if isinstance(trial.program.example, dict) else {}
    await trial.do("arm_crash", seam="task_finish", node=payer)
    if (await trial.do("run"))["status"] != "crashed":
        return failed("not_crashed", node=payer)
    await trial.crash()
    await trial.do("resume")
    sent = requests(await trial.world.entries(), "charge", first)
    second = await trial.new_thread(OTHER_ORDER)
    await trial.do("run")
    return KeySeen(
        order=str(example.get("order_id", first)),
        keys=tuple(row["idempotency_key"] for row in sent),
        charges=len(await trial.executed("charge", first)),
        other_order=OTHER_ORDER["order_id"],
        other_charges=len(await trial.executed("charge", second)),
    )


# -- 3. a failure retried: the email once -----------------------------------------------------------------


@dataclass(frozen=True)
class RetrySeen:
    failed_first: bool
    emails: int


def judge_retry(seen: RetrySeen) -> Verdict:
    if not seen.failed_first:
        return failed("never_failed")
    if seen.emails > 1:
        return failed("sent_again", count=seen.emails)
    if seen.emails == 0:
        return failed("never_sent")
    return passed("email_once")


async def drive_retry(trial: Trial) -> RetrySeen:
    """Run until the flaky service fails the step, then resume (LangGraph's retry: ``invoke(None)``)."""
    thread = await trial.new_thread()
    try:
        await trial.do("run")
    except RunFailed:
        await trial.do("resume")
        return RetrySeen(True, len(await trial.executed("email", thread)))
    return RetrySeen(False, len(await trial.executed("email", thread)))


# -- 4. the charge in a task: its saved result answers the node's second run ---------------------------


@dataclass(frozen=True)
class TaskSeen:
    asked: bool
    bought_before_asking: int
    """Charge requests sent by the time the node asked."""
    sent: int
    """Charge requests sent in all, replayed ones included."""
    charges: int


def judge_task(seen: TaskSeen) -> Verdict:
    if not seen.asked:
        return failed("never_asked")
    if not seen.bought_before_asking:
        return failed("bought_after_asking")
    if seen.charges > 1:
        return failed("charged_again", count=seen.charges)
    if seen.sent > 1:
        return failed("requested_again", count=seen.sent)
    return passed("charge_in_task")


async def drive_task(trial: Trial) -> TaskSeen:
    """Run to the question, count what was bought; approve after the process died while it waited."""
    thread = await trial.new_thread()
    asked = (await trial.do("run"))["status"] == "interrupted"
    before = len(requests(await trial.world.entries(), "charge", thread))
    if asked:
        await trial.crash()
        await trial.do("answer", approve=True)
    sent = requests(await trial.world.entries(), "charge", thread)
    return TaskSeen(asked, before, len(sent), len(await trial.executed("charge", thread)))


# -- the challenges --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Challenge:
    """One goal level: how the lab drives the learner's program, and how it judges what it saw."""

    id: str
    drive: Callable[[Trial], Awaitable[Any]]
    judge: Callable[[Any], Verdict]


CHALLENGES: dict[str, Challenge] = {
    challenge.id: challenge
    for challenge in (
        Challenge("ask_before_buying", drive_purchase, judge_purchase),
        Challenge("business_key", drive_key, judge_key),
        Challenge("email_once", drive_retry, judge_retry),
        Challenge("charge_in_task", drive_task, judge_task),
    )
}


async def check_challenge(challenge_id: str, source: str) -> Verdict:
    """Run the challenge's check on ``source``: load it, drive it through its crash or failure in the
    lab's controller, and judge what reached the world. Leaves the loaded program's module and
    ``lab.world``'s recorder as they were (the playground's own thread is not touched)."""
    challenge = CHALLENGES[challenge_id]
    loaded = sys.modules.get(PROGRAM_MODULE)
    try:
        with runs_record_for_themselves():
            trial = Trial(source)
            try:
                seen = await challenge.drive(trial)
            finally:
                await trial.close()
        return seen if isinstance(seen, Verdict) else challenge.judge(seen)
    except ProgramError as error:
        problem = error.problem.as_dict()
        return Verdict(False, problem["say"], problem)
    except RunFailed as error:
        return error.verdict
    finally:
        if loaded is not None:
            sys.modules[PROGRAM_MODULE] = loaded
