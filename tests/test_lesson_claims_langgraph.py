"""The lessons' claims issue 38 corrected, each checked on real LangGraph (beside the lessons' own code,
run by tests/test_lessons_langgraph.py): what the saver stores of ``configurable`` and of the runtime
context (secrets), which step a fan-out runs in (checkpoints), how many checkpoints each durability mode
writes (checkpoints, durability), when a crashed step's finished node is restored (crash, durability),
what a missing or empty ``thread_id`` does (threads) and how InMemorySaver and SqliteSaver store an
appending list (storage).

The crashes are the prelude's (tests/lesson_langgraph_prelude.py): a :class:`Crash` no node catches,
after which the saver saves nothing. "Before the writes were saved" is made an order, not a race: a
saver holds ``fetch_transactions``' writes (LangGraph saves them in the background) until the process
is dead, as a kill that comes just after the node returned finds them.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from typing import Any, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from tests.test_lessons_langgraph import prelude

GUARD = 30
"""Seconds an event wait may take before the test fails instead of hanging (never reached when the
order holds: each wait ends on its event)."""


def stored_bytes(saver: InMemorySaver) -> bytes:
    """Everything an InMemorySaver holds (checkpoints, metadata, writes, channel values) as one text."""
    return repr((saver.storage, saver.writes, saver.blobs)).encode()


class Secrets(TypedDict):
    answer: str


@dataclass
class Keys:
    api_key: str


def one_node_graph(saver: Any) -> Any:
    """One node that reads the API key from the runtime context."""

    def ask(state: Secrets, runtime: Runtime[Keys]) -> Secrets:
        assert runtime.context.api_key == "sk-context-7"
        return {"answer": "asked with the key"}

    builder = StateGraph(Secrets, context_schema=Keys)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", END)
    return builder.compile(checkpointer=saver)


def test_secrets_a_configurable_key_is_in_every_checkpoints_metadata_and_the_context_is_stored_nowhere():
    """secrets' takeaway: ``configurable`` is copied into every checkpoint's metadata; ``context=``
    is not stored (InMemorySaver, and SqliteSaver's database file)."""
    saver = InMemorySaver()
    graph = one_node_graph(saver)
    config = {"configurable": {"thread_id": "t", "api_key": "sk-config-42"}}
    graph.invoke({"answer": ""}, config, context=Keys(api_key="sk-context-7"))
    history = list(graph.get_state_history(config))
    assert len(history) == 3
    assert [s.metadata.get("api_key") for s in history] == ["sk-config-42"] * 3
    assert b"sk-config-42" in stored_bytes(saver)
    assert b"sk-context-7" not in stored_bytes(saver)

    connection = sqlite3.connect(":memory:", check_same_thread=False)
    graph = one_node_graph(SqliteSaver(connection))
    graph.invoke({"answer": ""}, config, context=Keys(api_key="sk-context-7"))
    dump = "\n".join(connection.iterdump()).encode()
    rows = connection.execute("select metadata from checkpoints").fetchall()
    assert len(rows) == 3 and all(b"sk-config-42" in bytes(row[0]) for row in rows)
    assert b"sk-context-7" not in dump


def test_checkpoints_the_fan_out_runs_in_step_2():
    """checkpoints' fan-out: ``next`` = both nodes on step 1's checkpoint (intake's); they run in step
    2, whose checkpoint is the next one, ``metadata["step"] == 2``, and runs classify_typology next."""
    lab = prelude("lesson_claims_fan_out")
    config = lab["config"]
    lab["graph"].invoke({"case_id": "S-1003"}, config, durability="sync")
    by_step = {s.metadata["step"]: s for s in lab["graph"].get_state_history(config)}
    assert by_step[1].next == ("fetch_transactions", "screen_sanctions")
    assert {task.name for task in by_step[1].tasks} == {"fetch_transactions", "screen_sanctions"}
    assert by_step[2].next == ("classify_typology",)
    assert by_step[2].values["log"][-2:] in (["fetched", "screened"], ["screened", "fetched"])
    assert "fetched" not in by_step[1].values["log"]


@pytest.mark.parametrize(
    ("mode", "steps"), [("sync", [4, 3, 2, 1, 0, -1]), ("async", [4, 3, 2, 1, 0, -1]), ("exit", [4])]
)
def test_checkpoints_one_per_super_step_under_sync_and_async_one_at_the_end_under_exit(mode, steps):
    lab = prelude(f"lesson_claims_{mode}")
    lab["graph"].invoke({"case_id": "S-1003"}, lab["config"], durability=mode)
    assert [s.metadata["step"] for s in lab["graph"].get_state_history(lab["config"])] == steps


def test_checkpoints_under_exit_a_crash_leaves_no_checkpoint_and_no_write():
    """checkpoints' takeaway: "exit" saves no pending write before the run stops; a run killed in
    step 3 leaves nothing, though fetch_transactions and screen_sanctions finished in step 2."""
    lab = prelude("lesson_claims_exit_crash")
    lab["crash_in"].add("classify_typology")
    with pytest.raises(lab["Crash"]):
        lab["graph"].invoke({"case_id": "S-1001"}, lab["config"], durability="exit")
    assert lab["ran"]["fetch_transactions"] == lab["ran"]["screen_sanctions"] == 1
    assert list(lab["graph"].get_state_history(lab["config"])) == []
    assert not any(key[0] == "case-1" for key in lab["saver"].writes)


class HeldWritesSaver:
    """The prelude's saver, holding the writes to ``channel`` (saved by LangGraph in the background)
    until the process is dead: then, like every save after a kill, they are never stored."""

    def __init__(self, lab: dict[str, Any], channel: str) -> None:
        self.lab, self.channel = lab, channel
        self.arrived = threading.Event()
        saver = lab["saver"]
        original = saver.put_writes

        def put_writes(config, writes, task_id, task_path=""):
            if any(write[0] == channel for write in writes):
                self.arrived.set()
                assert self.dead.wait(GUARD), "the crash never came"
            original(config, writes, task_id, task_path)

        saver.put_writes = put_writes
        self.dead = threading.Event()

    def crash(self, where: str) -> None:
        """The process dies here: wait until the held writes reached the saver, then die."""
        assert self.arrived.wait(GUARD), f"no write to {self.channel!r} reached the saver"
        crash = self.lab["Crash"](where)  # marks the saver dead: nothing is saved from now on
        self.dead.set()
        raise crash


def crash_in_step_2(mode: str, writes_saved: bool) -> dict[str, Any]:
    """Case S-1001 under ``mode``: the process dies as screen_sanctions finishes, once
    fetch_transactions returned, its writes saved (the lab's moment) or not yet; then a new process
    resumes. Returns the prelude's namespace."""
    lab = prelude(f"lesson_claims_crash_{mode}_{writes_saved}")
    if writes_saved:
        lab["crash_in"].add("screen_sanctions")  # waits until fetch_transactions' writes are saved
        graph = lab["graph"]
    else:
        held = HeldWritesSaver(lab, "transactions")

        def screen_sanctions(state):
            held.crash("as screen_sanctions finishes")

        graph = lab["build"](screen_sanctions=screen_sanctions).compile(checkpointer=lab["saver"])
    with pytest.raises(lab["Crash"]):
        graph.invoke({"case_id": "S-1001"}, lab["config"], durability=mode)
    lab["saver"].dead = False  # the new process
    lab["graph"].invoke(None, lab["config"], durability=mode)
    assert lab["graph"].get_state(lab["config"]).next == ("human_review",)
    return lab


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_crash_a_finished_node_whose_writes_were_saved_is_restored(mode):
    """crash's takeaway, the lesson's moment: fetch_transactions' writes saved, then the crash: the
    resume restores it, under sync as under async; the query is paid once."""
    lab = crash_in_step_2(mode, writes_saved=True)
    assert lab["ran"]["fetch_transactions"] == 1
    assert lab["api"].count(replayed=False) == 2  # the query and the export: 14.50
    assert lab["api"].paid() == "14.50"


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_crash_a_finished_node_whose_writes_were_not_saved_yet_runs_again_and_pays_again(mode):
    """crash's takeaway: a kill just after fetch_transactions returned, before its writes (saved in
    the background in every mode) reached the saver: the resume runs it again, and pays the query
    again, under sync as under async."""
    lab = crash_in_step_2(mode, writes_saved=False)
    assert lab["ran"]["fetch_transactions"] == 2
    assert lab["api"].paid() == "17.00"


def test_durability_async_a_crash_before_step_2s_saves_pays_the_query_again():
    """durability's takeaway: the lab's async moment (step 2's writes saved) resumes without paying
    again (tests/test_lessons_langgraph.py); a crash in step 3 before step 2's writes and checkpoint
    were saved runs fetch_transactions again and pays the query twice. Under sync the same crash
    finds step 2's checkpoint saved (sync waits for it before step 3): paid once."""
    paid = {}
    for mode in ("sync", "async"):
        lab = prelude(f"lesson_claims_durability_{mode}")
        held = HeldWritesSaver(lab, "transactions")
        saver = lab["saver"]
        put = saver.put

        def held_put(config, checkpoint, metadata, new_versions, put=put, held=held, mode=mode):
            if mode == "async" and metadata.get("step") == 2:  # step 2's checkpoint, queued
                assert held.dead.wait(GUARD), "the crash never came"
            return put(config, checkpoint, metadata, new_versions)

        saver.put = held_put

        def classify_typology(state, held=held):
            held.crash("as classify_typology starts, in step 3")

        graph = lab["build"](classify_typology=classify_typology).compile(checkpointer=saver)
        with pytest.raises(lab["Crash"]):
            graph.invoke({"case_id": "S-1001"}, lab["config"], durability=mode)
        saver.dead = False
        lab["graph"].invoke(None, lab["config"], durability=mode)
        paid[mode] = (lab["ran"]["fetch_transactions"], lab["api"].paid())
    assert paid == {"sync": (1, "14.50"), "async": (2, "17.00")}


def test_threads_a_missing_thread_id_is_refused_and_an_empty_one_is_shared():
    """threads' takeaway: no ``thread_id`` is a ValueError; ``""`` runs, and a second caller sending
    it continues the first one's thread."""
    lab = prelude("lesson_claims_threads")
    graph = lab["graph"]
    for config in ({}, {"configurable": {}}):
        with pytest.raises(ValueError, match="thread_id"):
            graph.invoke({"case_id": "S-1003"}, config)
    empty = {"configurable": {"thread_id": ""}}
    graph.invoke({"case_id": "S-1001"}, empty)
    assert graph.get_state(empty).next == ("human_review",)
    other_caller = {"configurable": {"thread_id": ""}}
    assert graph.get_state(other_caller).values["customer"]["name"] == "Dana Whitfield"


def test_storage_inmemory_stores_a_list_where_it_changed_sqlite_in_every_row():
    """storage: run S-1001 to the end (after the review no node appends to ``log``): InMemorySaver
    stores the list at every checkpoint where it changed (13 lines for 5), SqliteSaver in every row
    (23: the two checkpoints after the review store it again)."""
    lab = prelude("lesson_claims_storage")
    config, approve = lab["config"], lab["Command"](resume={"approved": True})
    memory = lab["graph"]
    memory.invoke({"case_id": "S-1001"}, config)
    memory.invoke(approve, config)
    saver = lab["saver"]
    kept = [v for k, v in saver.blobs.items() if k[0] == "case-1" and k[2] == "log"]
    assert sum(len(saver.serde.loads_typed(v)) for v in kept) == 13

    connection = sqlite3.connect(":memory:", check_same_thread=False)
    sqlite = SqliteSaver(connection)
    graph = lab["build"]().compile(checkpointer=sqlite)
    graph.invoke({"case_id": "S-1001"}, config)
    graph.invoke(approve, config)
    rows = connection.execute("select type, checkpoint from checkpoints").fetchall()
    lines = [len(sqlite.serde.loads_typed((t, b))["channel_values"].get("log", [])) for t, b in rows]
    assert len(rows) == 8 and sum(lines) == 23
