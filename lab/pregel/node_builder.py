"""``NodeBuilder``: a node of LangGraph's low-level ``Pregel`` API, built by hand.

``StateGraph.compile`` makes its nodes from a state schema and edges; ``NodeBuilder`` says the same
three things directly, which is what a Pregel node is:

- which channels *trigger* it (``subscribe_only("a")``: one, its value the node's input;
  ``subscribe_to("a", "b")``: any of them, the input a dict of their values; ``read_from("c")``:
  read too, without triggering);
- what it *does* (``do(fn)``; several run in a chain, each on the last's result);
- which channels it *writes* (``write_to("b")``: what it returned; ``write_to(c=fn)``: ``fn`` of it;
  ``write_to(c=5)``: a fixed value).

``build()`` gives the lab's own ``Node`` (``lab.pregel.nodes``); ``Pregel(nodes={"name": builder},
channels=..., input_channels=..., output_channels=...)`` runs it in the same loop a ``StateGraph`` does.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self

from lab.pregel.channels import Channel, Topic
from lab.pregel.nodes import TASKS, Node, WriteEntry, is_async


class NodeBuilder:
    def __init__(self) -> None:
        self._reads: str | list[str] = []
        self._triggers: list[str] = []
        self._steps: list[Callable[[Any], Any]] = []
        self._writes: list[WriteEntry] = []
        self._metadata: dict[str, Any] = {}

    def subscribe_only(self, channel: str) -> Self:
        """Run when ``channel`` is written; the node's input is that channel's value."""
        if self._reads:
            raise ValueError(
                "Cannot subscribe to single channels when other channels are already subscribed to"
            )
        self._reads = channel
        self._triggers.append(channel)
        return self

    def subscribe_to(self, *channels: str, read: bool = True) -> Self:
        """Run when any of ``channels`` is written; with ``read``, their values are in the input dict."""
        if isinstance(self._reads, str):
            raise ValueError("Cannot subscribe to channels when subscribed to a single channel")
        if read:
            self._reads.extend(channels)
        self._triggers.extend(channels)
        return self

    def read_from(self, *channels: str) -> Self:
        """Add ``channels`` to the input dict without being triggered by them."""
        if isinstance(self._reads, str):
            raise ValueError("Cannot read additional channels when subscribed to single channels")
        self._reads.extend(channels)
        return self

    def do(self, step: Callable[[Any], Any]) -> Self:
        """Call ``step`` on the input (or on the result of the step before it)."""
        if not callable(step):
            raise TypeError(f"NodeBuilder.do() takes a function, got {type(step).__name__}")
        self._steps.append(step)
        return self

    def write_to(self, *channels: str, **fixed_or_mapped: Any) -> Self:
        """Write the result to ``channels``; ``name=fn`` writes ``fn(result)``, ``name=value`` a value."""
        self._writes.extend(WriteEntry(channel) for channel in channels)
        for channel, value in fixed_or_mapped.items():
            if callable(value):
                self._writes.append(WriteEntry(channel, mapper=value))
            else:
                self._writes.append(WriteEntry(channel, value=value, passthrough=False))
        return self

    def meta(self, *tags: str, **metadata: Any) -> Self:
        """``metadata`` on the node (tags: the lab has no tracing to tag)."""
        self._metadata.update(metadata)
        return self

    def __getattr__(self, name: str) -> Any:
        """LangGraph's node policies the lab leaves out are refused by name."""
        if name in ("add_retry_policies", "add_cache_policy", "set_timeout"):
            from lab.graph.unsupported import NotSupportedError  # (here: ``lab.graph`` imports this module)

            raise NotSupportedError(f"NodeBuilder().{name}()")
        raise AttributeError(f"'NodeBuilder' object has no attribute {name!r}")

    def build(self) -> Node:
        """The node (``Pregel`` names it after its key in ``nodes``)."""
        reads = self._reads if isinstance(self._reads, str) else tuple(self._reads)
        return Node(
            "",
            chain(self._steps),
            list(self._triggers),
            reads=reads,
            writers=tuple(self._writes),
            metadata=self._metadata or None,
        )


def chain(steps: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """The steps as one function: the lone step itself, the input as is for none (LangGraph's
    default), an ``async`` function if any step is one."""
    if len(steps) == 1:
        return steps[0]
    if not any(is_async(step) for step in steps):

        def run_steps(value: Any) -> Any:
            for step in steps:
                value = step(value)
            return value

        return run_steps

    async def run_steps_async(value: Any) -> Any:
        for step in steps:
            value = step(value)
            if inspect.isawaitable(value):
                value = await value
        return value

    return run_steps_async


def wire_hand_built(
    nodes: Mapping[str, Node],
    channels: dict[str, Channel],
    input_channels: str | Sequence[str],
    output_channels: str | Sequence[str] | None,
    stream_channels: str | Sequence[str] | None,
    interrupt_before: Sequence[str] | str | None,
    interrupt_after: Sequence[str] | str | None,
) -> str | list[str]:
    """Check a hand-built ``Pregel``'s wiring, with LangGraph's messages (every channel a node reads,
    subscribes to, or the graph takes input from or shows exists; some node reads the input), add
    its ``Send`` channel, and return the channels it shows: ``stream_channels``, else all of them."""
    if output_channels is None:
        raise TypeError("Pregel() needs output_channels=: the channel (or list of channels) invoke returns")
    channels.setdefault(TASKS, Topic())
    shown = stream_channels or [c for c in channels if c != TASKS]
    known = f"known channels: '{repr(sorted(channels))[:100]}'"
    subscribed = {chan for node in nodes.values() for chan in node.triggers}
    for name, node in nodes.items():
        for chan in as_list(node.reads or []):
            if chan not in channels:
                raise ValueError(f"Node {name} reads channel '{chan}' not in {known}")
    for chan in subscribed:
        if chan not in channels:
            raise ValueError(f"Subscribed channel '{chan}' not in {known}")
    inputs = as_list(input_channels)
    for chan in inputs:
        if chan not in channels:
            raise ValueError(f"Input channel '{chan}' not in {known}")
    if not subscribed.intersection(inputs):
        raise ValueError(f"None of the input channels {input_channels} are subscribed to by any node")
    for chan in [*as_list(output_channels), *as_list(shown)]:
        if chan not in channels:
            raise ValueError(f"Output channel '{chan}' not in {known}")
    for names in (interrupt_before, interrupt_after):
        for name in [] if names in (None, "*") else names:
            if name not in nodes:
                raise ValueError(f"Node {name} not in nodes")
    return shown


def as_list(channels: str | Sequence[str]) -> list[str]:
    """One channel's name or several, as a list."""
    return [channels] if isinstance(channels, str) else list(channels)
