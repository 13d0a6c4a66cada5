"""The chat message classes a ``MessagesState`` holds: ``langchain_core.messages``, or the lab's own.

LangGraph's ``add_messages`` builds LangChain's messages (``HumanMessage``, ``AIMessage``...).
Where ``langchain_core`` is importable (CPython, where it comes with LangGraph) this module *is*
those classes, so a lab graph and a LangGraph graph hold the very same objects. In the browser it
is not shipped, and this module gives the lab's pure-Python twins from ``lab.plain_messages``
instead (same names, fields, ``repr`` and equality); so are ``trim_messages`` and
``count_tokens_approximately`` (``lab.plain_message_utils``'s twins there). Either way, import them
from here::

    from lab.messages import AIMessage, HumanMessage, RemoveMessage

**Checkpoints.** Both kinds are on the serializer's allow-list (``lab.checkpoint.serde``), stored in
the form LangGraph's ``JsonPlusSerializer`` gives LangChain's messages: the record names LangChain's
class (``("langchain_core.messages.human", "HumanMessage")``) and its fields, whichever kind saved
it. A record loads as the kind this module gives: LangChain's where ``langchain_core`` is importable,
the lab's own where it is not. So a thread saved in the browser reads on CPython, and back.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from lab import plain_message_utils, plain_messages
from lab.checkpoint.serde import register_model

try:
    importlib.import_module("langchain_core.messages")
except ImportError:  # the browser: the lab's own classes
    USES_LANGCHAIN = False
else:
    USES_LANGCHAIN = True
"""Whether the classes below are ``langchain_core``'s (else the lab's own); decided once, here, for
``lab.tools`` and ``lab.chat_models`` too (never through the playground's resolver)."""


def langchain_or_twin(name: str, twin: ModuleType) -> Any:
    """``langchain_core``'s module ``name`` (``"messages"``, ``"tools"``...) where LangChain is
    importable, else the lab's pure-Python ``twin`` of it: where this module, ``lab.tools`` and
    ``lab.chat_models`` take their classes from."""
    return importlib.import_module(f"langchain_core.{name}") if USES_LANGCHAIN else twin


_CLASS_NAMES = (
    "HumanMessage",
    "AIMessage",
    "SystemMessage",
    "ToolMessage",
    "FunctionMessage",
    "RemoveMessage",
)

WIRE_MODULES = {
    "HumanMessage": "langchain_core.messages.human",
    "AIMessage": "langchain_core.messages.ai",
    "SystemMessage": "langchain_core.messages.system",
    "ToolMessage": "langchain_core.messages.tool",
    "FunctionMessage": "langchain_core.messages.function",
    "RemoveMessage": "langchain_core.messages.modifier",
}
"""The module a checkpoint names for each class: LangChain's, where its class is defined."""

_source: Any = langchain_or_twin("messages", plain_messages)

BaseMessage: Any = _source.BaseMessage
HumanMessage: Any = _source.HumanMessage
AIMessage: Any = _source.AIMessage
SystemMessage: Any = _source.SystemMessage
ToolMessage: Any = _source.ToolMessage
FunctionMessage: Any = _source.FunctionMessage
RemoveMessage: Any = _source.RemoveMessage
AnyMessage: Any = _source.AnyMessage

_utils: Any = langchain_or_twin("messages.utils", plain_message_utils)
trim_messages: Callable[..., list[Any]] = _utils.trim_messages
"""The messages that fit in ``max_tokens`` (``langchain_core.messages.utils``'s, or the lab's twin)."""
count_tokens_approximately: Callable[..., int] = _utils.count_tokens_approximately


AIMessageChunk: Any = _source.AIMessageChunk
"""A piece of an AI reply, as a chat model streams it (``stream_mode="messages"``)."""
message_chunk_to_message: Callable[[Any], Any] = _source.message_chunk_to_message
"""A streamed chunk (``AIMessageChunk``...) as its whole message; other messages as they are."""


def _allow_in_checkpoints() -> None:
    """Put both kinds on the allow-list; the kind this module gives is registered last, so records
    load as it (``register_model``)."""
    kinds = [plain_messages, _source] if USES_LANGCHAIN else [plain_messages]
    for kind in kinds:
        for name in _CLASS_NAMES:
            register_model(getattr(kind, name), (WIRE_MODULES[name], name))


_allow_in_checkpoints()

__all__ = [
    "AIMessage",
    "AIMessageChunk",
    "AnyMessage",
    "BaseMessage",
    "FunctionMessage",
    "HumanMessage",
    "RemoveMessage",
    "SystemMessage",
    "ToolMessage",
    "USES_LANGCHAIN",
    "count_tokens_approximately",
    "message_chunk_to_message",
    "trim_messages",
]
