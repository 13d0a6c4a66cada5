"""Long-term memory shared across threads, as ``langgraph.store``: ``base`` (``BaseStore``, ``Item``,
``SearchItem``) and ``memory`` (``InMemoryStore``). A graph is given one with ``compile(store=...)`` or
``@entrypoint(store=...)``; its nodes and tasks read it as a ``store`` parameter, ``runtime.store`` or
``get_store()``."""

from lab.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
)
from lab.store.memory import InMemoryStore

__all__ = [
    "BaseStore",
    "GetOp",
    "InMemoryStore",
    "InvalidNamespaceError",
    "Item",
    "ListNamespacesOp",
    "MatchCondition",
    "PutOp",
    "SearchItem",
    "SearchOp",
]
