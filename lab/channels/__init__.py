"""``langgraph.channels`` as a learner's state annotations import it: ``DeltaChannel``, the opt-in
(beta) channel that stores an appending list as a sentinel and rebuilds it from the writes, and
``UntrackedValue``, a key kept while a run goes on and never checkpointed (a lock, a client).

LangGraph's default for ``Annotated[list, operator.add]`` is ``BinaryOperatorAggregate``, stored
whole; ``Annotated[list, DeltaChannel(reducer)]`` opts a key in. The lab's channels themselves
live in ``lab.pregel.channels``; LangGraph's other channel classes (for its low-level ``Pregel``
API) are refused by name.
"""

from lab.channels.delta import DeltaChannel
from lab.channels.untracked_value import UntrackedValue
from lab.graph.unsupported import refused_names

__all__ = ("DeltaChannel", "UntrackedValue")

__getattr__ = refused_names(
    "langgraph.channels",
    frozenset(
        {
            "BaseChannel",
            "AnyValue",
            "LastValue",
            "LastValueAfterFinish",
            "EphemeralValue",
            "BinaryOperatorAggregate",
            "NamedBarrierValue",
            "NamedBarrierValueAfterFinish",
            "Topic",
        }
    ),
)
