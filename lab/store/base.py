"""What a store holds and answers, as ``langgraph.store.base``.

A store keeps JSON-like dicts (``value``) under a *namespace* (a tuple of strings, such as
``(user_id, "memories")``) and a ``key``. Unlike a checkpoint, which belongs to one thread, what a
store holds is shared by every thread of every graph given the store. ``Item`` is what ``get`` returns,
``SearchItem`` (an item with a ``score``, ``None`` without semantic search) what ``search`` returns.
``BaseStore``'s methods check the namespace and make an operation (``GetOp``, ``PutOp``...); a store
runs a list of them with ``batch`` (``abatch``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, NamedTuple

Namespace = tuple[str, ...]


class InvalidNamespaceError(ValueError):
    """Provided namespace is invalid."""


class Item:
    """A stored value with its address and times (``created_at``, ``updated_at``: aware datetimes)."""

    __slots__ = ("value", "key", "namespace", "created_at", "updated_at")

    def __init__(
        self,
        *,
        value: dict[str, Any],
        key: str,
        namespace: Namespace,
        created_at: datetime | str,
        updated_at: datetime | str,
    ) -> None:
        self.value = value
        self.key = key
        self.namespace = tuple(namespace)
        self.created_at = as_datetime(created_at)
        self.updated_at = as_datetime(updated_at)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Item):
            return False
        return (self.value, self.key, self.namespace, self.created_at, self.updated_at) == (
            other.value,
            other.key,
            other.namespace,
            other.created_at,
            other.updated_at,
        )

    def __hash__(self) -> int:
        return hash((self.namespace, self.key))

    def dict(self) -> dict[str, Any]:
        """The item as JSON-like data (LangGraph's shape: the namespace a list, the times ISO strings)."""
        return {
            "namespace": list(self.namespace),
            "key": self.key,
            "value": self.value,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }

    def __repr__(self) -> str:
        """``Item(namespace=[...], ...)``: a ``SearchItem`` too prints as ``Item``, as in LangGraph."""
        return f"Item({', '.join(f'{k}={v!r}' for k, v in self.dict().items())})"


class SearchItem(Item):
    """An item ``search`` found, with its relevance ``score`` (``None``: the lab has no embeddings)."""

    __slots__ = ("score",)

    def __init__(
        self,
        namespace: Namespace,
        key: str,
        value: dict[str, Any],
        created_at: datetime | str,
        updated_at: datetime | str,
        score: float | None = None,
    ) -> None:
        super().__init__(
            value=value, key=key, namespace=namespace, created_at=created_at, updated_at=updated_at
        )
        self.score = score

    def dict(self) -> dict[str, Any]:
        return {**super().dict(), "score": self.score}


def as_datetime(moment: datetime | str) -> datetime:
    """A time as given, or read back from its ISO string (an item that went through JSON)."""
    return datetime.fromisoformat(moment) if isinstance(moment, str) else moment


class GetOp(NamedTuple):
    """Read the item at ``namespace`` and ``key`` (``get``)."""

    namespace: Namespace
    key: str
    refresh_ttl: bool = True


class SearchOp(NamedTuple):
    """Find the items under ``namespace_prefix`` whose value matches ``filter`` (``search``)."""

    namespace_prefix: Namespace
    filter: dict[str, Any] | None = None
    limit: int = 10
    offset: int = 0
    query: str | None = None
    refresh_ttl: bool = True


class PutOp(NamedTuple):
    """Store ``value`` at ``namespace`` and ``key``; ``value=None`` deletes the item (``put``, ``delete``)."""

    namespace: Namespace
    key: str
    value: dict[str, Any] | None
    index: Any = None
    ttl: float | None = None


class MatchCondition(NamedTuple):
    """A namespace ``"prefix"`` or ``"suffix"`` (``"*"`` matches any one label)."""

    match_type: str
    path: Namespace


class ListNamespacesOp(NamedTuple):
    """List the namespaces meeting every condition, cut to ``max_depth`` labels (``list_namespaces``)."""

    match_conditions: tuple[MatchCondition, ...] | None = None
    max_depth: int | None = None
    limit: int = 100
    offset: int = 0


Op = GetOp | SearchOp | PutOp | ListNamespacesOp


class BaseStore:
    """The store API. Every method makes an operation (``GetOp``, ``SearchOp``, ``PutOp``,
    ``ListNamespacesOp``) and hands it to ``batch`` (``abatch`` for the async twins), what a store
    implements, as in LangGraph."""

    supports_ttl: bool = False

    def batch(self, ops: Iterable[Op]) -> list[Any]:
        """Each operation's result, in order (``None`` for a put)."""
        raise NotImplementedError

    async def abatch(self, ops: Iterable[Op]) -> list[Any]:
        raise NotImplementedError

    def get(self, namespace: Namespace, key: str, *, refresh_ttl: bool | None = None) -> Item | None:
        return self.batch([get_op(namespace, key)])[0]

    def search(self, namespace_prefix: Namespace, /, **options: Any) -> list[SearchItem]:
        """``search(prefix, *, query=None, filter=None, limit=10, offset=0)``."""
        return self.batch([search_op(namespace_prefix, **options)])[0]

    def put(
        self, namespace: Namespace, key: str, value: Mapping[str, Any], index: Any = None, *, ttl: Any = None
    ) -> None:
        self.batch([self.put_op(namespace, key, value, index, ttl)])

    def delete(self, namespace: Namespace, key: str) -> None:
        self.batch([delete_op(namespace, key)])

    def list_namespaces(self, **options: Any) -> list[Namespace]:
        """``list_namespaces(*, prefix=None, suffix=None, max_depth=None, limit=100, offset=0)``."""
        return self.batch([list_op(**options)])[0]

    async def aget(self, namespace: Namespace, key: str, *, refresh_ttl: bool | None = None) -> Item | None:
        return (await self.abatch([get_op(namespace, key)]))[0]

    async def asearch(self, namespace_prefix: Namespace, /, **options: Any) -> list[SearchItem]:
        return (await self.abatch([search_op(namespace_prefix, **options)]))[0]

    async def aput(
        self, namespace: Namespace, key: str, value: Mapping[str, Any], index: Any = None, *, ttl: Any = None
    ) -> None:
        await self.abatch([self.put_op(namespace, key, value, index, ttl)])

    async def adelete(self, namespace: Namespace, key: str) -> None:
        await self.abatch([delete_op(namespace, key)])

    async def alist_namespaces(self, **options: Any) -> list[Namespace]:
        return (await self.abatch([list_op(**options)]))[0]

    def put_op(self, namespace: Namespace, key: str, value: Mapping[str, Any], index: Any, ttl: Any) -> PutOp:
        """The ``PutOp`` of ``put``: a namespace an item may be put in; a ``ttl`` only if the store
        supports one (LangGraph's in-memory store does not)."""
        check_namespace(namespace)
        if ttl is not None and not self.supports_ttl:
            raise NotImplementedError(
                f"TTL is not supported by {type(self).__name__}. "
                "Use a store implementation that supports TTL or set ttl=None."
            )
        return PutOp(tuple(namespace), str(key), value, index=index, ttl=ttl)


def get_op(namespace: Namespace, key: str) -> GetOp:
    check_labels(namespace)
    return GetOp(tuple(namespace), str(key))


def search_op(
    namespace_prefix: Namespace,
    *,
    query: str | None = None,
    filter: dict[str, Any] | None = None,
    limit: int = 10,
    offset: int = 0,
    refresh_ttl: bool | None = None,
) -> SearchOp:
    check_labels(namespace_prefix)
    return SearchOp(tuple(namespace_prefix), filter, limit, offset, query)


def delete_op(namespace: Namespace, key: str) -> PutOp:
    check_labels(namespace)
    return PutOp(tuple(namespace), str(key), None)


def list_op(
    *,
    prefix: Namespace | None = None,
    suffix: Namespace | None = None,
    max_depth: int | None = None,
    limit: int = 100,
    offset: int = 0,
) -> ListNamespacesOp:
    check_labels(prefix or ())
    check_labels(suffix or ())
    conditions = [MatchCondition("prefix", tuple(prefix))] if prefix else []
    conditions += [MatchCondition("suffix", tuple(suffix))] if suffix else []
    return ListNamespacesOp(tuple(conditions), max_depth, limit, offset)


def check_labels(namespace: Namespace) -> None:
    """Each label a non-empty string without ``.`` or NUL, as LangGraph checks (``InvalidNamespaceError``)."""
    for label in namespace:
        if not isinstance(label, str):
            raise InvalidNamespaceError(
                f"Invalid namespace label '{label}' found in {namespace}. Namespace labels"
                f" must be strings, but got {type(label).__name__}."
            )
        if "." in label:
            raise InvalidNamespaceError(
                f"Invalid namespace label '{label}' found in {namespace}. "
                "Namespace labels cannot contain periods ('.')."
            )
        if "\x00" in label:
            raise InvalidNamespaceError(
                f"Invalid namespace label '{label}' found in {namespace}. "
                "Namespace labels cannot contain NUL bytes ('\\x00')."
            )
        if not label:
            raise InvalidNamespaceError(
                f"Namespace labels cannot be empty strings. Got {label} in {namespace}"
            )


def check_namespace(namespace: Namespace) -> None:
    """A namespace an item is put in: not empty, valid labels, not under ``"langgraph"``."""
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    check_labels(namespace)
    if namespace[0] == "langgraph":
        raise InvalidNamespaceError(f'Root label for namespace cannot be "langgraph". Got: {namespace}')
