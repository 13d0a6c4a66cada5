"""A program's script run as written on the lab (lab.playground.script, script_calls), checked against
real LangGraph running the same program: ``for chunk in graph.stream(...)`` yields the chunks LangGraph
yields, as the run makes them (the node's print comes between them, as on LangGraph); what the script
prints is told line by line as it prints; the learner steps through the script call by call ("call 2
of 3 at line 19") and super-step by super-step inside a call."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
import re
import sys
import types
from typing import Any

import pytest

from gallery import GALLERY
from lab.playground.script import ScriptResult, ScriptRun
from lab.playground.script_calls import ScriptCalls, ScriptPace
from lab.world import use_recorder
from tests.test_playground_lab import play

STREAMING = """\
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph


def chatbot(state: MessagesState) -> dict:
    print("in node")
    return {"messages": [("assistant", "got " + state["messages"][-1].content)]}


builder = StateGraph(MessagesState)
builder.add_node("chatbot", chatbot)
builder.add_edge(START, "chatbot")
graph = builder.compile(checkpointer=InMemorySaver())

config = {"configurable": {"thread_id": "t"}}
for chunk in graph.stream({"messages": [("user", "hi")]}, config):
    print("chunk", chunk)
for chunk in graph.stream({"messages": [("user", "again")]}, config, stream_mode="values"):
    print("values", [m.content for m in chunk["messages"]])
for mode, chunk in graph.stream({"messages": [("user", "x")]}, config, stream_mode=["values", "updates"]):
    print("multi", mode, list(chunk) if mode == "updates" else len(chunk["messages"]))
print(len(list(graph.stream({"messages": [("user", "y")]}, config))))
"""


SEEDS_EXAMPLE = """\
from langgraph.graph import StateGraph, MessagesState, START
from langgraph.checkpoint.memory import InMemorySaver
def chatbot(state: MessagesState) -> dict:
    return {"messages": [("assistant", "收到：" + state["messages"][-1].content)]}
g = StateGraph(MessagesState)
g.add_node("chatbot", chatbot)
g.add_edge(START, "chatbot")
app = g.compile(checkpointer=InMemorySaver())
config = {"configurable": {"thread_id": "user-42"}}
app.invoke({"messages": [("user", "你好")]}, config)
app.invoke({"messages": [("user", "我刚才说了什么？")]}, config)
print(app.get_state(config).values["messages"])
"""
"""The seed's five-minute example as its text gives it (/work/shared/seeds: checkpointer basics),
indented: two invokes on one thread at the top level, then the thread's messages printed."""


def on_langgraph(source: str) -> str:
    """What ``source`` prints run as a script on real LangGraph (in a thread of its own: a program's
    ``asyncio.run`` needs a thread without a running event loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(_printed_on_langgraph, source).result()


def _printed_on_langgraph(source: str) -> str:
    printed, module = io.StringIO(), types.ModuleType("__main__")
    main = sys.modules["__main__"]
    sys.modules["__main__"] = module  # (its TypedDicts' annotations resolve in it)
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(source, "<program>", "exec"), vars(module))  # noqa: S102 - our own program
    finally:
        sys.modules["__main__"] = main
    return printed.getvalue()


async def on_lab(source: str, pace: str = "end") -> tuple[Any, ScriptRun, list[str]]:
    lab = play(source)
    told: list[str] = []
    calls = ScriptCalls(lab.controller, lab.program.graph, pace=ScriptPace(pace))
    script = ScriptRun(lab.program.script, vars(lab.program.module), calls, told.append, lab.program.printed)
    return lab, script, told


async def test_stream_yields_langgraphs_chunks_as_the_run_makes_them():
    _, script, told = await on_lab(STREAMING)
    result = await script.until_it_waits()
    assert isinstance(result, ScriptResult) and result.error is None, result
    expected = on_langgraph(STREAMING)
    assert result.output == expected
    assert expected.splitlines()[:2] == [
        "in node",
        "chunk {'chatbot': {'messages': [('assistant', 'got hi')]}}",
    ]
    assert "".join(told) == expected  # told line by line, as printed


async def test_stepping_through_the_seeds_script_call_by_call_then_super_step_by_super_step():
    source = GALLERY[0].source  # the five-minute chat: two invokes and a get_state in its __main__
    lines = source.splitlines()
    lab, script, told = await on_lab(source, pace="call")
    waiting = await script.until_it_waits()
    first = lines.index('    graph.invoke({"messages": [("user", "你好")]}, config)') + 1
    assert waiting == {
        "call": 1,
        "total": 3,
        "line": first,
        "text": "graph.invoke({'messages': [('user', '你好')]}, config)",
        "at": "call",
    }
    assert lab.controller.state.session is None  # nothing ran yet
    waiting = await script.go("step")  # into the first call: it waits before its input step
    assert (waiting["call"], waiting["at"], waiting["next"]) == (1, "step", ["__start__"])
    assert (await lab.do("view"))["status"]["phase"] == "paused"
    waiting = await script.go("step")  # the input written: it waits before chatbot's super-step
    assert (waiting["call"], waiting["at"], waiting["next"]) == (1, "step", ["chatbot"])
    waiting = await script.go("step")  # chatbot's super-step: the run ends, the script goes to call 2
    assert (waiting["call"], waiting["at"], waiting["line"]) == (2, "call", first + 1)
    assert len((await lab.do("state"))["values"]["messages"]) == 2
    waiting = await script.go("call")
    assert (waiting["call"], waiting["text"]) == (3, "graph.get_state(config)")
    assert told == []
    result = await script.go("call")
    assert isinstance(result, ScriptResult) and result.error is None and result.runs == 2
    assert told == ["['你好', '收到：你好', '我刚才说了什么？', '收到：我刚才说了什么？']\n"]


LOOPING_SCRIPT = GALLERY[0].source.replace(
    '    graph.invoke({"messages": [("user", "你好")]}, config)\n',
    '    for word in ["你好"]:\n        graph.invoke({"messages": [("user", word)]}, config)\n',
)


async def test_a_call_in_a_loop_is_not_counted_ahead():
    _, script, _ = await on_lab(LOOPING_SCRIPT, pace="call")
    waiting = await script.until_it_waits()
    assert (waiting["call"], waiting["total"]) == (1, None)  # how many calls a loop makes is not known
    assert isinstance(await script.go("end"), ScriptResult)


async def test_a_crash_armed_while_stepping_kills_the_run_at_its_seam():
    lab, script, _ = await on_lab(GALLERY[0].source, pace="step")
    await script.until_it_waits()  # before call 1
    await script.go("step")  # paused inside call 1, before its input step
    await script.go("step")  # before chatbot's step
    armed = await lab.do("arm_crash", seam="task_start", node="chatbot")
    assert armed["armed"]["seam"] == "task_start"
    await script.go("step")
    assert lab.controller.state.crash_report["node"] == "chatbot"
    assert not lab.controller.process.alive


@pytest.mark.parametrize("entry", GALLERY, ids=[entry.id for entry in GALLERY])
async def test_each_gallery_programs_script_prints_what_it_prints_on_langgraph(entry: Any):
    """Each gallery program's own ``__main__``, run as written on the lab, prints what it prints on real
    LangGraph: its interrupts answered with ``Command(resume=...)``, a failing branch's exception caught
    by its ``except``, and its resume from the last checkpoint."""
    expected = on_langgraph(entry.source)
    lab, script, _ = await on_lab(entry.source)
    with use_recorder(lab.ledger):
        result = await script.until_it_waits()
    assert isinstance(result, ScriptResult)
    assert result.error is None, result.error
    assert normalised(result.output) == normalised(expected)


def normalised(printed: str) -> str:
    """What a script printed, its thread ids and checkpoint ids (random on each run) made alike."""
    printed = re.sub(r"'thread_id': '([^']*?)(-[0-9a-f]{6})?'", r"'thread_id': '\1'", printed)
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", printed)


WITHOUT_CHECKPOINTER = """\
from typing import TypedDict

from langgraph.graph import START, StateGraph


class State(TypedDict):
    n: int


builder = StateGraph(State)
builder.add_node("bump", lambda state: {"n": state["n"] + 1})
builder.add_edge(START, "bump")
graph = builder.compile()

print(graph.invoke({"n": 41}))
print(graph.invoke({"n": 1}))
"""


async def test_a_graph_without_a_checkpointer_is_called_without_a_thread_each_call_its_own():
    _, script, _ = await on_lab(WITHOUT_CHECKPOINTER)
    result = await script.until_it_waits()
    assert isinstance(result, ScriptResult) and result.error is None, result
    assert result.output == on_langgraph(WITHOUT_CHECKPOINTER) == "{'n': 42}\n{'n': 2}\n"
    assert sorted(thread.split("-")[:2] for thread in script.calls.threads.values()) == [
        ["call", "1"],
        ["call", "2"],
    ]


async def test_a_graph_with_a_checkpointer_called_without_a_thread_is_refused_in_langgraphs_words():
    source = GALLERY[0].source.replace(
        'graph.invoke({"messages": [("user", "你好")]}, config)', "graph.invoke({})"
    )
    _, script, _ = await on_lab(source)
    result = await script.until_it_waits()
    assert isinstance(result.error, ValueError) and "thread_id" in str(result.error)


async def test_a_top_level_for_over_a_stream_is_one_call_counted_ahead():
    _, script, _ = await on_lab(STREAMING, pace="call")
    waiting = await script.until_it_waits()
    line = (
        STREAMING.splitlines().index('for chunk in graph.stream({"messages": [("user", "hi")]}, config):') + 1
    )
    assert (waiting["call"], waiting["total"], waiting["line"]) == (1, 4, line)
    assert isinstance(await script.go("end"), ScriptResult)


async def test_the_seeds_example_as_pasted_prints_both_turns_as_on_langgraph():
    _, script, _ = await on_lab(SEEDS_EXAMPLE)
    result = await script.until_it_waits()
    assert isinstance(result, ScriptResult) and result.error is None and result.runs == 2, result
    assert normalised(result.output) == normalised(on_langgraph(SEEDS_EXAMPLE))
    assert "AIMessage(content='收到：我刚才说了什么？'" in result.output


PRINTS_WHILE_IT_LOADS = """\
print("a chatbot with memory")
from langgraph.graph import StateGraph, MessagesState, START
from langgraph.checkpoint.memory import InMemorySaver
def chatbot(state: MessagesState) -> dict:
    return {"messages": [("assistant", "got " + state["messages"][-1].content)]}
builder = StateGraph(MessagesState)
builder.add_node("chatbot", chatbot)
builder.add_edge(START, "chatbot")
app = builder.compile(checkpointer=InMemorySaver())
print("compiled:", list(app.get_graph().nodes))
config = {"configurable": {"thread_id": "t"}}
print(app.invoke({"messages": [("user", "hi")]}, config)["messages"][-1].content)
"""
"""Prints before the first graph call: they run while the program loads, and still open its output."""


async def test_what_the_program_prints_before_its_first_graph_call_opens_the_output():
    _, script, told = await on_lab(PRINTS_WHILE_IT_LOADS)
    result = await script.until_it_waits()
    assert isinstance(result, ScriptResult) and result.error is None and result.runs == 1, result
    expected = on_langgraph(PRINTS_WHILE_IT_LOADS)
    assert expected.splitlines()[0] == "a chatbot with memory"
    assert result.output == expected
    assert "".join(told) == expected


BREAKS_OUT = """\
import operator
from typing import Annotated, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    log: Annotated[list, operator.add]


def step(name):
    def node(state: State) -> dict:
        print("ran", name)
        return {"log": [name]}

    return node


builder = StateGraph(State)
for name in "abc":
    builder.add_node(name, step(name))
builder.add_edge(START, "a")
builder.add_edge("a", "b")
builder.add_edge("b", "c")
builder.add_edge("c", END)
graph = builder.compile(checkpointer=InMemorySaver())

config = {"configurable": {"thread_id": "t"}}
for chunk in graph.stream({"log": []}, config, durability=DURABILITY, stream_mode=MODE):
    print("chunk", chunk)
    if "a" in chunk.get("log", chunk):
        break
state = graph.get_state(config)
print(state.values, state.next, len(list(graph.get_state_history(config))))
print("after", graph.invoke(None, config))
"""
"""A linear graph a -> b -> c whose script breaks out of its stream loop at a's chunk: LangGraph's
closed generator stops the run there (b and c never run; the thread's next is b), and the next
``invoke(None, config)`` goes on from there."""


@pytest.mark.parametrize("mode", ["updates", "values"])
@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
async def test_a_break_out_of_a_stream_loop_stops_the_run_there_as_on_langgraph(mode: str, durability: str):
    source = BREAKS_OUT.replace("MODE", repr(mode)).replace("DURABILITY", repr(durability))
    expected = on_langgraph(source)
    assert "{'log': ['a']} ('b',)" in expected  # (b and c ran only in the next invoke)
    lab, script, _ = await on_lab(source)
    result = await script.until_it_waits()
    assert isinstance(result, ScriptResult) and result.error is None, result
    assert result.output == expected
    (thread,) = script.calls.threads.values()
    records = await lab.controller.journal.records(thread)
    assert [r["status"] for r in records if r["type"] == "run_end"] == ["stopped", "done"]


async def test_a_script_dropped_while_its_stream_waits_at_a_super_step_is_dropped_at_once():
    lab, script, _ = await on_lab(STREAMING, pace="step")
    await script.until_it_waits()  # before the first stream
    waiting = await script.go("step")  # inside its run, paused before the input step
    assert (waiting["call"], waiting["at"]) == (1, "step")
    async with asyncio.timeout(60):  # (a dropped script that waits for its run would never return)
        await script.cancel()
    assert script.ended
