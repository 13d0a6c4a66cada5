"""The playground's challenges: each starting program misses its goal and each solution reaches it, on
lab (the checker crashes and resumes the program in the lab's controller) and on real LangGraph (the
same programs driven through the same crash or failure, what reached the world judged by the same
judge); a learner's near-misses fail with their reason; the page's listing and catalogues have them.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from gallery.challenges import FOLDER, challenge_listing
from lab.playground.challenges import (
    CHALLENGES,
    OTHER_ORDER,
    REJECTED_ORDER,
    TEXTS,
    KeySeen,
    PurchaseSeen,
    RetrySeen,
    TaskSeen,
    check_challenge,
    executed,
    requests,
)
from lab.playground.program import PROGRAM_MODULE
from lab.world import MemoryWorld, Operation, use_recorder
from lab.world.recorder import current_recorder


def source(challenge_id: str, part: str) -> str:
    return (Path(FOLDER) / f"{challenge_id}_{part}.py").read_text()


async def verdict(challenge_id: str, program: str) -> dict[str, Any]:
    return (await check_challenge(challenge_id, program)).as_dict()


# -- on lab: the checker the page asks -----------------------------------------------------------------

EXPECTED_START_REASON = {
    "ask_before_buying": ("charged_again", {"count": 2}),
    "business_key": ("charged_after_crash", {"order": "A-1", "count": 2}),
    "email_once": ("sent_again", {"count": 2}),
    "charge_in_task": ("charged_again", {"count": 2}),
}


@pytest.mark.parametrize("challenge_id", sorted(CHALLENGES))
async def test_the_start_misses_the_goal_with_its_reason_and_the_solution_reaches_it(challenge_id: str):
    start = await verdict(challenge_id, source(challenge_id, "start"))
    reason, params = EXPECTED_START_REASON[challenge_id]
    assert not start["passed"]
    assert start["say"]["code"] == f"play.challenge.{reason}"
    assert params.items() <= start["say"]["params"].items()
    solved = await verdict(challenge_id, source(challenge_id, "solution"))
    assert solved["passed"], solved["say"]["text"]
    assert solved["say"]["code"] == f"play.challenge.passed.{challenge_id}"


async def test_the_double_charges_key_changes_between_the_two_runs_of_the_node() -> None:
    start = await verdict("business_key", source("business_key", "start"))
    first, second = start["say"]["params"]["keys"].split(", ")
    assert first != second and len(first) == 36  # two uuid4 keys: one per run of the node


async def test_a_key_before_interrupt_stops_the_double_charge_but_still_charges_a_no() -> None:
    keyed = source("ask_before_buying", "start").replace(
        "charge(25.00, f\"export of {state['item']}\")",
        "charge(25.00, f\"export of {state['item']}\", idempotency_key=f\"export:{state['item']}\")",
    )
    assert keyed != source("ask_before_buying", "start")
    said = (await verdict("ask_before_buying", keyed))["say"]
    assert said["code"] == "play.challenge.charged_rejected"


BUY_IN_THE_NODE = 'receipt = charge(25.00, f"export of {state[\'item\']}")["id"]'


@pytest.mark.parametrize(
    ("instead", "reason", "params"),
    [
        # a key instead of a task: one charge, but the node's second run asks the API again
        (
            BUY_IN_THE_NODE.replace(")[", ", idempotency_key=f\"export:{state['item']}\")["),
            "requested_again",
            {"count": 2},
        ),
        # the purchase moved after interrupt(): once, but the officer asked without the export
        ('receipt = "none yet"', "bought_after_asking", {}),
    ],
)
async def test_the_charge_in_task_near_misses_fail_with_their_reason(instead, reason, params) -> None:
    start = source("charge_in_task", "start")
    program = start.replace(BUY_IN_THE_NODE, instead)
    assert program != start
    said = (await verdict("charge_in_task", program))["say"]
    assert said["code"] == f"play.challenge.{reason}"
    assert params.items() <= said["params"].items()


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("str(time.time())", "play.challenge.charged_after_crash"),  # new on every run of the node
        ('"payment"', "play.challenge.run_failed"),  # one key for every order: the second one is refused
        ("f\"payment:{state['amount']}\"", "play.challenge.run_failed"),  # the same amount is no order id
    ],
)
async def test_keys_that_do_not_name_the_order_fail(key: str, reason: str) -> None:
    program = "import time\n" + source("business_key", "start").replace("str(uuid.uuid4())", key)
    said = (await verdict("business_key", program))["say"]
    assert said["code"] == reason
    if reason.endswith("run_failed"):
        assert "IdempotencyError" in said["params"]["error"]


async def test_a_program_that_does_not_load_fails_at_its_line_and_one_without_the_failure_is_told() -> None:
    solution = source("email_once", "solution")
    broken = await verdict("email_once", solution.replace("def notify(", "def notify(("))
    assert not broken["passed"] and broken["problem"]["kind"] == "syntax"
    assert broken["problem"]["line"] == solution.splitlines().index("def notify(state: Report) -> dict:") + 1
    steady = source("email_once", "solution").replace('attempts["stock"] == 1', "False")
    assert (await verdict("email_once", steady))["say"]["code"] == "play.challenge.never_failed"


async def test_a_check_leaves_the_loaded_program_and_the_recorder_as_they_were() -> None:
    mine = types.ModuleType(PROGRAM_MODULE)
    recorder = MemoryWorld()
    with use_recorder(recorder):
        sys.modules[PROGRAM_MODULE] = mine
        await verdict("ask_before_buying", source("ask_before_buying", "solution"))
        assert sys.modules[PROGRAM_MODULE] is mine
        assert current_recorder() is recorder
    assert recorder.rows == []  # the check's charges went to its own world


# -- on real LangGraph: the same programs, the same judge ---------------------------------------------


class ProcessDied(Exception):
    """The process dies right after the paying node's request left it (its writes not saved)."""


class DiesAfterFirstCharge(MemoryWorld):
    def record(self, operation: Operation, request: dict[str, Any]) -> dict[str, Any]:
        row = super().record(operation, request)
        if len(self.rows) == 1:
            raise ProcessDied("killed after the charge")
        return row


def process(program: str, saver: Any) -> Any:
    """A new process: the program run afresh on real LangGraph, its graph over the saver that outlives it."""
    import langgraph.graph

    module = types.ModuleType("challenge_program")
    sys.modules["challenge_program"] = module  # its TypedDicts resolve here
    exec(compile(program, "challenge_program", "exec"), vars(module))
    assert type(module.graph).__module__.startswith("langgraph")
    assert module.StateGraph is langgraph.graph.StateGraph
    return module.graph.builder.compile(checkpointer=saver)


def thread(name: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": name}}


def langgraph_purchase(program: str) -> PurchaseSeen:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    saver, order = InMemorySaver(), {"item": "case C-7", "approved": False}
    with use_recorder(MemoryWorld()) as ledger:
        asked = "__interrupt__" in process(program, saver).invoke(order, thread("approved"))
        process(program, saver).invoke(Command(resume=True), thread("approved"))  # the process died meanwhile
        graph = process(program, saver)
        graph.invoke(REJECTED_ORDER, thread("rejected"))
        graph.invoke(Command(resume=False), thread("rejected"))
    charges = [len(executed(ledger.rows, "charge", name)) for name in ("approved", "rejected")]
    return PurchaseSeen(asked, *charges)


def langgraph_key(program: str) -> KeySeen:
    from langgraph.checkpoint.memory import InMemorySaver

    saver = InMemorySaver()
    with use_recorder(DiesAfterFirstCharge()) as ledger:
        with pytest.raises(ProcessDied):
            process(program, saver).invoke({"order_id": "A-1", "amount": 40.0}, thread("A-1"))
        process(program, saver).invoke(None, thread("A-1"))  # resume in a new process
        process(program, saver).invoke(OTHER_ORDER, thread("B-2"))
    return KeySeen(
        order="A-1",
        keys=tuple(row["idempotency_key"] for row in requests(ledger.rows, "charge", "A-1")),
        charges=len(executed(ledger.rows, "charge", "A-1")),
        other_order="B-2",
        other_charges=len(executed(ledger.rows, "charge", "B-2")),
    )


def langgraph_retry(program: str) -> RetrySeen:
    from langgraph.checkpoint.memory import InMemorySaver

    graph = process(program, InMemorySaver())
    with use_recorder(MemoryWorld()) as ledger:
        with pytest.raises(ConnectionError):
            graph.invoke({"report_id": "R-9", "facts": []}, thread("R-9"))
        graph.invoke(None, thread("R-9"))
    return RetrySeen(True, len(executed(ledger.rows, "email", "R-9")))


def langgraph_task(program: str) -> TaskSeen:
    """As the lab's check: to the question, then approve in a new process."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    saver, order = InMemorySaver(), {"item": "case C-7", "receipt": "", "approved": False}
    with use_recorder(MemoryWorld()) as ledger:
        asked = "__interrupt__" in process(program, saver).invoke(order, thread("order"))
        before = len(requests(ledger.rows, "charge", "order"))
        process(program, saver).invoke(Command(resume=True), thread("order"))  # the process died meanwhile
    sent = requests(ledger.rows, "charge", "order")
    return TaskSeen(asked, before, len(sent), len(executed(ledger.rows, "charge", "order")))


LANGGRAPH_DRIVES = {
    "ask_before_buying": langgraph_purchase,
    "business_key": langgraph_key,
    "email_once": langgraph_retry,
    "charge_in_task": langgraph_task,
}


@pytest.mark.parametrize("challenge_id", sorted(CHALLENGES))
def test_on_real_langgraph_the_start_misses_the_goal_and_the_solution_reaches_it(challenge_id: str) -> None:
    judge, drive = CHALLENGES[challenge_id].judge, LANGGRAPH_DRIVES[challenge_id]
    start = judge(drive(source(challenge_id, "start")))
    reason = EXPECTED_START_REASON[challenge_id][0]
    assert (start.passed, start.say["code"]) == (False, f"play.challenge.{reason}")
    solved = judge(drive(source(challenge_id, "solution")))
    assert solved.passed, solved.say["text"]


# -- what the page reads ---------------------------------------------------------------------------------


def test_the_listing_has_every_challenge_with_its_programs_and_words_in_both_languages() -> None:
    from lab.lessons import LESSONS

    listing = challenge_listing()
    assert [entry["id"] for entry in listing] == list(CHALLENGES)
    for entry in listing:
        assert set(entry["title"]) == set(entry["goal"]) == set(entry["hint"]) == {"en", "zh"}
        assert "from langgraph" in entry["start"] and entry["start"] != entry["solution"]
        assert entry["lesson"] in {lesson.id for lesson in LESSONS}
    files = {path.name for path in Path(FOLDER).glob("*.py")} - {"__init__.py"}
    assert files == {f"{entry['id']}_{part}.py" for entry in listing for part in ("start", "solution")}


def test_every_reason_is_said_in_both_catalogues_as_python_says_it() -> None:
    from tests.test_said_in_both_languages import catalogue, is_chinese

    english, chinese = catalogue("en"), catalogue("zh")
    for reason, text in TEXTS.items():
        assert english[f"py.play.challenge.{reason}"] == text
        assert is_chinese(chinese[f"py.play.challenge.{reason}"]), reason


def test_each_challenge_is_linked_from_its_lessons_takeaway_in_both_languages() -> None:
    import tomllib

    for entry in challenge_listing():
        for lang, query in (("en", ""), ("zh", "&amp;lang=zh")):
            lesson = Path(f"narratives/{lang}/lessons/{entry['lesson']}.toml")
            takeaway = tomllib.loads(lesson.read_text())["takeaway"]
            assert f'href="/play?challenge={entry["id"]}{query}"' in takeaway
            assert entry["title"][lang] in takeaway
