"""Run as written, stepped through as a learner does it (issue 37): the script is an outer list of graph
calls ("Call 2 of 3: graph.invoke(...) at line 19"), each run inside a call a list of super-steps; the
script bar says where the script waits and its Step, Next call and Run to the end let it go on, while
the lab's own Step/Run/Resume wait with it. What the script prints appears as it prints (read while
the script waits, not only at its end), and ``for chunk in graph.stream(...)`` gets each chunk as the
run makes it, as on LangGraph. A crash armed while the script waits kills the process at its seam,
and Resume finishes the run it cut."""

from playwright.sync_api import Page, expect

from gallery import GALLERY
from tests.browser.lab_page import wait_until
from tests.browser.test_play import controller, idle, open_instruments, phase
from tests.browser.test_play_round_two import (
    arm_crash,
    crash_the_script_and_resume,
    paste_program,
    run_as_written,
    shown_thread,
)
from tests.test_playground_script import SEEDS_EXAMPLE, normalised, on_langgraph

STREAMING = """\
import operator
from typing import Annotated, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph


class State(TypedDict):
    log: Annotated[list, operator.add]


builder = StateGraph(State)
builder.add_node("a", lambda state: {"log": ["a"]})
builder.add_node("b", lambda state: {"log": ["b"]})
builder.add_edge(START, "a")
builder.add_edge("a", "b")
graph = builder.compile(checkpointer=InMemorySaver())

config = {"configurable": {"thread_id": "t"}}
print("before the run:", graph.get_state(config).values)
for chunk in graph.stream({"log": []}, config):
    print(chunk)
print("after the run")
"""

SEED = GALLERY[0].source  # the seed's five-minute chat, as the gallery's first program
SEED_LINES = SEED.splitlines()


def step_through(page: Page) -> None:
    run_as_written(page, "#play-step-script")


def script_button(page: Page, button: str) -> None:
    """Press one of the script bar's buttons with the keyboard, wait until the script waits or ends."""
    run_as_written(page, f"#play-script-{button}")


def where(page: Page) -> str:
    return page.locator("#play-script-where").inner_text()


def test_stepping_through_the_seeds_script_call_by_call(page: Page, site: str) -> None:
    open_instruments(page, site)
    step_through(page)
    expect(page.locator("#play-run-status")).to_contain_text("Your script waits for you")
    first = SEED_LINES.index('    graph.invoke({"messages": [("user", "你好")]}, config)') + 1
    expect(page.locator("#play-script-where")).to_have_text(
        "Call 1 of 3: graph.invoke({'messages': [('user', '你好')]}, config) "
        f"at line {first}, before it runs."
    )
    expect(page.locator(f".cm-line[data-here-line='{first}']")).to_be_visible()  # marked in the editor
    script_button(page, "next")
    expect(page.locator("#play-script-where")).to_contain_text("Call 2 of 3: graph.invoke(")
    expect(page.locator("#play-script-where")).to_contain_text(f"at line {first + 1}, before it runs.")
    expect(page.locator("#checkpoints tbody tr")).to_have_count(3)  # the first turn: input, loop, chatbot
    assert shown_thread(page).startswith("user-42-")
    script_button(page, "next")
    expect(page.locator("#play-script-where")).to_have_text(
        f"Call 3 of 3: graph.get_state(config) at line {first + 2}, before it runs."
    )
    expect(page.locator("#checkpoints tbody tr")).to_have_count(6)  # the second turn, on the same thread
    expect(page.locator("#play-output")).to_have_text("")  # nothing printed yet
    expect(page.locator(f".cm-line[data-here-line='{first + 2}']")).to_be_visible()
    script_button(page, "end")
    expect(page.locator("#play-run-status")).to_contain_text("Your program's script ran: 2 run(s)")
    expect(page.locator("#play-script")).to_be_hidden()
    expect(page.locator(".cm-line[data-here-line]")).to_have_count(0)  # the script waits nowhere
    expect(page.locator("#play-output")).to_contain_text("收到：我刚才说了什么？")


def test_stepping_super_step_by_super_step_the_stream_prints_each_chunk_as_the_run_makes_it(
    page: Page, site: str
) -> None:
    open_instruments(page, site)
    paste_program(page, STREAMING)
    lines = STREAMING.splitlines()
    step_through(page)
    first = lines.index('print("before the run:", graph.get_state(config).values)') + 1
    where = page.locator("#play-script-where")
    expect(where).to_have_text(f"Call 1 of 2: graph.get_state(config) at line {first}, before it runs.")
    output = page.locator("#play-output")
    expect(output).to_have_text("")
    script_button(page, "next")  # get_state; the script prints, then waits before the stream
    expect(where).to_have_text(
        f"Call 2 of 2: graph.stream({{'log': []}}, config) at line {first + 1}, before it runs."
    )
    expect(output).to_have_text("before the run: {}\n")  # printed while the script runs: shown already
    script_button(page, "step")
    expect(where).to_contain_text("super-step 0 runs __start__ next.")
    script_button(page, "step")
    expect(where).to_contain_text("super-step 1 runs a next.")
    expect(output).to_have_text("before the run: {}\n")  # the input step makes no "updates" chunk
    # the run is paused: the lab would step it, but its own Step waits while the script does
    assert page.evaluate("() => window.labView.actions.step.enabled")
    expect(page.locator("#play-run-controls button[data-action='step']")).to_be_disabled()
    script_button(page, "step")
    expect(where).to_contain_text("super-step 2 runs b next.")
    expect(output).to_have_text("before the run: {}\n{'a': {'log': ['a']}}\n")  # a's chunk, before b runs
    script_button(page, "step")
    expect(page.locator("#play-run-status")).to_contain_text("Your program's script ran: 1 run(s)")
    expect(output).to_have_text(on_langgraph(STREAMING))
    assert controller(page, "state")["values"] == {"log": ["a", "b"]}


def test_a_crash_armed_while_the_script_waits_kills_it_at_the_seam_and_resume_finishes_the_run(
    page: Page, site: str
) -> None:
    open_instruments(page, site)
    step_through(page)
    script_button(page, "step")  # inside call 1, before its input step
    script_button(page, "step")  # before chatbot's super-step
    expect(page.locator("#play-script-where")).to_contain_text("super-step 1 runs chatbot next.")
    arm_crash(page, "task_start", "chatbot")
    crash_the_script_and_resume(page, "#play-script-step")


def test_the_seeds_example_pasted_and_run_shows_two_turns_on_one_thread(page: Page, site: str) -> None:
    open_instruments(page, site)
    paste_program(page, SEEDS_EXAMPLE)
    run_as_written(page)
    expect(page.locator("#play-run-status")).to_contain_text("Your program's script ran: 2 run(s)")
    expect(page.locator("#checkpoints tbody tr")).to_have_count(6)  # two turns, one thread
    assert shown_thread(page).startswith("user-42-")
    printed = page.locator("#play-output").inner_text()
    assert (
        "AIMessage(content='收到：我刚才说了什么？'" in printed
    )  # the second turn answered, after the first
    assert normalised(printed) == normalised(on_langgraph(SEEDS_EXAMPLE))


def test_the_input_box_is_read_only_when_the_learner_drives_the_graph(page: Page, site: str) -> None:
    """Run runs the seed as written whatever the Input (JSON) box holds; Drive it yourself reads it."""
    open_instruments(page, site)
    page.locator("#play-input").fill("{not json")
    run_as_written(page)
    expect(page.locator("#play-run-status")).to_contain_text("Your program's script ran: 2 run(s)")
    page.locator("#play-drive").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#play-run-status")).to_contain_text("That is not JSON")
    page.locator("#play-input").fill('{"messages": [["user", "hi"]]}')
    page.locator("#play-drive").click()
    wait_until(
        page,
        lambda: "Your program runs in the lab" in page.locator("#play-run-status").inner_text(),
        "the drive",
    )
    wait_until(page, lambda: phase(page) == "done" and idle(page), "the new thread to reach END")
    messages = controller(page, "state")["values"]["messages"]
    assert len(messages) == 2 and "content='收到：hi'" in messages[1]  # one turn, from the box's input
