"""A thread as one file (issue 10, item 7): exported, validated on import, imported whole, through
the in-memory saver and through an async-only storage like IndexedDB's."""

from __future__ import annotations

import ast
import asyncio
import base64
from pathlib import Path
from typing import Any

import msgpack
import pytest

from lab.aml import RunContext, build_graph, use_run_context
from lab.checkpoint import CheckpointSaver, InMemorySaver, MemoryStorage
from lab.checkpoint.serde import MAX_DEPTH, MsgpackSerializer
from lab.controller.thread_file import (
    FORMAT,
    MAX_FILE_BYTES,
    VERSION,
    ThreadFileError,
    export_thread,
    import_thread,
    read_thread_file,
)
from lab.types import Command
from lab.world import MemoryWorld
from tests.controller_lab import Lab
from tests.hostile_records import registered
from tests.test_said_in_both_languages import assert_said_in_both_languages, catalogue, messages_in

SERDE = MsgpackSerializer()


class AsyncOnlyStorage(MemoryStorage):
    """Rows in memory behind an API that really suspends, as IndexedDB's does."""

    supports_sync = False

    async def put(self, **rows: Any) -> None:
        await asyncio.sleep(0)
        await super().put(**rows)


def saver_of(kind: str) -> CheckpointSaver:
    return InMemorySaver() if kind == "memory" else CheckpointSaver(AsyncOnlyStorage())


async def investigated(saver: CheckpointSaver, thread_id: str = "teacher") -> tuple[Any, MemoryWorld]:
    """A thread paused at the SAR review of the misplaced variant (the export charged once)."""
    world = MemoryWorld()
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
    class_graph = build_graph(MemoryWorld(), "misplaced", checkpointer=learner, delay=0)
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
    assert "may have at most 16 MB" in refused(b"\x00" * (MAX_FILE_BYTES + 1))
    assert "is bytes, not str" in refused("a file name")


# -- every refusal by its own code, in both languages (issue 9) ------------------------------------

LEDGER_ENTRY = {
    "kind": "charge",
    "id": "c-1",
    "idempotency_key": None,
    "replayed": False,
    "purpose": "case-pack export",
    "amount_cents": 500,
    "thread_id": "teacher",
    "node": "export",
    "task_id": "a1",
}
"""A ledger row of the exported thread, as static/ledger.mjs keeps it."""


def nested_lists(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def first(kind: str, **changes: Any) -> Any:
    """A tamper: the document's ``kind`` rows with the first one changed."""
    return lambda d: {**d, kind: [{**d[kind][0], **changes}, *d[kind][1:]]}


def checkpoint_with(**changes: Any) -> Any:
    """A tamper: the first checkpoint's stored checkpoint with ``changes``."""

    def tamper(d: dict[str, Any]) -> dict[str, Any]:
        loaded = SERDE.loads_typed(tuple(d["checkpoints"][0]["checkpoint"]))
        return first("checkpoints", checkpoint=SERDE.dumps_typed({**loaded, **changes}))(d)

    return tamper


BAD_FILES: list[tuple[Any, list[str]]] = [
    (lambda d: [1, 2], ["file.not_ours"]),
    (lambda d: {**d, "version": "1"}, ["file.version"]),
    (lambda d: {**d, "version": VERSION + 1}, ["file.newer"]),
    (lambda d: {**d, "thread_id": ""}, ["file.thread_id"]),
    (lambda d: {**d, "blobs": "all of them"}, ["file.not_list"]),
    (lambda d: {**d, "blobs": [{"channel": "x"}]}, ["file.row_fields"]),
    (first("writes", idx="0"), ["file.row_type"]),
    (first("writes", thread_id="other"), ["file.foreign_row"]),
    (
        first("blobs", value=("msgpack", b"\x92\x01")),
        ["file.value_not_loading", "record.problem.truncated"],
    ),
    (
        first("checkpoints", checkpoint=SERDE.dumps_typed([1])),
        ["file.malformed_checkpoint", "record.problem.not_a_dict"],
    ),
    (first("checkpoints", metadata=SERDE.dumps_typed([1])), ["file.metadata_not_object"]),
    (checkpoint_with(channel_versions=[1]), ["file.malformed_checkpoint", "record.problem.field_type"]),
    (
        checkpoint_with(channel_versions={"log": None}),
        ["file.malformed_checkpoint", "record.problem.channel_version"],
    ),
    (
        checkpoint_with(versions_seen={"intake": 1}),
        ["file.malformed_checkpoint", "record.problem.versions_seen"],
    ),
    (lambda d: {**d, "journal": ["not a record"]}, ["file.not_objects"]),
    (lambda d: {**d, "journal": [{"type": "lunch"}]}, ["file.unknown_type"]),
    (lambda d: {**d, "journal": [{"type": "crash", "run": 1, "step": True}]}, ["file.field_type"]),
    (lambda d: {**d, "ledger": [{**LEDGER_ENTRY, "thread_id": "other"}]}, ["file.foreign_entry"]),
    (lambda d: {**d, "session": "s"}, ["file.session"]),
    (
        lambda d: {**d, "checkpoints": d["checkpoints"][:-1]},
        ["file.not_whole", "file.chain.parent", "record.place", "record.part.checkpoint"],
    ),
    (
        checkpoint_with(channel_versions={"ghost": "00009.1"}),
        ["file.not_whole", "file.chain.value", "record.place", "record.part.checkpoint"],
    ),
    (first("writes", checkpoint_id="elsewhere"), ["file.not_whole", "file.chain.write"]),
]
"""A real bad file for each refusal of :func:`read_thread_file`, and the codes it is said by."""


async def refusals_of_every_kind() -> list[dict[str, Any]]:
    """What the lab says refusing each bad file, each bad export, import and command."""
    document = await a_document()
    assert read_thread_file(encoded({**document, "ledger": [LEDGER_ENTRY]}))  # the entry is good
    said = []
    for tamper, codes in BAD_FILES:
        with pytest.raises(ThreadFileError) as failure:
            read_thread_file(encoded(tamper(document)))
        assert [m["code"] for m in messages_in(failure.value.say)] == codes, str(failure.value)
        said.append(failure.value.say)
    attempts = [
        lambda: read_thread_file("a file name"),  # type: ignore[arg-type]
        lambda: read_thread_file(encoded(document)[:-3]),
        lambda: read_thread_file(b"\x00" * (MAX_FILE_BYTES + 1)),
        lambda: export_thread(InMemorySaver(), "nobody"),
        lambda: export_thread(saver, "teacher", journal=[{"type": "run_start", "note": object()}]),
        lambda: export_thread(saver, "teacher", journal=[nested_lists(MAX_DEPTH + 5)]),
        lambda: export_thread(saver, "teacher", journal=[{"type": "run_start", "amount": 2**64}]),
        lambda: import_thread(InMemorySaver(), read_thread_file(encoded(document)), as_thread="x" * 256),
        lambda: import_thread(saver, read_thread_file(encoded(document))),
    ]
    saver = InMemorySaver()
    await investigated(saver)
    for attempt in attempts:
        with pytest.raises(ThreadFileError) as failure:
            result = attempt()
            if asyncio.iscoroutine(result):
                await result
        said.append(failure.value.say)
    lab = Lab()
    session = {"case_id": "S-1002", "variant": "misplaced", "durability": "async"}
    good = encoded({**document, "session": session})
    emailed = {**LEDGER_ENTRY, "thread_id": document["thread_id"], "kind": "email"}  # not the AML graph's
    for data in [
        encoded({**document, "session": session, "ledger": [emailed]}),
        encoded({**document, "session": {"case_id": "S-0000"}}),
        encoded({**document, "session": {"case_id": "S-1002", "variant": "wrong"}}),
        None,
        b"not base64!",
    ]:
        sent = data if data is None or data == b"not base64!" else base64.b64encode(data)
        error = await lab.fail("import_thread", data=sent.decode() if sent else None)
        said.append(error["say"])
    assert (await lab.do("import_thread", data=base64.b64encode(good).decode()))["imported"]
    await lab.controller.terminate()
    return said


def codes_raised_in(path: str) -> set[str]:
    """The code of every ``ThreadFileError(reason, code, ...)`` and ``message("file....")`` in ``path``."""
    codes = set()
    for node in ast.walk(ast.parse(Path(path).read_text())):
        name = getattr(getattr(node, "func", None), "id", None)
        if isinstance(node, ast.Call) and name == "ThreadFileError":
            codes.add(node.args[1].value)
        if isinstance(node, ast.Call) and name == "message" and node.args[0].value.startswith("file."):
            codes.add(node.args[0].value)
    return codes


async def test_every_refusal_has_its_own_code_said_in_both_languages() -> None:
    said = await refusals_of_every_kind()
    shown = {m["code"] for m in said for m in messages_in(m)}
    sites = codes_raised_in("lab/controller/thread_file.py") | codes_raised_in(
        "lab/controller/thread_commands.py"
    )
    assert sites - shown == set(), "a refusal no bad file produced"
    assert "file.invalid" not in sites | shown
    assert {
        "record.problem.unsavable_type",
        "record.problem.too_deep_to_load_back",
        "record.problem.int_beyond_64_bits",
    } <= shown
    assert_said_in_both_languages(said)
    en, zh = catalogue("en"), catalogue("zh")
    for code in shown:
        assert en[f"py.{code}"] and zh[f"py.{code}"] != en[f"py.{code}"], code
