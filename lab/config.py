"""``get_config()``: the config of the node that is running, as ``langgraph.config.get_config``.

While a node runs, the loop makes a *task config* current: the caller's config plus what the task
is (``configurable.checkpoint_ns`` = ``"<node>:<task id>"``, nested with ``|`` inside a subgraph,
``checkpoint_id`` as the caller gave it, or ``None``, and ``metadata.langgraph_node`` /
``langgraph_step`` / ``langgraph_triggers`` / ``langgraph_path``). A node reads it with
``get_config()`` or by declaring a ``config`` parameter. The ``Runtime`` (``lab.runtime``) travels
inside it, under ``configurable.__pregel_runtime``, and with it the stream writer
(``get_stream_writer()``) and the graph's store (``get_store()``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

RUNTIME_KEY = "__pregel_runtime"
"""Where the ``Runtime`` of a run sits in ``configurable`` (LangGraph's ``CONFIG_KEY_RUNTIME``)."""

PROPAGATED = ("thread_id", "checkpoint_id", "checkpoint_ns", "task_id", "run_id", "assistant_id", "graph_id")
"""The caller's ``configurable`` keys a run's metadata names (LangGraph's ``_PROPAGATE_TO_METADATA``)."""

_current: ContextVar[dict[str, Any] | None] = ContextVar("lab_node_config", default=None)


def get_stream_writer() -> Callable[[Any], None]:
    """The running node's (or task's) stream writer: what it is given goes to ``stream_mode="custom"``
    (a function that does nothing when no one streams that mode), as ``langgraph.config``'s."""
    return get_config()["configurable"][RUNTIME_KEY].stream_writer


def get_store() -> Any:
    """The running node's (or task's) store: the ``BaseStore`` its graph was compiled with
    (``compile(store=...)``, ``@entrypoint(store=...)``), or ``None``, as ``langgraph.config``'s."""
    return get_config()["configurable"][RUNTIME_KEY].store


def get_config() -> dict[str, Any]:
    """The running node's config; a ``RuntimeError`` outside a node, as in LangGraph."""
    config = _current.get()
    if config is None:
        raise RuntimeError("Called get_config outside of a runnable context")
    return config


def current_config() -> dict[str, Any] | None:
    """The running node's config, or ``None`` outside a node."""
    return _current.get()


class TaskConfigs:
    """The configs one run's tasks run with (what ``get_config()`` returns inside their nodes). What
    they share, the run's config and ``Runtime``, is merged once per run, not once per task."""

    def __init__(
        self, run_config: dict[str, Any], runtime: Any, caller_config: dict[str, Any] | None = None
    ) -> None:
        """``caller_config``: the run's config as its caller gave it, whose ``PROPAGATED`` keys the
        metadata names (a root run given a subgraph's ``checkpoint_ns`` runs the root, LangGraph's
        metadata still names what was given)."""
        configurable = run_config.get("configurable") or {}
        given = (caller_config or run_config).get("configurable") or {}
        self.run_config = run_config
        self.metadata = dict(run_config.get("metadata") or {})
        if "thread_id" in configurable:
            self.metadata["thread_id"] = configurable["thread_id"]
        for key in PROPAGATED:
            if key not in self.metadata and given.get(key):
                self.metadata[key] = given[key]
        self.configurable = {**configurable, "checkpoint_id": configurable.get("checkpoint_id")}
        self.runtime = runtime

    def with_callbacks(self, callbacks: Any) -> None:
        """The tasks' configs carry ``callbacks`` (``lab.pregel.messages_stream``'s)."""
        self.run_config = {**self.run_config, "callbacks": callbacks}

    def of(
        self, *, node: str, namespace: str, step: int, triggers: tuple[str, ...], path: tuple[Any, ...]
    ) -> dict[str, Any]:
        """One task's config; ``namespace`` is the task's (``"<node>:<task id>"``, under its graph's
        when that runs as a subgraph)."""
        metadata = {
            **self.metadata,
            "langgraph_step": step,
            "langgraph_node": node,
            "langgraph_triggers": triggers,
            "langgraph_path": path,
            "langgraph_checkpoint_ns": namespace,
        }
        return {
            **self.run_config,
            "metadata": metadata,
            "configurable": {**self.configurable, "checkpoint_ns": namespace, RUNTIME_KEY: self.runtime},
        }


def run_with(config: dict[str, Any], func: Callable[[Any], Any], state: Any) -> Any:
    """``func(state)`` with ``config`` what ``get_config()`` returns meanwhile (set and reset here, not
    by a context manager: this runs for every task, and ``with`` costs three calls more)."""
    token = _current.set(config)
    try:
        return func(state)
    finally:
        _current.reset(token)


async def await_with(config: dict[str, Any], func: Callable[[Any], Awaitable[Any]], state: Any) -> Any:
    """``run_with`` for an ``async def`` function: ``config`` stays current until it finishes."""
    token = _current.set(config)
    try:
        return await func(state)
    finally:
        _current.reset(token)


def merge_configs(*configs: dict[str, Any] | None) -> dict[str, Any]:
    """Configs merged left to right as LangGraph's ``merge_configs`` does: empty values are skipped,
    ``tags`` concatenate, ``metadata`` and ``configurable`` merge key by key, the rest is replaced."""
    merged: dict[str, Any] = {}
    for config in configs:
        for key, value in (config or {}).items():
            if not value:
                continue
            if key == "tags":
                merged[key] = [*merged.get(key, []), *value]
            elif key in ("metadata", "configurable"):
                merged[key] = {**merged.get(key, {}), **value}
            else:
                merged[key] = value
    return merged
