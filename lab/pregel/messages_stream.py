"""``stream_mode="messages"``: LangGraph's ``StreamMessagesHandler`` (``langgraph/pregel/_messages.py``).

Each chunk is a ``(message, metadata)`` pair, from three sources:

1. a chat model called inside a node: the tokens it streams, or its whole reply when it does not stream;
2. the messages a node returns (in a dict, a state object or a ``Command(update=...)``) that were not
   streamed already and were not in its input: deduplicated by id over the whole run;
3. ``push_message(message)`` (``lab.graph.message``), sent as it is.

``metadata`` is the node's run metadata (``langgraph_step``/``node``/``triggers``/``path``/
``checkpoint_ns``), the run's ``thread_id`` & co., and, for a chat model's chunk, what the model adds
(``ls_provider``, ``ls_model_type``...) and its ``tags``. A chat model tagged ``"nostream"`` is not
streamed. Only the root graph's nodes are, unless the run streams ``subgraphs=True`` (then each chunk
names its graph) or the graph was itself streamed in ``messages`` mode from inside a node.

How a chat model reaches :class:`MessagesStream`: LangGraph hands it, as a LangChain callback, to the
node's config (``callbacks``); a subgraph inherits it from there. Where ``langchain_core`` is installed,
the lab does the same (:func:`langchain_handler`, LangChain's own chat models call it, also when a node
passes no config: the node runs with LangChain's current config set), and the lab's twin chat models
(``lab.plain_chat_models``) call :meth:`MessagesStream.on_chat_model_reply`, the same path. Nothing
here runs unless a run streams ``"messages"`` (:func:`streams_for`).
"""

from __future__ import annotations

import functools
import inspect
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields, is_dataclass
from typing import Any

from lab.messages import USES_LANGCHAIN, BaseMessage
from lab.pregel.nodes import PUSH
from lab.types import Command

NOSTREAM = "nostream"
"""A chat model with this tag is not streamed (LangGraph's ``TAG_NOSTREAM``)."""
Meta = tuple[tuple[str, ...], dict[str, Any]]
"""Where a message chunk goes: its graph's namespace, and its metadata."""
Emit = Callable[[tuple[str, ...], tuple[Any, dict[str, Any]]], None]


def with_integration(metadata: dict[str, Any], integration: str = "langgraph") -> dict[str, Any]:
    """``metadata`` with ``ls_integration`` where LangGraph's callbacks put it: after the run's own keys,
    before the task's ``langgraph_*`` ones."""
    run_keys = {key: value for key, value in metadata.items() if not key.startswith("langgraph_")}
    return {**run_keys, "ls_integration": integration, **metadata}


def graph_namespace(metadata: dict[str, Any]) -> tuple[str, ...]:
    """The namespace of the graph a task runs in: its own namespace less the task, and less one more
    per enclosing ``@task`` call (a call's path is ``(PUSH, <caller's path>, <index>, True)``)."""
    namespace = metadata["langgraph_checkpoint_ns"]
    parts = tuple(namespace.split("|")) if namespace else ()
    path, drop = metadata.get("langgraph_path", ()), 1
    while len(path) == 4 and path[0] == PUSH and path[-1] is True:
        drop, path = drop + 1, path[1]
    return parts[:-drop]


class MessagesStream:
    """One stream's ``messages`` chunks: what it was asked, and the ids it has seen."""

    def __init__(self, emit: Emit, *, subgraphs: bool, parent_ns: tuple[str, ...] | None) -> None:
        self.emit_chunk = emit
        self.subgraphs = subgraphs
        """``stream(..., subgraphs=True)``: its subgraphs' messages too."""
        self.parent_ns = parent_ns
        """The namespace of the graph streamed, when it runs inside a node (its nodes' are streamed)."""
        self.seen: set[str] = set()
        self.models: dict[Any, Meta] = {}
        """The chat model calls being streamed, by run id."""
        self.langchain: Any = None
        """This stream as a LangChain callback handler, once made (:func:`langchain_handler`)."""

    def wants(self, namespace: tuple[str, ...]) -> bool:
        return self.subgraphs or not namespace or namespace == self.parent_ns

    def emit(self, meta: Meta, message: Any, *, dedupe: bool = False) -> None:
        if dedupe and message.id in self.seen:
            return
        if message.id is None:
            message.id = str(uuid.uuid4())
        self.seen.add(message.id)
        self.emit_chunk(meta[0], (message, meta[1]))

    # -- a node (LangGraph: on_chain_start / on_chain_end) ---------------------------------------------
    def node_started(self, metadata: dict[str, Any], input: Any) -> Meta | None:
        """A node starts on ``input``: the messages of its state count as seen. Its chunks' ``Meta``, if
        streamed."""
        namespace = graph_namespace(metadata)
        if not self.wants(namespace):
            return None
        self.seen.update(message.id for message in state_messages(input) if message.id is not None)
        return namespace, metadata

    def node_finished(self, meta: Meta, output: Any) -> None:
        """What the node returned: its messages not seen yet."""
        for message in messages_in(output):
            self.emit(meta, message, dedupe=True)

    def pushed(self, metadata: dict[str, Any], message: Any) -> None:
        """``push_message``: sent as it is (not deduplicated)."""
        namespace = graph_namespace(metadata)
        if self.wants(namespace):
            self.emit((namespace, metadata), message)

    # -- a chat model (LangGraph: on_chat_model_start / on_llm_new_token / on_llm_end) ------------------
    def model_started(self, run_id: Any, metadata: dict[str, Any] | None, tags: list[str] | None) -> None:
        if not metadata or "langgraph_checkpoint_ns" not in metadata or NOSTREAM in (tags or ()):
            return
        namespace = graph_namespace(metadata)
        if not self.wants(namespace):
            return
        user_tags = [tag for tag in tags or () if not tag.startswith("seq:step")]
        self.models[run_id] = (namespace, {**metadata, "tags": user_tags} if user_tags else metadata)

    def model_token(self, run_id: Any, chunk: Any) -> None:
        if meta := self.models.get(run_id):
            self.emit(meta, chunk)

    def model_finished(self, run_id: Any, message: Any | None) -> None:
        """The model's reply (``None``: it failed), unless its tokens were streamed (same id)."""
        meta = self.models.pop(run_id, None)
        if meta and message is not None:
            self.emit(meta, message, dedupe=True)

    def on_chat_model_reply(
        self, model: Any, reply: Any, pieces: Sequence[Any], config: dict[str, Any]
    ) -> None:
        """A twin chat model's hook (``lab.plain_chat_models``): the ``pieces`` it streamed, and its
        reply, with the metadata LangChain's model gives its callbacks."""
        metadata = with_integration(config.get("metadata") or {}, "langchain_chat_model")
        for key in ("model", "checkpoint_ns"):  # (LangChain's ensure_config names these two)
            if isinstance(value := (config.get("configurable") or {}).get(key), str):
                metadata.setdefault(key, value)
        metadata |= {"ls_provider": type(model).__name__.lower(), "ls_model_type": "chat"}
        run_id = object()
        self.model_started(
            run_id, metadata, [*(config.get("tags") or ()), *(getattr(model, "tags", None) or ())]
        )
        for piece in pieces:
            self.model_token(run_id, piece)
        self.model_finished(run_id, reply)


def messages_in(value: Any) -> Iterator[Any]:
    """The messages in a node's input or output, as LangGraph finds them: the value itself, the items
    of a list, or a state's fields and the items of its list fields; a ``Command``'s update."""
    if isinstance(value, Command):
        yield from messages_in(value.update)
    elif isinstance(value, BaseMessage):
        yield value
    elif isinstance(value, Sequence) and not isinstance(value, str):
        for item in value:
            if isinstance(item, Command):
                yield from messages_in(item.update)
            elif isinstance(item, BaseMessage):
                yield item
    else:
        yield from state_messages(value)


def state_messages(state: Any) -> Iterator[Any]:
    """The messages among a state's fields, or in its list fields (none in anything but a state)."""
    for field in state_fields(state):
        if isinstance(field, BaseMessage):
            yield field
        elif isinstance(field, Sequence) and not isinstance(field, str):
            yield from (item for item in field if isinstance(item, BaseMessage))


def state_fields(value: Any) -> Sequence[Any]:
    """The top-level values of a state: a dict's, a Pydantic model's or a dataclass's fields."""
    if isinstance(value, dict):
        return list(value.values())
    if hasattr(type(value), "model_fields"):
        return [getattr(value, name) for name in type(value).model_fields]
    if is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, f.name) for f in fields(value)]
    return ()


# -- which streams a run feeds, and a node run under them ---------------------------------------------


class MessagesRun:
    """The ``messages`` streams one graph run's nodes feed, and what its nodes' chunks carry."""

    def __init__(self, streams: list[MessagesStream], run_config: dict[str, Any]) -> None:
        self.streams = streams
        handlers = [langchain_handler(stream) if USES_LANGCHAIN else stream for stream in streams]
        self.callbacks = with_handlers(run_config.get("callbacks"), handlers)
        """The run config's ``callbacks``, with these streams' handlers (for its tasks' configs)."""

    def run(self, call: Callable[[Any, dict[str, Any]], Any], input: Any, config: dict[str, Any]) -> Any:
        """``call(input, config)``, a node's or a ``@task`` call's, its messages streamed; a coroutine it
        returns (an ``async def`` node) comes back wrapped, streamed when it ends."""
        node = NodeRun(self.streams, input, config)
        token = node.enter()
        try:
            result = call(input, config)
        finally:
            node.leave(token)
        if inspect.isawaitable(result):
            return node.awaited(result)
        return node.finished(result)


class NodeRun:
    """One node, or ``@task`` call, running under a run's ``messages`` streams."""

    def __init__(self, streams: list[MessagesStream], input: Any, config: dict[str, Any]) -> None:
        metadata = with_integration(config["metadata"])
        self.started = [(stream, stream.node_started(metadata, input)) for stream in streams]
        self.langchain_config = {**config, "metadata": metadata}
        """What LangChain's chat models read as their config while it runs (``model.invoke(messages)``)."""

    def enter(self) -> Any:
        return _langchain_config.set(self.langchain_config) if _langchain_config is not None else None

    def leave(self, token: Any) -> None:
        if token is not None:
            _langchain_config.reset(token)

    async def awaited(self, coroutine: Any) -> Any:
        token = self.enter()
        try:
            result = await coroutine
        finally:
            self.leave(token)
        return self.finished(result)

    def finished(self, result: Any) -> Any:
        """What the node returned: each stream's chunks of its new messages; ``result`` itself."""
        for stream, meta in self.started:
            if meta is not None:
                stream.node_finished(meta, result)
        return result


def streams_for(
    modes: frozenset[str],
    run_config: dict[str, Any],
    emit: Emit,
    *,
    subgraphs: bool,
    nested: bool,
) -> MessagesRun | None:
    """The run's ``MessagesRun``: its own stream if it streams ``"messages"``, and those it inherits in
    its config's callbacks (a run not nested in a task keeps only those streaming subgraphs, as LangGraph
    drops a handler that would take its graph for the caller's); ``None`` if there are none."""
    inherited = [s for s in streams_in(run_config.get("callbacks")) if nested or s.subgraphs]
    if "messages" in modes:
        namespace = (run_config.get("configurable") or {}).get("checkpoint_ns")
        parent_ns = tuple(namespace.split("|")) if namespace else None
        inherited.append(MessagesStream(emit, subgraphs=subgraphs, parent_ns=parent_ns))
    return MessagesRun(inherited, run_config) if inherited else None


def streams_in(callbacks: Any) -> list[MessagesStream]:
    """The ``MessagesStream``s among a config's callbacks (a list, or LangChain's callback manager)."""
    handlers = getattr(callbacks, "handlers", callbacks) or ()
    if not isinstance(handlers, list):
        return []
    found = [getattr(handler, "messages_stream", handler) for handler in handlers]
    return [handler for handler in found if isinstance(handler, MessagesStream)]


def with_handlers(callbacks: Any, handlers: list[Any]) -> Any:
    """``callbacks`` (``None``, a list, or LangChain's callback manager) with ``handlers`` it lacks."""
    if hasattr(callbacks, "add_handler"):
        manager = callbacks.copy()
        for handler in handlers:
            if handler not in manager.handlers:
                manager.add_handler(handler, inherit=True)
        return manager
    present = list(callbacks or [])
    return present + [handler for handler in handlers if handler not in present]


# -- LangChain's chat models, and the lab's twins -------------------------------------------------------

if USES_LANGCHAIN:  # (decided once, by lab.messages)
    from langchain_core.runnables.config import var_child_runnable_config as _langchain_config
else:
    _langchain_config = None


def langchain_handler(stream: MessagesStream) -> Any:
    """``stream`` as a LangChain callback handler (made once per stream)."""
    if stream.langchain is None:
        stream.langchain = _handler_class()(stream)
    return stream.langchain


@functools.cache
def _handler_class() -> type:
    """LangChain's streaming callback handler, forwarding a chat model's events to a ``MessagesStream``
    (a streaming handler: with one, a model that can stream does so inside ``invoke``)."""
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.tracers._streaming import _StreamingCallbackHandler

    class MessagesHandler(BaseCallbackHandler, _StreamingCallbackHandler):
        run_inline = True

        def __init__(self, messages_stream: MessagesStream) -> None:
            self.messages_stream = messages_stream

        def tap_output_iter(self, run_id: Any, output: Any) -> Any:
            return output

        def tap_output_aiter(self, run_id: Any, output: Any) -> Any:
            return output

        def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: Any, **kwargs: Any) -> None:
            self.messages_stream.model_started(run_id, kwargs.get("metadata"), kwargs.get("tags"))

        def on_llm_new_token(self, token: str, *, chunk: Any = None, run_id: Any, **kwargs: Any) -> None:
            if chunk is not None and hasattr(chunk, "message"):
                self.messages_stream.model_token(run_id, chunk.message)

        def on_llm_end(self, response: Any, *, run_id: Any, **kwargs: Any) -> None:
            first = response.generations[0] if response.generations else None
            self.messages_stream.model_finished(run_id, getattr(first[0], "message", None) if first else None)

        def on_llm_error(self, error: BaseException, *, run_id: Any, **kwargs: Any) -> None:
            self.messages_stream.model_finished(run_id, None)

        def on_chat_model_reply(self, *args: Any) -> None:  # (a twin model run where LangChain is installed)
            self.messages_stream.on_chat_model_reply(*args)

    return MessagesHandler
