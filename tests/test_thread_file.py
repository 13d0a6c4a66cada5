"""A thread as one file (issue 10, item 7): exported, validated on import, imported whole, through
the in-memory saver and through an async-only storage like IndexedDB's."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest

from lab.aml import RunContext, build_graph, use_run_context
from lab.checkpoint import CheckpointSaver, InMemorySaver, MemoryStorage
from lab.checkpoint.serde import MsgpackSerializer
from lab.controller.thread_file import (
    FORMAT,
    MAX_FILE_BYTES,
    VERSION,
    ThreadFileError,
    export_thread,
    import_thread,
    read_thread_file,
)
from lab.controller.world import InMemoryWorld
from lab.types import Command
from tests.hostile_records import registered

SERDE = MsgpackSerializer()


class AsyncOnlyStorage(MemoryStorage):
    """Rows in memory behind an API that really suspends, as IndexedDB's does."""

    supports_sync = False

    async def put(self, **rows: Any) -> None:
        await asyncio.sleep(0)
        await super().put(**rows)


def saver_of(kind: str) -> CheckpointSaver:
    return InMemorySaver() if kind == "memory" else CheckpointSaver(AsyncOnlyStorage())


async def investigated(saver: CheckpointSaver, thread_id: str = "teacher") -> tuple[Any, InMemoryWorld]:
    """A thread paused at the SAR review of the misplaced variant (the export charged once)."""
    world = InMemoryWorld()
    graph = build_graph(world, "misplaced", checkpointer=saver, delay=0)
    context = RunContext(thread_id)
    use_run_context(context)
    await graph.ainvoke(
        {"case_id": "S-1002"}, {"configurable": {"thread_id": thread_id}}, on_seam=context.follow
    )
    return graph, world


async def history(graph: Any, thread_id: str) -> list[tuple]:
    return [
        (
            s.metadata["step"],
            s.metadata["source"],
            s.next,
            s.values,
            s.config["configurable"]["checkpoint_id"],
        )
        async for s in graph.aget_state_history({"configurable": {"thread_id": thread_id}})
    ]


@pytest.mark.parametrize("source", ["memory", "async storage"])
@pytest.mark.parametrize("target", ["memory", "async storage"])
async def test_a_thread_round_trips_through_a_file(source: str, target: str) -> None:
    teacher = saver_of(source)
    graph, world = await investigated(teacher)
    journal = [{"type": "run_start", "run": 1, "kind": "input"}]
    session = {"case_id": "S-1002", "variant": "misplaced", "durability": "async"}
    data = await export_thread(
        teacher, "teacher", session=session, journal=journal, ledger=await world.entries()
    )

    thread_file = read_thread_file(data)
    assert (thread_file.thread_id, thread_file.session, thread_file.journal) == ("teacher", session, journal)
    assert [entry["purpose"] for entry in thread_file.ledger] == [
        "transaction-graph query",
        "case-pack export",
    ]

    learner = saver_of(target)
    assert await import_thread(learner, thread_file, as_thread="learner-1") == "learner-1"
    class_graph = build_graph(InMemoryWorld(), "misplaced", checkpointer=learner, delay=0)
    assert await history(class_graph, "learner-1") == await history(graph, "teacher")
    assert (await class_graph.aget_state({"configurable": {"thread_id": "learner-1"}})).next == (
        "human_review",
    )

    # and the class can go on from where the teacher stopped
    context = RunContext("learner-1")
    use_run_context(context)
    config = {"configurable": {"thread_id": "learner-1"}}
    done = await class_graph.ainvoke(Command(resume={"approved": True}), config, on_seam=context.follow)
    assert done["outcome"].startswith("SAR ")


async def test_an_existing_thread_is_never_overwritten() -> None:
    saver = InMemorySaver()
    await investigated(saver)
    thread_file = read_thread_file(await export_thread(saver, "teacher"))
    with pytest.raises(ThreadFileError, match="'teacher' already exists here"):
        await import_thread(saver, thread_file)


async def test_an_empty_thread_has_nothing_to_export() -> None:
    with pytest.raises(ThreadFileError, match="has no checkpoints"):
        await export_thread(InMemorySaver(), "nobody")


# -- refused files ----------------------------------------------------------------------------------


async def a_document() -> dict[str, Any]:
    saver = InMemorySaver()
    await investigated(saver)
    return SERDE.loads_typed(("msgpack", await export_thread(saver, "teacher")))


def encoded(document: Any) -> bytes:
    return SERDE.dumps_typed(document)[1]


def refused(data: Any) -> str:
    with pytest.raises(ThreadFileError) as failure:
        read_thread_file(data)
    return str(failure.value)


async def test_a_truncated_file_is_refused() -> None:
    data = encoded(await a_document())
    assert "truncated" in refused(data[: len(data) // 2])


async def test_a_file_from_a_newer_lab_is_refused() -> None:
    document = await a_document()
    message = refused(encoded({**document, "version": VERSION + 1}))
    assert f"newer lab (format version {VERSION + 1})" in message


async def test_a_stored_value_of_an_unknown_type_is_refused_without_running_it() -> None:
    document = await a_document()
    document["blobs"][0]["value"] = ("msgpack", registered("os.system", "echo pwned"))
    message = refused(encoded(document))
    assert "blobs[0].value does not load" in message and "'os.system' is not registered" in message


async def test_a_file_whose_own_encoding_has_an_unknown_type_is_refused() -> None:
    crafted = msgpack.packb({"format": FORMAT, "version": 1, "x": msgpack.ExtType(42, b"?")})
    assert "unknown msgpack extension type 42" in refused(crafted)


@pytest.mark.parametrize(
    ("tamper", "says"),
    [
        (lambda d: {**d, "format": "something else"}, "not a thread file of Checkpoint Lab"),
        (lambda d: {**d, "version": "1"}, "is not a version number"),
        (lambda d: {**d, "thread_id": ""}, "thread_id must be text of 1 to 255"),
        (lambda d: {**d, "checkpoints": d["checkpoints"][:-1]}, "which is not in the file"),
        (lambda d: {**d, "blobs": d["blobs"][1:]}, "not in the file"),
        (lambda d: {**d, "journal": ["not a record"]}, "journal must be a list of objects"),
        (lambda d: {**d, "session": "s"}, "session must be an object or null"),
        (lambda d: {**d, "writes": [{**d["writes"][0], "idx": "0"}]}, "writes[0].idx is str, not int"),
        (lambda d: {**d, "writes": [{**d["writes"][0], "thread_id": "other"}]}, "belongs to thread 'other'"),
        (lambda d: {**d, "blobs": [{"channel": "x"}]}, "blobs[0] must have exactly the fields"),
        (
            lambda d: {**d, "checkpoints": [{**d["checkpoints"][0], "checkpoint": SERDE.dumps_typed([1])}]},
            "checkpoints[0].checkpoint is malformed",
        ),
        (lambda d: [1, 2], "not a thread file"),
    ],
)
async def test_a_malformed_file_is_refused_saying_where(tamper: Any, says: str) -> None:
    assert says in refused(encoded(tamper(await a_document())))


def test_a_file_too_large_or_not_bytes_is_refused() -> None:
    assert "may have at most 5 MB" in refused(b"\x00" * (MAX_FILE_BYTES + 1))
    assert "is bytes, not str" in refused("a file name")
