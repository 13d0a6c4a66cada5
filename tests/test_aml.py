"""The AML graph on its own (no controller): cases, rules, the idempotent world, both variants.

Runs go through plain ``ainvoke`` with a ``RunContext`` installed, the way any caller would.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from lab.aml import (
    CASES,
    VARIANT_INFO,
    VARIANTS,
    RunContext,
    build_graph,
    business_operation,
    describe_graph,
    get_case,
    use_run_context,
)
from lab.aml.graph import call_site, classify, watchlist_matches
from lab.aml.profile import AML_PROFILE
from lab.aml.world import AmlWorld
from lab.checkpoint import InMemorySaver
from lab.checkpoint.serde import MsgpackSerializer
from lab.controller.ledger_rules import annotate_ledger
from lab.controller.process import Process, ProcessKilled, ProcessSaver, ProcessWorld
from lab.graph import END, START
from lab.types import Command
from lab.world import IdempotencyError, MemoryWorld

SITE = {"thread_id": "t", "node": "n", "task_id": "task-1", "checkpoint_id": "c-1"}


async def run(graph, request, thread_id: str) -> dict:
    context = RunContext(thread_id)
    use_run_context(context)
    return await graph.ainvoke(request, {"configurable": {"thread_id": thread_id}}, on_seam=context.follow)


def fresh(variant: str = "misplaced") -> tuple:
    world = MemoryWorld()
    return build_graph(world, variant, checkpointer=InMemorySaver(), delay=0), world


# -- cases and rules -----------------------------------------------------------------------------------


def test_cases_are_plain_data_that_serialize():
    assert json.loads(json.dumps(CASES)) == CASES
    serde = MsgpackSerializer()
    assert serde.loads_typed(serde.dumps_typed(CASES)) == CASES


def test_unknown_case_names_the_known_ones():
    with pytest.raises(KeyError, match="S-1001, S-1002, S-1003"):
        get_case("S-9")


@pytest.mark.parametrize(
    ("case_id", "typology"), [("S-1001", "structuring"), ("S-1002", "sanctions"), ("S-1003", "none")]
)
def test_each_case_has_its_typology(case_id, typology):
    case = get_case(case_id)
    wires = {t["counterparty"]: [t["id"]] for t in case["transactions"] if t["kind"].startswith("wire")}
    matches = watchlist_matches({case["customer"]["name"]: [], **wires})
    verdict = classify(case["transactions"], {"hit": bool(matches), "matches": matches})
    assert verdict["typology"] == typology


def test_structuring_deposits_sit_just_under_the_threshold():
    deposits = [t for t in get_case("S-1001")["transactions"] if t["kind"] == "cash_deposit"]
    assert len(deposits) >= 3 and all(9_000 <= t["amount"] < 10_000 for t in deposits)


# -- the world: idempotency like Stripe ---------------------------------------------------------------


async def test_same_key_returns_the_same_receipt_and_charges_nothing_new():
    world = MemoryWorld()
    first = await AmlWorld(world).charge("k1", **SITE, amount_cents=250, purpose="query")
    again = await AmlWorld(world).charge("k1", **SITE, amount_cents=250, purpose="query")
    assert again.receipt_id == first.receipt_id and again.replayed and not first.replayed
    ledger = annotate_ledger(await world.entries(), profile=AML_PROFILE)
    assert (
        ledger["totals"]["counts"]["charge"] == 1
        and ledger["totals"]["cents"] == 250
        and ledger["duplicates"] == []
    )
    assert [e["attempt"] for e in ledger["entries"]] == [1, 2]


async def test_no_key_charges_every_time_and_is_flagged():
    world = MemoryWorld()
    for _ in range(2):
        await AmlWorld(world).charge(None, **SITE, amount_cents=250, purpose="query")
    ledger = annotate_ledger(await world.entries(), profile=AML_PROFILE)
    assert ledger["totals"]["counts"]["charge"] == 2
    assert [d["label"] for d in ledger["duplicates"]] == ["charged ×2"]


async def test_a_key_reused_with_other_parameters_is_refused():
    world = MemoryWorld()
    await AmlWorld(world).charge("k1", **SITE, amount_cents=250, purpose="query")
    with pytest.raises(IdempotencyError, match="same parameters"):
        await AmlWorld(world).charge("k1", **SITE, amount_cents=999, purpose="query")


# -- the graph ----------------------------------------------------------------------------------------


def test_nodes_refuse_to_run_without_a_run_context():
    with pytest.raises(RuntimeError, match="RunContext"):
        call_site()


def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="misplaced, task-key, fixed"):
        build_graph(MemoryWorld(), "sloppy")


async def test_clean_case_closes_without_asking_anyone():
    graph, world = fresh()
    out = await run(graph, {"case_id": "S-1003"}, "clean")
    assert out["outcome"] == "Closed: no suspicious typology" and "__interrupt__" not in out
    ledger = annotate_ledger(await world.entries(), profile=AML_PROFILE)
    assert ledger["totals"]["counts"]["charge"] == 1  # the transaction query


@pytest.mark.parametrize(("variant", "export_charges"), [("misplaced", 2), ("fixed", 1), ("task", 1)])
async def test_approval_reruns_review_and_the_misplaced_variant_pays_twice(variant, export_charges):
    graph, world = fresh(variant)
    asked = await run(graph, {"case_id": "S-1002"}, "t")
    assert asked["__interrupt__"][0].value["question"] == "File a SAR for S-1002?"
    out = await run(graph, Command(resume={"approved": True}), "t")
    assert out["outcome"].startswith("SAR sar_0001 filed")
    exports = [e for e in await world.entries() if e["node"] == "human_review"]
    assert len(exports) == export_charges
    assert len(out["charges"]) == 2  # the state remembers one export whatever the ledger says


async def test_rejection_closes_the_case_and_fixed_buys_no_export():
    graph, world = fresh("fixed")
    await run(graph, {"case_id": "S-1001"}, "t")
    out = await run(graph, Command(resume={"approved": False}), "t")
    assert out["outcome"] == "Closed: the officer rejected the SAR"
    assert [e["node"] for e in await world.entries()] == ["fetch_transactions"]


async def test_task_key_variant_keys_are_thread_and_task():
    graph, world = fresh("task-key")
    await run(graph, {"case_id": "S-1001"}, "t")
    (query,) = await world.entries()
    assert query["idempotency_key"] == f"t:{query['task_id']}"


async def test_fixed_keys_name_the_business_operation_and_no_runtime_id():
    graph, world = fresh("fixed")
    await run(graph, {"case_id": "S-1002"}, "t")
    await run(graph, Command(resume={"approved": True}), "t")
    keys = [entry["idempotency_key"] for entry in await world.entries()]
    assert keys == ["t:S-1002:transaction-graph query", "t:S-1002:case-pack export", "t:S-1002:SAR filing"]


async def test_the_subgraph_variant_keys_as_fixed_and_its_review_asks_from_a_subgraph():
    graph, world = fresh("subgraph")
    waiting = await run(graph, {"case_id": "S-1002"}, "t")
    assert [i.value["question"] for i in waiting["__interrupt__"]] == ["File a SAR for S-1002?"]
    config = {"configurable": {"thread_id": "t"}}
    assert graph.get_state(config).next == ("human_review",)
    inside = graph.get_state(config, subgraphs=True).tasks[0].state
    assert inside.next == ("sign",)
    assert inside.config["configurable"]["checkpoint_ns"].startswith("human_review:")
    await run(graph, Command(resume={"approved": True}), "t")
    keys = [entry["idempotency_key"] for entry in await world.entries()]
    assert keys == ["t:S-1002:transaction-graph query", "t:S-1002:case-pack export", "t:S-1002:SAR filing"]
    drawn = {node["id"]: node for node in describe_graph(graph)["nodes"]}
    assert drawn["human_review"]["subgraph"] and not drawn["draft_sar"]["subgraph"]


def test_every_variant_is_described_for_the_page():
    assert list(VARIANT_INFO) == [*VARIANTS, "subgraph", "task"]  # lesson 12's, and LangGraph's remedy
    for info in VARIANT_INFO.values():
        assert info.label and info.about
    assert "flawed" in VARIANT_INFO["task-key"].label


# -- a crash that loses the checkpoint a task started from ------------------------------------------------


class SlowDisk(ProcessSaver):
    """A checkpoint store whose writes take real time, as IndexedDB's do: each lands a little after it
    was made, and only if its process is still alive then."""

    async def aput(self, config, checkpoint, metadata, new_versions):
        await asyncio.sleep(0.01)
        return await super().aput(config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config, writes, task_id, task_path=""):
        await asyncio.sleep(0.01)
        await super().aput_writes(config, writes, task_id, task_path)


async def crash_after_the_query_was_charged(
    variant: str, durability: str
) -> tuple[MemoryWorld, InMemorySaver]:
    """Run case S-1002 until ``fetch_transactions`` got its receipt, kill the process there, then
    start a new process on the same disk and ledger and finish the case (approving the SAR)."""
    world, disk = MemoryWorld(), InMemorySaver()
    process = Process()
    doomed = ProcessWorld(world, process)

    async def kill_after_the_charge(moment: str, call: dict) -> None:
        if moment == "side_effect_done" and call["node"] == "fetch_transactions":
            process.kill()
            raise ProcessKilled()

    doomed.on_call = kill_after_the_charge
    graph = build_graph(doomed, variant, checkpointer=SlowDisk(disk, process), delay=0)
    config = {"configurable": {"thread_id": "t"}}
    context = RunContext("t")
    use_run_context(context)
    with pytest.raises(asyncio.CancelledError):
        await graph.ainvoke({"case_id": "S-1002"}, config, durability=durability, on_seam=context.follow)
    await asyncio.sleep(0.05)  # let the dead process's writes in flight find it dead

    survivor = Process()
    graph = build_graph(
        ProcessWorld(world, survivor), variant, checkpointer=SlowDisk(disk, survivor), delay=0
    )
    request = None if await disk.aget_tuple(config) else {"case_id": "S-1002"}
    await graph.ainvoke(request, config, durability=durability, on_seam=context.follow)
    out = await graph.ainvoke(Command(resume={"approved": True}), config, on_seam=context.follow)
    assert out["outcome"].startswith("SAR ")
    return world, disk


@pytest.mark.parametrize("durability", ["exit", "async"])
@pytest.mark.parametrize(("variant", "charged"), [("task-key", 2), ("fixed", 1)])
async def test_a_crash_that_loses_the_start_checkpoint_defeats_task_keys_only(durability, variant, charged):
    world, disk = await crash_after_the_query_was_charged(variant, durability)
    queries = [e for e in await world.entries() if e["node"] == "fetch_transactions"]
    assert len(queries) == 2  # the node ran twice: before the crash, and again after it
    saved = {saved.config["configurable"]["checkpoint_id"] for saved in disk.list(None)}
    assert queries[0]["checkpoint_id"] not in saved  # the checkpoint it started from was lost
    assert queries[0]["task_id"] != queries[1]["task_id"]  # so the re-run is a new task
    assert sum(not q["replayed"] for q in queries) == charged
    charges_per_operation = Counter(
        business_operation(e) for e in await world.entries() if e["kind"] == "charge" and not e["replayed"]
    )
    assert max(charges_per_operation.values()) == charged


async def crash_inside_the_export_task(durability: str, moment: str) -> MemoryWorld:
    """Run case S-1002 in the ``task`` variant, kill the process at ``moment`` of the export bought
    inside ``human_review``'s task, then start a new process on the same disk and ledger, resume and
    approve."""
    world, disk = MemoryWorld(), InMemorySaver()
    process = Process()
    doomed = ProcessWorld(world, process)

    async def kill_at_the_export(at: str, call: dict) -> None:
        if at == moment and call["node"] == "human_review":
            process.kill()
            raise ProcessKilled()

    doomed.on_call = kill_at_the_export
    graph = build_graph(doomed, "task", checkpointer=ProcessSaver(disk, process), delay=0)
    config = {"configurable": {"thread_id": "t"}}
    context = RunContext("t")
    use_run_context(context)
    with pytest.raises(asyncio.CancelledError):
        await graph.ainvoke({"case_id": "S-1002"}, config, durability=durability, on_seam=context.follow)

    survivor = Process()
    graph = build_graph(
        ProcessWorld(world, survivor), "task", checkpointer=ProcessSaver(disk, survivor), delay=0
    )
    request = None if await disk.aget_tuple(config) else {"case_id": "S-1002"}
    asked = await graph.ainvoke(request, config, durability=durability, on_seam=context.follow)
    assert asked["__interrupt__"]
    out = await graph.ainvoke(Command(resume={"approved": True}), config, on_seam=context.follow)
    assert out["outcome"].startswith("SAR ")
    return world


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
@pytest.mark.parametrize(("moment", "exports"), [("side_effect", 1), ("side_effect_done", 2)])
async def test_the_task_variant_charges_again_only_if_the_crash_beats_the_tasks_saved_result(
    durability, moment, exports
):
    """Killed before the export request leaves, the re-run buys it once; killed after the charge and
    before the task's result is saved, the re-run's task runs again and, with no key, pays again."""
    world = await crash_inside_the_export_task(durability, moment)
    bought = [e for e in await world.entries() if e["purpose"] == "case-pack export" and not e["replayed"]]
    assert len(bought) == exports
    assert {e["node"] for e in bought} == {"human_review"}


# -- the diagram ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_diagram_is_what_get_graph_draws(variant):
    graph, _ = fresh(variant)
    diagram = describe_graph(graph)
    json.dumps(diagram)
    drawn = {(e.source, e.target, e.conditional) for e in graph.get_graph().edges}
    plain = {(e["source"], e["target"], False) for e in diagram["edges"]}
    joined = {(s, j["target"], False) for j in diagram["joins"] for s in j["sources"]}
    routed = {(c["source"], t, True) for c in diagram["conditional_edges"] for t in c["targets"]}
    assert plain | joined | routed == drawn and len(plain) + len(joined) + len(routed) == len(drawn)
    builder = graph.builder
    assert [n["id"] for n in diagram["nodes"]] == [START, *builder.nodes, END]
    assert [(e["source"], e["target"]) for e in diagram["edges"]] == builder.edges
    (join,) = diagram["joins"]
    assert join["sources"] == ["fetch_transactions", "screen_sanctions"] and join["channel"] in graph.channels
    routes = {c["source"]: c["targets"] for c in diagram["conditional_edges"]}
    assert routes == {
        "classify_typology": ["draft_sar", "close_case"],
        "human_review": ["file_sar", "close_case"],
    }
    by_id = {n["id"]: n for n in diagram["nodes"]}
    assert {n for n, d in by_id.items() if d.get("paid")} == {"fetch_transactions", "human_review"}
    assert by_id["human_review"]["interrupts"] and by_id["file_sar"]["files_sar"]
    assert by_id["human_review"]["charges_before_interrupt"] is (variant == "misplaced")
