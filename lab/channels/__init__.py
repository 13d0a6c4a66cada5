"""``langgraph.channels`` as a learner imports it: ``DeltaChannel``, the opt-in (beta) channel that
stores an appending list as a sentinel and rebuilds it from the writes; ``UntrackedValue``, a key kept
while a run goes on and never checkpointed (a lock, a client); and the channels a hand-built ``Pregel``
names (``LastValue(int)``, ``Topic(int)``, ``EphemeralValue(int)``, ``BinaryOperatorAggregate(int,
operator.add)``).

LangGraph's default for ``Annotated[list, operator.add]`` is ``BinaryOperatorAggregate``, stored
whole; ``Annotated[list, DeltaChannel(reducer)]`` opts a key in. The lab's channels themselves
live in ``lab.pregel.channels``; LangGraph's other channel classes (for its low-level ``Pregel``
API) are refused by name.
"""

from lab.channels.delta import DeltaChannel
from lab.channels.untracked_value import UntrackedValue
from lab.graph.unsupported import refused_names
from lab.pregel.channels import BinaryOperatorAggregate, EphemeralValue, LastValue, Topic

__all__ = (
    "BinaryOperatorAggregate",
    "DeltaChannel",
    "EphemeralValue",
    "LastValue",
    "Topic",
    "UntrackedValue",
)

__getattr__ = refused_names(
    "langgraph.channels",
    frozenset(
        {
            "BaseChannel",
            "AnyValue",
            "LastValueAfterFinish",
            "NamedBarrierValue",
            "NamedBarrierValueAfterFinish",
        }
    ),
)
