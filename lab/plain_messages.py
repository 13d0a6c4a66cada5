"""Chat messages in pure Python, as ``langchain_core.messages`` has them (for where it is not installed).

LangGraph's ``MessagesState`` holds LangChain's message classes, which are Pydantic models of
``langchain_core``. The lab's browser build ships neither, so ``lab.messages`` uses these classes
there instead: the same names, fields (in the same order), defaults, ``repr``, equality and
``pretty_print()`` as LangChain's, so what a learner reads is the same. They are plain classes, not
Pydantic models; ``model_dump()`` gives the fields as LangChain's does, which is what checkpoints
store (``lab.checkpoint.serde``, LangGraph's wire form).

Left out: streaming chunks, content blocks (``content_blocks=``), ``ChatMessage``, and reading raw
OpenAI tool calls out of ``additional_kwargs``. Keyword arguments a class has no field for are kept
as extra fields, as LangChain's ``extra="allow"`` keeps them.
"""

from __future__ import annotations

from typing import Any, ClassVar

_REQUIRED: Any = object()
"""A field's "default" when it has none: it always shows in ``repr``."""

_FROM_FACTORY: Any = None
"""What LangChain compares a default-factory field (``additional_kwargs={}``...) with in ``repr``:
nothing, so ``{}`` is shown."""


class BaseMessage:
    """A message: ``content`` plus the fields every LangChain message has."""

    type: str
    field_defaults: ClassVar[dict[str, Any]] = {
        "content": _REQUIRED,
        "additional_kwargs": _FROM_FACTORY,
        "response_metadata": _FROM_FACTORY,
        "type": _REQUIRED,
        "name": None,
        "id": None,
    }
    """Each field, in LangChain's order, and the default ``repr`` leaves it out at."""
    hidden_in_repr: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, content: Any = None, **kwargs: Any) -> None:
        given = {"content": content, **kwargs}
        given.setdefault("additional_kwargs", {})
        given.setdefault("response_metadata", {})
        given.setdefault("type", getattr(type(self), "type", None))
        for field, default in self.field_defaults.items():
            if field not in given and default is _REQUIRED:
                raise TypeError(f"{type(self).__name__} needs {field}=")
            setattr(self, field, given.pop(field, default))
        for extra, value in given.items():  # LangChain keeps unknown keyword arguments as extra fields
            setattr(self, extra, value)
        self._check()

    def _check(self) -> None:
        if not isinstance(self.content, str | list):
            raise TypeError(
                f"{type(self).__name__}.content must be a str or a list, not {self.content!r:.60}"
            )
        if self.type != getattr(type(self), "type", self.type):
            raise ValueError(f"{type(self).__name__}.type must be {type(self).type!r}, not {self.type!r}")
        if isinstance(self.id, int | float) and not isinstance(self.id, bool):
            self.id = str(self.id)  # LangChain coerces a numeric id to text
        for field in ("additional_kwargs", "response_metadata"):
            if not isinstance(getattr(self, field), dict):
                raise TypeError(f"{type(self).__name__}.{field} must be a dict")

    def model_dump(self) -> dict[str, Any]:
        """The fields (extra ones last) as a dict, as LangChain's Pydantic ``model_dump()``."""
        return dict(vars(self))

    @property
    def text(self) -> str:
        """The text of ``content``: the string, or the text blocks of a list joined."""
        if isinstance(self.content, str):
            return self.content
        return "".join(
            block if isinstance(block, str) else block["text"]
            for block in self.content
            if isinstance(block, str) or (block.get("type") == "text" and isinstance(block.get("text"), str))
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseMessage):
            return NotImplemented
        return type(self) is type(other) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a Pydantic model

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(self._shown())})"

    def __str__(self) -> str:
        return " ".join(self._shown())

    def _shown(self) -> list[str]:
        """``field=value`` for each field ``repr`` shows: those not at their default (Pydantic's rule
        as LangChain applies it), extra fields too."""
        return [
            f"{key}={value!r}"
            for key, value in vars(self).items()
            if key not in self.hidden_in_repr and not self._at_default(key, value)
        ]

    def _at_default(self, key: str, value: Any) -> bool:
        if key == "type":
            return value == type(self).type
        default = self.field_defaults.get(key, _REQUIRED)
        return default is not _REQUIRED and value == default

    def pretty_repr(self, html: bool = False) -> str:
        title = _title(self.type.title() + " Message", bold=html)
        if self.name is not None:
            title += f"\nName: {self.name}"
        return f"{title}\n\n{self.content}"

    def pretty_print(self) -> None:
        print(self.pretty_repr())


def _title(title: str, *, bold: bool) -> str:
    """``==== Human Message ====`` centred in 80 columns (LangChain's ``get_msg_title_repr``)."""
    padded = f" {title} "
    left = "=" * ((80 - len(padded)) // 2)
    right = left + "=" * (len(padded) % 2)
    if bold:
        padded = f"\033[1m{padded}\033[0m"
    return f"{left}{padded}{right}"


class HumanMessage(BaseMessage):
    type = "human"


class SystemMessage(BaseMessage):
    type = "system"


class RemoveMessage(BaseMessage):
    """Not a message to keep: ``add_messages`` deletes the message with its ``id``."""

    type = "remove"

    def __init__(self, id: str, **kwargs: Any) -> None:
        if kwargs.pop("content", None):
            raise ValueError("RemoveMessage does not support 'content' field.")
        super().__init__("", id=id, **kwargs)


class FunctionMessage(BaseMessage):
    type = "function"
    field_defaults = {**BaseMessage.field_defaults, "name": _REQUIRED}


class AIMessage(BaseMessage):
    type = "ai"
    field_defaults = {
        **BaseMessage.field_defaults,
        "tool_calls": _FROM_FACTORY,
        "invalid_tool_calls": _FROM_FACTORY,
        "usage_metadata": None,
    }

    def __init__(self, content: Any = None, **kwargs: Any) -> None:
        kwargs["tool_calls"] = [_tool_call(**call) for call in kwargs.get("tool_calls") or []]
        kwargs["invalid_tool_calls"] = [
            _invalid_tool_call(**call) for call in kwargs.get("invalid_tool_calls") or []
        ]
        super().__init__(content, **kwargs)

    def pretty_repr(self, html: bool = False) -> str:
        lines = []
        for heading, calls in (
            ("Tool Calls:", self.tool_calls),
            ("Invalid Tool Calls:", self.invalid_tool_calls),
        ):
            if calls:
                lines.append(heading)
                lines.extend(line for call in calls for line in _call_lines(call))
        return (super().pretty_repr(html).strip() + "\n" + "\n".join(lines)).strip()


class AIMessageChunk(AIMessage):
    """A piece of an AI reply as a chat model streams it (``stream_mode="messages"``): its text so far
    is the pieces' ``content`` joined; the last piece has ``chunk_position="last"``."""

    type = "AIMessageChunk"
    field_defaults = {**AIMessage.field_defaults, "tool_call_chunks": _FROM_FACTORY, "chunk_position": None}

    def __init__(self, content: Any = None, **kwargs: Any) -> None:
        kwargs.setdefault("tool_call_chunks", [])
        super().__init__(content, **kwargs)


def message_chunk_to_message(message: Any) -> Any:
    """A streamed chunk as the whole message it is a piece of; another message as it is."""
    if not isinstance(message, AIMessageChunk):
        return message
    fields = {key: value for key, value in vars(message).items() if key not in AIMESSAGE_CHUNK_ONLY}
    return AIMessage(**fields)


AIMESSAGE_CHUNK_ONLY = frozenset({"type", "tool_call_chunks", "chunk_position"})


def _tool_call(
    *, name: str, args: dict[str, Any], id: str | None, type: str = "", extras: Any = None
) -> dict:
    """A tool call as LangChain normalises it (``type`` set, ``extras`` dropped)."""
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def _invalid_tool_call(
    *, name: str | None, args: str | None, id: str | None, error: str | None, type: str = ""
) -> dict:
    return {"type": "invalid_tool_call", "id": id, "name": name, "args": args, "error": error}


def _call_lines(call: dict[str, Any]) -> list[str]:
    lines = [f"  {call.get('name', 'Tool')} ({call.get('id')})", f" Call ID: {call.get('id')}"]
    if call.get("error"):
        lines.append(f"  Error: {call.get('error')}")
    lines.append("  Args:")
    args = call.get("args")
    if isinstance(args, str):
        lines.append(f"    {args}")
    elif isinstance(args, dict):
        lines.extend(f"    {arg}: {value}" for arg, value in args.items())
    return lines


class ToolMessage(BaseMessage):
    """A tool's answer to the tool call ``tool_call_id``; its content is made text (or a list)."""

    type = "tool"
    field_defaults = {
        **BaseMessage.field_defaults,
        "tool_call_id": _REQUIRED,
        "artifact": None,
        "status": "success",
    }
    hidden_in_repr = frozenset({"additional_kwargs", "response_metadata"})

    def __init__(self, content: Any = None, **kwargs: Any) -> None:
        if isinstance(content, tuple):
            content = list(content)
        if isinstance(content, list):
            content = [item if isinstance(item, str | dict) else str(item) for item in content]
        elif not isinstance(content, str):
            content = str(content)
        if not isinstance(kwargs.get("tool_call_id"), str | type(None)):
            kwargs["tool_call_id"] = str(kwargs["tool_call_id"])
        super().__init__(content, **kwargs)


AnyMessage = AIMessage | HumanMessage | SystemMessage | FunctionMessage | ToolMessage
"""Any message a state may hold (LangChain's is a tagged union of the same classes and more)."""

MESSAGE_CLASSES: tuple[type[BaseMessage], ...] = (
    HumanMessage,
    AIMessage,
    SystemMessage,
    ToolMessage,
    FunctionMessage,
    RemoveMessage,
)
