"""Delta channels (``lab.pregel.channels.DeltaChannel``, ``lab.pregel.delta``,
``lab.checkpoint.delta``): a key that opts in with ``Annotated[list, DeltaChannel(reducer)]``
(LangGraph's default, ``Annotated[list, operator.add]``, stores the whole list) stores a sentinel at most
checkpoints and a ``DeltaSnapshot`` every ``snapshot_frequency`` updates, and every way of reading
a checkpoint (state, history, replay, fork, update_state, prune, exit durability) gets the same
values as storing the whole list each time would."""

from __future__ import annotations

import asyncio
import itertools
import operator
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

import pytest

from lab.channels import DeltaChannel
from lab.checkpoint import InMemorySaver
from lab.checkpoint.base import BaseCheckpointSaver
from lab.checkpoint.delta import DELTA, DeltaSnapshot
from lab.graph import END, START, StateGraph
from lab.graph.unsupported import NotSupportedError
from lab.pregel.channels import BinaryOperatorAggregate, EphemeralValue, folding
from lab.types import Overwrite


class Chat(TypedDict):
    messages: Annotated[list, DeltaChannel(folding(operator.add))]


def chat_graph(saver: BaseCheckpointSaver, reply: Callable[[Chat], dict[str, Any]] | None = None) -> Any:
    counter = itertools.count()

    def answer(state: Chat) -> dict[str, Any]:
        return {"messages": [f"reply {next(counter)} to {len(state['messages'])}"]}

    builder = StateGraph(Chat)
    builder.add_node("answer", reply or answer)
    builder.add_edge(START, "answer")
    builder.add_edge("answer", END)
    return builder.compile(checkpointer=saver)


def thread(thread_id: str = "t") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}}


def chat(app: Any, turns: int, config: dict[str, Any] | None = None, **kwargs: Any) -> None:
    for turn in range(turns):
        app.invoke({"messages": [f"user {turn}"]}, config or thread(), **kwargs)


def stored_kinds(saver: InMemorySaver, thread_id: str = "t") -> list[str]:
    """The kind of every stored ``messages`` blob, in version order."""
    blobs = saver.storage._blobs[thread_id]
    return [blobs[key][0] for key in sorted(blobs) if key[1] == "messages"]


def history_values(app: Any, config: dict[str, Any] | None = None) -> list[tuple[str, list]]:
    return [
        (s.config["configurable"]["checkpoint_id"], s.values.get("messages"))
        for s in app.get_state_history(config or thread())
    ]


def test_only_a_key_that_opts_in_is_a_delta_channel() -> None:
    class State(TypedDict):
        deltas: Annotated[list[str], DeltaChannel(folding(operator.add), snapshot_frequency=7)]
        log: Annotated[list, operator.add]
        total: Annotated[int, operator.add]
        merged: Annotated[list, lambda a, b: a + b]

    builder = StateGraph(State)
    builder.add_node("n", lambda s: {})
    builder.add_edge(START, "n")
    channels = builder.compile().channels
    assert isinstance(channels["deltas"], DeltaChannel)
    assert (channels["deltas"].typ, channels["deltas"].snapshot_frequency) == (list, 7)
    assert isinstance(channels["log"], BinaryOperatorAggregate)  # LangGraph's default: stored whole
    assert isinstance(channels["total"], BinaryOperatorAggregate)
    assert isinstance(channels["merged"], BinaryOperatorAggregate)


def test_another_channel_in_an_annotation_is_refused_by_name() -> None:
    class State(TypedDict):
        flag: Annotated[int, EphemeralValue]

    with pytest.raises(NotSupportedError, match="a channel in a state annotation other than DeltaChannel"):
        StateGraph(State)


def test_snapshot_frequency_must_be_positive() -> None:
    with pytest.raises(ValueError, match="snapshot_frequency must be a positive int, got 0"):
        DeltaChannel(folding(operator.add), snapshot_frequency=0)


def test_most_checkpoints_store_the_sentinel_and_every_hundredth_update_a_snapshot() -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 60)  # two updates per turn: the input step and the answer
    kinds = stored_kinds(saver)
    assert len(kinds) == 120
    assert kinds.count("msgpack") == 1  # the 100th update
    assert kinds[99] == "msgpack"
    assert set(kinds) - {"msgpack"} == {DELTA[0]}
    values = app.get_state(thread()).values["messages"]
    assert len(values) == 120 and values[-2:] == ["user 59", "reply 59 to 119"]


def test_every_checkpoint_of_the_history_reads_the_whole_list() -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 70)
    history = history_values(app)
    lengths = [len(values or []) for _, values in reversed(history)]
    # each turn: input checkpoint (list unchanged), __start__ step (+user), answer step (+reply)
    assert lengths[:6] == [0, 1, 2, 2, 3, 4]
    assert lengths[-1] == 140
    newest = history[0][1]
    for _, values in history:  # every checkpoint's list is a prefix of the newest one
        assert newest[: len(values or [])] == (values or [])


def test_a_replay_with_a_different_answer_leaves_the_old_branch_as_it_was() -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 3)
    before = dict(history_values(app))
    past = next(
        s for s in app.get_state_history(thread()) if s.next == ("answer",) and len(s.values["messages"]) == 3
    )
    app.invoke(None, past.config)  # the answer's counter moved on: a different reply
    after = dict(history_values(app))
    assert {cid: after[cid] for cid in before} == before
    newest = app.get_state(thread()).values["messages"]
    assert newest == [*past.values["messages"], "reply 3 to 3"]


def test_update_state_on_a_past_checkpoint_forks_with_the_right_list() -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 3)
    before = dict(history_values(app))
    past = next(s for s in app.get_state_history(thread()) if len(s.values["messages"]) == 2 and not s.next)
    forked = app.update_state(past.config, {"messages": ["edited"]}, as_node="answer")
    assert app.get_state(forked).values["messages"] == [*past.values["messages"], "edited"]
    app.invoke({"messages": ["next"]}, thread())
    assert app.get_state(thread()).values["messages"][-3:] == ["edited", "next", "reply 3 to 4"]
    after = dict(history_values(app))
    assert {cid: after[cid] for cid in before} == before


def test_an_overwrite_is_stored_as_a_snapshot() -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 2)
    app.update_state(thread(), {"messages": Overwrite(["fresh start"])}, as_node="answer")
    chat(app, 1)
    assert app.get_state(thread()).values["messages"] == ["fresh start", "user 0", "reply 2 to 2"]
    assert "msgpack" in stored_kinds(saver)


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_each_durability_mode_reads_back_the_same_list(durability: str) -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 5, durability=durability)
    expected = [m for turn in range(5) for m in (f"user {turn}", f"reply {turn} to {2 * turn + 1}")]
    assert app.get_state(thread()).values["messages"] == expected


def test_prune_keeps_what_the_latest_checkpoint_is_rebuilt_from() -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 10)
    before = app.get_state(thread()).values
    saver.prune(["t"], strategy="keep_latest")
    assert app.get_state(thread()).values == before
    assert len(list(saver.list(thread()))) == 30  # no snapshot yet: the whole chain rebuilds the list


def test_prune_after_a_snapshot_keeps_only_the_chain_back_to_it() -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 51)  # the 100th update is a snapshot; two more steps after it
    before = app.get_state(thread()).values
    saver.prune(["t"], strategy="keep_latest")
    assert app.get_state(thread()).values == before
    # the latest (answer), its parent (user message), and the input checkpoint, which shares the
    # snapshot's version of the list: the snapshot's own checkpoint goes
    assert len(list(saver.list(thread()))) == 3


class WalkingSaver(BaseCheckpointSaver):
    """A saver that only reads through ``aget_tuple``: the base class's default walk."""

    def __init__(self, inner: InMemorySaver) -> None:
        self.inner = inner

    async def aget_tuple(self, config: dict[str, Any]) -> Any:
        return await self.inner.aget_tuple(config)


def test_the_default_walk_over_get_tuple_agrees_with_the_saver_core() -> None:
    saver = InMemorySaver()
    app = chat_graph(saver)
    chat(app, 55)
    walker = WalkingSaver(saver)
    for saved in itertools.islice(saver.list(thread()), 0, 200, 7):
        channels = ["messages"]
        core = saver.get_delta_channel_history(config=saved.config, channels=channels)
        default = asyncio.run(walker.aget_delta_channel_history(config=saved.config, channels=channels))
        assert default == core


def test_a_delta_snapshot_round_trips_through_the_serializer() -> None:
    saver = InMemorySaver()
    assert saver.serde.loads_typed(saver.serde.dumps_typed(DeltaSnapshot(["a", 1]))) == DeltaSnapshot(
        ["a", 1]
    )
