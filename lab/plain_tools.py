"""Tools in pure Python, as ``langchain_core.tools`` has them (for where it is not installed).

A LangGraph agent calls *tools*: functions an LLM asks for by name with JSON arguments
(``AIMessage.tool_calls``). LangChain turns a function into one with ``@tool``: a
``StructuredTool`` whose ``name`` is the function's, whose ``description`` is its docstring, and
whose ``args`` (a JSON schema) come from its signature, checked by a Pydantic model built from that
signature. The browser build ships neither LangChain nor Pydantic, so ``lab.tools`` gives these
twins there: the same names, ``args``, ``invoke`` (a dict of arguments, a lone string for a
one-argument tool, or a whole tool call, which answers with a ``ToolMessage``) and the same words for
bad arguments as Pydantic's lax mode (``"3"`` is taken for an ``int``, ``"x"`` is refused with
*Input should be a valid integer, unable to parse string as an integer*).

Checked: ``str``, ``int``, ``float``, ``bool``, ``list[T]``, ``dict``, ``T | None``, ``Literal`` and
``Any`` (unannotated) arguments; an argument of another type is passed as it is. Left out (refused
by name): async tools, ``args_schema=``, ``response_format="content_and_artifact"``, a tool's own
``handle_tool_error``.
"""

from __future__ import annotations

import inspect
import json
import textwrap
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, Literal

from lab.graph.jsonschema import type_schema
from lab.graph.unsupported import NotSupportedError
from lab.messages import ToolMessage

__all__ = ["BaseTool", "StructuredTool", "ToolArgumentsError", "ToolException", "tool"]

TOOL_MESSAGE_BLOCK_TYPES = (
    "text",
    "image_url",
    "image",
    "json",
    "search_result",
    "custom_tool_call_output",
    "document",
    "file",
)
"""Content blocks a tool may return as they are (LangChain's ``TOOL_MESSAGE_BLOCK_TYPES``)."""


class ToolException(Exception):
    """An error a tool raises on purpose (LangChain's ``ToolException``)."""


class ToolArgumentsError(ValueError):
    """Arguments that do not fit a tool's signature: Pydantic's ``ValidationError``, same ``errors()``."""

    def __init__(self, tool_name: str, errors: list[dict[str, Any]]) -> None:
        self._errors = errors
        lines = [f"{'.'.join(map(str, e['loc']))}\n  {e['msg']}" for e in errors]
        count = f"{len(errors)} validation error{'s' if len(errors) > 1 else ''}"
        super().__init__(f"{count} for {tool_name}\n" + "\n".join(lines))

    def errors(self) -> list[dict[str, Any]]:
        """Each error as Pydantic gives it: ``loc`` (the argument's path), ``msg`` and ``type``."""
        return list(self._errors)


class _Invalid(Exception):
    """One argument that does not fit its type (collected into a :class:`ToolArgumentsError`)."""

    def __init__(self, msg: str, loc: tuple[Any, ...] = ()) -> None:
        super().__init__(msg)
        self.msg, self.loc = msg, loc


_TRUE = {"1", "on", "t", "true", "y", "yes"}
_FALSE = {"0", "off", "f", "false", "n", "no"}


def _as_int(value: Any) -> int:
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        raise _Invalid("Input should be a valid integer, got a number with a fractional part")
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            raise _Invalid("Input should be a valid integer, unable to parse string as an integer") from None
    raise _Invalid("Input should be a valid integer")


def _as_float(value: Any) -> float:
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            raise _Invalid("Input should be a valid number, unable to parse string as a number") from None
    raise _Invalid("Input should be a valid number")


def _as_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if value in (0, 1) and isinstance(value, int | float):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    if isinstance(value, str | int | float):
        raise _Invalid("Input should be a valid boolean, unable to interpret input")
    raise _Invalid("Input should be a valid boolean")


def _as_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise _Invalid("Input should be a valid string")


_SCALARS: dict[Any, Callable[[Any], Any]] = {int: _as_int, float: _as_float, bool: _as_bool, str: _as_str}


def coerce(value: Any, hint: Any) -> Any:
    """``value`` as an argument annotated ``hint`` takes it, by Pydantic's lax rules; :class:`_Invalid`
    (with the path inside the value) when it does not fit."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        return coerce(value, args[0])
    if hint in _SCALARS:
        return _SCALARS[hint](value)
    if hint is list or origin is list:
        return _as_list(value, args[0] if args else Any)
    if hint is dict or origin is dict:
        if not isinstance(value, dict):
            raise _Invalid("Input should be a valid dictionary")
        return value
    if origin in (typing.Union, types.UnionType):
        return _as_one_of(value, args)
    if origin is Literal:
        if value in args:
            return value
        raise _Invalid(f"Input should be {_either(args)}")
    return value  # Any, unannotated, or a type the twin does not check


def _as_list(value: Any, item_hint: Any) -> list[Any]:
    if not isinstance(value, list | tuple | set | frozenset):
        raise _Invalid("Input should be a valid list")
    items = []
    for index, item in enumerate(value):
        try:
            items.append(coerce(item, item_hint))
        except _Invalid as invalid:
            raise _Invalid(invalid.msg, (index, *invalid.loc)) from None
    return items


def _as_one_of(value: Any, options: tuple[Any, ...]) -> Any:
    """A union: ``None`` for an optional argument, else the first member that takes the value (the
    error of the first non-``None`` member when none does)."""
    if value is None and type(None) in options:
        return None
    members = [option for option in options if option is not type(None)]
    for option in members:
        try:
            return coerce(value, option)
        except _Invalid:
            continue
    return coerce(value, members[0])


def _either(values: Sequence[Any]) -> str:
    shown = [repr(value) for value in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" or {shown[-1]}"


def _sorted_schema(schema: Any) -> Any:
    """A JSON schema with each object's keys sorted, as Pydantic writes it (``properties`` keep their
    order: the signature's)."""
    if not isinstance(schema, dict):
        return schema
    return {
        key: (
            {name: _sorted_schema(value) for name, value in schema[key].items()}
            if key == "properties"
            else _sorted_schema(schema[key])
        )
        for key in sorted(schema)
    }


def _content(output: Any) -> str | list[Any]:
    """What a ``ToolMessage`` holds for a tool's output: text or content blocks as they are, anything
    else as JSON (``str()`` where it is not JSON), as LangChain's ``_format_output``."""
    if isinstance(output, str):
        return output
    if isinstance(output, Sequence) and all(
        isinstance(item, str) or (isinstance(item, dict) and item.get("type") in TOOL_MESSAGE_BLOCK_TYPES)
        for item in output
    ):
        return list(output)
    try:
        return json.dumps(output, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(output)


def _is_tool_output(value: Any) -> bool:
    """A ``ToolMessage`` or a ``Command``: what a tool may answer a tool call with itself."""
    from lab.types import Command

    return isinstance(value, ToolMessage | Command)


class BaseTool:
    """A tool: ``name``, ``description``, ``args`` and ``invoke``."""

    name: str
    description: str
    return_direct: bool = False

    @property
    def args(self) -> dict[str, Any]:
        raise NotImplementedError

    def _run(self, arguments: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _arguments(self, tool_input: str | dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def invoke(self, input: str | dict[str, Any], config: Any = None, **kwargs: Any) -> Any:
        """Run the tool on its arguments (a dict, or a string for a one-argument tool); given a whole
        tool call (``{"name", "args", "id", "type": "tool_call"}``), answer with a ``ToolMessage``."""
        is_call = isinstance(input, dict) and input.get("type") == "tool_call"
        output = self._run(self._arguments(input["args"] if is_call else input))
        if not is_call or _is_tool_output(output):
            return output
        if isinstance(output, list) and output and all(_is_tool_output(item) for item in output):
            return output
        return ToolMessage(_content(output), name=self.name, tool_call_id=input["id"], status="success")

    async def ainvoke(self, input: str | dict[str, Any], config: Any = None, **kwargs: Any) -> Any:
        """:meth:`invoke`, awaited (the tool itself is a plain function)."""
        return self.invoke(input, config, **kwargs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, description={self.description!r})"


class StructuredTool(BaseTool):
    """A function as a tool; its arguments are checked against the function's signature."""

    def __init__(
        self, *, name: str, description: str, func: Callable[..., Any], return_direct: bool = False
    ) -> None:
        self.name, self.description, self.func, self.return_direct = name, description, func, return_direct
        self._signature = inspect.signature(func)
        self._hints = typing.get_type_hints(func, include_extras=True)

    @classmethod
    def from_function(
        cls,
        func: Callable[..., Any] | None = None,
        name: str | None = None,
        description: str | None = None,
        return_direct: bool = False,
        **unsupported: Any,
    ) -> StructuredTool:
        """The tool of ``func``: its name and docstring unless ``name``/``description`` are given."""
        refuse_tool_options(unsupported)
        if func is None or inspect.iscoroutinefunction(func):
            raise NotSupportedError("an async tool (coroutine=); write the tool as a plain def")
        description = description if description is not None else func.__doc__
        if not description:
            raise ValueError("Function must have a docstring if description not provided.")
        return cls(
            name=name or func.__name__,
            description=textwrap.dedent(description).strip(),
            func=func,
            return_direct=return_direct,
        )

    @property
    def args(self) -> dict[str, Any]:
        """Each argument's JSON schema, as Pydantic gives the signature's model."""
        properties = {}
        for name, parameter in self._signature.parameters.items():
            hint = self._hints.get(name, Any)
            properties[name] = {**type_schema(hint), "title": name.title().replace("_", " ")}
            if parameter.default is not inspect.Parameter.empty:
                properties[name]["default"] = parameter.default
        return _sorted_schema({"properties": properties})["properties"]

    def _arguments(self, tool_input: str | dict[str, Any]) -> dict[str, Any]:
        """The arguments checked and coerced; a string is the first argument's value."""
        if isinstance(tool_input, str):
            tool_input = {next(iter(self._signature.parameters), "input"): tool_input}
        arguments, errors = {}, []
        for name, parameter in self._signature.parameters.items():
            if name not in tool_input:
                if parameter.default is inspect.Parameter.empty:
                    errors.append({"type": "missing", "loc": (name,), "msg": "Field required"})
                continue
            try:
                arguments[name] = coerce(tool_input[name], self._hints.get(name, Any))
            except _Invalid as invalid:
                errors.append({"type": "invalid", "loc": (name, *invalid.loc), "msg": invalid.msg})
        if errors:
            raise ToolArgumentsError(self.name, errors)
        return arguments

    def _run(self, arguments: dict[str, Any]) -> Any:
        return self.func(**arguments)

    def __repr__(self) -> str:
        return (
            f"StructuredTool(name={self.name!r}, description={self.description!r}, "
            f"args_schema=<class 'langchain_core.utils.pydantic.{self.name}'>, func={self.func!r})"
        )


def refuse_tool_options(options: dict[str, Any]) -> None:
    """LangChain's tool options the twin leaves out, refused by name when set."""
    if given := [key for key, value in options.items() if value not in (None, False)]:
        raise NotSupportedError(f"the tool option(s) {', '.join(given)} in the browser's @tool")


def tool(
    name_or_callable: str | Callable[..., Any] | None = None,
    *,
    description: str | None = None,
    return_direct: bool = False,
    **unsupported: Any,
) -> Any:
    """``@tool``, ``@tool("name")``, ``@tool(return_direct=True)`` or ``tool(fn)``: a
    :class:`StructuredTool` (see :meth:`StructuredTool.from_function`)."""
    refuse_tool_options(unsupported)

    def make(func: Callable[..., Any], name: str | None = None) -> StructuredTool:
        return StructuredTool.from_function(
            func, name=name, description=description, return_direct=return_direct
        )

    if callable(name_or_callable):
        return make(name_or_callable)
    return lambda func: make(func, name_or_callable)
