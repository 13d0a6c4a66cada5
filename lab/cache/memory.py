"""``InMemoryCache``: task results kept in a dict, as ``langgraph.cache.memory``.

Each entry remembers when it expires (its ``ttl`` in seconds, ``None``: never); an expired entry
is a miss. Nothing is written to disk: a new process starts with an empty cache.
"""

from __future__ import annotations

import time
from typing import Any

from lab.cache.base import BaseCache, FullKey, Namespace


class InMemoryCache(BaseCache):
    def __init__(self) -> None:
        self._entries: dict[Namespace, dict[str, tuple[Any, float | None]]] = {}

    def get(self, keys: list[FullKey]) -> dict[FullKey, Any]:
        """The live entries among ``keys`` (a missing or expired key is left out)."""
        now = time.time()
        found: dict[FullKey, Any] = {}
        for namespace, key in keys:
            entry = self._entries.get(namespace, {}).get(key)
            if entry is None:
                continue
            value, expires = entry
            if expires is not None and expires <= now:
                del self._entries[namespace][key]
                continue
            found[(namespace, key)] = value
        return found

    def set(self, pairs: dict[FullKey, tuple[Any, int | None]]) -> None:
        now = time.time()
        for (namespace, key), (value, ttl) in pairs.items():
            expires = None if ttl is None else now + ttl
            self._entries.setdefault(namespace, {})[key] = (value, expires)

    def clear(self, namespaces: list[Namespace] | None = None) -> None:
        """Forget the entries of ``namespaces`` (``None``: all)."""
        if namespaces is None:
            self._entries.clear()
            return
        for namespace in namespaces:
            self._entries.pop(namespace, None)
