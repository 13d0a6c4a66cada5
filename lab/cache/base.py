"""The key shapes of a cache, as ``langgraph.cache.base``.

A cache entry is found by a *full key*: a namespace (a tuple of strings: for a task,
``("__pregel_ns_writes", "<module>.<function>")``) and a key inside it (a hash of the arguments).
"""

from __future__ import annotations

from typing import Any

Namespace = tuple[str, ...]
FullKey = tuple[Namespace, str]


class BaseCache:
    """What a cache answers: ``get``/``set``/``clear`` and their async twins (``aget``...)."""

    def get(self, keys: list[FullKey]) -> dict[FullKey, Any]:
        raise NotImplementedError

    def set(self, pairs: dict[FullKey, tuple[Any, int | None]]) -> None:
        raise NotImplementedError

    def clear(self, namespaces: list[Namespace] | None = None) -> None:
        raise NotImplementedError

    async def aget(self, keys: list[FullKey]) -> dict[FullKey, Any]:
        return self.get(keys)

    async def aset(self, pairs: dict[FullKey, tuple[Any, int | None]]) -> None:
        self.set(pairs)

    async def aclear(self, namespaces: list[Namespace] | None = None) -> None:
        self.clear(namespaces)
