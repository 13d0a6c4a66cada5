"""A compiled graph and the API a learner calls, as LangGraph's ``Pregel`` class.

``invoke``/``stream`` run the super-step loop (``lab.pregel.loop``); ``get_state``,
``get_state_history`` and ``update_state`` read and write the thread's checkpoints directly.
Everything is async underneath (the browser has no threads and IndexedDB is asynchronous);
the sync methods are thin wrappers (``lab.pregel.sync_loop``). Run inside a running task, a graph
is that task's subgraph (``lab.pregel.subgraph``).
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import aclosing
from typing import Any

from lab.cache.base import BaseCache
from lab.checkpoint.base import (
    BaseCheckpointSaver,
    Checkpoint,
    CheckpointTuple,
    check_thread_id_length,
    copy_checkpoint,
    empty_checkpoint,
)
from lab.config import merge_configs
from lab.errors import InvalidUpdateError
from lab.pregel import algo, delta, node_cache, runnable, subgraph, sync_saver
from lab.pregel.algo import INTERRUPT_SEEN, StepWrites
from lab.pregel.channels import Channel, DeltaChannel, UntrackedValue
from lab.pregel.io_schema import channels_model
from lab.pregel.loop import SuperStepLoop
from lab.pregel.node_builder import NodeBuilder, as_list, wire_hand_built
from lab.pregel.nodes import COPY, END, INPUT, START, Node, is_whole_value, task_result
from lab.pregel.seams import SeamHook
from lab.pregel.stream_output import print_chunk, printed_modes
from lab.pregel.sync_loop import iterate_sync, run_sync
from lab.types import Durability, PregelTask, StateSnapshot


class Pregel:
    """LangGraph's ``Pregel``: nodes that read and write channels, run in super-steps.

    ``StateGraph.compile`` builds one (its state keys are its channels); LangGraph's low-level API
    builds one by hand, with ``NodeBuilder`` nodes (``lab.pregel.node_builder``)::

        Pregel(nodes={"one": NodeBuilder().subscribe_only("a").do(fn).write_to("b")},
               channels={"a": LastValue(int), "b": LastValue(int)},
               input_channels="a", output_channels="b")

    ``input_channels``: the channel the input is written to, or a list (the input is then a dict of
    them); ``output_channels``: what ``invoke`` returns, one channel's value or a dict of several;
    ``stream_channels``: what ``values`` chunks and snapshots show (default: every channel).
    ``state_keys`` is the lab's own: a compiled ``StateGraph``'s or entrypoint's state keys."""

    def __init__(
        self,
        *,
        nodes: Mapping[str, Node | NodeBuilder],
        channels: dict[str, Channel] | None,
        input_channels: str | Sequence[str] = START,
        output_channels: str | Sequence[str] | None = None,
        stream_channels: str | Sequence[str] | None = None,
        checkpointer: BaseCheckpointSaver | None = None,
        interrupt_before_nodes: list[str] | str | None = None,
        interrupt_after_nodes: list[str] | str | None = None,
        stream_mode: str | None = None,
        state_keys: list[str] | None = None,
        name: str = "LangGraph",
        debug: bool = False,
        **unsupported: Any,
    ) -> None:
        if unsupported:
            from lab.graph.unsupported import refuse_options  # (here: ``lab.graph`` imports this module)

            refuse_options("Pregel", unsupported)
        nodes = {key: named_node(key, node) for key, node in nodes.items()}
        channels = channels if channels is not None else {}
        interrupt_before, interrupt_after = interrupt_before_nodes, interrupt_after_nodes
        self.shown_channels: str | list[str] | None = None
        """A hand-built graph's ``stream_channels`` (default: every channel), as ``read_values`` shows
        them; ``None``: a compiled graph's, which shows its state."""
        if state_keys is None:  # LangGraph's low-level API
            self.shown_channels = wire_hand_built(
                nodes,
                channels,
                input_channels,
                output_channels,
                stream_channels,
                interrupt_before,
                interrupt_after,
            )
            state_keys = as_list(self.shown_channels)
        self.nodes = nodes
        self.channels = channels
        self.state_keys = state_keys
        self.output_keys = state_keys if output_channels is None else as_list(output_channels)
        self.checkpointer = checkpointer
        self.store: Any = None
        """``compile(store=...)``: the long-term memory its nodes are given (``lab.store``); ``None``:
        none, or as a subgraph its parent's."""
        self.cache: BaseCache | None = None
        """``compile(cache=...)``, ``@entrypoint(cache=...)``: where cached nodes and tasks keep their
        results (``lab.pregel.node_cache``)."""
        self.checkpointer_flag: bool | None = None
        """``compile(checkpointer=True/False)``: as a subgraph, keep one history per thread (True)
        or none (False); ``None``: the saver it is given, or the parent's (``lab.pregel.subgraph``)."""
        self.interrupt_before = interrupt_before or []
        self.interrupt_after = interrupt_after or []
        self.config: dict[str, Any] | None = None
        """What ``with_config`` bound: merged under the config of every call."""
        self.debug = debug
        """``compile(debug=True)``, ``Pregel(debug=True)``: every run prints its ``updates`` and
        ``values`` chunks."""
        self.delta_channels = frozenset(name for name, c in channels.items() if isinstance(c, DeltaChannel))
        """The channels that store only a sentinel in most checkpoints (``lab.pregel.delta``)."""
        self.untracked = frozenset(name for name, c in channels.items() if isinstance(c, UntrackedValue))
        """The ``UntrackedValue`` channels: never saved, nor their writes (``algo.savable_writes``)."""
        self.cached_nodes = frozenset(name for name, node in nodes.items() if node.cache_policy is not None)
        """The nodes added with a ``cache_policy`` (``lab.pregel.node_cache``)."""
        self.trigger_to_nodes: dict[str, list[str]] = {}
        for node in nodes.values():
            for chan in node.triggers:
                self.trigger_to_nodes.setdefault(chan, []).append(node.name)
        self.name = name
        self.input_channels = input_channels
        self.output_channels = output_channels
        self.stream_channels = stream_channels
        self.stream_mode = stream_mode or ("values" if self.shown_channels is not None else "updates")
        """What ``stream`` streams unless told: ``values`` for LangGraph's low-level API, ``updates``
        for a compiled ``StateGraph`` or entrypoint (as in LangGraph)."""

    # -- running ----------------------------------------------------------------------------------
    def input_writes(self, input: Any) -> list[tuple[str, Any]]:
        """The caller's input as writes (LangGraph's ``map_input``): to the one input channel, or,
        for a list of them, each key of the input dict that names one."""
        if isinstance(self.input_channels, str):
            return [(self.input_channels, input)]
        if not isinstance(input, dict):
            raise TypeError(
                f"Expected the input to be a dict of {self.input_channels}, got {type(input).__name__}"
            )
        return [(k, v) for k, v in input.items() if k in self.input_channels]

    @property
    def input_schema(self) -> Any:
        """A hand-built graph's input as a Pydantic model (``lab.pregel.io_schema``)."""
        self.check_hand_built("input_schema")
        return channels_model(f"{self.name}Input", self.channels, self.input_channels, update=True)

    @property
    def output_schema(self) -> Any:
        """A hand-built graph's output as a Pydantic model (``lab.pregel.io_schema``)."""
        self.check_hand_built("output_schema")
        return channels_model(f"{self.name}Output", self.channels, self.output_channels, update=False)

    def check_hand_built(self, attribute: str) -> None:
        """Only a hand-built graph has ``attribute`` here (a compiled graph's is not the lab's)."""
        if self.shown_channels is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {attribute!r}")

    def read_values(self, channels: Mapping[str, Channel]) -> Any:
        """What a ``values`` chunk and a snapshot show: the state; for a hand-built graph, its stream
        channels that hold a value (an empty ``Topic`` is left out, as in LangGraph)."""
        if self.shown_channels is None:
            return algo.read_state(channels, self.state_keys)
        return algo.read_channels(channels, self.shown_channels)

    def output_of(self, values: Any, output_keys: str | Sequence[str] | None = None) -> Any:
        """What ``invoke`` returns from the last ``values`` chunk: the output channels' values (one
        channel's value for ``output_channels="b"``); ``output_keys`` (``invoke``'s) picks others."""
        keys = self.output_channels if output_keys is None else output_keys
        if isinstance(keys, str):
            return values.get(keys) if isinstance(values, dict) else values
        wanted = self.output_keys if output_keys is None else list(output_keys)
        if isinstance(values, dict) and not is_whole_value(self.state_keys):
            return {k: v for k, v in values.items() if k in wanted}
        return values

    async def astream(
        self,
        input: Any,
        config: dict[str, Any] | None = None,
        *,
        stream_mode: str | list[str] | None = None,
        print_mode: str | Sequence[str] = (),
        debug: bool | None = None,
        subgraphs: bool = False,
        **options: Any,
    ) -> AsyncIterator[Any]:
        """The run's chunks; with ``subgraphs=True`` its subgraphs' too, each as
        ``(namespace, chunk)`` (``(namespace, mode, chunk)`` for a list of modes). The chunks of
        ``print_mode`` (with ``debug=True``: ``updates`` and ``values``) are printed as they come.
        ``options`` are ``new_loop``'s: ``durability``, ``on_seam``, ``interrupt_before``/``after``,
        ``context``."""
        stream_mode = stream_mode or self.stream_mode
        modes = as_modes(stream_mode)
        printed = printed_modes(print_mode, debug or self.debug)
        loop = self.new_loop(input, config, stream_mode=[*modes, *printed], subgraphs=subgraphs, **options)
        async with aclosing(loop.run()) as chunks:  # closing this stream stops the run now
            async for namespace, mode, chunk in chunks:
                if mode in printed:
                    print_chunk(namespace, mode, chunk, subgraphs)
                if mode not in modes:
                    continue
                if isinstance(stream_mode, str):
                    yield (namespace, chunk) if subgraphs else chunk
                else:
                    yield (namespace, mode, chunk) if subgraphs else (mode, chunk)

    def new_loop(
        self,
        input: Any,
        config: dict[str, Any] | None,
        *,
        stream_mode: str | list[str],
        subgraphs: bool = False,
        durability: Durability | None = None,
        on_seam: SeamHook | None = None,
        interrupt_before: list[str] | str | None = None,
        interrupt_after: list[str] | str | None = None,
        context: Any = None,
        task_updates: bool = True,
        last_values_only: bool = False,
    ) -> SuperStepLoop:
        """The loop of one run, ready to ``run()`` (what ``astream`` and ``ainvoke`` iterate);
        ``task_updates=False``: its ``updates`` chunks are only interrupts (all ``ainvoke`` reads);
        ``last_values_only=True``: of its ``values`` chunks only the last is read (``ainvoke``)."""
        modes = as_modes(stream_mode)
        check_stream_modes(modes)
        parent = subgraph.loan_here(config)  # run inside a running task: a subgraph
        store = self.store
        if parent is None:
            caller_config = self._config(config)
            config = subgraph.root_config(self, caller_config)
            saver = sync_saver.for_this_call(self.checkpointer)  # (the sync API: its sync methods)
        else:
            config = caller_config = subgraph.nested_config(self, config, parent)
            saver = None if self.checkpointer_flag is False else parent.saver
            durability = durability or parent.durability
            context = parent.runtime.context if context is None else context
            store = parent.runtime.store if store is None else store
        check_recursion_limit(config)
        return SuperStepLoop(
            self,
            input,
            config,
            durability=durability or "async",
            on_seam=on_seam,
            stream_modes=frozenset(modes),
            interrupt_before=interrupt_before or self.interrupt_before,
            interrupt_after=interrupt_after or self.interrupt_after,
            context=context,
            store=store,
            saver=saver,
            parent=parent,
            stream_subgraphs=subgraphs,
            task_updates=task_updates,
            last_values_only=last_values_only,
            caller_config=caller_config,
        )

    async def ainvoke(
        self,
        input: Any,
        config: dict[str, Any] | None = None,
        *,
        stream_mode: str | list[str] = "values",
        print_mode: str | Sequence[str] = (),
        debug: bool | None = None,
        output_keys: str | Sequence[str] | None = None,
        **kwargs: Any,
    ) -> Any:
        """The final state (with ``__interrupt__`` if the run paused; only ``output_keys`` if given); for
        any other ``stream_mode``, the list of chunks ``astream`` would yield, as in LangGraph. The chunks of
        ``print_mode`` (with ``debug=True``: ``updates`` and ``values``) are printed as they come."""
        if stream_mode != "values":
            chunks = self.astream(
                input, config, stream_mode=stream_mode, print_mode=print_mode, debug=debug, **kwargs
            )
            return [chunk async for chunk in chunks]
        latest: Any = None
        asked: list[Any] = []
        printed = printed_modes(print_mode, debug or self.debug)
        # (with subgraphs=True a chunk also names its graph, and a subgraph's interrupts count too)
        # (unless printed, no updates chunk per task: of the updates, only the interrupts count here)
        loop = self.new_loop(
            input,
            config,
            stream_mode=["values", "updates", *printed],
            task_updates="updates" in printed,
            last_values_only="values" not in printed,
            **kwargs,
        )
        async with aclosing(loop.run()) as chunks:  # (the loop's own chunks, not astream's)
            async for namespace, mode, chunk in chunks:
                if mode in printed:
                    print_chunk(namespace, mode, chunk, kwargs.get("subgraphs", False))
                if mode == "values":
                    latest = chunk
                elif mode == "updates" and "__interrupt__" in chunk:
                    asked.extend(chunk["__interrupt__"])
        latest = self.output_of(latest, output_keys)
        if not asked:
            return latest
        return {**latest, "__interrupt__": asked} if isinstance(latest, dict) else {"__interrupt__": asked}

    def invoke(self, input: Any, config: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        return run_sync(self.ainvoke(input, config, **kwargs))

    def stream(self, input: Any, config: dict[str, Any] | None = None, **kwargs: Any) -> Iterator[Any]:
        yield from iterate_sync(self.astream(input, config, **kwargs))

    # -- several inputs at once (LangChain's ``Runnable.batch``) ----------------------------------
    def batch(
        self, inputs: list[Any], config: Any = None, *, return_exceptions: bool = False, **kwargs: Any
    ) -> list[Any]:
        """``invoke`` for each input, its results in the inputs' order (one config for all, or a list of
        them); with ``return_exceptions=True`` a failed run's exception stands in its place. LangGraph
        runs them on threads; lab (no threads in the browser) one after another."""
        return [
            guarded(self.invoke, return_exceptions, input, one, **kwargs)
            for input, one in zip(inputs, config_list(config, len(inputs)), strict=True)
        ]

    async def abatch(
        self, inputs: list[Any], config: Any = None, *, return_exceptions: bool = False, **kwargs: Any
    ) -> list[Any]:
        """``ainvoke`` for each input at once (at most ``max_concurrency`` of the config at a time)."""
        configs = config_list(config, len(inputs))
        limit = asyncio.Semaphore(((configs or [None])[0] or {}).get("max_concurrency") or len(inputs) or 1)

        async def one(input: Any, one_config: dict[str, Any] | None) -> Any:
            async with limit:
                try:
                    return await self.ainvoke(input, one_config, **kwargs)
                except Exception as error:
                    if return_exceptions:
                        return error
                    raise

        return await asyncio.gather(*(one(i, c) for i, c in zip(inputs, configs, strict=True)))

    # -- composing with LangChain -------------------------------------------------------------------
    def __or__(self, other: Any) -> Any:
        """``graph | other``: a LangChain ``RunnableSequence`` running the graph, then ``other``."""
        return as_runnable(self) | other

    def __ror__(self, other: Any) -> Any:
        """``other | graph``: a LangChain ``RunnableSequence`` running ``other``, then the graph."""
        return other | as_runnable(self)

    # -- reading state ----------------------------------------------------------------------------
    async def aget_state(self, config: dict[str, Any], *, subgraphs: bool = False) -> StateSnapshot:
        """The thread's state; a ``checkpoint_ns`` in ``config`` reads that subgraph's, and
        ``subgraphs=True`` nests each subgraph task's own snapshot in ``tasks[i].state``."""
        saver = self._saver()
        config = self._config(config)
        graph = subgraph.graph_for_namespace(self, config["configurable"].get("checkpoint_ns", ""))
        return await graph.state_at(saver, config, subgraphs=subgraphs)

    async def state_at(
        self, saver: BaseCheckpointSaver, config: dict[str, Any], *, subgraphs: bool
    ) -> StateSnapshot:
        """This graph's snapshot of the checkpoint ``config`` addresses in ``saver``."""
        config = subgraph.own_checkpoint_config(self, config)
        saved = await delta.complete(self.channels, await saver.aget_tuple(config), saver)
        if saved is not None and config["configurable"].get("checkpoint_id"):
            saved = saved._replace(config=config)  # (a checkpoint asked by id: its config as given, as 1.2's)
        snapshot = self.snapshot(saved, config, live="checkpoint_id" not in config["configurable"])
        return await subgraph.with_subgraph_states(self, snapshot, saver) if subgraphs else snapshot

    def get_state(self, config: dict[str, Any], *, subgraphs: bool = False) -> StateSnapshot:
        return run_sync(self.aget_state(config, subgraphs=subgraphs))

    async def aget_state_history(
        self,
        config: dict[str, Any],
        *,
        filter: dict[str, Any] | None = None,
        before: dict[str, Any] | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[StateSnapshot]:
        saver = self._saver()
        conf = self._config(config)["configurable"]
        graph = subgraph.graph_for_namespace(self, conf.get("checkpoint_ns", ""))
        where = {"thread_id": conf["thread_id"], "checkpoint_ns": conf.get("checkpoint_ns", "")}
        if conf.get("checkpoint_id"):
            where["checkpoint_id"] = conf["checkpoint_id"]
        where = subgraph.own_checkpoint_config(graph, {"configurable": where})
        listed = [saved async for saved in saver.alist(where, filter=filter, before=before, limit=limit)]
        for saved in await delta.complete_all(graph.channels, listed, saver):
            yield graph.snapshot(saved, saved.config, live=False)

    def get_state_history(self, config: dict[str, Any], **kwargs: Any) -> Iterator[StateSnapshot]:
        async def collect() -> list[StateSnapshot]:
            return [s async for s in self.aget_state_history(config, **kwargs)]

        return iter(run_sync(collect()))

    async def acomplete(self, saved: CheckpointTuple | None) -> CheckpointTuple | None:
        """A stored checkpoint with its delta channels' values rebuilt (``lab.pregel.delta``):
        what ``snapshot`` and anything else reading ``channel_values`` needs. A subgraph's
        checkpoint is read with that subgraph's channels."""
        namespace = saved.config["configurable"].get("checkpoint_ns", "") if saved else ""
        graph = subgraph.graph_for_namespace(self, namespace)
        return await delta.complete(graph.channels, saved, sync_saver.for_this_call(self.checkpointer))

    async def acomplete_all(self, tuples: list[CheckpointTuple]) -> list[CheckpointTuple]:
        """``acomplete`` for many checkpoints of one thread, in one pass (``delta.complete_all``)."""
        return await delta.complete_all(self.channels, tuples, sync_saver.for_this_call(self.checkpointer))

    def snapshot(self, saved: CheckpointTuple | None, config: dict[str, Any], *, live: bool) -> StateSnapshot:
        """What a checkpoint means to a learner. ``live``: as of now (finished tasks' writes
        applied, only open interrupts); otherwise a record of the step that started there."""
        if saved is None:
            return StateSnapshot({}, (), config, None, None, None, (), ())
        checkpoint = copy_checkpoint(saved.checkpoint)
        channels = algo.channels_from_checkpoint(self.channels, checkpoint)
        pending = list(saved.pending_writes or [])
        step = saved.metadata.get("step", -1) + 1
        namespace = saved.config["configurable"].get("checkpoint_ns", "")
        tasks = algo.prepare_tasks(
            self.nodes, checkpoint, channels, pending, step, self.state_keys, namespace=namespace
        )
        algo.apply_null_writes(checkpoint, channels, pending, None, {})
        statuses = algo.task_statuses(pending)
        if live and (finished := algo.reuse_finished_writes(tasks, pending)):
            algo.apply_writes(checkpoint, channels, finished, None, {})
        shown = []
        for task in tasks.values():
            status = statuses.get(task.id, algo.TaskStatus())
            result = task_result(status.output, self.state_keys) if status.finished else None
            interrupts = status.pending_interrupts if live else status.interrupts
            state = subgraph.task_state(self, task, saved.config)
            shown.append(
                PregelTask(task.id, task.name, task.path, status.error, tuple(interrupts), state, result)
            )
        return StateSnapshot(
            values=self.read_values(channels),
            next=tuple(t.name for t in tasks.values() if not t.writes),
            config=subgraph.with_checkpoint_map(saved.config, saved.metadata),
            metadata=saved.metadata,
            created_at=saved.checkpoint["ts"],
            parent_config=subgraph.with_checkpoint_map(saved.parent_config, saved.metadata),
            tasks=tuple(shown),
            interrupts=tuple(i for t in shown for i in t.interrupts),
        )

    # -- writing state ----------------------------------------------------------------------------
    async def aupdate_state(
        self, config: dict[str, Any], values: Any, as_node: str | None = None
    ) -> dict[str, Any]:
        """Write ``values`` as if node ``as_node`` had returned them, as a new ``update``
        checkpoint. On an old checkpoint this forks the thread."""
        return await self.apply_updates(config, [(values, as_node)])

    async def apply_updates(
        self, config: dict[str, Any], updates: list[tuple[Any, str | None]]
    ) -> dict[str, Any]:
        """One ``update`` checkpoint from one or more ``(values, as_node)`` updates, applied
        together like the tasks of one step (``bulk_update_state`` calls this per superstep)."""
        saver = self._saver()
        config = self._config(config)
        graph = subgraph.graph_to_update(self, config["configurable"].get("checkpoint_ns", ""))
        return await graph.write_updates(saver, subgraph.own_checkpoint_config(graph, config), updates)

    async def write_updates(
        self, saver: BaseCheckpointSaver, config: dict[str, Any], updates: list[tuple[Any, str | None]]
    ) -> dict[str, Any]:
        """``apply_updates`` on this graph's checkpoints in ``saver``: the root's, or a subgraph's
        (its namespace in ``config``; it writes with the saver its parent lends it)."""
        values, as_node = updates[0]
        saved = await delta.complete(self.channels, await saver.aget_tuple(config), saver)
        checkpoint = copy_checkpoint(saved.checkpoint) if saved else empty_checkpoint()
        stored_versions = dict(checkpoint["channel_versions"])
        step = saved.metadata.get("step", -1) if saved else -1
        put_config = {
            **config,
            "configurable": {
                "checkpoint_ns": "",
                **config["configurable"],
                **(saved.config["configurable"] if saved else {}),
            },
        }
        channels = algo.channels_from_checkpoint(self.channels, checkpoint)
        pending = list(saved.pending_writes or []) if saved else []
        namespace = put_config["configurable"]["checkpoint_ns"]
        open_tasks = algo.prepare_tasks(
            self.nodes, checkpoint, channels, pending, step + 1, self.state_keys, namespace=namespace
        )
        parents = saved.metadata.get("parents", {}) if saved else {}

        if len(updates) > 1 and as_node == END and values is None:
            raise InvalidUpdateError("Cannot apply multiple updates when clearing state")
        if len(updates) > 1 and as_node == COPY:
            raise InvalidUpdateError("Cannot copy checkpoint with multiple updates")
        if len(updates) > 1 and as_node == INPUT:
            raise InvalidUpdateError("Cannot apply multiple updates when updating as input")
        if as_node == COPY:
            if saved is None:
                raise InvalidUpdateError("Cannot copy a non-existent checkpoint")
            copied = {
                **algo.create_checkpoint(checkpoint, channels, step, None),
                "channel_values": checkpoint["channel_values"],
            }
            parent = saved.parent_config or {
                "configurable": {**saved.config["configurable"], "checkpoint_id": None}
            }
            metadata = {"source": "fork", "step": step + 1, "parents": parents}
            copy_config = subgraph.with_checkpoint_map(
                await saver.aput(parent, copied, metadata, {}), metadata
            )
            if not (isinstance(values, list) and values):  # only a list of updates applies to the copy
                return copy_config
            return await self.write_updates(saver, copy_config, updates_by_node(values))
        if as_node == INPUT:
            if values is None:
                raise InvalidUpdateError(f"Received no input writes for {START}")
            writes = self.input_writes(values)
            task_id = str(uuid.uuid5(uuid.UUID(checkpoint["id"]), INPUT))  # as LangGraph derives it
            if saved is not None and not await self._superseded(saver, config, saved):
                await saver.aput_writes(put_config, writes, task_id)  # where a delta channel reads them
            next_version = saver.get_next_version
            algo.apply_writes(
                checkpoint, channels, [StepWrites(INPUT, writes)], next_version, self.trigger_to_nodes
            )
            next_step = step + 1 if saved and saved.metadata.get("step") is not None else -1
            metadata = {"source": "input", "step": next_step, "parents": parents}
            return await put_changed(saver, put_config, checkpoint, channels, stored_versions, metadata)

        if as_node == END and values is None:  # close the step, keeping what finished
            algo.apply_null_writes(
                checkpoint, channels, pending, saver.get_next_version, self.trigger_to_nodes
            )
            algo.reuse_finished_writes(open_tasks, pending)
            algo.apply_writes(
                checkpoint, channels, open_tasks.values(), saver.get_next_version, self.trigger_to_nodes
            )
        else:
            if len(updates) == 1:
                as_node = as_node or self._infer_as_node(checkpoint["versions_seen"])
                if as_node is None:
                    raise InvalidUpdateError("Ambiguous update, specify as_node")
                updates = [(values, as_node)]
            elif any(n is None for _, n in updates):
                raise InvalidUpdateError("as_node is required when applying multiple updates")
            for _, name in updates:
                if name not in self.nodes:
                    raise InvalidUpdateError(f"Node {name} does not exist")
            prepared = list(open_tasks.values())  # a node's open task lends its id to its update
            applied = []
            for index, (node_values, name) in enumerate(updates):
                node = self.nodes[name]
                writes = await algo.node_writes(node, node_values, channels, self.state_keys, self.nodes)
                task_id = next((t.id for t in prepared if t.name == name), None)
                prepared = [t for t in prepared if t.id != task_id]
                seed = INTERRUPT_SEEN if index == 0 else f"{INTERRUPT_SEEN}:{index}"
                task_id = task_id or str(uuid.uuid5(uuid.UUID(checkpoint["id"]), seed))
                path_str = algo.task_path_str((INTERRUPT_SEEN, index))  # orders this update's writes
                if saved is not None and writes and not await self._superseded(saver, config, saved):
                    await sync_saver.writes_putter(saver)(put_config, writes, task_id, path_str)
                path = (INTERRUPT_SEEN, str(index))
                applied.append(StepWrites(name, writes, triggers=(INTERRUPT_SEEN,), path=path))
            algo.apply_writes(checkpoint, channels, applied, saver.get_next_version, self.trigger_to_nodes)

        id_step = step if as_node == END and values is None else step + 1  # as LangGraph numbers ids
        metadata = {"source": "update", "step": step + 1, "parents": parents}
        return await put_changed(saver, put_config, checkpoint, channels, stored_versions, metadata, id_step)

    def update_state(self, config: dict[str, Any], values: Any, as_node: str | None = None) -> dict[str, Any]:
        return run_sync(self.aupdate_state(config, values, as_node))

    def _infer_as_node(self, versions_seen: Mapping[str, Mapping[str, Any]]) -> str | None:
        """The node that ran last; ``None`` if two ran in the same step (ambiguous)."""
        if not any(v for seen in versions_seen.values() for v in seen.values()):
            return START
        last = sorted((v, n) for n, seen in versions_seen.items() if n in self.nodes for v in seen.values())
        if len(last) == 1 or (last and last[-1][0] != last[-2][0]):
            return last[-1][1]
        return None

    @staticmethod
    async def _superseded(saver: BaseCheckpointSaver, config: dict[str, Any], saved: CheckpointTuple) -> bool:
        if not config["configurable"].get("checkpoint_id"):
            return False
        latest = await saver.aget_tuple({"configurable": {**config["configurable"], "checkpoint_id": None}})
        return latest is not None and latest.checkpoint["id"] != saved.checkpoint["id"]

    # -- config -----------------------------------------------------------------------------------
    def _saver(self) -> BaseCheckpointSaver:
        """The checkpointer, as this call reaches it (``lab.pregel.sync_saver``)."""
        subgraph.check_root_saver(self)
        saver = sync_saver.for_this_call(self.checkpointer)
        if saver is None:
            raise ValueError("No checkpointer set")
        return saver

    def with_config(self, config: dict[str, Any] | None = None, **kwargs: Any) -> Pregel:
        """A copy of this graph whose calls all start from ``config`` (and ``kwargs``, e.g.
        ``recursion_limit=50``), each call's own config merged over it (``lab.config.merge_configs``)."""
        bound = copy.copy(self)
        bound.config = merge_configs(self.config, config, kwargs)
        return bound

    def clear_cache(self, nodes: Sequence[str] | None = None) -> None:
        """Forget the cached results of ``nodes`` (``None``: every node's), ``lab.pregel.node_cache``."""
        node_cache.clear_node_caches(self.cache, self.nodes, nodes)

    async def aclear_cache(self, nodes: Sequence[str] | None = None) -> None:
        self.clear_cache(nodes)

    def _config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        config = merge_configs(self.config, config) if self.config else config or {}
        conf = dict(config.get("configurable") or {})
        if self.checkpointer is not None:
            if not conf:
                raise ValueError(
                    "Checkpointer requires one or more of the following 'configurable' keys: "
                    "thread_id, checkpoint_ns, checkpoint_id"
                )
            if "thread_id" not in conf:
                raise KeyError("thread_id")
            if conf["thread_id"] is None:
                raise ValueError(
                    "thread_id is None: name the thread, e.g. {'configurable': {'thread_id': '1'}}. "
                    "(LangGraph would run it and store it under the key None, where get_state never "
                    "finds it, so the lab refuses it up front.)"
                )
            conf["thread_id"] = str(conf["thread_id"])
            check_thread_id_length(conf["thread_id"])
        return {**config, "configurable": conf}


async def put_changed(
    saver: BaseCheckpointSaver,
    config: dict[str, Any],
    checkpoint: Checkpoint,
    channels: Mapping[str, Channel],
    stored_versions: Mapping[str, Any],
    metadata: dict[str, Any],
    id_step: int | None = None,
) -> dict[str, Any]:
    """Save the channels as a new checkpoint, a child of ``config``'s, storing what moved since
    ``stored_versions`` (its id numbered by ``id_step``, by default the metadata's step)."""
    moved = algo.new_versions(checkpoint["channel_versions"], stored_versions)
    snapshot = delta.to_snapshot(channels, moved, None)
    step = metadata["step"] if id_step is None else id_step
    new = algo.create_checkpoint(checkpoint, channels, step, None, snapshot)
    return subgraph.with_checkpoint_map(await saver.aput(config, new, metadata, moved), metadata)


def updates_by_node(updates: list[Any]) -> list[tuple[Any, str | None]]:
    """``update_state(config, [(values, node), ...], as_node="__copy__")``: the updates to apply to
    the copy, grouped by node in order of first appearance (as LangGraph orders them)."""
    grouped: dict[str | None, list[tuple[Any, str | None]]] = {}
    for item in updates:
        if not isinstance(item, Sequence):
            raise InvalidUpdateError(f"Invalid update item: {item} when copying checkpoint")
        values, as_node = item[:2]
        grouped.setdefault(as_node, []).append((values, as_node))
    return [update for group in grouped.values() for update in group]


STREAM_MODES = ("values", "updates", "messages", "checkpoints", "custom", "tasks", "debug")


def named_node(name: str, node: Node | NodeBuilder) -> Node:
    """A node as the loop runs it: a ``NodeBuilder`` built, named after its key in ``nodes``."""
    if isinstance(node, NodeBuilder):
        node = node.build()
    if not isinstance(node, Node):
        raise TypeError(f"Pregel node {name!r} must be built with NodeBuilder, got {type(node).__name__}")
    if node.name != name:
        node = dataclasses.replace(node, name=name)
    return node


def as_runnable(graph: Pregel) -> Any:
    """The graph as a LangChain ``Runnable`` (``lab.pregel.runnable``), to compose with ``|``; refused by
    name where ``langchain_core`` is not installed (the browser)."""
    from lab.graph.unsupported import NotSupportedError  # (here: ``lab.graph`` imports this module)

    try:
        graph_runnable = runnable.graph_runnable_class()
    except ImportError:
        raise NotSupportedError(
            "composing a graph with | (a LangChain Runnable: needs langchain_core)"
        ) from None
    return graph_runnable(graph)


def config_list(config: Any, count: int) -> list[Any]:
    """``batch``'s configs, one per input: the list given (as long as the inputs), or one for all."""
    if isinstance(config, list | tuple):
        if len(config) != count:
            raise ValueError(
                f"config must be a list of the same length as inputs, but got {len(config)} configs "
                f"for {count} inputs"
            )
        return list(config)
    return [config] * count


def guarded(call: Callable[..., Any], return_exceptions: bool, *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``; its exception returned instead of raised if ``return_exceptions``."""
    try:
        return call(*args, **kwargs)
    except Exception as error:
        if not return_exceptions:
            raise
        return error


def as_modes(stream_mode: str | Sequence[str]) -> list[str]:
    """``stream_mode`` as a list of modes (one mode, or several)."""
    return [stream_mode] if isinstance(stream_mode, str) else list(stream_mode)


def check_stream_modes(modes: list[str]) -> None:
    """Refuse a stream mode the lab does not have, by name."""
    for mode in modes:
        if mode not in STREAM_MODES:
            supported = ", ".join(STREAM_MODES)
            raise ValueError(f"lab does not support stream_mode {mode!r}; see README (it has {supported})")


def check_recursion_limit(config: dict[str, Any]) -> None:
    """A run needs room for at least one super-step; refused before anything is written."""
    if config.get("recursion_limit", 1) < 1:
        raise ValueError("recursion_limit must be at least 1")
