"""The compiled form of a graph's nodes and edges (LangGraph's ``PregelNode`` and writers).

A node is plain data: the function to call, the channels that trigger it, and what it writes
after the function returns. ``StateGraph.compile`` produces these; the loop only reads them.

What a task writes, in order (the order pending writes are saved in):
1. the state update the function returned: a dict (filtered to state keys), a ``Command``, a
   dataclass or Pydantic instance, or a list with a ``Command`` in it (applied in order, as
   LangGraph does); for a whole-value state, the value itself (each item of such a list);
2. its static edges: ``branch:to:<next>`` for ``add_edge(a, next)``, and the join channel
   ``join:<a>+<b>:<next>`` for ``add_edge([a, b], next)``;
3. its conditional edges: the router runs on the step's state *plus this task's own writes* (also
   for a task a ``Send`` started: not on the ``Send``'s argument) and each destination it names
   becomes a ``branch:to:<dest>`` write (``END`` writes nothing).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lab.checkpoint.allow_list import is_pydantic_model
from lab.config import await_with, run_with
from lab.errors import InvalidUpdateError, ParentCommand, with_troubleshooting
from lab.types import CachePolicy, Command, Send

START = "__start__"
END = "__end__"
INPUT = "__input__"
"""Who writes the caller's input (``update_state(..., as_node=INPUT)`` writes as if it were input)."""
COPY = "__copy__"
"""``update_state(..., as_node=COPY)``: fork the checkpoint as is (then apply a list of updates to it)."""
TASKS = "__pregel_tasks"
PULL = "__pregel_pull"
PUSH = "__pregel_push"
MISSING_ATTRIBUTE: Any = object()
"""What ``getattr`` answers for a state key a state object has no attribute for."""
ROOT = "__root__"
"""The one channel of a whole-value state, e.g. ``StateGraph(Annotated[list, operator.add])``."""
WHOLE_VALUE_KEYS = (ROOT, END)
"""The lone state keys that hold a whole value: ``__root__``, and ``__end__`` (what an
``@entrypoint`` returned, ``lab.func``)."""


def is_whole_value(state_keys: Sequence[str]) -> bool:
    """Is this the state of ``StateGraph(Annotated[list, add])`` (one ``__root__`` key), or an
    entrypoint's (one ``__end__`` key)?"""
    return len(state_keys) == 1 and state_keys[0] in WHOLE_VALUE_KEYS


def branch_channel(node: str) -> str:
    return f"branch:to:{node}"


def goto_writes(goto: str | Send | Sequence[str | Send], trigger: Any) -> list[tuple[str, Any]]:
    """``Command(goto=...)`` as writes: a node name gets ``trigger`` on its branch channel (LangGraph
    writes ``None`` from a node, ``START`` from the caller's input), a ``Send`` becomes a push task,
    ``END`` goes nowhere."""
    targets = [goto] if isinstance(goto, str | Send) else list(goto)
    return [(TASKS, g) if isinstance(g, Send) else (branch_channel(g), trigger) for g in targets if g != END]


@dataclass
class Branch:
    """A conditional edge: ``router(state)`` names the next node(s).

    The router reads the keys ``reads`` of the step's state with its node's writes applied, as
    ``as_input`` shapes them (a dataclass, a Pydantic model); ``compile`` sets both from the
    router's own input schema (``input_schema``), else its node's, else the graph's state schema."""

    router: Callable[[Any], Any]
    path_map: Mapping[Hashable, str] | None = None
    input_schema: Any = None
    """The schema annotating the router's first parameter, if any."""
    reads: tuple[str, ...] = ()
    as_input: Callable[[dict[str, Any]], Any] = field(default=lambda values: values)

    @property
    def router_name(self) -> str | None:
        """The router's function name; ``None`` for a lambda."""
        name = getattr(self.router, "__name__", "<lambda>")
        return None if name == "<lambda>" else name

    @property
    def name(self) -> str:
        """The branch's name in messages: the router's, ``"condition"`` for a lambda (as LangGraph)."""
        return self.router_name or "condition"

    async def destinations(self, state: dict[str, Any]) -> list[str]:
        chosen = self.router(state)
        if inspect.isawaitable(chosen):  # an ``async def`` router
            chosen = await chosen
        chosen = list(chosen) if isinstance(chosen, list | tuple) else [chosen]
        if self.path_map is not None:
            chosen = [c if isinstance(c, Send) else self.path_map[c] for c in chosen]
        return chosen


@dataclass
class Node:
    name: str
    func: Callable[..., Any] | None
    """``None`` only for the hidden ``__start__`` node, which passes the input through."""
    triggers: list[str]
    edge_writes: list[tuple[str, Any]] = field(default_factory=list)
    branches: list[Branch] = field(default_factory=list)
    ends: dict[str, str | None] = field(default_factory=dict)
    """Where a ``Command(goto=...)`` from this node may go (``Command[Literal[...]]`` or
    ``add_node(destinations=...)``), with an optional edge label: drawn only."""
    metadata: dict[str, Any] | None = None
    """``add_node(metadata=...)``: shown by ``get_graph()``."""
    input_keys: tuple[str, ...] = ()
    """``START`` only: the keys of the graph's input schema (the caller's input is cut to them)."""
    subgraph: Any = None
    """The compiled graph the node runs, if any (``lab.pregel.subgraph.find_subgraph``): its
    tasks show that graph's state (``tasks[i].state``)."""
    reads: str | tuple[str, ...] | None = None
    """What the node reads instead of the state: one channel's value (an ``@entrypoint``'s
    ``__start__``, as LangGraph's node reads it, or ``NodeBuilder().subscribe_only("a")``), or a
    dict of several channels' values (``NodeBuilder().subscribe_to("a").read_from("b")``)."""
    writers: tuple[WriteEntry, ...] | None = None
    """A ``NodeBuilder`` node's writes (``write_to``): what it returned goes to these channels,
    not into the state keys (``lab.pregel.node_builder``)."""
    cache_policy: CachePolicy | None = None
    """``add_node(cache_policy=...)``: its results are reused from the graph's cache
    (``lab.pregel.node_cache``), found in ``cache_namespace``."""
    cache_namespace: tuple[str, ...] | None = None

    @functools.cached_property  # (asked once the graph is compiled: ``compile`` still adds join triggers)
    def sorted_triggers(self) -> tuple[str, ...]:
        """The triggers as a task names them (and its id hashes them)."""
        return tuple(sorted(self.triggers))

    @functools.cached_property
    def is_async(self) -> bool:
        return self.func is not None and is_async(self.func)

    def call(self, state: Any, config: dict[str, Any]) -> Any:
        """Run the function with ``config`` current (``get_config()``); an ``async def`` node's
        coroutine keeps it current until it finishes."""
        if self.is_async:
            return await_with(config, self.func, state)
        return run_with(config, self.func, state)


@dataclass(frozen=True)
class WriteEntry:
    """One channel a ``NodeBuilder`` node writes (LangGraph's ``ChannelWriteEntry``): what the node
    returned, ``mapper`` of it, or a fixed ``value``."""

    channel: str
    value: Any = None
    mapper: Callable[[Any], Any] | None = None
    passthrough: bool = True
    """Write what the node returned (``write_to("b")``); ``False``: the fixed ``value``."""

    def write(self, result: Any) -> tuple[str, Any]:
        if self.mapper is not None:
            return self.channel, self.mapper(result)
        return self.channel, result if self.passthrough else self.value


def is_async(func: Callable[..., Any]) -> bool:
    """Is ``func`` an ``async def`` function? (Its code's flag, read directly for a plain function;
    ``inspect`` asks of anything else: a partial, a method, a callable object.)"""
    code = getattr(func, "__code__", None)
    if code is None:
        return inspect.iscoroutinefunction(func)
    return bool(code.co_flags & inspect.CO_COROUTINE)


def state_update(result: Any, state_keys: Sequence[str]) -> list[tuple[str, Any]]:
    """Turn what a node returned into channel writes (LangGraph's ``_get_updates``, and ``_get_root``
    for a whole-value state, where the value itself is the write)."""
    whole_value = is_whole_value(state_keys)
    if type(result) is dict and not whole_value:  # (what most nodes return)
        writes = []
        for k, v in result.items():
            if k in state_keys:
                writes.append((k, v))
        return writes
    raise_parent_command(result)
    if isinstance(result, Command):
        writes = command_update(result.update, state_keys)
        if not whole_value:
            writes = [(k, v) for k, v in writes if k in state_keys]
        return writes + goto_writes(result.goto, None)
    if isinstance(result, list | tuple) and any(isinstance(item, Command) for item in result):
        return [write for item in result for write in _list_item_update(item, state_keys)]
    if whole_value:
        return [] if result is None else [(state_keys[0], result)]
    if result is None:
        return []
    if isinstance(result, dict):
        return [(k, v) for k, v in result.items() if k in state_keys]
    if has_fields(result):
        return object_update(result, state_keys)
    raise InvalidUpdateError(
        with_troubleshooting(f"Expected dict, got {result}", "INVALID_GRAPH_NODE_RETURN_VALUE")
    )


def raise_parent_command(result: Any) -> None:
    """A ``Command(graph=Command.PARENT, ...)`` (alone or in a list) writes nothing here: it goes
    up to the graph that ran this one as a subgraph (``lab.pregel.subgraph``)."""
    commands = result if isinstance(result, list | tuple) else (result,)
    for command in commands:
        if isinstance(command, Command) and command.graph == Command.PARENT:
            raise ParentCommand(command)


def _list_item_update(item: Any, state_keys: Sequence[str]) -> list[tuple[str, Any]]:
    """One item of a returned list of updates; for a whole-value state, a plain item is the write."""
    if is_whole_value(state_keys) and not isinstance(item, Command):
        return [(state_keys[0], item)]
    return state_update(item, state_keys)


def command_update(update: Any, state_keys: Sequence[str]) -> list[tuple[str, Any]]:
    """``Command(update=...)`` as ``(key, value)`` pairs (LangGraph's ``Command._update_as_tuples``):
    a dict, a list of ``(key, value)`` pairs, a state object; anything else is a whole value."""
    if update is None:
        return []
    if isinstance(update, dict):
        return list(update.items())
    if isinstance(update, list | tuple) and all(_is_key_value_pair(pair) for pair in update):
        return list(update)
    if has_fields(update):
        return object_update(update, state_keys)
    return [(ROOT, update)]


def _is_key_value_pair(pair: Any) -> bool:
    return isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)


def has_fields(value: Any) -> bool:
    """An instance of an annotated class (a dataclass, a Pydantic model): a state object."""
    return not isinstance(value, type) and bool(getattr(type(value), "__annotations__", None))


def object_update(value: Any, state_keys: Sequence[str]) -> list[tuple[str, Any]]:
    """A state object's attributes named like state keys (LangGraph's ``get_update_as_tuples``)."""
    writes = []
    for key in state_keys:
        attr = getattr(value, key, MISSING_ATTRIBUTE)
        if attr is not MISSING_ATTRIBUTE and (attr is not None or keeps_none(value, key)):
            writes.append((key, attr))
    return writes


def keeps_none(value: Any, key: str) -> bool:
    """A ``None`` attribute is written unless it is a Pydantic field's ``None`` default it left unset."""
    field = type(value).model_fields.get(key) if is_pydantic_model(type(value)) else None
    return field is None or field.default is not None or key in value.model_fields_set


def state_writes_view(writes: Sequence[tuple[str, Any]], state_keys: Sequence[str]) -> Any:
    """A task's state writes as a learner sees them in an ``updates`` chunk: one dict, or a list
    of one-key dicts when the task wrote a key more than once (a list of updates); a whole-value
    state's value as is."""
    state_writes = [(c, v) for c, v in writes if c in state_keys]
    if is_whole_value(state_keys):
        values = [v for _, v in state_writes]
        return values[0] if len(values) == 1 else values or None
    once_each = dict(state_writes)
    if len(once_each) < len(state_writes):
        return [{c: v} for c, v in state_writes]
    return once_each or None


def task_result(writes: Sequence[tuple[str, Any]], state_keys: Sequence[str]) -> Any:
    """A finished task's ``result`` in a snapshot: repeated writes to a key are ``{"$writes": [...]}``;
    a whole-value state's value as is (``None`` if it wrote none)."""
    grouped: dict[str, list[Any]] = {}
    for chan, value in writes:
        if chan in state_keys:
            grouped.setdefault(chan, []).append(value)
    result = {chan: vs[0] if len(vs) == 1 else {"$writes": vs} for chan, vs in grouped.items()}
    return result.get(state_keys[0]) if is_whole_value(state_keys) else result


async def routed_writes(
    node: Node, branch: Branch, router_input: Any, known_nodes: Mapping[str, Node]
) -> list[tuple[str, Any]]:
    """The writes of one conditional edge of ``node``: its router's choices as branch triggers and
    push tasks (``END`` writes nothing)."""
    writes: list[tuple[str, Any]] = []
    for dest in await branch.destinations(router_input):
        if dest == END:
            continue
        if isinstance(dest, Send):
            writes.append((TASKS, dest))
        elif dest in known_nodes:
            writes.append((branch_channel(dest), None))
        else:
            raise ValueError(f"The router of '{node.name}' returned '{dest}', which is not a node")
    return writes
