"""``langgraph.channels`` as a learner's state annotations import it: ``DeltaChannel``, the opt-in
(beta) channel that stores an appending list as a sentinel and rebuilds it from the writes.

LangGraph's default for ``Annotated[list, operator.add]`` is ``BinaryOperatorAggregate``, stored
whole; ``Annotated[list, DeltaChannel(reducer)]`` opts a key in. The lab's channels themselves
live in ``lab.pregel.channels``.
"""

from lab.channels.delta import DeltaChannel

__all__ = ("DeltaChannel",)
