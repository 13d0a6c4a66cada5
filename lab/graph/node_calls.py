"""How a node function is called, as LangGraph's ``RunnableCallable`` + the node's input mapper.

A node function may take:

- ``(state)``: the keys of its input schema, as that schema (dict, dataclass, Pydantic model);
- ``(state, config)``: plus the task config (what ``get_config()`` returns);
- ``(state, runtime)`` / ``(state, *, runtime)``: plus the ``Runtime`` carrying the run's
  ``context`` (``invoke(..., context=...)``);
- ``(state, writer)``: plus the stream writer (``stream_mode="custom"``), if ``writer`` is not
  annotated or is annotated ``StreamWriter``;
- ``(state, store)``: plus the graph's store (``compile(store=...)``, ``lab.store``), or ``None``,
  if ``store`` is not annotated or is annotated ``BaseStore`` (or ``Optional[BaseStore]``).

Parameters are matched by name, as LangGraph does. The annotations also tell where a node may
route: ``-> Command[Literal["b", "c"]]`` on a node, ``-> Literal["x", "y"]`` on a router.

A LangChain ``Runnable`` given as a node (a ``@tool``, a ``RunnableLambda``, lab's own twins: any
object with ``invoke`` and ``ainvoke``) is not called: LangGraph runs it with ``invoke(state, config)``
under the sync API and ``ainvoke`` under the async one (``runnable_node``).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Hashable
from typing import Any, Literal, Optional

from lab.config import RUNTIME_KEY, get_config
from lab.graph.schema import as_schema, function_hints, schema_fields
from lab.graph.unsupported import NotSupportedError
from lab.pregel.nodes import PUSH, ROOT
from lab.pregel.sync_saver import SYNC_API
from lab.store.base import BaseStore
from lab.types import Command, StreamWriter

INJECTED = {
    "config": lambda config: config,
    "runtime": lambda config: config["configurable"][RUNTIME_KEY],
    "writer": lambda config: config["configurable"][RUNTIME_KEY].stream_writer,
    "store": lambda config: config["configurable"][RUNTIME_KEY].store,
}
"""Parameter name → what the node receives there, read from the task config."""
UNSUPPORTED_PARAMETERS = ("previous",)
_KEYWORD_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def injected_parameters(fn: Callable[..., Any]) -> tuple[str, ...]:
    """The names among ``config``/``runtime``/``writer``/``store`` that ``fn`` declares."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return ()
    for name in UNSUPPORTED_PARAMETERS:
        if name in params and params[name].kind in _KEYWORD_KINDS:
            raise NotSupportedError(f"a node parameter named '{name}' (a graph node has no previous)")
    return tuple(
        name
        for name in INJECTED
        if name in params and params[name].kind in _KEYWORD_KINDS and is_filled(params[name])
    )


FILLED_ANNOTATIONS: dict[str, tuple[Any, ...]] = {
    "writer": (inspect.Parameter.empty, StreamWriter, "StreamWriter"),
    "store": (
        inspect.Parameter.empty,
        BaseStore,
        "BaseStore",
        Optional[BaseStore],  # noqa: UP045  (LangGraph lists both spellings)
        "Optional[BaseStore]",
    ),
}
"""The annotations under which LangGraph fills ``writer`` and ``store`` (any other: nothing is passed)."""


def is_filled(param: inspect.Parameter) -> bool:
    """Is this injectable parameter filled? ``writer`` and ``store`` only if not annotated or annotated
    as LangGraph lists (:data:`FILLED_ANNOTATIONS`); ``config``, ``runtime``... always."""
    return param.annotation in FILLED_ANNOTATIONS.get(param.name, (param.annotation,))


def is_runnable(action: Any) -> bool:
    """Is ``action`` a LangChain ``Runnable`` (or a twin of one): an object, not a function, with
    ``invoke`` and ``ainvoke``?"""
    return (
        not inspect.isroutine(action)
        and callable(getattr(action, "invoke", None))
        and callable(getattr(action, "ainvoke", None))
    )


def runnable_name(runnable: Any) -> str:
    """The name ``add_node(runnable)`` gives its node: ``get_name()``, as LangGraph asks a ``Runnable``."""
    get_name = getattr(runnable, "get_name", None)
    return get_name() if callable(get_name) else getattr(runnable, "name", type(runnable).__name__)


def runnable_node(runnable: Any) -> Callable[[Any], Any]:
    """A ``Runnable`` as a node function: ``invoke(state, config)`` under the sync API (``invoke``,
    ``stream``), ``await ainvoke(state, config)`` under the async one, as LangGraph runs it."""

    async def run(state: Any) -> Any:
        config = get_config()
        if SYNC_API.get():
            return runnable.invoke(state, config)
        return await runnable.ainvoke(state, config)

    run.__name__ = runnable_name(runnable)
    return run


def bind_node(fn: Callable[..., Any], input_schema: Any) -> Callable[[dict], Any]:
    """``fn`` as the loop calls it: ``call(state_dict)``, keeping ``async def`` functions async."""
    keys = tuple(schema_fields(input_schema))
    picks_keys = keys != (ROOT,)  # a whole value goes in as is
    wanted = injected_parameters(fn)
    coerce = as_schema(input_schema)

    def node_input(state: Any, config: dict[str, Any]) -> Any:
        if config["metadata"]["langgraph_path"][0] == PUSH:  # a Send's argument: as is, never coerced
            return state
        if picks_keys:
            picked = {}
            for k in keys:  # (a plain loop: a comprehension is a function call on CPython 3.11; every task)
                if k in state:
                    picked[k] = state[k]
            state = picked
        return coerce(state) if isinstance(state, dict) else state

    def injected(config: dict[str, Any]) -> dict[str, Any]:
        return {name: INJECTED[name](config) for name in wanted}

    if _is_async(fn):

        async def call_async(state: dict[str, Any]) -> Any:
            config = get_config()
            return await fn(node_input(state, config), **injected(config))

        return call_async

    def call(state: dict[str, Any]) -> Any:
        config = get_config()
        if not wanted:  # (most nodes take the state alone: no keyword arguments to gather)
            return fn(node_input(state, config))
        return fn(node_input(state, config), **injected(config))

    return call


def _is_async(fn: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(type(fn).__call__)


def _return_hint(fn: Callable[..., Any]) -> Any:
    try:
        return function_hints(fn).get("return")
    except Exception:  # an annotation that does not resolve draws no edges, as in LangGraph
        return None


def command_destinations(fn: Callable[..., Any]) -> tuple[str, ...]:
    """``-> Command[Literal["b", "c"]]`` (alone or in a union) → ``("b", "c")``."""
    hint = _return_hint(fn)
    options = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, _UnionType) else (hint,)
    for option in options:
        args = typing.get_args(option) if typing.get_origin(option) is Command else ()
        if args and typing.get_origin(args[0]) is Literal:
            return tuple(typing.get_args(args[0]))
    return ()


def router_destinations(router: Callable[..., Any]) -> tuple[Any, ...]:
    """``-> Literal["x", "y"]`` on a router → ``("x", "y")`` (its path map when none is given)."""
    hint = _return_hint(router)
    return typing.get_args(hint) if typing.get_origin(hint) is Literal else ()


def branch_ends(router: Callable[..., Any], path_map: Any) -> dict[Hashable, str] | None:
    """A conditional edge's ends, as LangGraph reads ``path_map``: a dict as given, a list as
    ``{name: name}``; anything else (``None``, a string, a tuple) is ignored, and the ends come from
    the router's ``-> Literal[...]`` annotation, or stay unknown (``None``: any node may follow)."""
    if isinstance(path_map, dict):
        return dict(path_map)
    if isinstance(path_map, list):
        return {name: name for name in path_map}
    return {name: name for name in inferred} if (inferred := router_destinations(router)) else None


_UnionType = type(int | str)
