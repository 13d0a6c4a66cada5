"""``add_messages`` and ``MessagesState``, as ``langgraph.graph.message``.

A chat is one state key holding a list of messages, reduced by ``add_messages``: what a node returns
is *merged* into the list, not appended blindly and not overwritten. The rules a learner can see:

- every message gets an ``id`` (a new ``uuid4`` text where it has none);
- a message whose ``id`` is already in the list **replaces** that message, in place;
- ``RemoveMessage(id=...)`` **deletes** that message (an unknown id is a ``ValueError``);
- ``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` **clears** the list: only what follows it is kept;
- a message may be written as a tuple ``("user", "hi")``, a dict ``{"role": "user", "content": "hi"}``
  or a plain string (a human message); each becomes a message object, as LangChain's
  ``convert_to_messages`` makes them;
- either side may be one message or a list.

The message classes are ``lab.messages``'s: LangChain's where ``langchain_core`` is importable, else
the lab's own (the browser).
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypedDict

from lab import messages as chat
from lab.graph.unsupported import NotSupportedError
from lab.messages import AnyMessage

REMOVE_ALL_MESSAGES = "__remove_all__"
"""The id of a ``RemoveMessage`` that clears the whole list."""

Messages = Any
"""A message, or a list of them, in any form ``add_messages`` accepts."""


def add_messages(left: Messages = None, right: Messages = None, *, format: str | None = None) -> Any:
    """Merge ``right`` into ``left`` by message id (see the module docstring); a new list.

    Called with neither side, it is a reducer factory: ``Annotated[list, add_messages(format=None)]``.
    ``format="langchain-openai"`` rewrites the merged messages' contents in OpenAI's format, with
    ``langchain_core``'s own converter (so only where it is installed: refused by name in the browser).
    """
    if format == "langchain-openai":
        _openai_converter()
    if left is not None and right is not None:
        return _merge(left, right, format=format)
    if left is not None or right is not None:
        # LangGraph's wording tests truthiness: add_messages([], None) says it received 'right'
        only = "left" if left else "right"
        raise ValueError(
            f"Must specify non-null arguments for both 'left' and 'right'. Only received: '{only}'."
        )
    return functools.partial(_merge, format=format)


def _merge(left: Messages, right: Messages, *, format: str | None = None) -> list[Any]:
    left = _as_messages(left if isinstance(left, list) else [left])
    right = _as_messages(right if isinstance(right, list) else [right])
    for message in (*left, *right):
        if message.id is None:
            message.id = str(uuid.uuid4())  # on the object itself, as LangGraph does
    cleared_at = _last_remove_all(right)
    if cleared_at is not None:
        return right[cleared_at + 1 :]
    merged = _merged_by_id(left, right)
    if format == "langchain-openai":
        convert_to_openai_messages, convert_to_messages = _openai_converter()
        return convert_to_messages(convert_to_openai_messages(merged))
    if format is not None:
        raise ValueError(f"Unrecognized {format=}. Expected one of 'langchain-openai', None.")
    return merged


def _openai_converter() -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """``langchain_core``'s ``convert_to_openai_messages`` and ``convert_to_messages``, which
    ``format="langchain-openai"`` applies as LangGraph does; refused by name where it is missing."""
    try:
        from langchain_core.messages import convert_to_messages, convert_to_openai_messages
    except ImportError:
        raise NotSupportedError("add_messages(format='langchain-openai') without langchain_core") from None
    return convert_to_openai_messages, convert_to_messages


def _last_remove_all(messages: list[Any]) -> int | None:
    """Where the last ``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` is, if any."""
    found = None
    for index, message in enumerate(messages):
        if isinstance(message, chat.RemoveMessage) and message.id == REMOVE_ALL_MESSAGES:
            found = index
    return found


def _merged_by_id(left: list[Any], right: list[Any]) -> list[Any]:
    """``left`` with each message of ``right`` replacing the one with its id, deleting it (a
    ``RemoveMessage``) or, for a new id, appended."""
    merged = list(left)
    position = {message.id: index for index, message in enumerate(merged)}
    removed: set[str] = set()
    for message in right:
        index = position.get(message.id)
        if index is None:
            if isinstance(message, chat.RemoveMessage):
                raise ValueError(
                    f"Attempting to delete a message with an ID that doesn't exist ('{message.id}')"
                )
            position[message.id] = len(merged)
            merged.append(message)
        elif isinstance(message, chat.RemoveMessage):
            removed.add(message.id)
        else:
            removed.discard(message.id)  # written again after its removal: it stays
            merged[index] = message
    return [message for message in merged if message.id not in removed] if removed else merged


# -- coercion: tuples, dicts and strings to messages (LangChain's ``convert_to_messages``) -------------


def _as_messages(items: list[Any]) -> list[Any]:
    return [
        chat.message_chunk_to_message(item)
        if isinstance(item, chat.BaseMessage)
        else _from_representation(item)
        for item in items
    ]


def _from_representation(item: Any) -> Any:
    if isinstance(item, str):
        return _build("human", item)
    if isinstance(item, Sequence):
        try:
            role, content = item
        except ValueError as error:
            raise NotImplementedError("Message as a sequence must be (role string, template)") from error
        return _build(role, content)
    if isinstance(item, dict):
        return _from_dict(item)
    raise NotImplementedError(_coercion_failure(f"Unsupported message type: {type(item)}"))


_CONSTRUCTOR_ROLES = {
    "HumanMessage": "human",
    "HumanMessageChunk": "human",
    "AIMessage": "ai",
    "AIMessageChunk": "ai",
    "SystemMessage": "system",
    "SystemMessageChunk": "system",
    "FunctionMessage": "function",
    "FunctionMessageChunk": "function",
    "ToolMessage": "tool",
    "ToolMessageChunk": "tool",
    "RemoveMessage": "remove",
}
"""LangChain's serialized form ``{"lc": 1, "type": "constructor", "id": [..., class], "kwargs": ...}``:
the class names it may carry, as roles (a fixed table: no class is looked up by name)."""


def _from_dict(item: dict[str, Any]) -> Any:
    if _is_constructor_form(item):
        role = _CONSTRUCTOR_ROLES.get(item["id"][-1])
        if role is not None:
            return _from_dict({"type": role, **item["kwargs"]})
    fields = dict(item)
    try:
        role = fields.pop("role") if "role" in fields else fields.pop("type")
        content = fields.pop("content") or ""
    except KeyError as error:
        raise ValueError(
            _coercion_failure(f"Message dict must contain 'role' and 'content' keys, got {item}")
        ) from error
    return _build(role, content, **fields)


def _is_constructor_form(item: dict[str, Any]) -> bool:
    return (
        item.get("lc") == 1
        and item.get("type") == "constructor"
        and isinstance(item.get("id"), list)
        and bool(item["id"])
        and isinstance(item.get("kwargs"), dict)
    )


def _build(
    role: str,
    content: Any,
    name: str | None = None,
    tool_call_id: str | None = None,
    tool_calls: list[dict[str, Any]] | None = None,
    id: str | None = None,
    **extra: Any,
) -> Any:
    """The message for ``role``: the named fields go to the message, anything else to its
    ``additional_kwargs`` (``response_metadata`` and a nested ``additional_kwargs`` are unpacked)."""
    kwargs: dict[str, Any] = {}
    if name is not None:
        kwargs["name"] = name
    if tool_call_id is not None:
        kwargs["tool_call_id"] = tool_call_id
    if extra:
        if metadata := extra.pop("response_metadata", None):
            kwargs["response_metadata"] = metadata
        nested = extra.pop("additional_kwargs", {})
        kwargs["additional_kwargs"] = extra
        extra.update(nested)
    if id is not None:
        kwargs["id"] = id
    if tool_calls is not None:
        kwargs["tool_calls"] = [_tool_call(call) for call in tool_calls]
    build = _BUILDERS.get(role)
    if build is None:
        raise ValueError(
            _coercion_failure(
                f"Unexpected message type: '{role}'. Use one of 'human', 'user', 'ai', 'assistant', "
                "'function', 'tool', 'system', or 'developer'."
            )
        )
    return build(role, content, kwargs)


def _tool_call(call: dict[str, Any]) -> dict[str, Any]:
    """A tool call in LangChain's form; one in OpenAI's (``{"function": {...}, "id": ...}``) converted."""
    if "function" not in call:
        return call
    args = call["function"]["arguments"]
    if isinstance(args, str):
        args = json.loads(args, strict=False)
    return {"name": call["function"]["name"], "args": args, "id": call["id"], "type": "tool_call"}


def _human_or_ai(role: str, content: Any, kwargs: dict[str, Any]) -> Any:
    if example := kwargs.get("additional_kwargs", {}).pop("example", False):
        kwargs["example"] = example
    cls = chat.HumanMessage if role in ("human", "user") else chat.AIMessage
    return cls(content=content, **kwargs)


def _system(role: str, content: Any, kwargs: dict[str, Any]) -> Any:
    if role == "developer":
        kwargs["additional_kwargs"] = {**kwargs.get("additional_kwargs", {}), "__openai_role__": "developer"}
    return chat.SystemMessage(content=content, **kwargs)


def _tool(role: str, content: Any, kwargs: dict[str, Any]) -> Any:
    extra = kwargs.get("additional_kwargs", {})
    artifact = extra.pop("artifact", None)
    status = extra.pop("status", None)
    if status is not None:
        kwargs["status"] = status
    return chat.ToolMessage(content=content, artifact=artifact, **kwargs)


_BUILDERS: dict[str, Callable[[str, Any, dict[str, Any]], Any]] = {
    "human": _human_or_ai,
    "user": _human_or_ai,
    "ai": _human_or_ai,
    "assistant": _human_or_ai,
    "system": _system,
    "developer": _system,
    "function": lambda role, content, kwargs: chat.FunctionMessage(content=content, **kwargs),
    "tool": _tool,
    "remove": lambda role, content, kwargs: chat.RemoveMessage(**kwargs),
}


def _coercion_failure(message: str) -> str:
    """LangChain's message for a value that is no message, with its troubleshooting link."""
    return (
        f"{message}\nFor troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langchain/errors/MESSAGE_COERCION_FAILURE "
    )


def push_message(message: Any, *, state_key: str | None = "messages") -> Any:
    """Send ``message`` to the run's ``stream_mode="messages"`` now, from inside a node, and write it to
    ``state_key`` (``None``: not written), as ``langgraph.graph.message.push_message``. It needs an id."""
    from lab.config import get_config
    from lab.pregel.messages_stream import streams_in
    from lab.pregel.task import current_task

    config = get_config()
    message = _as_messages([message])[0]
    if message.id is None:
        raise ValueError("Message ID is required")
    for stream in streams_in(config.get("callbacks")):
        stream.pushed(config["metadata"], message)
    if state_key:
        current_task().writes.append((state_key, message))
    return message


class MessagesState(TypedDict):
    """A state with one key, ``messages``, reduced by ``add_messages``; subclass it to add keys."""

    messages: Annotated[list[AnyMessage], add_messages]


__all__ = ["REMOVE_ALL_MESSAGES", "MessagesState", "add_messages", "push_message"]
