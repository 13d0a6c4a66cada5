"""``trim_messages`` and ``count_tokens_approximately`` in pure Python, as ``langchain_core.messages.utils``
has them (for where it is not installed).

A chat model takes so many tokens; LangGraph's memory how-tos keep a conversation under that with
``trim_messages(state["messages"], max_tokens=..., strategy="last", token_counter=...)``, counting
with ``count_tokens_approximately`` (about four characters a token, three tokens more per message).
These twins follow LangChain's (``langchain_core`` 1.x) step for step: the same binary searches, the
same ``start_on`` / ``end_on`` / ``include_system`` rules and the same partial message (``allow_partial``:
a list content cut block by block, else a text cut at its newlines), so a program trims the same
messages in the browser as on CPython. They read a message by its ``type`` (``"ai"``, ``"human"``...),
so they work on LangChain's classes and on the lab's own (``lab.plain_messages``) alike.

Left out, refused by name: a message given as anything but a message object (a string, a tuple, a
dict), ``trim_messages`` without messages (LangChain's returns a ``Runnable`` then), and
``count_tokens_approximately``'s ``tools=`` and ``use_usage_metadata_scaling=``.
"""

from __future__ import annotations

import copy
import inspect
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal

__all__ = ["count_tokens_approximately", "trim_messages"]

MessageType = str | type | Sequence[str | type]
"""A message type as ``start_on`` / ``end_on`` name it: ``"human"``, ``HumanMessage``, or several."""
Counter = Callable[[list[Any]], int]

ROLES = {"ai": "assistant", "human": "user", "tool": "tool", "function": "function"}
"""A message's role as OpenAI names it (what ``count_tokens_approximately`` counts), by its ``type``."""


def refused(feature: str) -> Exception:
    """The refusal by name of ``feature`` (imported here: ``lab.messages`` imports this module, and
    ``lab.graph``'s package imports ``lab.messages``)."""
    from lab.graph.unsupported import NotSupportedError

    return NotSupportedError(feature)


def messages_of(messages: Any, what: str) -> list[Any]:
    """``messages`` as a list of message objects; any other form of message is refused by name."""
    given = list(messages)
    for message in given:
        if not hasattr(message, "type") or not hasattr(message, "content"):
            raise refused(f"{what} of a message given as {type(message).__name__} (give messages)")
    return given


def role_of(message: Any) -> str:
    """The OpenAI role of ``message`` (a system message may say another in ``__openai_role__``)."""
    if message.type == "system":
        role = message.additional_kwargs.get("__openai_role__", "system")
        if not isinstance(role, str):
            raise TypeError(f"Expected '__openai_role__' to be a str, got {type(role).__name__}")
        return role
    if message.type == "chat":
        return message.role
    if message.type not in ROLES:
        raise ValueError(f"Unknown BaseMessage type {message.__class__}.")
    return ROLES[message.type]


def content_chars(message: Any) -> tuple[int, int]:
    """The characters ``message``'s content counts, and how many images it holds (counted apart)."""
    if isinstance(message.content, str):
        return len(message.content), 0
    if not isinstance(message.content, list):
        return len(repr(message.content)), 0
    chars, images = 0, 0
    for block in message.content:
        kind = block.get("type", "") if isinstance(block, dict) else None
        if isinstance(block, str):
            chars += len(block)
        elif kind in ("image", "image_url"):
            images += 1
        elif kind == "text":
            chars += len(block.get("text", ""))
        else:
            chars += len(repr(block))
    return chars, images


def count_tokens_approximately(
    messages: Any,
    *,
    chars_per_token: float = 4.0,
    extra_tokens_per_message: float = 3.0,
    count_name: bool = True,
    tokens_per_image: int = 85,
    use_usage_metadata_scaling: bool = False,
    tools: Any = None,
) -> int:
    """About how many tokens ``messages`` take: each message's characters (content, tool calls, role,
    name) over ``chars_per_token`` rounded up, plus ``extra_tokens_per_message``."""
    if tools or use_usage_metadata_scaling:
        raise refused("count_tokens_approximately(tools=..., use_usage_metadata_scaling=...)")
    count = 0.0
    for message in messages_of(messages, "count_tokens_approximately"):
        chars, images = content_chars(message)
        count += images * tokens_per_image
        if message.type == "ai" and not isinstance(message.content, list) and message.tool_calls:
            chars += len(repr(message.tool_calls))
        if message.type == "tool":
            chars += len(message.tool_call_id)
        chars += len(role_of(message))
        if message.name and count_name:
            chars += len(message.name)
        count += math.ceil(chars / chars_per_token) + extra_tokens_per_message
    return math.ceil(count)


def trim_messages(
    messages: Any = None,
    *,
    max_tokens: int,
    token_counter: Any,
    strategy: Literal["first", "last"] = "last",
    allow_partial: bool = False,
    end_on: MessageType | None = None,
    start_on: MessageType | None = None,
    include_system: bool = False,
    text_splitter: Callable[[str], list[str]] | None = None,
) -> list[Any]:
    """The messages of ``messages`` that fit in ``max_tokens``: the first ones or the last ones
    (``strategy``), as LangChain's ``trim_messages`` picks them."""
    if start_on and strategy == "first":
        raise ValueError("start_on parameter is only valid with strategy='last'")
    if include_system and strategy == "first":
        raise ValueError("include_system parameter is only valid with strategy='last'")
    if messages is None:
        raise refused("trim_messages(...) without messages (a Runnable)")
    given = messages_of(messages, "trim_messages")
    counter = list_counter(token_counter)
    splitter = text_splitter or split_lines
    if strategy == "first":
        partial = "first" if allow_partial else None
        return first_max_tokens(given, max_tokens, counter, splitter, partial, end_on)
    if strategy == "last":
        return last_max_tokens(
            given, max_tokens, counter, splitter, allow_partial, include_system, start_on, end_on
        )
    raise ValueError(f"Unrecognized {strategy=}. Supported strategies are 'last' and 'first'.")


def list_counter(token_counter: Any) -> Counter:
    """``token_counter`` as a count of a list of messages: ``"approximate"``, a model's
    ``get_num_tokens_from_messages``, a function of a list, or of one message (its first parameter
    annotated ``BaseMessage``: summed)."""
    if isinstance(token_counter, str):
        if token_counter != "approximate":
            raise ValueError(
                f"Invalid token_counter shortcut '{token_counter}'. Available shortcuts: 'approximate'."
            )
        return count_tokens_approximately
    if hasattr(token_counter, "get_num_tokens_from_messages"):
        return token_counter.get_num_tokens_from_messages
    if not callable(token_counter):
        raise ValueError(
            "'token_counter' expected to be a model that implements 'get_num_tokens_from_messages()' or a "
            f"function. Received object of type {type(token_counter)}."
        )
    first = next(iter(inspect.signature(token_counter).parameters.values())).annotation
    if isinstance(first, type) and first.__name__ == "BaseMessage":  # (a class: a string is not matched)
        return lambda messages: sum(token_counter(message) for message in messages)
    return token_counter


def split_lines(text: str) -> list[str]:
    """LangChain's default splitter: each line keeps its newline."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + parts[-1:]


def is_type(message: Any, wanted: MessageType) -> bool:
    """Whether ``message`` is of a type ``wanted`` names (a ``type`` string or a class)."""
    kinds = [wanted] if isinstance(wanted, str | type) else list(wanted)
    names = [kind for kind in kinds if isinstance(kind, str)]
    classes = tuple(kind for kind in kinds if isinstance(kind, type))
    return message.type in names or isinstance(message, classes)


def most_that_fit(count: int, fits: Callable[[int], bool]) -> int:
    """The largest ``n`` in ``0..count`` for which ``fits(n)``, by LangChain's binary search (as many
    rounds as ``count`` has bits)."""
    left, right = 0, count
    for _ in range(count.bit_length()):
        if left >= right:
            break
        middle = (left + right + 1) // 2
        if fits(middle):
            left = middle
        else:
            right = middle - 1
    return left


def first_max_tokens(
    messages: list[Any],
    max_tokens: int,
    counter: Counter,
    splitter: Callable[[str], list[str]],
    partial: Literal["first", "last"] | None,
    end_on: MessageType | None,
) -> list[Any]:
    """The first messages that fit (``partial``: and part of the next one), ending on ``end_on``."""
    if not messages:
        return messages
    if counter(messages) <= max_tokens:
        while end_on and messages and not is_type(messages[-1], end_on):
            messages.pop()
        return messages
    kept = most_that_fit(len(messages), lambda n: counter(messages[:n]) <= max_tokens)
    if partial and kept < len(messages):
        part = partial_message(messages[:kept], messages[kept], max_tokens, counter, splitter, partial)
        if part is not None:
            messages, kept = [*messages[:kept], part], kept + 1
    while end_on and kept > 0 and not is_type(messages[kept - 1], end_on):
        kept -= 1
    return messages[:kept]


def partial_message(
    before: list[Any],
    message: Any,
    max_tokens: int,
    counter: Counter,
    splitter: Callable[[str], list[str]],
    partial: Literal["first", "last"],
) -> Any:
    """As much of ``message`` as fits after ``before``: its leading (``"last"``: trailing) content
    blocks, else the first text's leading (trailing) lines; ``None`` if nothing fits."""
    cut = copy.deepcopy(message)
    if isinstance(cut.content, list):
        blocks = cut.content if partial == "first" else cut.content[::-1]
        for size in range(len(blocks) - 1, 0, -1):
            cut.content = blocks[:size]
            if counter([*before, cut]) <= max_tokens:
                cut.content = blocks[:size] if partial == "first" else blocks[:size][::-1]
                return cut
    text = first_text(cut.content)
    if not text:
        return None
    parts = splitter(text)
    parts = parts if partial == "first" else parts[::-1]
    base = counter(before)

    def fits(count: int) -> bool:
        cut.content = "".join(parts[:count])
        return base + counter([cut]) <= max_tokens

    kept = most_that_fit(len(parts), fits)
    if kept == 0:
        return None
    cut.content = "".join(parts[:kept] if partial == "first" else parts[:kept][::-1])
    return cut


def first_text(content: Any) -> str | None:
    """A content's text: the string, or the first text block of a list."""
    if isinstance(content, str):
        return content
    for block in content or ():
        if isinstance(block, str):
            return block
        if isinstance(block, dict) and block.get("type") == "text":
            return block.get("text")
    return None


def last_max_tokens(
    messages: list[Any],
    max_tokens: int,
    counter: Counter,
    splitter: Callable[[str], list[str]],
    allow_partial: bool,
    include_system: bool,
    start_on: MessageType | None,
    end_on: MessageType | None,
) -> list[Any]:
    """The last messages that fit, ending on ``end_on`` and starting on ``start_on``; a leading
    system message kept first (``include_system``)."""
    if not messages:
        return []
    while end_on and messages and not is_type(messages[-1], end_on):
        messages.pop()
    system = messages[0] if include_system and messages and messages[0].type == "system" else None
    if system is not None:
        messages = messages[1:]
        max_tokens = max(0, max_tokens - counter([system]))
    partial = "last" if allow_partial else None
    kept = first_max_tokens(messages[::-1], max_tokens, counter, splitter, partial, start_on)[::-1]
    return [system, *kept] if system is not None else kept
