"""The exceptions a learner can meet, named and worded like LangGraph's ``langgraph.errors``."""

from __future__ import annotations

from typing import Any

TROUBLESHOOTING = "https://docs.langchain.com/oss/python/langgraph/errors/"


def with_troubleshooting(message: str, code: str) -> str:
    """Append LangGraph's troubleshooting line, so our messages read like the real ones."""
    return f"{message}\nFor troubleshooting, visit: {TROUBLESHOOTING}{code}"


class EmptyChannelError(Exception):
    """Reading a channel that holds no value yet."""


class GraphRecursionError(RecursionError):
    """The graph ran ``recursion_limit`` super-steps without reaching a stop condition."""


class InvalidUpdateError(Exception):
    """A node or ``update_state`` wrote something the channels cannot accept."""


class EmptyInputError(Exception):
    """The graph was asked to run with no input and nothing to resume."""


class NodeCancelledError(Exception):
    """A node raised ``asyncio.CancelledError`` itself (nobody cancelled it): a node failure."""

    def __init__(self, node: str, message: str | None = None) -> None:
        super().__init__(message or f"Node {node!r} raised asyncio.CancelledError")
        self.node = node


class GraphBubbleUp(Exception):
    """Base of the control-flow exceptions that travel up from a node to the loop."""


class GraphInterrupt(GraphBubbleUp):
    """Raised inside a node by ``interrupt()``; the loop turns it into a pause, never an error."""

    def __init__(self, interrupts: tuple[Any, ...] = ()) -> None:
        super().__init__(interrupts)
        self.interrupts = interrupts


class ParentCommand(GraphBubbleUp):
    """A subgraph's node returned ``Command(graph=Command.PARENT, ...)``: the command travels up to
    the task that ran the subgraph, whose writes it becomes."""

    def __init__(self, command: Any) -> None:
        super().__init__(command)

    @property
    def command(self) -> Any:
        """The command; each graph it passes on the way up readdresses it (as LangGraph does)."""
        return self.args[0]

    @command.setter
    def command(self, command: Any) -> None:
        self.args = (command,)
