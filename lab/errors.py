"""The exceptions a learner can meet, named and worded like LangGraph's ``langgraph.errors``."""

from __future__ import annotations

import warnings
from typing import Any

from lab.interrupts import Interrupt

TROUBLESHOOTING = "https://docs.langchain.com/oss/python/langgraph/errors/"


def with_troubleshooting(message: str, code: str) -> str:
    """Append LangGraph's troubleshooting line, so our messages read like the real ones."""
    return f"{message}\nFor troubleshooting, visit: {TROUBLESHOOTING}{code}"


MULTIPLE_INTERRUPTS = (
    "When there are multiple pending interrupts, you must specify the interrupt id when resuming. "
    "Docs: https://docs.langchain.com/oss/python/langgraph/interrupts#handling-multiple-interrupts."
)
"""LangGraph's words for a ``Command(resume=answer)`` that does not say which interrupt it answers."""


class EmptyChannelError(Exception):
    """Reading a channel that holds no value yet."""


class GraphRecursionError(RecursionError):
    """The graph ran ``recursion_limit`` super-steps without reaching a stop condition."""

    @classmethod
    def of(cls, limit: int) -> GraphRecursionError:
        """The error of a run that ran out of its ``limit`` steps, worded as LangGraph's."""
        return cls(
            with_troubleshooting(
                f"Recursion limit of {limit} reached without hitting a stop condition. You can increase "
                "the limit by setting the `recursion_limit` config key.",
                "GRAPH_RECURSION_LIMIT",
            )
        )


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


class NodeInterrupt(GraphInterrupt):
    """Raised by a node to interrupt the run with ``value`` (deprecated in LangGraph 1.0 for
    ``interrupt()``, still exported and honoured by 1.2): the node pauses, and runs again from its
    first line when the thread is resumed. Its interrupt has the placeholder id, so it cannot be
    answered by id."""

    def __init__(self, value: Any, id: str | None = None) -> None:
        warnings.warn(
            "NodeInterrupt is deprecated. Please use `langgraph.types.interrupt` instead. "
            "Deprecated in LangGraph V1.0 to be removed in V2.0.",
            DeprecationWarning,
            stacklevel=2,
        )
        super().__init__((Interrupt(value) if id is None else Interrupt(value, id),))


INVALID_RESUME = "_langgraph_invalid_resume"


def mark_invalid_resume(error: BaseException) -> None:
    """Mark ``error`` as raised by a resume value that did not match ``interrupt``'s ``response_schema``."""
    setattr(error, INVALID_RESUME, True)


def is_invalid_resume(error: BaseException) -> bool:
    """Whether ``error`` was raised because a resume value did not match ``response_schema``."""
    return getattr(error, INVALID_RESUME, False)


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
