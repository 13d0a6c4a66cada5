"""``langgraph.channels.delta``: ``DeltaChannel`` at the path LangGraph gives it (the class is
``lab.pregel.channels.DeltaChannel``)."""

from lab.pregel.channels import DeltaChannel

__all__ = ("DeltaChannel",)
