"""``trim_messages`` and ``count_tokens_approximately``: the lab's twins (``lab.plain_message_utils``, what
the browser has) against ``langchain_core.messages.utils``' own.

Each case runs LangChain's function on LangChain's messages and the twin on the lab's own classes (the
same conversation built from each), and compares what comes back by ``repr`` (the twins' classes print
as LangChain's do), and the twin on LangChain's messages too (it reads a message by its ``type``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import langchain_core.messages as lc
import pytest
from langchain_core.messages import utils as langchain_utils

from lab import messages, plain_message_utils, plain_messages
from lab.graph.unsupported import NotSupportedError

LONG = "Whales are mammals.\nThey breathe air.\nSome sing for hours.\nOrcas hunt in pods."


def conversation(kind: Any) -> list[Any]:
    """A conversation of every kind of message, built from ``kind``'s classes."""
    call = {"name": "lookup", "args": {"animal": "orca"}, "id": "call_1"}
    return [
        kind.SystemMessage("You are a marine biologist.", id="0"),
        kind.HumanMessage("Hi, I am Lance.", name="Lance", id="1"),
        kind.AIMessage("Hello Lance.", id="2"),
        kind.HumanMessage("What do orcas eat?", id="3"),
        kind.AIMessage("", tool_calls=[call], id="4"),
        kind.ToolMessage("Seals and fish.", tool_call_id="call_1", id="5"),
        kind.AIMessage(LONG, id="6"),
        kind.HumanMessage(
            [{"type": "text", "text": "And narwhals?"}, {"type": "text", "text": LONG}], id="7"
        ),
    ]


def per_message(kind: Any) -> Callable[[Any], int]:
    """A token counter of one message (its parameter annotated with ``kind``'s ``BaseMessage``)."""

    def count(message: Any) -> int:
        return len(str(message.content)) // 10 + 1

    count.__annotations__["message"] = kind.BaseMessage  # (the class itself: this module's are strings)
    return count


CASES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "last, approximate": lambda kind: {"max_tokens": 60, "token_counter": "approximate"},
    "last, start on human, end on human or tool, with the system message": lambda kind: {
        "max_tokens": 90,
        "token_counter": langchain_utils.count_tokens_approximately
        if kind is lc
        else plain_message_utils.count_tokens_approximately,
        "start_on": "human",
        "end_on": ("human", "tool"),
        "include_system": True,
    },
    "last, partial text": lambda kind: {
        "max_tokens": 40,
        "token_counter": "approximate",
        "allow_partial": True,
    },
    "last, partial blocks": lambda kind: {
        "max_tokens": 25,
        "token_counter": "approximate",
        "allow_partial": True,
    },
    "first, by class": lambda kind: {
        "max_tokens": 55,
        "token_counter": "approximate",
        "strategy": "first",
        "end_on": kind.AIMessage,
    },
    "first, partial text": lambda kind: {
        "max_tokens": 92,
        "token_counter": "approximate",
        "strategy": "first",
        "allow_partial": True,
        "text_splitter": lambda text: text.split(" "),
    },
    "a counter of each message": lambda kind: {"max_tokens": 30, "token_counter": per_message(kind)},
    "a counter of the list": lambda kind: {"max_tokens": 4, "token_counter": len, "strategy": "first"},
    "everything fits": lambda kind: {"max_tokens": 10_000, "token_counter": len, "end_on": "tool"},
}


@pytest.mark.parametrize("case", CASES)
def test_trim_messages_keeps_what_langchains_keeps(case: str) -> None:
    theirs = langchain_utils.trim_messages(conversation(lc), **CASES[case](lc))
    ours = plain_message_utils.trim_messages(conversation(plain_messages), **CASES[case](plain_messages))
    assert repr(ours) == repr(theirs)
    assert ours != conversation(plain_messages) or case == "everything fits"
    on_langchains = plain_message_utils.trim_messages(conversation(lc), **CASES[case](lc))
    assert on_langchains == theirs


@pytest.mark.parametrize(
    "options", [{}, {"chars_per_token": 3.0, "extra_tokens_per_message": 1.5, "count_name": False}]
)
def test_count_tokens_approximately_counts_what_langchains_counts(options: dict[str, Any]) -> None:
    image = lc.HumanMessage([{"type": "image_url", "image_url": {"url": "x"}}, {"type": "other"}, "plain"])
    plain_image = plain_messages.HumanMessage(image.content)
    for theirs, ours in [
        *zip(conversation(lc), conversation(plain_messages), strict=True),
        (image, plain_image),
    ]:
        expected = langchain_utils.count_tokens_approximately([theirs], **options)
        assert plain_message_utils.count_tokens_approximately([ours], **options) == expected, theirs
    total = langchain_utils.count_tokens_approximately(conversation(lc), **options)
    assert plain_message_utils.count_tokens_approximately(conversation(plain_messages), **options) == total


def test_lab_messages_gives_langchains_functions_where_langchain_core_is_importable() -> None:
    assert messages.trim_messages is langchain_utils.trim_messages
    assert messages.count_tokens_approximately is langchain_utils.count_tokens_approximately


@pytest.mark.parametrize(
    ("call", "refused"),
    [
        (lambda: plain_message_utils.trim_messages(["hi"], max_tokens=5, token_counter=len), "given as str"),
        (lambda: plain_message_utils.trim_messages(max_tokens=5, token_counter=len), "without messages"),
        (lambda: plain_message_utils.count_tokens_approximately([], tools=[{"name": "t"}]), "tools=..."),
    ],
)
def test_what_the_twins_leave_out_is_refused_by_name(call: Callable[[], Any], refused: str) -> None:
    with pytest.raises(NotSupportedError, match=refused):
        call()


def test_langchains_argument_errors_are_the_twins() -> None:
    for strategy_error in ({"start_on": "human"}, {"include_system": True}):
        with pytest.raises(ValueError, match="only valid with strategy='last'"):
            plain_message_utils.trim_messages(
                [], max_tokens=1, token_counter=len, strategy="first", **strategy_error
            )
    with pytest.raises(ValueError, match="Invalid token_counter shortcut 'exact'"):
        plain_message_utils.trim_messages([], max_tokens=1, token_counter="exact")
