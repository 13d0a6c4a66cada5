"""A store kept in a dict, as ``langgraph.store.memory.InMemoryStore`` (without semantic search).

Items live in ``_data[namespace][key]``; ``batch`` runs the operations ``BaseStore``'s methods make.
``put`` replaces an item whole and stamps both its times anew (LangGraph's in-memory store does not
keep the first ``created_at``); ``search`` walks the
namespaces under a prefix in the order they were first used, keeps the items whose value matches
``filter`` (equality, or operators ``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``), then
``offset``/``limit``. As in LangGraph, a namespace once read or written stays listed by
``list_namespaces``, even emptied. ``InMemoryStore(index=...)`` (embeddings) is refused by name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from lab.graph.unsupported import NotSupportedError
from lab.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Namespace,
    Op,
    PutOp,
    SearchItem,
    SearchOp,
)


class InMemoryStore(BaseStore):
    """Items in a dict, gone when the program ends; ``search`` by namespace prefix and value filter."""

    def __init__(self, *, index: Any = None) -> None:
        if index is not None:
            raise NotSupportedError("InMemoryStore(index=...) (semantic search: the lab has no embeddings)")
        self._data: defaultdict[Namespace, dict[str, Item]] = defaultdict(dict)

    def batch(self, ops: Iterable[Op]) -> list[Any]:
        """Each operation's result; as in LangGraph, reads see the store as it was before the batch, its
        puts (the last one per item) are applied at the end."""
        ops = list(ops)
        results = [self._read(op) for op in ops]
        puts = {(op.namespace, op.key): op for op in ops if isinstance(op, PutOp)}
        for op in puts.values():
            self._write(op)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Any]:
        return self.batch(ops)

    def _read(self, op: Op) -> Any:
        if isinstance(op, GetOp):
            return self._data[op.namespace].get(op.key)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        if isinstance(op, PutOp):
            return None
        raise ValueError(f"Unknown operation type: {type(op)}")

    def _write(self, op: PutOp) -> None:
        """Replace the item whole, both its times stamped anew (LangGraph's in-memory store keeps no
        first ``created_at``), or delete it (``value=None``)."""
        if op.value is None:
            self._data[op.namespace].pop(op.key, None)
            return
        now = datetime.now(UTC)
        self._data[op.namespace][op.key] = Item(
            value=dict(op.value), key=op.key, namespace=op.namespace, created_at=now, updated_at=now
        )

    def _search(self, op: SearchOp) -> list[SearchItem]:
        """The items under the prefix whose value matches the filter, cut by offset and limit; a
        ``query`` (semantic search) ranks nothing without embeddings, as in LangGraph given no index."""
        depth = len(op.namespace_prefix)
        found = [
            item
            for namespace, items in list(self._data.items())
            if namespace[:depth] == op.namespace_prefix
            for item in items.values()
            if matches(item.value, op.filter or {})
        ]
        return [
            SearchItem(item.namespace, item.key, item.value, item.created_at, item.updated_at)
            for item in found[op.offset : op.offset + op.limit]
        ]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[Namespace]:
        """The namespaces (sorted) meeting every condition, cut to their first ``max_depth`` labels
        (then without repeats), cut by offset and limit."""
        namespaces = [
            namespace
            for namespace in list(self._data)
            if all(meets(namespace, condition) for condition in op.match_conditions or ())
        ]
        if op.max_depth is not None:
            namespaces = list({namespace[: op.max_depth] for namespace in namespaces})
        return sorted(namespaces)[op.offset : op.offset + op.limit]


def meets(namespace: Namespace, condition: MatchCondition) -> bool:
    """Does ``namespace`` start (``"prefix"``) or end (``"suffix"``) with the condition's path?"""
    if condition.match_type == "prefix":
        return starts_with(namespace, condition.path)
    if condition.match_type == "suffix":
        return starts_with(namespace[::-1], condition.path[::-1])
    raise ValueError(f"Unsupported match type: {condition.match_type}")


def starts_with(namespace: Namespace, path: Namespace) -> bool:
    """Does ``namespace`` begin with ``path`` (``"*"`` in ``path`` matching any one label)?"""
    return len(namespace) >= len(path) and all(
        p in ("*", label) for label, p in zip(namespace, path, strict=False)
    )


def matches(value: Any, wanted: Any) -> bool:
    """Does a stored value match a filter (LangGraph's JSONB-like comparison)? A dict of ``$`` operators
    applies each; another dict matches key by key; a list item by item; anything else by equality."""
    if isinstance(wanted, dict):
        if any(key.startswith("$") for key in wanted):
            return all(apply_operator(value, op, operand) for op, operand in wanted.items())
        return isinstance(value, dict) and all(matches(value.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(wanted)
            and all(matches(v, w) for v, w in zip(value, wanted, strict=True))
        )
    return value == wanted


ORDERINGS = {
    "$gt": float.__gt__,
    "$gte": float.__ge__,
    "$lt": float.__lt__,
    "$lte": float.__le__,
}
"""The filter operators that compare numbers (both sides read as ``float``, as LangGraph does)."""


def apply_operator(value: Any, operator: str, operand: Any) -> bool:
    if operator == "$eq":
        return value == operand
    if operator == "$ne":
        return value != operand
    if operator in ORDERINGS:
        return ORDERINGS[operator](float(value), float(operand))
    raise ValueError(f"Unsupported operator: {operator}")
