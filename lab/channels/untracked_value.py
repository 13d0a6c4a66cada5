"""``langgraph.channels.untracked_value``: ``UntrackedValue`` at the path LangGraph gives it (the class
is ``lab.pregel.channels.UntrackedValue``): a state key annotated ``Annotated[T, UntrackedValue]`` keeps
its last value while a run goes on and is never checkpointed."""

from lab.pregel.channels import UntrackedValue

__all__ = ("UntrackedValue",)
