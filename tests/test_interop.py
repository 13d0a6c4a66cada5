"""Threads cross the border (``lab.interop``), proved against real LangGraph with the AML graph.

Out: the lab runs a case and crashes in the parallel step after ``fetch_transactions`` saved its
writes; the thread file goes into a real LangGraph ``SqliteSaver``; the AML graph, built by the same
``build_graph`` code with LangGraph's classes, shows the same history, restores ``fetch_transactions``
from its pending writes and re-runs only ``screen_sanctions`` (the split the lab showed), stops at
the review, and finishes on ``Command(resume=...)``.

In: real LangGraph runs the case to the review; ``from_langgraph`` writes the thread file; the lab
controller imports it (``import_thread``), shows the same history, and finishes the case.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import operator
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Annotated, Any, TypedDict

import langgraph.config
import langgraph.graph
import langgraph.types
import pytest
from langgraph.channels import DeltaChannel
from langgraph.checkpoint.memory import InMemorySaver as LangGraphMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

import lab.aml.graph as aml
from lab.aml.graph import build_graph
from lab.aml.on_langgraph import aml_graph, langgraph_names
from lab.channels import DeltaChannel as LabDeltaChannel
from lab.checkpoint.delta import DELTA
from lab.controller.thread_file import export_thread, import_thread, read_thread_file
from lab.interop import InteropError, from_langgraph, main, to_langgraph
from lab.pregel.channels import folding
from lab.world import MemoryWorld
from tests.controller_lab import Lab

CASE = "S-1001"  # structuring: fetch || screen, then review, approved, then a filed SAR
VARIANT = "fixed"
REPO = Path(__file__).resolve().parents[1]


# -- the AML graph on real LangGraph ------------------------------------------------------------------


class CountingStateGraph(langgraph.graph.StateGraph):
    """LangGraph's StateGraph, counting every real call of a node function."""

    calls: Counter[str] = Counter()

    def add_node(self, name: str, action: Any, **kwargs: Any) -> Any:
        async def counted(state: dict) -> Any:
            CountingStateGraph.calls[name] += 1
            return await action(state)

        return super().add_node(name, counted, **kwargs)


@pytest.fixture
def on_langgraph() -> Counter[str]:
    """The node calls the AML graph makes on LangGraph during the test."""
    CountingStateGraph.calls = Counter()
    return CountingStateGraph.calls


@contextlib.asynccontextmanager
async def langgraph_case(world: MemoryWorld, thread_id: str, database: str) -> AsyncIterator[Any]:
    """The same ``build_graph`` code compiled on LangGraph over a ``SqliteSaver`` of ``database``,
    its node calls counted."""
    counting = {**langgraph_names(), "StateGraph": CountingStateGraph}
    async with AsyncSqliteSaver.from_conn_string(database) as saver:
        with aml_graph(VARIANT, saver, thread_id, world=world, names=counting) as graph:
            yield graph


# -- what a learner compares: the history -------------------------------------------------------------


def frame(snapshot: Any) -> tuple:
    """One checkpoint as ``get_state_history`` shows it, on either runtime."""
    parent = snapshot.parent_config["configurable"]["checkpoint_id"] if snapshot.parent_config else None
    return (
        snapshot.config["configurable"]["checkpoint_id"],
        parent,
        snapshot.metadata["step"],
        snapshot.metadata["source"],
        tuple(snapshot.next),
        snapshot.values,
        [(t.id, t.name, t.error, [(i.id, i.value) for i in t.interrupts], t.result) for t in snapshot.tasks],
        [(i.id, i.value) for i in snapshot.interrupts],
    )


async def lab_history(lab: Lab, thread_id: str) -> list[tuple]:
    graph = build_graph(lab.world, VARIANT, checkpointer=lab.saver, delay=0)
    config = {"configurable": {"thread_id": thread_id}}
    return [frame(s) async for s in graph.aget_state_history(config)]


async def langgraph_history(graph: Any, thread_id: str) -> list[tuple]:
    return [frame(s) async for s in graph.aget_state_history({"configurable": {"thread_id": thread_id}})]


async def exported(lab: Lab) -> bytes:
    return base64.b64decode((await lab.do("export_thread"))["data"])


# -- out: a crashed lab thread continues in real LangGraph ----------------------------------------------


async def crashed_in_the_parallel_step(lab: Lab, thread_id: str) -> None:
    """Run the case in the lab; the process dies in ``screen_sanctions`` after ``fetch_transactions``
    saved its writes."""
    await lab.do("start", case_id=CASE, variant=VARIANT, durability="sync", thread_id=thread_id)
    await lab.do("arm_crash", seam="task_finish", node="screen_sanctions")
    assert (await lab.do("run"))["status"] == "crashed"
    await lab.crash_and_reboot()
    parallel = await lab.frame_where(next=["fetch_transactions", "screen_sanctions"])
    assert {node for node, _, _ in parallel["pending_writes"]} == {"fetch_transactions"}


async def test_a_lab_thread_continues_in_langgraph(lab: Lab, on_langgraph: Counter, tmp_path: Path) -> None:
    await crashed_in_the_parallel_step(lab, "crossing")
    lab_frames = await lab_history(lab, "crossing")
    database = str(tmp_path / "threads.sqlite")
    with SqliteSaver.from_conn_string(database) as saver:
        assert await to_langgraph(await exported(lab), saver) == "crossing"

    config = {"configurable": {"thread_id": "crossing"}}
    async with langgraph_case(lab.world, "crossing", database) as graph:
        assert await langgraph_history(graph, "crossing") == lab_frames
        stopped = await graph.ainvoke(None, config)
        assert on_langgraph == Counter(
            {"screen_sanctions": 1, "classify_typology": 1, "draft_sar": 1, "human_review": 1}
        )
        (question,) = stopped["__interrupt__"]
        done = await graph.ainvoke(langgraph.types.Command(resume={"approved": True}), config)
    assert done["outcome"] == aml.OUTCOMES["filed"].format(sar=done["sar"]["sar_id"])
    assert on_langgraph["fetch_transactions"] == 0  # restored from its saved writes, never re-run
    assert [c["purpose"] for c in done["charges"]] == [aml.QUERY, aml.EXPORT]
    assert question.value["question"]


async def test_lists_go_to_langgraph_whole(lab: Lab) -> None:
    """``log`` and ``charges`` go to LangGraph's saver whole, as its default stores them."""
    await crashed_in_the_parallel_step(lab, "whole")
    saver = LangGraphMemorySaver()
    await to_langgraph(await exported(lab), saver)
    for saved in saver.list({"configurable": {"thread_id": "whole"}}):
        if saved.metadata["step"] >= 1:  # intake has written the log
            assert saved.checkpoint["channel_values"]["log"][0].startswith("intake: opened")


# -- in: a LangGraph thread opens in the lab -------------------------------------------------------------


async def langgraph_thread_at_the_review(world: MemoryWorld, database: str, thread_id: str) -> list[tuple]:
    """Real LangGraph runs the case to the review; returns its history."""
    async with langgraph_case(world, thread_id, database) as graph:
        config = {"configurable": {"thread_id": thread_id}}
        stopped = await graph.ainvoke({"case_id": CASE, "log": [], "charges": []}, config)
        assert "__interrupt__" in stopped
        return await langgraph_history(graph, thread_id)


async def test_a_langgraph_thread_opens_and_finishes_in_the_lab(
    lab: Lab, on_langgraph: Counter, tmp_path: Path
) -> None:
    database = str(tmp_path / "threads.sqlite")
    history = await langgraph_thread_at_the_review(lab.world, database, "from-langgraph")
    session = {"case_id": CASE, "variant": VARIANT, "durability": "sync"}
    with SqliteSaver.from_conn_string(database) as saver:
        data = await from_langgraph(saver, "from-langgraph", session=session)
    on_langgraph.clear()
    stored = {(b["channel"], tuple(b["value"]) == DELTA) for b in read_thread_file(data).blobs}
    assert ("log", False) in stored and ("log", True) not in stored  # whole, as both store it by default

    imported = await lab.do("import_thread", data=base64.b64encode(data).decode())
    assert imported["session"]["thread_id"] == "from-langgraph"
    assert await lab_history(lab, "from-langgraph") == history
    assert (await lab.view())["status"]["action"] == "approve"
    done = await lab.do("answer", approve=True)
    assert done["status"] == "done"
    final = (await lab.do("state"))["values"]
    assert final["outcome"] == aml.OUTCOMES["filed"].format(sar=final["sar"]["sar_id"])
    assert [c["purpose"] for c in final["charges"]] == [aml.QUERY, aml.EXPORT]


def test_the_command_line_carries_a_thread_both_ways(tmp_path: Path, monkeypatch, capsysbinary) -> None:
    """``to-langgraph`` then ``from-langgraph`` through one SQLite file gives back the same thread."""

    async def a_lab_thread() -> tuple[bytes, list[tuple]]:
        lab = Lab()
        await crashed_in_the_parallel_step(lab, "cli")
        return await exported(lab), await lab_history(lab, "cli")

    data, history = asyncio.run(a_lab_thread())
    (tmp_path / "cli.thread").write_bytes(data)
    database = str(tmp_path / "cli.sqlite")
    main(["to-langgraph", str(tmp_path / "cli.thread"), "--sqlite", database])
    main(["from-langgraph", "--sqlite", database, "--thread", "cli", "--case", CASE, "--variant", VARIANT])
    back = capsysbinary.readouterr().out

    async def reimported() -> list[tuple]:
        lab = Lab()
        await lab.do("import_thread", data=base64.b64encode(back).decode())
        return await lab_history(lab, "cli")

    assert asyncio.run(reimported()) == history


def test_a_value_the_allow_list_does_not_know_is_refused_by_name() -> None:
    saver = LangGraphMemorySaver()
    graph = _one_node_graph(saver)
    graph.invoke({"x": Path("/etc")}, {"configurable": {"thread_id": "odd"}})
    with pytest.raises(InteropError, match="PosixPath"):
        asyncio.run(from_langgraph(saver, "odd"))
    with pytest.raises(InteropError, match="no checkpoints"):
        asyncio.run(from_langgraph(saver, "nobody"))


def append(log: list | None, batches: list[list]) -> list:
    """A ``DeltaChannel`` reducer: it gets a batch of writes."""
    return [*(log or []), *(item for batch in batches for item in batch)]


class Opted(TypedDict):
    x: int
    log: Annotated[list, DeltaChannel(append)]


def test_a_thread_with_a_delta_channel_is_refused_naming_the_key() -> None:
    """A graph that opts in to LangGraph's ``DeltaChannel`` stores its list in few checkpoints;
    read through ``list`` the others would open in the lab with the key empty."""
    saver = LangGraphMemorySaver()
    builder = langgraph.graph.StateGraph(Opted)
    builder.add_node("a", lambda s: {"x": s["x"] + 1, "log": ["a"]})
    builder.add_edge(langgraph.graph.START, "a")
    builder.compile(checkpointer=saver).invoke({"x": 0, "log": []}, {"configurable": {"thread_id": "d"}})
    with pytest.raises(InteropError, match=r"keeps 'log' in LangGraph's DeltaChannel"):
        asyncio.run(from_langgraph(saver, "d", deltas=["log"]))


def _one_node_graph(saver: Any) -> Any:
    from typing import TypedDict

    class State(TypedDict):
        x: Any

    builder = langgraph.graph.StateGraph(State)
    builder.add_node("a", lambda state: {"x": state["x"]})
    builder.add_edge(langgraph.graph.START, "a")
    return builder.compile(checkpointer=saver)


def test_lab_imports_no_langgraph_until_a_crossing() -> None:
    """``lab`` runs in the browser, where LangGraph is not: importing ``lab.interop`` loads none of it.
    (``langchain_core`` may load: ``lab.messages`` uses its message classes where it is installed.)"""
    code = "import sys, lab.interop; print(sorted(m for m in sys.modules if m.startswith('langgraph')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "[]"


class Counted(TypedDict):
    x: int
    log: Annotated[list, operator.add]


class DeltaCounted(TypedDict):
    """``Counted`` with its log opted in to the lab's ``DeltaChannel``."""

    x: int
    log: Annotated[list, LabDeltaChannel(folding(operator.add))]


def counting_graph(graph_module: Any, saver: Any, state: type = Counted) -> Any:
    """``START -> a -> b``, each adding to ``x`` and the log: the same code on either runtime."""
    builder = graph_module.StateGraph(state)
    builder.add_node("a", lambda s: {"x": s["x"] + 1, "log": [f"a{s['x']}"]})
    builder.add_node("b", lambda s: {"x": s["x"] * 10, "log": [f"b{s['x']}"]})
    builder.add_edge(graph_module.START, "a")
    builder.add_edge("a", "b")
    return builder.compile(checkpointer=saver)


class IntegerVersions:
    """A saver that reads as one keeping ``BaseCheckpointSaver``'s default versions (1, 2, 3...,
    values stored with each checkpoint, as ``SqliteSaver`` 2.x did): ``saver``'s thread with every
    version cut to its integer part."""

    def __init__(self, saver: Any) -> None:
        self.saver = saver

    def list(self, config: dict) -> Iterator[Any]:
        def cut(versions: dict) -> dict:
            return {name: int(v.partition(".")[0]) for name, v in versions.items()}

        for saved in self.saver.list(config):
            checkpoint = {
                **saved.checkpoint,
                "channel_versions": cut(saved.checkpoint["channel_versions"]),
                "versions_seen": {
                    node: cut(seen) for node, seen in saved.checkpoint["versions_seen"].items()
                },
            }
            yield saved._replace(checkpoint=checkpoint)


@pytest.mark.parametrize("deltas", [(), ("log",)], ids=["whole", "log-as-deltas"])
def test_a_forked_thread_with_integer_versions_keeps_each_branch_apart(deltas: tuple[str, ...]) -> None:
    """Integer versions count on from the parent, so a fork reaches the version its sibling branch
    has, with another value. In the lab each branch keeps its own, also where the lab's graph opts
    the log in to ``DeltaChannel`` (``deltas``: stored as sentinels and snapshots)."""
    import lab.checkpoint
    import lab.graph

    config = {"configurable": {"thread_id": "forked"}}
    graph = counting_graph(langgraph.graph, LangGraphMemorySaver())
    graph.invoke({"x": 1, "log": []}, config)
    before_b = next(s for s in graph.get_state_history(config) if s.next == ("b",))
    graph.invoke(None, graph.update_state(before_b.config, {"x": 100}))
    history = [frame(s) for s in graph.get_state_history(config)]
    assert sorted(s[5]["x"] for s in history if s[4] == ()) == [20, 1000]
    integers = IntegerVersions(graph.checkpointer)
    tips = [t.checkpoint["channel_versions"]["x"] for t in integers.list(config) if t.metadata["step"] == 2]
    assert len(tips) == 2 and len(set(tips)) == 1  # the same integer, two values
    data = asyncio.run(from_langgraph(integers, "forked", deltas=deltas))
    stored = {tuple(b["value"]) == DELTA for b in read_thread_file(data).blobs if b["channel"] == "log"}
    assert (True in stored) == bool(deltas)

    async def in_the_lab() -> list[tuple]:
        saver = lab.checkpoint.InMemorySaver()
        await import_thread(saver, read_thread_file(data))
        state = DeltaCounted if deltas else Counted
        return [frame(s) async for s in counting_graph(lab.graph, saver, state).aget_state_history(config)]

    assert asyncio.run(in_the_lab()) == history


class Paired(TypedDict):
    pair: Any
    log: Annotated[list, operator.add]


def asking_graph(graph_module: Any, types_module: Any, saver: Any) -> Any:
    """``START -> a -> ask``: tuples in the state, in the interrupt's value and in the answer."""

    def ask(s: dict) -> dict:
        return {"log": [("ask", types_module.interrupt(("ok?", s["pair"])))]}

    builder = graph_module.StateGraph(Paired)
    builder.add_node("a", lambda s: {"pair": ("a", s["pair"]), "log": [(1, 2)]})
    builder.add_node("ask", ask)
    builder.add_edge(graph_module.START, "a")
    builder.add_edge("a", "ask")
    return builder.compile(checkpointer=saver)


def paused_and_finished(graph: Any, types_module: Any, config: dict) -> tuple[Any, Any]:
    """The interrupt's value ``get_state`` reads back, then the values after the answer."""
    (interrupt,) = graph.get_state(config).interrupts
    graph.invoke(types_module.Command(resume=("yes", (3,))), config)
    return interrupt.value, graph.get_state(config).values


def test_tuples_cross_both_ways_as_langgraph_reads_them() -> None:
    """A thread holding tuples reads, after crossing either way, as LangGraph reads its own thread:
    its tuples are lists (LangGraph's serializer writes them as msgpack arrays, so does the lab)."""
    import lab.checkpoint
    import lab.graph
    import lab.types

    config = {"configurable": {"thread_id": "tuples"}}
    native = asking_graph(langgraph.graph, langgraph.types, LangGraphMemorySaver())
    native.invoke({"pair": (0, 0), "log": []}, config)
    data = asyncio.run(from_langgraph(native.checkpointer, "tuples"))
    expected = paused_and_finished(native, langgraph.types, config)
    finished = {"pair": ["a", [0, 0]], "log": [[1, 2], ["ask", ["yes", [3]]]]}
    assert expected == (["ok?", ["a", [0, 0]]], finished)

    lab_saver = lab.checkpoint.InMemorySaver()
    lab_graph = asking_graph(lab.graph, lab.types, lab_saver)
    lab_graph.invoke({"pair": (0, 0), "log": []}, config)
    out = LangGraphMemorySaver()
    asyncio.run(to_langgraph(asyncio.run(export_thread(lab_saver, "tuples")), out))
    carried_out = asking_graph(langgraph.graph, langgraph.types, out)
    assert paused_and_finished(carried_out, langgraph.types, config) == expected

    came_in = lab.checkpoint.InMemorySaver()
    asyncio.run(import_thread(came_in, read_thread_file(data)))
    carried_in = asking_graph(lab.graph, lab.types, came_in)
    assert paused_and_finished(carried_in, lab.types, config) == expected
