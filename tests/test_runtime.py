"""Unit tests of the runtime: channels, seams, the sync wrapper and our deliberate extras.

The behaviour a learner sees is compared with real LangGraph in ``tests/differential``; these
tests pin what only the lab has (seams, errors that say more) and the channel rules.
"""

from __future__ import annotations

import asyncio
import contextvars
import operator
from typing import Annotated, TypedDict

import pytest

from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.memory import InMemorySaver, MemoryStorage
from lab.errors import EmptyInputError, InvalidUpdateError
from lab.graph import END, START, StateGraph
from lab.pregel import Seam
from lab.pregel.channels import BinaryOperatorAggregate, EphemeralValue, LastValue, NamedBarrierValue, Topic
from lab.pregel.sync_loop import WouldBlockError
from lab.types import Command, interrupt


class State(TypedDict):
    log: Annotated[list, operator.add]


def node(name: str):
    def run(state: State) -> dict:
        return {"log": [name]}

    return run


def fan_out_graph(**compile_kwargs):
    g = StateGraph(State)
    for name in ("a", "b", "c"):
        g.add_node(name, node(name))
    g.add_edge(START, "a")
    g.add_edge(START, "b")
    g.add_edge(["a", "b"], "c")
    g.add_edge("c", END)
    return g.compile(checkpointer=InMemorySaver(), **compile_kwargs)


def test_last_value_rejects_two_writes_in_one_step():
    channel = LastValue(int, "x")
    assert channel.update([1]) and channel.get() == 1
    with pytest.raises(InvalidUpdateError, match="At key 'x': Can receive only one value per step"):
        channel.update([1, 2])


def test_reducer_folds_in_order_and_ignores_empty_steps():
    channel = BinaryOperatorAggregate(list, operator.add)
    assert channel.update([["a"], ["b"]]) and channel.get() == ["a", "b"]
    assert not channel.update([])


def test_ephemeral_trigger_clears_one_step_later():
    channel = EphemeralValue()
    assert channel.update([None]) and channel.is_available()
    assert channel.update([]) and not channel.is_available()
    assert not channel.update([])


def test_a_guarded_ephemeral_value_refuses_two_writes_in_one_step() -> None:
    with pytest.raises(InvalidUpdateError, match=r"EphemeralValue\(guard=True\) can receive only one value"):
        EphemeralValue(int).update([1, 2])
    unguarded = EphemeralValue(guard=False)  # (a node's trigger: many nodes may fire it)
    assert unguarded.update([1, 2]) and unguarded.get() == 2


def test_an_accumulating_topic_keeps_every_value_and_adds_a_lists_items() -> None:
    topic = Topic(int, accumulate=True)
    topic.update([1, [2, 3]])
    assert not topic.update([]) and topic.get() == [1, 2, 3]
    topic.update([4])
    assert topic.get() == [1, 2, 3, 4]


def test_barrier_fires_once_every_source_wrote_then_resets():
    channel = NamedBarrierValue({"a", "b"})
    channel.update(["a"])
    assert not channel.is_available()
    channel.update(["b"])
    assert channel.is_available() and channel.consume() and channel.checkpoint() == set()


def test_topic_holds_one_steps_packets():
    channel = Topic()
    assert channel.update(["p1", "p2"]) and channel.get() == ["p1", "p2"]
    assert channel.update([]) and not channel.is_available()


def test_seams_arrive_in_loop_order():
    seen: list[tuple[str, int, str | None]] = []

    async def hook(seam: Seam) -> None:
        seen.append((seam.name, seam.step, seam.node))

    app = fan_out_graph()
    cfg = {"configurable": {"thread_id": "t"}}
    asyncio.run(app.ainvoke({"log": []}, cfg, on_seam=hook, durability="sync"))
    names = [s[0] for s in seen]
    assert names[0] == "put"  # the input checkpoint
    step1 = [s for s in seen if s[1] == 1]
    assert [s[0] for s in step1][0] == "step_start"
    assert {s[2] for s in step1 if s[0] == "task_start"} == {"a", "b"}
    assert [s[0] for s in step1][-2:] == ["step_end", "put"]
    assert names.count("put") == len(list(app.get_state_history(cfg)))
    # every task's writes are saved before its step's checkpoint, in every step
    for step in sorted({s[1] for s in seen if s[0] == "task_start"}):
        in_step = [s for s in seen if s[1] == step]
        until_put = in_step[: [s[0] for s in in_step].index("put")]
        started = sorted(s[2] for s in in_step if s[0] == "task_start")
        assert sorted(s[2] for s in until_put if s[0] == "put_writes") == started, f"step {step}"


def test_async_durability_keeps_the_same_checkpoints_as_sync():
    def shape(app, cfg):
        return [
            (s.metadata["step"], s.metadata["source"], s.next, s.values) for s in app.get_state_history(cfg)
        ]

    app = fan_out_graph()
    for mode in ("sync", "async"):
        app.invoke({"log": []}, {"configurable": {"thread_id": mode}}, durability=mode)
    assert shape(app, {"configurable": {"thread_id": "sync"}}) == shape(
        app, {"configurable": {"thread_id": "async"}}
    )


def test_a_seam_hook_can_stop_the_process_between_side_effect_and_saved_writes():
    class Killed(BaseException):
        pass

    async def kill_after_b_finishes(seam: Seam) -> None:
        if seam.name == "task_finish" and seam.node == "b":
            raise Killed

    app = fan_out_graph()
    cfg = {"configurable": {"thread_id": "k"}}
    with pytest.raises(Killed):
        asyncio.run(app.ainvoke({"log": []}, cfg, on_seam=kill_after_b_finishes, durability="sync"))
    live = app.get_state(cfg)
    assert "b" in live.next  # b's writes never reached the saver: it will run again


def test_sync_api_inside_a_running_loop_runs_to_the_end_on_a_loop_of_its_own():
    app = fan_out_graph()
    cfg = {"configurable": {"thread_id": "x"}}

    async def in_a_notebook():
        outer = asyncio.current_task()
        result = app.invoke({"log": []}, cfg)
        chunks = list(app.stream({"log": []}, {"configurable": {"thread_id": "y"}}))
        assert asyncio.current_task() is outer  # the running loop and its task are put back
        return result, chunks, app.get_state(cfg).values

    result, chunks, values = asyncio.run(in_a_notebook())
    assert result == values == {"log": ["a", "b", "c"]}
    assert chunks == [{"a": {"log": ["a"]}}, {"b": {"log": ["b"]}}, {"c": {"log": ["c"]}}]


def test_sync_api_runs_the_graph_as_a_task_of_a_loop_and_stops_as_run_until_complete_does():
    """A node under ``invoke`` runs in an asyncio task (timeouts, sleeps, the caller's context
    variables), and what the task's end makes ready (its done callbacks) runs before ``invoke``
    returns, as with ``loop.run_until_complete``; afterwards no loop is left running."""
    caller = contextvars.ContextVar("caller")
    seen: dict[str, object] = {}

    async def timed(state: State) -> dict:
        task = asyncio.current_task()
        async with asyncio.timeout(5):
            await asyncio.sleep(0.001)
        seen["caller"] = caller.get(None)
        task.add_done_callback(lambda done: seen.setdefault("done_callback_of", done))
        return {"log": ["timed"]}

    g = StateGraph(State)
    g.add_node("timed", timed)
    g.add_edge(START, "timed")
    app = g.compile(checkpointer=InMemorySaver())
    caller.set("me")
    assert app.invoke({"log": []}, {"configurable": {"thread_id": "t"}}) == {"log": ["timed"]}
    assert seen["caller"] == "me"
    assert isinstance(seen["done_callback_of"], asyncio.Task)
    assert asyncio._get_running_loop() is None


def test_a_keyboard_interrupt_in_a_node_leaves_the_sync_api_ready_for_the_next_call():
    def stopped(state: State) -> dict:
        raise KeyboardInterrupt

    g = StateGraph(State)
    g.add_node("stopped", stopped)
    g.add_edge(START, "stopped")
    app = g.compile(checkpointer=InMemorySaver())
    with pytest.raises(KeyboardInterrupt):
        app.invoke({"log": []}, {"configurable": {"thread_id": "k"}})
    assert asyncio._get_running_loop() is None
    assert fan_out_graph().invoke({"log": []}, {"configurable": {"thread_id": "next"}}) == {
        "log": ["a", "b", "c"]
    }


class NeverAnsweringStorage(MemoryStorage):
    """Storage whose reads wait for an event nothing in Python delivers, async-only (IndexedDB in the
    browser): its saver keeps the lab's methods, so the sync API too reaches it through the async ones."""

    supports_sync = False

    async def checkpoint(self, *args):
        await asyncio.get_running_loop().create_future()


class NeverAnsweringSaver(CheckpointSaver):
    def __init__(self) -> None:
        super().__init__(NeverAnsweringStorage())


def test_sync_api_inside_a_running_loop_names_the_async_twin_when_it_would_wait():
    app = fan_out_graph()
    app.checkpointer = NeverAnsweringSaver()

    async def misuse():
        app.invoke({"log": []}, {"configurable": {"thread_id": "x"}})

    with pytest.raises(WouldBlockError) as refused:
        asyncio.run(misuse())
    assert "Use the async twin instead (ainvoke, astream, aget_state," in str(refused.value)
    assert "call `await sub.ainvoke(...)` from an `async def` node" in str(refused.value)


def test_overlong_thread_id_is_refused_with_the_reason():
    app = fan_out_graph()
    with pytest.raises(ValueError) as refused:
        app.invoke({"log": []}, {"configurable": {"thread_id": "x" * 256}})
    assert str(refused.value) == (
        "thread_id is 256 characters long; the lab accepts at most 255 (a limit of the lab's own: "
        "LangGraph's InMemorySaver and PostgresSaver, whose thread_id columns are TEXT, accept longer ids)."
    )


def test_one_thread_id_limit_and_one_message_for_the_saver_the_graph_and_the_controller():
    from lab.checkpoint.base import MAX_THREAD_ID_LENGTH, empty_checkpoint
    from lab.controller.controller import validate_thread_id
    from lab.controller.session import LabError

    long_id = "x" * (MAX_THREAD_ID_LENGTH + 1)
    config = {"configurable": {"thread_id": long_id, "checkpoint_ns": ""}}
    messages = []
    for refuse, error in (
        (lambda: fan_out_graph().invoke({"log": []}, config), ValueError),
        (lambda: InMemorySaver().put(config, empty_checkpoint(), {}, {}), ValueError),
        (lambda: validate_thread_id(long_id), LabError),
    ):
        with pytest.raises(error) as raised:
            refuse()
        messages.append(str(raised.value))
    assert len(set(messages)) == 1
    assert messages[0].startswith(f"thread_id is {MAX_THREAD_ID_LENGTH + 1} characters long")
    validate_thread_id("x" * MAX_THREAD_ID_LENGTH)  # the limit itself is allowed


@pytest.mark.parametrize("mode", ["tools", "valuez"])
def test_a_stream_mode_lab_lacks_is_refused_by_name(mode):
    app = fan_out_graph()
    with pytest.raises(ValueError, match=f"lab does not support stream_mode '{mode}'; see README"):
        list(app.stream({"log": []}, {"configurable": {"thread_id": "s"}}, stream_mode=["values", mode]))
    assert list(app.checkpointer.list(None)) == []


def test_thread_id_none_is_refused_before_anything_is_saved():
    """LangGraph runs it and stores it under the key ``None``, which ``get_state`` never finds."""
    app = fan_out_graph()
    none = {"configurable": {"thread_id": None}}
    for call in (
        lambda: app.invoke({"log": []}, none),
        lambda: list(app.stream({"log": []}, none)),
        lambda: app.get_state(none),
        lambda: app.update_state(none, {"log": ["x"]}),
    ):
        with pytest.raises(ValueError, match="thread_id is None: name the thread"):
            call()
    assert list(app.checkpointer.list(None)) == []


@pytest.mark.parametrize("empty", [Command(), Command(resume=None)], ids=["Command()", "resume=None"])
def test_empty_command_gets_a_clear_error_instead_of_langgraphs_unbound_local(empty):
    app = fan_out_graph()
    cfg = {"configurable": {"thread_id": "e"}}
    app.invoke({"log": []}, cfg)
    with pytest.raises(EmptyInputError) as refused:
        app.invoke(empty, cfg)
    assert str(refused.value) == "Received empty Command input (give resume=, update= or goto=)"


def test_interrupt_outside_a_node_explains_itself():
    with pytest.raises(RuntimeError, match="inside a running graph node"):
        interrupt("hello")


def test_async_nodes_of_one_step_run_concurrently():
    """Concurrency by order, not wall time: each node yields to the event loop between its start
    and its end, so run together both start before either ends; run one after the other, each
    would end before the next starts."""

    class S(TypedDict):
        log: Annotated[list, operator.add]

    events: list[str] = []

    def yielding(name):
        async def run(state):
            events.append(f"start {name}")
            await asyncio.sleep(0)
            events.append(f"end {name}")
            return {"log": [name]}

        return run

    g = StateGraph(S)
    for name in ("q", "p"):
        g.add_node(name, yielding(name))
        g.add_edge(START, name)
    app = g.compile()

    out = asyncio.run(app.ainvoke({"log": []}))
    assert out["log"] == ["p", "q"]  # applied in node-name order
    assert sorted(events[:2]) == ["start p", "start q"], events  # both started before either ended
    assert sorted(events[2:]) == ["end p", "end q"], events
