"""Threads across the border: a lab thread file into a real LangGraph saver, and back.

LangGraph's savers share one public API, ``BaseCheckpointSaver``: ``put`` stores a checkpoint
(its parent named by the config), ``put_writes`` a task's pending writes, ``list`` reads a thread
back as ``CheckpointTuple``s. This module speaks only that API on LangGraph's side, so any saver
works: ``SqliteSaver`` for a file, ``InMemorySaver`` in tests. On the lab's side it speaks the same
API to a lab ``InMemorySaver`` that stages the thread, and the thread file (``lab.controller.
thread_file``) is that saver's rows.

What changes at the border, and nothing else:

- **Types.** ``Interrupt``, ``Send``, ``Overwrite`` are the lab's classes on one side and
  ``langgraph.types``' on the other; ``DeltaSnapshot`` likewise.
- **Delta lists.** A lab graph that opts a list in to ``DeltaChannel`` (as the lab's storage
  lesson does) stores a sentinel rebuilt from the ancestors' writes; LangGraph reads those only
  when its graph opts in too, so every checkpoint goes to LangGraph with its lists written whole
  (LangGraph's default, what its ``Annotated[list, operator.add]`` reads).
- **Versions.** A saver picks its version style (``get_next_version``): strings with a random
  tail in the lab and in LangGraph's own savers, integers in a saver that keeps
  ``BaseCheckpointSaver``'s default. A version keeps its integer part; an integer coming in gets
  a tail that tells branches apart (:class:`LabVersions`).

Ids need no change: checkpoint ids are UUIDs on both sides, and task and interrupt ids are derived
alike (``lab.pregel.ids``), so a pending write still belongs to the task that made it. Values the
lab's allow-list cannot load are refused by name on the way in (:class:`InteropError`); nothing
is executed. ``lab`` never imports ``langgraph`` at import time: the LangGraph side is imported by
the functions that need it (``pip install checkpoint-lab[interop]``).

Command line (CPython)::

    python -m lab.interop to-langgraph THREAD_FILE --sqlite PATH
    python -m lab.interop from-langgraph --sqlite PATH --thread ID [--case C --variant V
        --durability D] [--deltas KEY...] > THREAD_FILE
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import operator
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from lab.checkpoint.base import WRITES_IDX_MAP, CheckpointTuple
from lab.checkpoint.delta import DELTA, DeltaSnapshot
from lab.checkpoint.errors import UnsavableValueError
from lab.checkpoint.memory import InMemorySaver
from lab.checkpoint.serde import MsgpackSerializer
from lab.controller.thread_file import ThreadFile, export_thread, import_thread, read_thread_file
from lab.pregel.channels import Channel, DeltaChannel, folding
from lab.pregel.delta import DeltaEncoder, complete_all, moved_versions
from lab.types import Interrupt, Overwrite, Send

Convert = Callable[[Any], Any]
Write = tuple[str, Any]


class InteropError(ValueError):
    """A thread that cannot cross: the message says which value of which checkpoint, and why."""


# -- values: one recursive walk, a table of types per direction -----------------------------------


def converter(table: Mapping[type, Convert]) -> Convert:
    """A function that rebuilds a value with every instance of a type in ``table`` replaced."""

    def convert(value: Any) -> Any:
        if (rebuild := table.get(type(value))) is not None:
            return rebuild(value)
        if isinstance(value, dict):
            return {key: convert(item) for key, item in value.items()}
        if isinstance(value, list | tuple | set | frozenset):
            return type(value)(convert(item) for item in value)
        return value

    return convert


def to_langgraph_types() -> Convert:
    from langgraph.checkpoint.serde.types import _DeltaSnapshot
    from langgraph.types import Interrupt as LGInterrupt
    from langgraph.types import Overwrite as LGOverwrite
    from langgraph.types import Send as LGSend

    convert: Convert = converter(
        {
            Interrupt: lambda i: LGInterrupt(convert(i.value), i.id, response_schema=i.response_schema),
            Send: lambda s: LGSend(s.node, convert(s.arg)),
            Overwrite: lambda o: LGOverwrite(convert(o.value)),
            DeltaSnapshot: lambda d: _DeltaSnapshot(convert(d.value)),
        }
    )
    return convert


def to_lab_types() -> Convert:
    from langgraph.checkpoint.serde.types import _DeltaSnapshot
    from langgraph.types import Interrupt as LGInterrupt
    from langgraph.types import Overwrite as LGOverwrite
    from langgraph.types import Send as LGSend

    convert: Convert = converter(
        {
            LGInterrupt: lambda i: Interrupt(convert(i.value), i.id, response_schema=i.response_schema),
            LGSend: lambda s: Send(s.node, convert(s.arg)),
            LGOverwrite: lambda o: Overwrite(convert(o.value)),
            _DeltaSnapshot: lambda d: DeltaSnapshot(convert(d.value)),
        }
    )
    return convert


# -- versions ---------------------------------------------------------------------------------------


VersionStyle = Callable[[str, Any], Any]
"""A channel's version as the receiving saver writes it: ``style(channel, version)``."""


def langgraph_style(saver: Any) -> VersionStyle:
    """The versions ``saver`` writes (``get_next_version``): integers keep the lab's integer part;
    string versions (LangGraph's savers use the lab's own format) pass unchanged."""
    if isinstance(saver.get_next_version(None, None), int):
        return lambda channel, version: int(str(version).partition(".")[0])
    return lambda channel, version: version


class LabVersions:
    """Integer versions (``BaseCheckpointSaver``'s default) as the lab's strings, ``"<32 digits>.<tail>"``. A
    branch counts on from its parent, so two branches reach the same integer with different
    values, while the lab stores a value once per channel and version: a version takes as its tail
    the id of the checkpoint it first appears in, and keeps it on that lineage."""

    def __init__(self) -> None:
        self.lineages: dict[str, dict[tuple[str, Any], str]] = {}  # checkpoint id -> its versions

    def style(self, checkpoint: Mapping[str, Any], parent: str | None) -> VersionStyle:
        lineage = dict(self.lineages.get(parent or "", {}))
        for channel, version in checkpoint["channel_versions"].items():
            if not isinstance(version, str):
                lineage.setdefault((channel, version), f"{version:032}.{checkpoint['id']}")
        self.lineages[checkpoint["id"]] = lineage
        return lambda channel, v: v if isinstance(v, str) else lineage.get((channel, v), f"{v:032}.0")


def restyled(checkpoint: Mapping[str, Any], style: VersionStyle, convert: Convert) -> dict[str, Any]:
    """A checkpoint dict with its values converted and its versions in ``style``."""
    return {
        "v": checkpoint["v"],
        "id": checkpoint["id"],
        "ts": checkpoint["ts"],
        "channel_values": convert(dict(checkpoint["channel_values"])),
        "channel_versions": {name: style(name, v) for name, v in checkpoint["channel_versions"].items()},
        "versions_seen": {
            node: {name: style(name, v) for name, v in seen.items()}
            for node, seen in checkpoint["versions_seen"].items()
        },
        "updated_channels": checkpoint.get("updated_channels"),
    }


# -- the saver API on both sides --------------------------------------------------------------------


def config(thread_id: str, checkpoint_ns: str, checkpoint_id: str | None) -> dict[str, Any]:
    configurable = {"thread_id": thread_id, "checkpoint_ns": checkpoint_ns}
    if checkpoint_id is not None:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


def parent_id(saved: CheckpointTuple | Any) -> str | None:
    return saved.parent_config["configurable"]["checkpoint_id"] if saved.parent_config else None


def write_batches(writes: Iterable[Write]) -> Iterator[list[Write]]:
    """A task's writes as ``put_writes`` calls that keep every write's slot: the regular writes in
    one call (slots 0, 1, 2... in order), each special write (``__error__``, ``__interrupt__``...)
    in a call of its own (its slot is fixed by its channel)."""
    writes = list(writes)
    regular = [write for write in writes if write[0] not in WRITES_IDX_MAP]
    if regular:
        yield regular
    yield from ([write] for write in writes if write[0] in WRITES_IDX_MAP)


def oldest_first(tuples: Iterable[Any]) -> list[Any]:
    """Checkpoint ids are time-ordered UUIDs: sorted, every parent comes before its children."""
    return sorted(tuples, key=lambda saved: saved.checkpoint["id"])


# -- into LangGraph ---------------------------------------------------------------------------------


def appending_delta() -> DeltaChannel:
    """A list key opted in to ``DeltaChannel`` whose writes are lists to append (the lab's graphs')."""
    return DeltaChannel(folding(operator.add))


def delta_channels(thread_file: ThreadFile) -> dict[str, Channel]:
    """The channels the file stores as deltas (appending lists that opted in to ``DeltaChannel``)."""
    names = {blob["channel"] for blob in thread_file.blobs if tuple(blob["value"]) == DELTA}
    return {name: appending_delta() for name in sorted(names)}


async def whole_checkpoints(thread_file: ThreadFile) -> list[CheckpointTuple]:
    """Every checkpoint of the file, oldest first, each delta channel rebuilt to its whole list."""
    staging = InMemorySaver()
    thread_id = await import_thread(staging, thread_file)
    saved = [item async for item in staging.alist({"configurable": {"thread_id": thread_id}})]
    return oldest_first(await complete_all(delta_channels(thread_file), saved, staging))


def file_writes(thread_file: ThreadFile) -> dict[tuple[str, str, str, str], list[Write]]:
    """The file's pending writes, loaded, per ``(checkpoint_ns, checkpoint_id, task_id, task_path)``,
    each task's in slot order."""
    serde = MsgpackSerializer()
    grouped: dict[tuple[str, str, str, str], list[tuple[int, Write]]] = {}
    for row in thread_file.writes:
        key = (row["checkpoint_ns"], row["checkpoint_id"], row["task_id"], row["task_path"])
        grouped.setdefault(key, []).append((row["idx"], (row["channel"], serde.loads_typed(row["value"]))))
    return {
        key: [write for _, write in sorted(slots, key=lambda slot: slot[0])] for key, slots in grouped.items()
    }


async def to_langgraph(data: bytes, saver: Any) -> str:
    """Store the thread of a lab thread file in ``saver`` (any LangGraph ``BaseCheckpointSaver``);
    return its thread id. The file is validated whole first (``read_thread_file``)."""
    thread_file = read_thread_file(data)
    thread_id = thread_file.thread_id
    convert, style = to_langgraph_types(), langgraph_style(saver)
    for saved in await whole_checkpoints(thread_file):
        checkpoint = restyled(saved.checkpoint, style, convert)
        ns = saved.config["configurable"]["checkpoint_ns"]
        saver.put(
            config(thread_id, ns, parent_id(saved)),
            checkpoint,
            dict(saved.metadata),
            checkpoint["channel_versions"],
        )
    for (ns, checkpoint_id, task_id, task_path), writes in file_writes(thread_file).items():
        for batch in write_batches(writes):
            saver.put_writes(config(thread_id, ns, checkpoint_id), convert(batch), task_id, task_path)
    return thread_id


# -- out of LangGraph -------------------------------------------------------------------------------


async def from_langgraph(
    saver: Any, thread_id: str, *, session: dict[str, Any] | None = None, deltas: Iterable[str] = ()
) -> bytes:
    """A lab thread file of ``thread_id`` as ``saver`` (any LangGraph ``BaseCheckpointSaver``) holds
    it: every checkpoint of every namespace and its pending writes. ``session`` names the lab's case,
    variant and durability the thread was run with (the lab page opens only threads of its cases);
    ``deltas`` names the keys the lab's graph opts in to ``DeltaChannel`` (stored as deltas; every
    other key is stored as LangGraph stored it)."""
    tuples = oldest_first(saver.list({"configurable": {"thread_id": thread_id}}))
    if not tuples:
        raise InteropError(f"The saver has no checkpoints of thread {thread_id!r}")
    refuse_delta_channels(thread_id, tuples)
    staging = InMemorySaver()
    convert, versions = to_lab_types(), LabVersions()
    encoder, by_id = DeltaEncoder({name: appending_delta() for name in deltas}), {}
    for saved in tuples:
        checkpoint = restyled(saved.checkpoint, versions.style(saved.checkpoint, parent_id(saved)), convert)
        # The lab's saver reads writes back by task id here (a write read through the saver API
        # carries no task path), each task's in slot order: the order its walk replays them in.
        writes = sorted(convert(saved.pending_writes or []), key=lambda write: write[0])
        saved = saved._replace(checkpoint=checkpoint, pending_writes=writes)
        by_id[checkpoint["id"]] = saved
        parent = by_id.get(parent_id(saved))
        checkpoint = encoder.encode(checkpoint, parent)
        where = f"checkpoint {checkpoint['id']!r}"
        with refused_at(where):
            written = await staging.aput(
                config(thread_id, saved.config["configurable"].get("checkpoint_ns", ""), parent_id(saved)),
                checkpoint,
                convert(dict(saved.metadata)),
                moved_versions(checkpoint, parent),
            )
        by_task: dict[str, list[Write]] = {}
        for task_id, channel, value in saved.pending_writes:
            by_task.setdefault(task_id, []).append((channel, value))
        for task_id, writes in by_task.items():
            for batch in write_batches(writes):
                with refused_at(where):
                    await staging.aput_writes(written, batch, task_id)
    return await export_thread(staging, thread_id, session=session)


def refuse_delta_channels(thread_id: str, tuples: Iterable[Any]) -> None:
    """A graph that opted in to LangGraph's ``DeltaChannel`` leaves the key's value out of most
    checkpoints (a ``_DeltaSnapshot`` now and then, the rest rebuilt from ancestors' writes by the
    saver's ``get_delta_channel_history``); read through ``list``, those checkpoints would open in
    the lab with the key empty. The keys are the ones its metadata counts snapshots for."""
    counted = (saved.metadata.get("counters_since_delta_snapshot") or {} for saved in tuples)
    names = sorted({name for counters in counted for name in counters})
    if names:
        keys = ", ".join(repr(name) for name in names)
        raise InteropError(
            f"Thread {thread_id!r} keeps {keys} in LangGraph's DeltaChannel (an opt-in: its checkpoints "
            "store the list only as a snapshot now and then, the rest is rebuilt from writes); "
            "from-langgraph reads whole values: declare the key without DeltaChannel "
            "(e.g. Annotated[list, operator.add]) and run the thread again to export it"
        )


@contextlib.contextmanager
def refused_at(where: str) -> Iterator[None]:
    """A value the lab's allow-list does not take becomes an ``InteropError`` naming it and where."""
    try:
        yield
    except UnsavableValueError as error:
        raise InteropError(f"{where}: {error}; the lab loads only the types its allow-list names") from None


# -- command line -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    from langgraph.checkpoint.sqlite import SqliteSaver

    parser = argparse.ArgumentParser(prog="python -m lab.interop", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    to_lg = commands.add_parser("to-langgraph", help="store a lab thread file in a LangGraph SqliteSaver")
    to_lg.add_argument("thread_file", type=Path)
    to_lg.add_argument("--sqlite", required=True, help="the SqliteSaver's database file")
    from_lg = commands.add_parser(
        "from-langgraph", help="write a thread of a SqliteSaver as a lab thread file"
    )
    from_lg.add_argument("--sqlite", required=True)
    from_lg.add_argument("--thread", required=True)
    from_lg.add_argument("--case", help="the lab case the thread investigates (e.g. the AML graph's case id)")
    from_lg.add_argument("--variant", help="the lab graph variant it ran")
    from_lg.add_argument("--durability", default="async")
    from_lg.add_argument("--deltas", nargs="*", default=(), help="keys the lab graph opts in to DeltaChannel")
    args = parser.parse_args(argv)
    with SqliteSaver.from_conn_string(args.sqlite) as saver:
        if args.command == "to-langgraph":
            thread_id = asyncio.run(to_langgraph(args.thread_file.read_bytes(), saver))
            print(f"thread {thread_id!r} stored in {args.sqlite}", file=sys.stderr)
        else:
            session = None
            if args.case:
                session = {"case_id": args.case, "variant": args.variant, "durability": args.durability}
            data = from_langgraph(saver, args.thread, session=session, deltas=args.deltas)
            sys.stdout.buffer.write(asyncio.run(data))


if __name__ == "__main__":
    main()
