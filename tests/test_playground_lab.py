"""The playground's lab on CPython: a learner's program driven by the lab controller.

What ``play_load`` does in the worker (``lab.browser.play_rpc``), with the CPython stand-ins for the
page (an in-memory saver, world and journal): the program's graph is compiled again over the lab's
saver whatever checkpointer it passed, a thread starts with the program's own example input, a crash
at a seam of a node the learner wrote resumes with the right restored / re-run split, ``lab.world``'s
charges land in the lab's ledger (a repeat is flagged with its cause), an interrupt is answered with
any JSON value, and a failing node is reported at its line.
"""

from __future__ import annotations

import inspect
from typing import Any

from gallery import GALLERY
from lab.controller.process import ProcessSaver
from lab.playground import load_program
from lab.playground.problems import Problem, problem_at_error
from lab.playground.script import run_script
from lab.playground.script_calls import ScriptCalls
from lab.playground.session import LabLedger, playground_profile
from lab.world import use_recorder
from tests.controller_lab import Lab
from tests.playground_programs import PAYING_FAN_OUT

ASKING = """\
from typing import TypedDict

from langgraph.graph import START, StateGraph
from langgraph.types import interrupt


class Trip(TypedDict, total=False):
    city: str
    nights: int


def ask(state: Trip) -> dict:
    answer = interrupt({"question": f"How many nights in {state['city']}?"})
    return {"nights": answer["nights"]}


def check(state: Trip) -> dict:
    if state["nights"] > 7:
        raise ValueError("too many nights")
    return {}


builder = StateGraph(Trip)
builder.add_node("ask", ask)
builder.add_node("check", check)
builder.add_edge(START, "ask")
builder.add_edge("ask", "check")
graph = builder.compile()
"""


GALLERY_SOURCES = {entry.id: entry.source for entry in GALLERY}


class PlayLab(Lab):
    """The lab over a loaded program, as ``play_load`` builds it; ``lab.world`` records in its ledger."""

    def __init__(self, source: str, given: Any = None) -> None:
        self.program = load_program(source)
        self.ledger = LabLedger()
        self.problems: list[Problem] = []
        given = given if given is not None else self.program.example
        super().__init__(profile=playground_profile(self.program, self.ledger, given, self.problems.append))

    def counted(self, name: str, func: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:  # a learner's node may be a plain def
            self.calls[name] += 1
            result = func(*args, **kwargs)
            return await result if inspect.isawaitable(result) else result

        return call


def play(source: str, given: Any = None) -> PlayLab:
    return PlayLab(source, given)


async def test_the_program_runs_on_the_labs_saver_with_its_own_example_input():
    lab = play(PAYING_FAN_OUT)
    assert lab.program.skipped == (37, 38)  # the top-level invoke and what follows it did not run
    assert isinstance(lab.controller.graph_for("default").checkpointer, ProcessSaver)
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default")
        outcome = await lab.do("run")
    assert outcome["status"] == "done"
    assert outcome["values"] == {"item": "a lamp", "done": ["packed", "paid", "shipped"]}
    rows = (await lab.do("ledger"))["entries"]
    assert [(row["kind"], row["amount_cents"], row["node"]) for row in rows] == [("charge", 1250, "pay")]


async def test_an_interrupt_is_answered_with_a_json_value_and_a_failing_node_is_reported_at_its_line():
    lab = play(ASKING, {"city": "Lyon"})
    await lab.do("start", case_id="default")
    asked = await lab.do("run")
    assert asked["status"] == "interrupted"
    assert asked["interrupts"][0]["value"] == {"question": "How many nights in Lyon?"}
    failed = await lab.do("answer", value={"nights": 9})
    assert failed["status"] == "error"
    assert failed["error"]["message"] == "too many nights"
    (problem,) = lab.problems
    assert (problem.kind, problem.line, problem.params["name"]) == ("node", 19, "check")


async def test_the_diagram_marks_what_each_learner_node_does():
    lab = play(PAYING_FAN_OUT)
    diagram = (await lab.do("catalog"))["graphs"]["default"]
    nodes = {n["id"]: n for n in diagram["nodes"] if n["kind"] == "node"}
    assert {name: node["paid"] for name, node in nodes.items()} == {"pack": False, "pay": True, "ship": False}
    interrupting = play(ASKING)
    catalog = await interrupting.do("catalog")
    assert [n["id"] for n in catalog["graphs"]["default"]["nodes"] if n.get("interrupts")] == ["ask"]


async def test_a_node_that_calls_lab_world_is_offered_the_seams_around_the_call():
    seams = (await play(PAYING_FAN_OUT).do("view"))["seams"]
    inside_pay = ["task_start", "side_effect", "side_effect_done", "task_finish", "put_writes", "error"]
    assert seams["nodes"]["pay"] == inside_pay
    assert "side_effect" not in seams["nodes"]["pack"]


async def crash_inside_pay(seam: str) -> tuple[PlayLab, dict[str, Any]]:
    """Crash the fan-out at ``seam`` of ``pay`` (a plain ``def`` that calls ``charge``), once ``pack``'s
    writes are saved; reboot and resume. Returns the lab and the ledger."""
    lab = play(PAYING_FAN_OUT)
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default")
        await lab.do("arm_crash", seam=seam, node="pay", after=["put_writes", "pack"])
        crashed = await lab.do("run")
        assert (crashed["status"], crashed["crash_point"]["seam"]) == ("crashed", seam)
        await lab.crash_and_reboot()
        outcome = await lab.do("resume")
    assert outcome["values"]["done"] == ["packed", "paid", "shipped"]
    resumed = (await lab.do("executions"))["last_resume"]
    assert (resumed["restored"], resumed["rerun"]) == (["pack"], ["pay"])
    assert await lab.started() == {"pack": 1, "pay": 2, "ship": 1}
    return lab, await lab.do("ledger")


async def test_a_crash_in_a_learner_node_resumes_with_the_right_split_and_a_flagged_double_charge():
    _, ledger = await crash_inside_pay("task_finish")  # pay charged, its writes not saved
    assert [row["amount_cents"] for row in ledger["entries"]] == [1250, 1250]
    (double,) = ledger["duplicates"]
    assert (double["label"], double["causes"]) == ("charged ×2", ["crash_rerun"])


async def test_a_crash_before_a_learner_nodes_charge_leaves_the_request_unsent():
    _, ledger = await crash_inside_pay("side_effect")
    assert [row["amount_cents"] for row in ledger["entries"]] == [1250]  # only the re-run's request
    assert ledger["duplicates"] == []


async def test_a_crash_right_after_a_learner_nodes_charge_charges_again_on_resume():
    lab, ledger = await crash_inside_pay("side_effect_done")
    assert [row["amount_cents"] for row in ledger["entries"]] == [1250, 1250]
    (double,) = ledger["duplicates"]
    assert double["causes"] == ["crash_rerun"]
    # the process died inside the node; its last words told the page where, and the journal kept it
    assert [(event["seam"], event["node"]) for event in lab.events_of("crash_point")] == [
        ("side_effect_done", "pay")
    ]
    assert [run["status"] for run in (await lab.do("executions"))["runs"]] == ["crashed", "done"]


async def test_a_view_says_the_program_and_thread_it_belongs_to():
    """Each program the page loads is a new controller whose ``seq`` starts again at 0; its views carry
    the page's name for the program and the open thread (``owner``), so the page never draws one
    program's view under another's (static/store.mjs)."""
    lab = play(PAYING_FAN_OUT)
    lab.controller.state.program = "program-2"  # as lab.browser.lab_rpc.use_profile names it
    assert (await lab.do("view"))["owner"] == {"program": "program-2", "thread": None}
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default")
    view = await lab.do("view")
    thread = view["session"]["thread_id"]
    assert thread and view["owner"] == {"program": "program-2", "thread": thread}


async def test_a_learners_graph_is_said_in_its_own_words_not_the_aml_labs():
    """The crash picker says what a node that calls out does, and the diagram its name, in the graph
    profile's words: ``lab.world`` and the program's graph for a learner's, the paid API and the SAR
    for the AML investigation."""
    words = (await play(PAYING_FAN_OUT).do("view"))["words"]
    assert words["outside_calls"]["text"] == "calls lab.world (charge or send_email)"
    assert words["title"]["text"] == "Your program's graph (graph)"
    aml = (await Lab().do("view"))["words"]
    assert aml["outside_calls"]["text"] == "calls the paid API or files the SAR"
    assert aml["title"]["text"] == "The AML investigation graph"


async def test_the_seeds_script_runs_as_written_two_turns_on_one_thread():
    """The five-minute example's ``__main__``: two invokes on one thread, the second answering from the
    first turn, then ``get_state`` and ``print``; each invoke is a run of the lab's thread."""
    lab = play(GALLERY_SOURCES["five_minutes"])
    calls = ScriptCalls(lab.controller, lab.program.graph)
    result = await run_script(lab.program.script, vars(lab.program.module), calls)
    assert result.error is None, result.error
    assert result.output == "['你好', '收到：你好', '我刚才说了什么？', '收到：我刚才说了什么？']\n"
    assert result.runs == 2
    thread = lab.controller.state.session.thread_id
    assert thread.startswith("user-42-")
    runs = (await lab.do("executions"))["runs"]
    assert [run["kind"] for run in runs] == ["input", "input"]


async def test_an_exception_in_the_script_stops_it_at_its_line():
    source = GALLERY_SOURCES["five_minutes"].replace("print(contents)", "print(contents[9])")
    lab = play(source)
    calls = ScriptCalls(lab.controller, lab.program.graph)
    result = await run_script(lab.program.script, vars(lab.program.module), calls)
    assert isinstance(result.error, IndexError) and result.runs == 2
    located = problem_at_error(result.error, "script")
    assert located.line == source.splitlines().index("    print(contents[9])") + 1
    assert located.text.startswith(f"The program's script raised at line {located.line}: IndexError")
