"""The playground page, /play: the editor (CodeMirror, bundled at build time, under the site's CSP) loads
with line numbers, the gallery opens a program, a shared link reproduces the program and runs nothing
until Run is pressed, and the page speaks Chinese with ``?lang=zh`` (these need no Python: each gets an
empty profile, ``no_python``). Then the instruments, on the returning learner's profile: a gallery
program runs to its end with LangGraph's values (the AML graph as code too), a crash at a seam of a node
the learner wrote (before or right after its lab.world charge, or before its writes are saved) resumes
with the right restored / re-run split and the charges it should leave, LangGraph's docs persistence
example is pasted, run, crashed, resumed and travelled in English and Chinese, an infinite loop is
stopped (the worker killed and replaced), the line of a failing node is marked in the editor, and so is
a `def` node that calls a subgraph (refused over the browser's saver)."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from gallery import GALLERY
from tests.browser.lab_page import open_lab, wait_until
from tests.langgraph_docs_examples import PERSISTENCE
from tests.playground_programs import PAYING_FAN_OUT
from tests.test_playground_script import normalised, on_langgraph

CHINESE = re.compile(r"[\u4e00-\u9fff]")
PROGRAM = "from langgraph.graph import StateGraph\n\n# shared: 你好\nx = 1\n"


def open_play(page: Page, url: str) -> list[str]:
    """Open ``url`` and wait for the page to be ready; returns the console's errors as they come."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    expect(page.locator("body[data-ready='true']")).to_be_attached()
    return errors


def type_program(page: Page, text: str) -> None:
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)


@pytest.mark.no_python
def test_the_editor_loads_with_line_numbers_and_python_highlighting(page: Page, site: str) -> None:
    errors = open_play(page, f"{site}/play")
    expect(page.locator("#play-editor[data-state='ready'] .cm-editor")).to_be_visible()
    expect(page.locator(".cm-lineNumbers .cm-gutterElement", has_text="12")).to_be_visible()
    expect(page.locator(".cm-content")).to_contain_text("from langgraph.graph import START, MessagesState")
    # CodeMirror's own styles arrived under style-src 'self' (constructed style sheets in the editor's
    # shadow root), and the tokens are coloured by the page's variables
    assert page.locator(".cm-editor").evaluate("e => getComputedStyle(e).display") == "flex"
    keyword = page.locator(".cm-line span", has_text="def").first
    assert keyword.evaluate("e => getComputedStyle(e).color") != page.locator(".cm-content").evaluate(
        "e => getComputedStyle(e).color"
    )
    assert errors == []


@pytest.mark.no_python
def test_escape_then_tab_leaves_the_editor(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    page.locator(".cm-content").click()
    page.keyboard.press("Tab")  # indents: the editor keeps the focus
    in_editor = "document.activeElement.shadowRoot?.activeElement?.classList.contains('cm-content') ?? false"
    assert page.evaluate(in_editor)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert not page.evaluate(in_editor)


@pytest.mark.no_python
def test_the_gallery_opens_a_program(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    page.select_option("#play-gallery", "fan_out_failing_branch")
    expect(page.locator(".cm-content")).to_contain_text("def stock(state: Report) -> dict:")
    expect(page.locator("#play-gallery-about")).to_contain_text("pending writes")


@pytest.mark.no_python
def test_a_shared_link_reproduces_the_program_and_runs_nothing(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    type_program(page, PROGRAM)
    page.click("#play-share")
    link = page.locator("#play-share-link")
    expect(link).to_be_visible()
    shared = link.input_value()
    assert "#program=" in shared

    requests: list[str] = []
    other = page.context.new_page()
    other.on("request", lambda request: requests.append(request.url))
    open_play(other, shared)
    expect(other.locator("#play-origin")).to_contain_text("nothing runs until you press Run")
    lines = [text.replace("\n", "") for text in other.locator(".cm-line").all_inner_texts()]  # "" is a <br>
    assert lines == PROGRAM.split("\n")
    instruments = other.locator("#play-instruments")
    expect(instruments).to_have_attribute("data-runs", "0")
    assert instruments.get_attribute("data-asked") is None  # the worker was asked nothing
    assert not [url for url in requests if "worker" in url or "/pyodide/" in url or "/wheels/" in url]

    other.click("#play-run")
    expect(instruments).to_have_attribute("data-asked", "1")
    expect(other.locator("#play-run-status")).to_contain_text("Loading your program in the lab's Python")


@pytest.mark.no_python
def test_a_program_too_long_for_a_link_is_refused_with_its_size(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    noise = page.evaluate("Array.from({length: 30000}, () => Math.random().toString(36)[2]).join('')")
    type_program(page, f"x = '{noise}'\n")
    page.click("#play-share")
    expect(page.locator("#play-share-status")).to_contain_text("too long to share by link")
    expect(page.locator("#play-share-link")).to_be_hidden()


@pytest.mark.no_python
def test_a_damaged_link_says_so(page: Page, site: str) -> None:
    open_play(page, f"{site}/play#program=not-deflate-at-all")
    expect(page.locator("#play-origin")).to_contain_text("could not be read")


@pytest.mark.no_python
def test_the_page_speaks_chinese_with_lang_zh(page: Page, site: str) -> None:
    open_play(page, f"{site}/play?lang=zh")
    expect(page.locator("h1")).to_have_text("练习场：运行你自己的图")
    expect(page.locator("#play-gallery option[value='five_minutes']")).to_have_text("五分钟：对话记忆")
    expect(page.locator("#play-run")).to_have_text("运行")
    assert page.evaluate("document.documentElement.lang") == "zh-CN"


# -- the instruments (Python boots: the returning learner's profile) ------------------------------------

ASKING_PROGRAMS = {
    "charge_before_interrupt",
    "charge_after_interrupt",
    "charge_in_a_task",
    "func_side_effect_outside_a_task",
    "func_review",
    "subgraph_interrupt",
    "aml_investigation",
}
"""The gallery programs whose run stops at an interrupt() before it ends."""
FAILING_ONCE = {"fan_out_failing_branch", "func_resume_after_error"}
"""The gallery programs a run of which fails once (the page resumes it)."""

LOOPING = """\
from typing import TypedDict

from langgraph.graph import START, StateGraph


class State(TypedDict):
    n: int


def spin(state: State) -> dict:
    while True:
        state["n"] += 1


builder = StateGraph(State)
builder.add_node("spin", spin)
builder.add_edge(START, "spin")
graph = builder.compile()
"""

FAILING = LOOPING.replace('    while True:\n        state["n"] += 1\n', '    return {"n": 1 // state["n"]}\n')


def open_instruments(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    wait_until(page, lambda: python_ready(page), "the playground's Python process to be ready")


def python_ready(page: Page) -> bool:
    return page.evaluate("() => document.body.dataset.process === 'ready'")


def worker(page: Page) -> int:
    return page.evaluate("() => window.lab.status.worker")


def replaced(page: Page, first_worker: int, what: str) -> None:
    wait_until(page, lambda: python_ready(page) and worker(page) > first_worker, what)


def idle(page: Page) -> bool:
    return not page.evaluate("() => window.labView.busy")


def phase(page: Page) -> str | None:
    return page.evaluate("() => window.labView.status?.phase ?? null")


def controller(page: Page, name: str, args: dict | None = None):
    return page.evaluate("([name, args]) => window.lab.command(name, args)", [name, args or {}])


RUN = "#play-run"
"""Run: the program as written when it has a script, else driven on a new thread from the Input box."""
DRIVE = "#play-drive"
"""Drive it yourself: a new thread from the Input (JSON) box, the graph run alone (the second way)."""


def press_run(page: Page, button: str = RUN) -> None:
    """Press ``button`` and wait until the page has said how it ended (the run buttons work again)."""
    runs = int(page.locator("#play-instruments").get_attribute("data-runs"))
    page.locator(button).click()
    wait_until(
        page,
        lambda: (
            int(page.locator("#play-instruments").get_attribute("data-runs")) > runs
            and page.locator(RUN).is_enabled()
            and page.locator("#play-run-status").get_attribute("data-key") not in ("play.running", None)
        ),
        f"{button} to be answered",
    )


def run_program(
    page: Page, source: str | None = None, until: tuple[str, ...] = ("done",), button: str = RUN
) -> None:
    """Put ``source`` in the editor (if given), press ``button`` (Run, or Drive it yourself), wait for
    the run to stop in one of ``until``."""
    if source is not None:
        type_program(page, source)
    press_run(page, button)
    wait_until(
        page,
        lambda: (
            page.evaluate("() => !document.querySelector('#play-problem').hidden")
            or (phase(page) in until and not page.evaluate("() => window.labView.busy"))
        ),
        f"the program to run until {until}",
    )


def worker_modules(page: Page) -> list[str]:
    """The ``lab`` modules the page's Python process has imported (its ``sys.modules``: ``stats``)."""
    return page.evaluate("() => window.lab.request('stats')")["lab_modules"]


def aml_modules(modules: list[str]) -> list[str]:
    return [name for name in modules if name == "lab.aml" or name.startswith("lab.aml.")]


def test_the_playgrounds_worker_never_imports_the_aml_investigation(page: Page, site: str) -> None:
    """/play names no graph (issue 35): its worker opens the lab with none and restores nothing, so no
    module of ``lab.aml`` is imported - not at boot (the memory snapshot every page restores leaves it
    out), not once a program is loaded and run, nor by the AML graph as code (it calls ``lab.world``).
    The lab page names the AML graph: its worker has imported it (the check can see it)."""
    open_instruments(page, site)
    assert page.evaluate("() => lab.status.ready.restored") is None  # no graph, so nothing to restore
    booted = worker_modules(page)
    assert "lab.browser.lab_rpc" in booted and aml_modules(booted) == []
    run_program(page, button=DRIVE)  # the gallery's first program, on a new thread
    assert "lab.playground.session" in worker_modules(page)
    page.select_option("#play-gallery", "aml_investigation")
    run_program(page, button=DRIVE, until=("waiting",))
    assert phase(page) == "waiting"  # at its officer's review
    assert aml_modules(worker_modules(page)) == []
    open_lab(page, site)
    assert "lab.aml.lab_page" in aml_modules(worker_modules(page))


def test_a_gallery_program_driven_yourself_runs_with_langgraphs_values(page: Page, site: str) -> None:
    """Drive it yourself: one new thread from the program's own first input, run to its end."""
    open_instruments(page, site)  # the gallery's first program: the seed's five-minute chat
    run_program(page, button=DRIVE)
    expect(page.locator("#play-run-status")).to_contain_text("Your program runs in the lab")
    messages = controller(page, "state")["values"]["messages"]  # each as its repr, the lab's JSON form
    assert [message.split("(content=")[0] for message in messages] == ["HumanMessage", "AIMessage"]
    assert ["content='你好'" in messages[0], "content='收到：你好'" in messages[1]] == [True, True]
    expect(page.locator("#play-load-notes")).to_contain_text("InMemorySaver")
    assert json.loads(page.locator("#play-input").input_value()) == {"messages": [["user", "你好"]]}
    expect(page.locator("#checkpoints tbody tr")).to_have_count(3)  # input, loop step 0, chatbot


@pytest.mark.parametrize(
    ("seam", "charged"),
    [
        ("side_effect", [1250]),  # before the request left: only the re-run's charge
        ("side_effect_done", [1250, 1250]),  # right after it: the re-run charges again
        ("task_finish", [1250, 1250]),  # pay's writes computed, not saved: the same
    ],
)
def test_a_crash_in_a_learners_node_resumes_with_the_right_split(
    page: Page, site: str, seam: str, charged: list[int]
) -> None:
    open_instruments(page, site)
    run_program(page, PAYING_FAN_OUT, button=DRIVE)
    expect(page.locator("#play-load-notes")).to_contain_text("Lines 37–38")
    page.locator(f"#crash-seams input[data-seam='{seam}']").check()
    offered = page.locator("#crash-node option").evaluate_all("options => options.map(o => o.value)")
    inside_calls = seam.startswith("side_effect")  # only pay calls lab.world: only pay meets them
    assert offered == (["", "pay"] if inside_calls else ["", "pack", "pay", "ship"])
    first_worker = worker(page)
    controller(page, "arm_crash", {"seam": seam, "node": "pay", "after": ["put_writes", "pack"]})
    run_program(page, until=("crashed",), button=DRIVE)  # the same program: a new thread, the crash armed
    replaced(page, first_worker, "the next worker to take over")
    wait_until(
        page, lambda: page.locator("button[data-action='resume']").is_enabled(), "Resume to be offered"
    )
    page.locator("button[data-action='resume']").click()
    wait_until(page, lambda: phase(page) == "done" and idle(page), "the resume")
    resumed = controller(page, "executions")["last_resume"]
    assert (resumed["restored"], resumed["rerun"]) == (["pack"], ["pay"])
    thread = controller(page, "state")
    assert thread["values"]["done"] == ["packed", "paid", "shipped"]
    ledger = controller(page, "ledger")
    thread_id = page.evaluate("() => window.labView.session.thread_id")
    mine = [row for row in ledger["entries"] if row["thread_id"] == thread_id]
    assert [row["amount_cents"] for row in mine] == charged
    doubled = [d for d in ledger["duplicates"] if d["causes"] == ["crash_rerun"]]
    assert bool(doubled) == (len(charged) == 2)


def test_a_task_the_learners_node_calls_is_its_own_row_ran_then_restored(page: Page, site: str) -> None:
    """The gallery's charge_in_a_task: ``buy`` (a plain def) calls the task ``pay_for_export``; the
    executions panel shows the task under its node: it ran, then on Approve it is restored."""
    open_instruments(page, site)
    page.select_option("#play-gallery", "charge_in_a_task")
    run_program(page, until=("waiting",), button=DRIVE)  # (Run would answer the question as written)
    task = page.locator('#executions-table tr.task-call[data-caller="buy"]')
    expect(task).to_have_count(1)
    expect(task).to_have_attribute("data-task", "pay_for_export")
    expect(task).to_have_attribute("data-state", "saved")
    ran_as = task.get_attribute("data-task-id")
    page.locator("#play-instruments button[data-action='approve']").click()
    wait_until(page, lambda: phase(page) == "done" and idle(page), "the answer's run")
    expect(task).to_have_attribute("data-state", "restored")
    expect(task.locator(".verdict")).to_have_text("restored from the checkpoint")
    assert task.get_attribute("data-task-id") == ran_as
    assert [row["amount_cents"] for row in controller(page, "ledger")["entries"]] == [2500]


def test_an_infinite_loop_is_stopped_by_killing_the_worker(page: Page, site: str) -> None:
    open_instruments(page, site)
    type_program(page, LOOPING)
    page.locator("#play-input").fill('{"n": 0}')
    page.locator("#play-run").click()
    stop = page.locator("#play-stop")
    wait_until(page, lambda: stop.is_enabled(), "Stop to be offered while the node spins")
    first_worker = worker(page)
    stop.click()
    replaced(page, first_worker, "a new worker to replace the spinning one")
    expect(page.locator("#play-run-status")).to_contain_text("Stopped: the worker was killed")
    assert page.evaluate("() => window.labView.session.case_id") == "default"  # the thread is still there


def test_the_line_of_a_failing_node_is_marked(page: Page, site: str) -> None:
    open_instruments(page, site)
    type_program(page, FAILING)
    page.locator("#play-input").fill('{"n": 0}')
    run_program(page, until=("error",))
    problem = page.locator("#play-problem")
    expect(problem).to_contain_text("Node spin raised at line 11: ZeroDivisionError")
    expect(page.locator(".cm-line[data-problem-line='11']")).to_be_visible()
    type_program(page, "x = (\n")  # a syntax error: marked without running anything
    page.locator("#play-run").click()
    expect(problem).to_have_attribute("data-kind", "syntax")
    expect(page.locator(".cm-line[data-problem-line='1']")).to_be_attached()


SUBGRAPH_FROM_A_DEF_NODE = """\
import operator
from typing import Annotated, TypedDict

from langgraph.graph import START, StateGraph


class State(TypedDict):
    log: Annotated[list, operator.add]


inner = StateGraph(State)
inner.add_node("i1", lambda state: {"log": ["i1"]})
inner.add_edge(START, "i1")
sub = inner.compile()


def call(state: State) -> dict:
    return sub.invoke(state)


builder = StateGraph(State)
builder.add_node("call", call)
builder.add_edge(START, "call")
graph = builder.compile()
"""


def test_a_def_node_calling_a_subgraph_is_refused_at_its_line(page: Page, site: str) -> None:
    """Over the browser's IndexedDB saver a ``def`` node cannot wait for ``sub.invoke``: the program
    is refused when it loads, at the node's line, with the two remedies (lab.graph.subgraphs)."""
    open_instruments(page, site)
    run_program(page, SUBGRAPH_FROM_A_DEF_NODE)
    problem = page.locator("#play-problem")
    expect(problem).to_contain_text("at line 17: NotSupportedError: lab does not support a plain `def` node")
    expect(problem).to_contain_text("(node 'call': `sub.invoke(...)`) over IndexedDBSaver")
    expect(problem).to_contain_text("await sub.ainvoke(...)")
    expect(page.locator(".cm-line[data-problem-line='17']")).to_be_visible()


STOPPED = ("done", "waiting", "error")
"""The phases a run of a gallery program stops in."""


def drive_to_the_end(page: Page) -> list[str]:
    """From a run that stopped, answer each interrupt with Approve and resume after each failure (what
    the program's own ``__main__`` does on LangGraph) until the thread is done; the phases it went
    through."""
    wait_until(page, lambda: idle(page) and phase(page) in STOPPED, "the run to stop")
    phases = [phase(page)]
    while phases[-1] != "done" and len(phases) < 6:
        action = {"waiting": "approve", "error": "resume"}[phases[-1]]
        page.locator(f"#play-instruments button[data-action='{action}']").click()
        wait_until(page, lambda: not idle(page) or phase(page) != phases[-1], f"{action} to start")
        wait_until(page, lambda: idle(page) and phase(page) in STOPPED, "the run to stop")
        phases.append(phase(page))
    return phases


@pytest.mark.parametrize("program", [entry.id for entry in GALLERY])
def test_each_gallery_program_driven_yourself_runs_to_its_end(page: Page, site: str, program: str) -> None:
    open_instruments(page, site)
    page.select_option("#play-gallery", program)
    run_program(page, until=STOPPED, button=DRIVE)
    phases = drive_to_the_end(page)
    assert phases[-1] == "done", (phases, page.locator("#error-line").inner_text())
    assert page.locator("#play-problem").is_hidden() or program in FAILING_ONCE
    assert ("error" in phases) == (program in FAILING_ONCE)  # a branch, a task, that fails once
    assert ("waiting" in phases) == (program in ASKING_PROGRAMS)


def test_the_aml_graph_as_code_runs_to_its_end(page: Page, site: str) -> None:
    open_instruments(page, site)
    page.select_option("#play-gallery", "aml_investigation")
    run_program(page, until=STOPPED, button=DRIVE)
    assert phase(page) == "waiting"
    expect(page.locator("#play-question")).to_contain_text("File a SAR for S-1001?")
    assert drive_to_the_end(page)[-1] == "done"  # Approve
    values = controller(page, "state")["values"]
    assert (values["typology"], values["outcome"], values["approved"]) == ("structuring", "SAR filed", True)
    thread_id = page.evaluate("() => window.labView.session.thread_id")
    mine = [row for row in controller(page, "ledger")["entries"] if row["thread_id"] == thread_id]
    assert [(row["kind"], row["node"], row["amount_cents"]) for row in mine] == [
        ("charge", "fetch_transactions", 250),
        ("email", "file_sar", 0),
    ]


def frame_values(page: Page) -> dict:
    return json.loads(page.locator("#inspect-state").inner_text())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_langgraphs_docs_persistence_example_runs_crashes_resumes_and_travels(
    page: Page, site: str, lang: str
) -> None:
    """A newcomer pastes the docs' example (tests/langgraph_docs_examples.py), runs it, crashes its
    second node with the crash panel, resumes, and travels its frames, in English or Chinese."""
    open_play(page, f"{site}/play?lang={lang}")
    wait_until(page, lambda: python_ready(page), "the playground's Python process to be ready")
    type_program(page, PERSISTENCE)
    run_program(page, button=DRIVE)
    assert page.locator("#play-problem").is_hidden()
    skipped = {"en": "Lines 30–39 drive the graph", "zh": "第 30–39 行在顶层驱动图"}[lang]
    expect(page.locator("#play-load-notes")).to_contain_text(skipped)
    assert controller(page, "state")["values"] == {"foo": "b", "bar": ["a", "b"]}
    expect(page.locator("#checkpoints tbody tr")).to_have_count(4)  # input, step 0, node_a, node_b

    # durability "sync": node_a's checkpoint is saved before node_b starts ("async" may still be saving
    # it when node_b dies: the resume then restores node_a from its pending writes instead)
    page.select_option("#play-durability", "sync")
    page.locator("#crash-seams input[data-seam='task_finish']").check()  # node_b ran, its writes unsaved
    page.select_option("#crash-node", "node_b")
    page.locator("#crash button[data-action='arm']").click()
    expect(page.locator("#crash-armed")).to_have_class(re.compile("is-armed"))
    first_worker = worker(page)
    run_program(page, until=("crashed", "resumable"), button=DRIVE)  # a new thread of the same program
    replaced(page, first_worker, "the next worker to take over")
    resume = page.locator("#play-run-controls button[data-action='resume']")
    wait_until(page, lambda: resume.is_enabled(), "Resume to be offered")
    report = page.locator("#crash-report").inner_text()
    assert bool(CHINESE.search(report)) == (lang == "zh"), report
    resume.click()
    wait_until(page, lambda: phase(page) == "done" and idle(page), "the resume")
    executions = controller(page, "executions")
    resumed = executions["last_resume"]
    assert (resumed["restored"], resumed["rerun"]) == ([], ["node_b"]), (report, executions)
    started = {node: count["started"] for node, count in executions["nodes"].items()}
    assert started == {"__start__": 1, "node_a": 1, "node_b": 2}  # node_b ran twice, node_a once
    assert controller(page, "state")["values"] == {"foo": "b", "bar": ["a", "b"]}

    page.locator("button[data-action='first']").click()
    expect(page.locator("#scrubber")).to_have_value("0")
    expect(page.locator("#inspect-next")).to_have_text("__start__")
    assert frame_values(page) == {"bar": []}  # the input frame, as in the docs' history
    page.locator("button[data-action='next']").click()
    page.locator("button[data-action='next']").click()
    expect(page.locator("#inspect-next")).to_have_text("node_b")
    assert frame_values(page) == {"foo": "a", "bar": ["a"]}  # after node_a, as the docs' history shows
    position = page.locator("#scrubber-position").inner_text()
    assert bool(CHINESE.search(position)) == (lang == "zh"), position


@pytest.mark.parametrize("entry", GALLERY, ids=[entry.id for entry in GALLERY])
def test_each_gallery_programs_script_runs_as_written_and_prints_what_langgraph_prints(
    page: Page, site: str, entry
) -> None:
    """Run, the default, runs each gallery program's own ``__main__`` on the lab: it ends (its asserts
    hold), and the output pane shows what the program prints on real LangGraph."""
    open_instruments(page, site)
    page.select_option("#play-gallery", entry.id)
    press_run(page)
    expect(page.locator("#play-run-status")).to_contain_text("Your program's script ran:")
    expect(page.locator("#play-problem")).to_be_hidden()
    printed = page.locator("#play-output").inner_text()
    assert normalised(printed.rstrip("\n")) == normalised(on_langgraph(entry.source).rstrip("\n"))
