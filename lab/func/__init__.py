"""The Functional API, as ``langgraph.func``: ``@task`` and ``@entrypoint``.

``@entrypoint`` turns a plain function into a graph of one node (named after the function): its
input is the value ``invoke`` is given, its output what it returns. It keeps three channels,
as LangGraph's does: ``__start__`` (the input), ``__end__`` (what it returned) and
``__previous__`` (what the next run on the thread receives as ``previous``; ``entrypoint.final``
saves something else there than it returns). Each run is one super-step, one checkpoint.

``@task`` marks a function whose calls, made inside an entrypoint or a ``StateGraph`` node, are
tasks of their own: each call's result is saved in the checkpoint as it finishes, so when the
node runs again (an interrupt answered, a crash survived) the call returns the saved result instead
of running again (``lab.pregel.task_calls`` says how, and how the lab runs them without threads).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, get_args, get_origin

from lab.checkpoint.allow_list import allow_in_checkpoints
from lab.checkpoint.base import BaseCheckpointSaver
from lab.config import RUNTIME_KEY, get_config
from lab.graph.drawing import DrawableGraph, draw_graph
from lab.graph.jsonschema import json_schema, type_schema
from lab.graph.node_calls import is_filled
from lab.graph.subgraphs import find_subgraph, refuse_sync_calls_over_async_io
from lab.graph.unsupported import NotSupportedError, RefusesLeftOutMethods
from lab.pregel import Pregel, task_calls
from lab.pregel.channels import EphemeralValue, LastValue
from lab.pregel.nodes import END, START, Node, is_async
from lab.pregel.task import running_task
from lab.types import CachePolicy, Command, RetryPolicy

__all__ = ("entrypoint", "task")

PREVIOUS = "__previous__"
"""The channel that keeps what the next run receives as ``previous``."""
R = TypeVar("R")
S = TypeVar("S")


# -- @task ------------------------------------------------------------------------------------------


class TaskFunction:
    """A ``@task`` function: calling it starts a task and returns a future of its result."""

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        name: str | None,
        retry_policy: Sequence[RetryPolicy],
        cache_policy: CachePolicy | None,
    ) -> None:
        self.func = func
        self.bound = with_injected(func)
        """``func`` with LangGraph's parameters filled in (``config``, ``writer``...), as a call runs it."""
        self.name = name or task_name(func)
        self.retry_policy = retry_policy
        self.cache_policy = cache_policy
        functools.update_wrapper(self, func)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return task_calls.call(
            self.bound,
            args,
            kwargs,
            name=self.name,
            retry_policy=self.retry_policy,
            cache_policy=self.cache_policy,
        )

    def clear_cache(self, cache: Any) -> None:
        """Forget this task's cached results."""
        if self.cache_policy is not None:
            cache.clear([(task_calls.CACHE_NS_WRITES, task_calls.identifier(self.func))])

    async def aclear_cache(self, cache: Any) -> None:
        if self.cache_policy is not None:
            await cache.aclear([(task_calls.CACHE_NS_WRITES, task_calls.identifier(self.func))])


def task_name(func: Callable[..., Any]) -> str:
    """A task's name when none is given: its function's (a ``partial``'s function's, a callable
    object's class's), as LangGraph names it."""
    if hasattr(func, "__name__"):
        return func.__name__
    if hasattr(func, "func"):
        return func.func.__name__
    return type(func).__name__


def task(
    __func_or_none__: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
    cache_policy: CachePolicy | None = None,
    **unsupported: Any,
) -> Any:
    """``@task`` or ``@task(name=..., retry_policy=..., cache_policy=...)``."""
    refuse("task", unsupported)
    policies = (retry_policy,) if isinstance(retry_policy, RetryPolicy) else tuple(retry_policy or ())

    def decorate(func: Callable[..., Any]) -> TaskFunction:
        return TaskFunction(func, name=name, retry_policy=policies, cache_policy=cache_policy)

    return decorate if __func_or_none__ is None else decorate(__func_or_none__)


def refuse(what: str, options: dict[str, Any]) -> None:
    """Options the lab does not implement, refused by name (``timeout``, ``store``...)."""
    if given := [key for key, value in options.items() if value is not None]:
        raise NotSupportedError(f"{what}({', '.join(f'{key}=...' for key in given)})")


# -- @entrypoint ------------------------------------------------------------------------------------


class entrypoint:  # noqa: N801  (LangGraph's name: ``@entrypoint(checkpointer=...)``)
    """``@entrypoint(checkpointer=..., cache=..., context_schema=...)`` over a function of one
    input (plus, by name, ``previous``, ``config``, ``runtime``): a graph (``invoke``, ``stream``,
    ``get_state``, ``get_state_history``, ``update_state``)."""

    def __init__(
        self,
        checkpointer: BaseCheckpointSaver | None = None,
        store: Any = None,
        cache: Any = None,
        context_schema: Any = None,
        cache_policy: CachePolicy | None = None,
        retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
        **unsupported: Any,
    ) -> None:
        refuse("entrypoint", {"cache_policy": cache_policy, "retry_policy": retry_policy})
        refuse("entrypoint", unsupported)
        self.checkpointer = checkpointer
        self.store = store
        self.cache = cache
        self.context_schema = context_schema

    @dataclass(frozen=True)
    class final(Generic[R, S]):  # noqa: N801
        """Return ``value`` to the caller and save ``save`` for the next run's ``previous``."""

        value: R
        save: S

    def __call__(self, func: Callable[..., Any]) -> EntrypointGraph:
        if inspect.isgeneratorfunction(func) or inspect.isasyncgenfunction(func):
            raise NotImplementedError("Generators are not supported in the Functional API.")
        parameters = list(inspect.signature(func).parameters.values())
        if not parameters:
            raise ValueError("Entrypoint function must have at least one parameter")
        first = parameters[0].annotation
        input_type = Any if first is inspect.Parameter.empty else first
        output_type = output_of(inspect.signature(func).return_annotation)
        for schema in (input_type, output_type):  # (LangGraph's allow-list: the declared types)
            allow_in_checkpoints(schema)
        name = func.__name__
        nodes = {name: Node(name, bind_entrypoint(func), [START], subgraph=find_subgraph(func), reads=START)}
        refuse_sync_calls_over_async_io(nodes, self.checkpointer, as_node=False)
        graph = EntrypointGraph(
            nodes=nodes,
            channels={START: EphemeralValue(), END: LastValue(END), PREVIOUS: LastValue(PREVIOUS)},
            state_keys=[END],
            checkpointer=self.checkpointer,
        )
        graph.name = name
        graph.function = func
        graph.cache = self.cache
        graph.store = self.store
        graph.input_type, graph.output_type = input_type, output_type
        graph.context_schema = self.context_schema
        return graph


def output_of(annotation: Any) -> Any:
    """The output type an entrypoint's return annotation declares (``final[R, S]``: ``R``)."""
    if annotation is inspect.Signature.empty or annotation is entrypoint.final:
        return Any
    if get_origin(annotation) is entrypoint.final:
        if len(get_args(annotation)) != 2:
            raise TypeError(
                "Please an annotation for both the return_ and the save values. For example, "
                "`-> entrypoint.final[int, str]` would assign a return_ a type of `int` and save "
                "the type `str`."
            )
        return get_args(annotation)[0]
    return annotation


def final_writes(result: Any) -> Command:
    """What an entrypoint's return value writes: ``__end__`` (returned) and ``__previous__`` (saved)."""
    if isinstance(result, entrypoint.final):
        return Command(update=[(END, result.value), (PREVIOUS, result.save)])
    return Command(update=[(END, result), (PREVIOUS, result)])


INJECTED = ("config", "previous", "runtime", "store", "writer")
"""The parameters LangGraph fills by name in an entrypoint's or a task's function (``RunnableCallable``)."""
KEYWORD_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def injected_parameters(parameters: Mapping[str, inspect.Parameter], first: int = 0) -> tuple[str, ...]:
    """Which of :data:`INJECTED` a function declares from its parameter ``first`` on (one a call may
    pass by keyword; ``writer`` unannotated or annotated ``StreamWriter``, as LangGraph has it)."""
    names = list(parameters)[first:]
    return tuple(
        name
        for name in INJECTED
        if name in names and parameters[name].kind in KEYWORD_KINDS and is_filled(parameters[name])
    )


def injected_values(wanted: Sequence[str]) -> dict[str, Any]:
    """What the running task's function gets for each parameter of ``wanted``: its config, the thread's
    ``previous`` (what its entrypoint saved last; ``None`` in a ``StateGraph``), the run's ``Runtime``
    with that ``previous``, the stream writer, and the entrypoint's store (``None`` if it has none)."""
    if not wanted:
        return {}
    config = get_config()
    runtime = config["configurable"][RUNTIME_KEY]
    channel = running_task().lender.channels.get(PREVIOUS)
    previous = channel.value if channel is not None and channel.is_available() else None
    given = {"config": config, "previous": previous, "store": runtime.store, "writer": runtime.stream_writer}
    if "runtime" in wanted:
        given["runtime"] = dataclasses.replace(runtime, previous=previous)
    return {name: given[name] for name in wanted}


def with_injected(func: Callable[..., Any]) -> Callable[..., Any]:
    """A task function called with what LangGraph fills in (:data:`INJECTED`) unless the call passes it."""
    try:
        wanted = injected_parameters(inspect.signature(func).parameters)
    except (TypeError, ValueError):  # (a callable without a signature takes nothing injected)
        return func
    if not wanted:
        return func

    def completed(kwargs: dict[str, Any]) -> dict[str, Any]:
        return {**injected_values([name for name in wanted if name not in kwargs]), **kwargs}

    if is_async(func):

        @functools.wraps(func)
        async def call_async(*args: Any, **kwargs: Any) -> Any:
            return await func(*args, **completed(kwargs))

        return call_async

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **completed(kwargs))

    return call


def bind_entrypoint(func: Callable[..., Any]) -> Callable[[Any], Any]:
    """``func`` as the loop calls it: with the run's input (its node reads the ``__start__`` channel),
    and the parameters of :data:`INJECTED` it names; its result as the entrypoint's writes."""
    wanted = injected_parameters(inspect.signature(func).parameters, first=1)

    if inspect.iscoroutinefunction(func):

        async def call_async(value: Any) -> Command:
            return final_writes(await func(value, **injected_values(wanted)))

        return call_async

    def call(value: Any) -> Command:
        return final_writes(func(value, **injected_values(wanted)))

    return call


class EntrypointGraph(RefusesLeftOutMethods, Pregel):
    """The graph ``@entrypoint`` makes: one node, its output a whole value (``__end__``)."""

    name: str
    function: Callable[..., Any]
    """The decorated function, as the program wrote it (its one node runs it)."""
    cache: Any
    input_type: Any
    output_type: Any
    context_schema: Any

    async def apply_updates(
        self, config: dict[str, Any], updates: list[tuple[Any, str | None]]
    ) -> dict[str, Any]:
        """``update_state(config, value)`` writes as the entrypoint returning ``value`` would (also
        ``__previous__``: the next run's ``previous``)."""
        (node,) = self.nodes
        mapped = [(final_writes(values), as_node or node) for values, as_node in updates]
        return await super().apply_updates(config, mapped)

    def get_name(self, suffix: str | None = None) -> str:
        return f"{self.name}{suffix or ''}"

    def get_graph(self, config: dict[str, Any] | None = None, *, xray: bool | int = False) -> DrawableGraph:
        """The entrypoint as LangGraph draws it: ``__start__`` to its node, its node to ``__end__``."""
        return draw_graph(self, xray)

    def get_input_jsonschema(self, config: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**type_schema(self.input_type), "title": "LangGraphInput"}

    def get_output_jsonschema(self, config: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"title": "LangGraphOutput", **type_schema(self.output_type)}

    def get_context_jsonschema(self) -> dict[str, Any] | None:
        return None if self.context_schema is None else json_schema(self.context_schema, "Context")
