"""Node caching: ``add_node("n", fn, cache_policy=CachePolicy(...))`` with ``compile(cache=...)``,
as LangGraph caches a node's writes.

Before a step's tasks run, each task of a node with a cache policy looks its writes up in the
graph's cache (LangGraph's ``match_cached_writes``), under the key ``(("__pregel_ns_writes",
"<module>.<function>", "<node>"), hash of key_func(input))``. A hit is the node's result without
running it: its writes are saved and streamed, the ``updates`` chunk marked ``"__metadata__":
{"cached": True}``. A node that finished (no error, no interrupt) puts its writes in the cache for
``ttl`` seconds (``None``: for ever). ``@task`` results share the cache and the key's hash
(``lab.pregel.task_calls``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from lab.cache.base import BaseCache, Namespace
from lab.pregel.task import Task
from lab.pregel.task_calls import CACHE_NS_WRITES, hashed, identifier
from lab.types import CachePolicy


def node_namespace(name: str, func: Callable[..., Any]) -> Namespace:
    """Where a node's results are cached: one namespace per node (its function's and its name)."""
    return (CACHE_NS_WRITES, identifier(func), name)


def key_tasks(nodes: dict[str, Any], tasks: Iterable[Task]) -> None:
    """Give each task of a cached node its cache key, once a step (``key_func`` is called once per
    task, as LangGraph prepares it, with or without a cache): its node's namespace and a hash of
    ``key_func(input)``."""
    for task in tasks:
        if (policy := nodes[task.name].cache_policy) is not None:
            task.cache_key = nodes[task.name].cache_namespace, hashed(policy.key_func(task.input))


def cached_tasks(cache: BaseCache, tasks: Iterable[Task]) -> list[Task]:
    """The keyed tasks, yet to run, whose writes the cache holds: given those writes, they will not run."""
    keyed = {task.cache_key: task for task in tasks if task.cache_key is not None and not task.writes}
    matched = []
    for key, writes in cache.get(list(keyed)).items() if keyed else ():
        keyed[key].writes = list(writes)
        matched.append(keyed[key])
    return matched


def cache_writes(cache: BaseCache | None, policy: CachePolicy, task: Task) -> None:
    """Keep a finished task's writes (its node has a cache ``policy``) for the next run that gives its
    node the same input."""
    if cache is not None:
        cache.set({task.cache_key: (list(task.writes), policy.ttl)})


def clear_node_caches(cache: BaseCache | None, nodes: dict[str, Any], names: Iterable[str] | None) -> None:
    """``graph.clear_cache(nodes=None)``: forget the cached results of these nodes (all: ``None``)."""
    if cache is None:
        raise ValueError("No cache is set for this graph. Cannot clear cache.")
    chosen = [nodes[name] for name in names or nodes if name in nodes]
    cache.clear([node.cache_namespace for node in chosen if node.cache_namespace is not None])
