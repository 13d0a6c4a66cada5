"""The playground as a learner uses it over an afternoon, in one tab: several programs one after the
other, each pasted with the keyboard and run, and what the page then shows is that program's own
thread (issue 37). Each load is a new lab controller whose event counter starts again at 0, so a page
that ordered views by that counter alone kept drawing the previous program's thread; the views now
say which program and thread they belong to (lab/controller/view.py ``owner``, static/store.mjs).
The challenge picker lists the challenges as the page opens. The Input (JSON) box belongs to the
program it was written for: a new program empties it, and empty is the program's own input. A reload
brings back the tab's program, with a button back to the gallery. A learner's graph is said in its
own words (the crash seams, the diagram), none of the AML lab's. Run runs the program as written, its
own script: the seed's two invokes are two runs on one thread, its print in the output pane, an
exception at its line; Drive it yourself (and Run, for a program without a script) starts a thread
from the Input box. A program that builds no graph runs as plain Python: its output, "no graph", no
panels, and a graph program after it runs as ever."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from gallery import GALLERY
from gallery.challenges import challenge_listing
from tests.browser.lab_page import wait_until
from tests.browser.test_play import (
    DRIVE,
    RUN,
    controller,
    idle,
    open_instruments,
    open_play,
    phase,
    press_run,
    python_ready,
    replaced,
    run_program,
    type_program,
    worker,
)
from tests.playground_programs import PAYING_FAN_OUT

CHAIN = """\
import operator
from typing import Annotated, TypedDict

from langgraph.graph import START, StateGraph


class State(TypedDict):
    log: Annotated[list, operator.add]


def node(name: str):
    return lambda state: {{"log": [name]}}


builder = StateGraph(State)
previous = START
for name in {names!r}:
    builder.add_node(name, node(name))
    builder.add_edge(previous, name)
    previous = name
graph = builder.compile()
"""

PROGRAMS = {
    # the first program makes many events (six nodes, run twice), the next ones few: a page ordering
    # views by the event counter alone would keep drawing this one
    "first": ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot"),
    "second": ("golf", "hotel"),
    "third": ("india",),
}


def program(names: tuple[str, ...]) -> str:
    return CHAIN.format(names=list(names))


def shown_nodes(page: Page) -> list[str]:
    """The node names the graph panel draws (its boxes' labels, not START/END)."""
    return page.locator("#graph g[data-node]").evaluate_all(
        "groups => groups.map(g => g.dataset.node).filter(id => !id.startsWith('__'))"
    )


def shown_thread(page: Page) -> str:
    """The thread the checkpoints table says it lists (its caption)."""
    caption = page.locator("#checkpoints caption").inner_text()
    return re.search(r"of thread (\S+?),", caption).group(1)


def live_thread(page: Page) -> str:
    """The thread the worker's controller has open now, asked directly (not through the page's store)."""
    return controller(page, "view")["owner"]["thread"]


def run_new_thread(page: Page, source: str | None = None, button: str = RUN) -> None:
    """Press ``button`` (with ``source`` typed in first, if given) and wait for its new thread to reach
    END."""
    before = page.evaluate("() => window.labView.session?.thread_id ?? null")
    run_program(page, source, button=button)
    wait_until(
        page,
        lambda: (
            page.evaluate("() => window.labView.session?.thread_id ?? null") != before
            and phase(page) == "done"
            and idle(page)
        ),
        "the new thread to reach END",
    )


def assert_picture_is(page: Page, names: tuple[str, ...]) -> None:
    """The graph panel draws ``names`` and the checkpoints table the worker's open thread, done."""
    wait_until(page, lambda: shown_nodes(page) == list(names), f"the graph of {names} to be drawn")
    thread = live_thread(page)
    wait_until(page, lambda: shown_thread(page) == thread, f"thread {thread} to be shown")
    logs = controller(page, "state")["values"]["log"]
    assert logs == list(names)
    # input, the loop's first step, one checkpoint per node
    expect(page.locator("#checkpoints tbody tr")).to_have_count(len(names) + 2)


def test_three_programs_in_one_tab_each_show_their_own_thread(page: Page, site: str) -> None:
    open_instruments(page, site)
    threads = []

    run_new_thread(page, program(PROGRAMS["first"]))
    run_new_thread(page)  # Run again: a second thread of it, more events on the same controller
    assert_picture_is(page, PROGRAMS["first"])
    threads.append(shown_thread(page))

    run_new_thread(page, program(PROGRAMS["second"]))
    assert_picture_is(page, PROGRAMS["second"])
    threads.append(shown_thread(page))

    # a crash and resume on the second program: the next process loads it again and restores its thread
    page.select_option("#play-durability", "sync")
    page.locator("#crash-seams input[data-seam='task_finish']").check()
    page.select_option("#crash-node", "hotel")
    page.locator("#crash button[data-action='arm']").click()
    first_worker = worker(page)
    run_program(page, until=("crashed", "resumable"))
    replaced(page, first_worker, "the next worker to take over")
    resume = page.locator("#play-run-controls button[data-action='resume']")
    wait_until(page, lambda: resume.is_enabled(), "Resume to be offered")
    resume.click()
    wait_until(page, lambda: phase(page) == "done" and idle(page), "the resume")
    assert_picture_is(page, PROGRAMS["second"])
    threads.append(shown_thread(page))

    run_new_thread(page, program(PROGRAMS["third"]))
    assert_picture_is(page, PROGRAMS["third"])
    threads.append(shown_thread(page))
    assert len(set(threads)) == 4  # each Run a thread of its own, each drawn in its turn


@pytest.mark.no_python
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_challenge_picker_lists_every_challenge_on_opening(page: Page, site: str, lang: str) -> None:
    open_play(page, f"{site}/play?lang={lang}")
    listing = challenge_listing()
    options = page.locator("#play-challenge option")
    expect(options).to_have_count(len(listing) + 1)  # "Take a challenge…" and each one
    titles = options.all_inner_texts()[1:]
    assert titles == [challenge["title"][lang] for challenge in listing]
    page.locator("#play-challenge").focus()  # a keyboard user picks the second one
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#play-challenge-title")).to_have_text(listing[1]["title"][lang])
    expect(page.locator(".cm-content")).to_contain_text(listing[1]["start"].splitlines()[0])


DOUBLING = """\
from typing import TypedDict

from langgraph.graph import START, StateGraph


class State(TypedDict):
    n: int


def double(state: State) -> dict:
    return {"n": state["n"] * 2}


builder = StateGraph(State)
builder.add_node("double", double)
builder.add_edge(START, "double")
graph = builder.compile()

print(graph.invoke({"n": 3}))
"""

SHOUTING = DOUBLING.replace("n: int", "word: str").replace(
    '"n": state["n"] * 2', '"word": state["word"].upper()'
)
SHOUTING = SHOUTING.replace("double", "shout").replace('{"n": 3}', '{"word": "hi"}')


def paste_program(page: Page, text: str) -> None:
    """Put ``text`` on the clipboard, select the whole editor and paste it, with the keyboard."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Control+v")
    expect(page.locator(".cm-content")).to_contain_text(text.splitlines()[-1])


def thread_values(page: Page) -> dict:
    return controller(page, "state")["values"]


def test_the_input_box_belongs_to_the_program(page: Page, site: str) -> None:
    """Drive it yourself reads the Input (JSON) box (Run runs a program's script as written instead)."""
    open_instruments(page, site)
    box = page.locator("#play-input")
    run_new_thread(
        page, button=DRIVE
    )  # the gallery's five-minute chat: the box shows the input it started with
    assert json.loads(box.input_value()) == {"messages": [["user", "你好"]]}

    paste_program(page, DOUBLING)  # a new program, pasted: the last one's input is gone at once
    expect(box).to_have_value("")
    run_new_thread(page, button=DRIVE)
    assert thread_values(page) == {"n": 6}  # its own invoke's input, {"n": 3}
    assert json.loads(box.input_value()) == {"n": 3}

    # typed in (no paste event): the box still shows the doubling's own input, which is not the
    # learner's choice: Run gives the new program its own
    type_program(page, SHOUTING)
    run_new_thread(page, button=DRIVE)
    assert thread_values(page) == {"word": "HI"}
    assert json.loads(box.input_value()) == {"word": "hi"}

    box.fill('{"word": "yo"}')  # the learner's own input
    run_new_thread(page, button=DRIVE)
    assert thread_values(page) == {"word": "YO"}
    box.fill("")  # emptied: the program's own input again, as the placeholder says
    run_new_thread(page, button=DRIVE)
    assert thread_values(page) == {"word": "HI"}
    expect(box).to_have_attribute("placeholder", "Empty: the input of the program's own invoke(...)")

    page.select_option("#play-gallery", "five_minutes")  # a gallery pick: a new program too
    expect(box).to_have_value("")


@pytest.mark.no_python
def test_a_reload_brings_back_the_tabs_program_with_a_way_back_to_the_gallery(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    first = GALLERY[0]
    paste_program(page, DOUBLING)
    page.reload()
    expect(page.locator("body[data-ready='true']")).to_be_attached()
    expect(page.locator(".cm-content")).to_contain_text('print(graph.invoke({"n": 3}))')
    expect(page.locator("#play-origin")).to_have_text(
        "The program you were editing in this tab is back: the tab keeps it until it closes."
    )
    assert page.locator("#play-gallery").input_value() == ""

    other = page.context.new_page()  # another tab keeps its own: it opens the gallery
    open_play(other, f"{site}/play")
    expect(other.locator(".cm-content")).to_contain_text(first.source.splitlines()[0])
    other.close()

    page.locator("#play-to-gallery").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".cm-content")).not_to_contain_text("def double")
    assert page.locator("#play-gallery").input_value() == first.id
    expect(page.locator("#play-origin")).to_be_hidden()
    expect(page.locator("#play-to-gallery")).to_be_hidden()
    page.reload()  # an unchanged gallery program comes back as itself, without a notice
    expect(page.locator("body[data-ready='true']")).to_be_attached()
    assert page.locator("#play-gallery").input_value() == first.id
    expect(page.locator("#play-origin")).to_be_hidden()

    page.select_option("#play-challenge", "business_key")  # the learner's work on a challenge
    type_program(page, "# my attempt\n")
    page.reload()
    expect(page.locator("body[data-ready='true']")).to_be_attached()
    expect(page.locator("#play-challenge-title")).to_have_text("A key that names the order")
    expect(page.locator(".cm-content")).to_have_text("# my attempt")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_learners_graph_is_said_in_its_own_words(page: Page, site: str, lang: str) -> None:
    """The crash picker and the diagram say the graph profile's words: a learner's node calls lab.world;
    nothing on /play speaks of the AML lab's paid API or SAR."""
    open_play(page, f"{site}/play?lang={lang}")
    wait_until(page, lambda: python_ready(page), "the playground's Python process to be ready")
    paste_program(page, PAYING_FAN_OUT)
    run_new_thread(page)
    before_call = {
        "en": "Inside the node, right before it calls lab.world (charge or send_email)",
        "zh": "节点内部，即将调用 lab.world（charge 或 send_email）之前",
    }[lang]
    expect(page.locator("#crash-seams label[data-seam='side_effect']")).to_contain_text(before_call)
    calls = {"en": "calls lab.world (charge or send_email)", "zh": "调用 lab.world（charge 或 send_email）"}[
        lang
    ]
    expect(page.locator("#graph .graph-legend")).to_contain_text(calls)
    title = {"en": "Your program's graph (graph)", "zh": "你的程序的图（graph）"}[lang]
    expect(page.locator("#graph svg > title")).to_have_text(title)
    page.locator("#crash-seams input[data-seam='side_effect']").check()
    page.select_option("#crash-node", "pay")
    page.locator("#crash button[data-action='arm']").click()
    expect(page.locator("#crash-armed")).to_contain_text(before_call)
    # the instruments and their panels (the gallery, a list of programs, offers the AML graph as code)
    shown = "".join(page.locator(f"#play-{part}").inner_text() for part in ("instruments", "panels"))
    shown += page.locator("#graph svg").text_content()
    for aml_words in ("SAR", "paid API", "付费 API", "AML", "反洗钱"):
        assert aml_words not in shown, aml_words


SEED_OUTPUT = "['你好', '收到：你好', '我刚才说了什么？', '收到：我刚才说了什么？']"


def run_as_written(page: Page, button: str = RUN) -> None:
    """Press Run (or ``button``) with the keyboard and wait until the page says how the script ended
    (or where it waits)."""
    page.locator(button).focus()
    page.keyboard.press("Enter")
    wait_until(
        page,
        lambda: (
            re.search(
                r"script (ran|stopped|waits)|no script|killed during",
                page.locator("#play-run-status").inner_text(),
            )
            and idle(page)
        ),
        "the script to end or wait",
    )


def test_the_seeds_example_runs_as_written_two_turns_on_one_thread(page: Page, site: str) -> None:
    open_instruments(page, site)  # the gallery's first program: the seed's five-minute chat
    run_as_written(page)
    expect(page.locator("#play-run-status")).to_contain_text("Your program's script ran: 2 run(s)")
    expect(page.locator("#play-output")).to_have_text(SEED_OUTPUT + "\n")
    thread = shown_thread(page)
    assert thread.startswith("user-42-")  # the script's own thread, a fresh one of the lab's
    # turn one: input, loop, chatbot; turn two on the same thread: input, loop, chatbot
    expect(page.locator("#checkpoints tbody tr")).to_have_count(6)
    runs = controller(page, "executions")["runs"]
    assert [run["kind"] for run in runs] == ["input", "input"]
    messages = controller(page, "state")["values"]["messages"]
    assert "content='收到：我刚才说了什么？'" in messages[-1]  # the second turn saw the first
    assert len(messages) == 4


def test_an_exception_in_the_script_is_shown_at_its_line(page: Page, site: str) -> None:
    open_instruments(page, site)
    source = GALLERY[0].source.replace("print(contents)", "print(contents[9])")
    paste_program(page, source)
    run_as_written(page)
    line = source.splitlines().index("    print(contents[9])") + 1
    expect(page.locator("#play-problem")).to_contain_text(
        f"The program's script raised at line {line}: IndexError: list index out of range"
    )
    expect(page.locator(f".cm-line[data-problem-line='{line}']")).to_be_visible()
    expect(page.locator("#play-run-status")).to_contain_text("script stopped after 2 run(s)")

    paste_program(page, program(PROGRAMS["third"]))  # no script: nothing to step through
    run_as_written(page, "#play-step-script")
    expect(page.locator("#play-run-status")).to_contain_text("This program has no script")
    run_new_thread(page)  # Run drives it: a new thread from its input, to END
    expect(page.locator("#play-run-status")).to_contain_text("Your program runs in the lab")
    assert thread_values(page) == {"log": ["india"]}


def arm_crash(page: Page, seam: str, node: str) -> None:
    """Arm a crash at ``seam`` of ``node`` with the crash panel."""
    page.locator(f"#crash-seams input[data-seam='{seam}']").check()
    page.select_option("#crash-node", node)
    page.locator("#crash button[data-action='arm']").click()
    expect(page.locator("#crash-armed")).to_have_class(re.compile("is-armed"))


def crash_the_script_and_resume(page: Page, button: str) -> None:
    """Press ``button`` with a crash armed in the seed's first turn: the process dies under the
    script, the next one restores the thread, and Resume finishes the turn it cut."""
    first_worker = worker(page)
    page.locator(button).click()
    replaced(page, first_worker, "the next worker to take over")
    expect(page.locator("#play-run-status")).to_contain_text("The process was killed during your script")
    expect(page.locator("#play-script")).to_be_hidden()
    resume = page.locator("#play-run-controls button[data-action='resume']")
    wait_until(page, lambda: resume.is_enabled(), "Resume to be offered")
    resume.click()
    wait_until(page, lambda: phase(page) == "done" and idle(page), "the resume")
    assert shown_thread(page).startswith("user-42-")
    messages = controller(page, "state")["values"]["messages"]
    assert len(messages) == 2 and "content='收到：你好'" in messages[1]  # the first turn, finished


def test_a_crash_armed_before_run_as_written_kills_the_script_and_resume_finishes_its_run(
    page: Page, site: str
) -> None:
    open_instruments(page, site)
    run_as_written(page)  # once, so the crash panel knows the seed's nodes
    page.select_option("#play-durability", "sync")
    arm_crash(page, "task_finish", "chatbot")
    crash_the_script_and_resume(page, RUN)
    resumed = controller(page, "executions")["last_resume"]
    assert resumed["rerun"] == ["chatbot"], controller(page, "executions")


STORE_ONLY = """\
from langgraph.store.memory import InMemoryStore

store = InMemoryStore()
store.put(("1", "memories"), "m1", {"food": "pizza"})
print([item.value for item in store.search(("1", "memories"))])
"""
"""A program that builds no graph (as the persistence page's memory-store snippet): plain Python."""


def test_a_program_that_builds_no_graph_runs_as_plain_python_and_a_graph_program_after_it_runs(
    page: Page, site: str
) -> None:
    open_instruments(page, site)
    run_new_thread(page, program(PROGRAMS["second"]))
    expect(page.locator("#play-panels")).to_be_visible()

    paste_program(page, STORE_ONLY)
    for button in (RUN, "#play-step-script", DRIVE):  # each loads it: it ran, there is no graph to drive
        press_run(page, button)
        expect(page.locator("#play-run-status")).to_have_text(
            "Your program ran as plain Python: it builds no graph."
        )
        expect(page.locator("#play-output")).to_have_text("[{'food': 'pizza'}]\n")
        expect(page.locator("#play-load-notes")).to_contain_text("builds no graph, so it ran as plain Python")
        expect(page.locator("#play-problem")).to_be_hidden()
        expect(page.locator("#play-panels")).to_be_hidden()  # no checkpoints to show
    for action in ("step", "run", "resume"):  # the lab's own buttons: nothing to drive
        expect(page.locator(f"#play-run-controls button[data-action='{action}']")).to_be_disabled()

    run_new_thread(page, program(PROGRAMS["third"]))  # a graph program again: loads and runs as ever
    expect(page.locator("#play-run-status")).to_contain_text("Your program runs in the lab")
    expect(page.locator("#play-panels")).to_be_visible()
    assert thread_values(page) == {"log": ["india"]}
    assert_picture_is(page, PROGRAMS["third"])
