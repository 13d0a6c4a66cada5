"""Fake chat models in pure Python, as ``langchain_core.language_models.fake_chat_models`` has them.

A LangGraph program calls an LLM through a chat model: ``model.invoke(messages)`` answers with an
``AIMessage``, which may ask for tools (``tool_calls``). LangChain's own tests, and a learner who
wants a program to run without a network, stand in for the LLM with a *fake* chat model that gives
fixed replies, in order. ``lab.chat_models`` gives LangChain's where ``langchain_core`` is installed
and these twins where it is not (the browser), so the LLM is replaced in one line either way::

    model = GenericFakeChatModel(messages=iter([AIMessage("", tool_calls=[...]), "Done."]))

- ``GenericFakeChatModel(messages=iterator)``: the next item of the iterator, a string made an
  ``AIMessage``;
- ``FakeListChatModel(responses=[text, ...])``: the next text as an ``AIMessage``, cycling;
- ``FakeMessagesListChatModel(responses=[message, ...])``: the next message itself, cycling.

As LangChain's, each gives a reply without an ``id`` one (``lc_run--<uuid>-0``, written into the
message), and none has ``bind_tools``: a program subclasses the model with a ``bind_tools`` that
returns it, as LangGraph's own tests do; so is ``with_structured_output(schema)`` (LangChain's
``function_calling`` way: the reply's tool call read as a Pydantic model, a ``TypedDict`` or a JSON
schema). Run in a graph streamed with ``stream_mode="messages"``, ``invoke`` streams the reply as
LangChain's does (``GenericFakeChatModel`` a chunk per word and whitespace, ``FakeListChatModel`` per
character; the reply is then what the chunks make, its id ``lc_run--<uuid>``) and tells the stream
(``lab.pregel.messages_stream``). Left out (refused by name): ``model.stream()``, ``batch``,
``with_structured_output(include_raw=True)`` and streaming a reply's ``additional_kwargs``.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any, ClassVar

from lab.config import current_config
from lab.graph.unsupported import NotSupportedError
from lab.messages import AIMessage, AIMessageChunk, BaseMessage

__all__ = ["BaseChatModel", "FakeListChatModel", "FakeMessagesListChatModel", "GenericFakeChatModel"]


class BaseChatModel:
    """A chat model: ``invoke(messages)`` -> an ``AIMessage``. Fields are keyword arguments."""

    required_fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **fields: Any) -> None:
        if missing := [name for name in self.required_fields if name not in fields]:
            raise TypeError(f"{type(self).__name__} needs {', '.join(f'{name}=' for name in missing)}")
        for name, value in fields.items():
            setattr(self, name, value)

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        """The next reply, given a string or a list of messages (the prompt itself is not read). Where
        a listener asks for it (``stream_mode="messages"``), a model that can stream streams it, as
        LangChain's does inside ``invoke``: the reply is then what its pieces make."""
        _check_input(input)
        config = config or current_config() or {}
        listeners = [
            listener
            for handler in config.get("callbacks") or ()
            if (listener := getattr(handler, "on_chat_model_reply", None))
        ]
        reply = self._next_reply()
        pieces = self._pieces(reply) if listeners else None
        if pieces is not None:
            reply = AIMessage(content="".join(piece.content for piece in pieces), id=pieces[0].id)
        elif reply.id is None:
            reply.id = f"lc_run--{uuid.uuid4()}-0"
        for listener in listeners:  # (where LangChain's model calls its callbacks)
            listener(self, reply, pieces or (), config)
        return reply

    async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        return self.invoke(input, config, **kwargs)

    def _pieces(self, reply: Any) -> list[Any] | None:
        """The chunks the model streams ``reply`` in; ``None``: it does not stream (LangChain's
        ``FakeMessagesListChatModel``)."""
        return None

    def _next_reply(self) -> Any:
        raise NotImplementedError

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} has no bind_tools (as in LangChain): subclass it with "
            "def bind_tools(self, tools, **kwargs): return self"
        )

    def with_structured_output(self, schema: Any, *, include_raw: bool = False, **kwargs: Any) -> Any:
        """The model bound to ``schema`` as its one tool, its reply's tool call read as ``schema`` (as
        LangChain's ``function_calling`` method: a subclass's ``bind_tools`` is what is called)."""
        kwargs.pop("method", None)
        kwargs.pop("strict", None)
        if kwargs:
            raise ValueError(f"Received unsupported arguments {kwargs}")
        if type(self).bind_tools is BaseChatModel.bind_tools:
            raise NotImplementedError("with_structured_output is not implemented for this model.")
        if include_raw:
            raise NotSupportedError(
                "with_structured_output(include_raw=True) on a fake chat model in the browser"
            )
        output_format = {"kwargs": {"method": "function_calling"}, "schema": schema}
        bound = self.bind_tools([schema], tool_choice="any", ls_structured_output_format=output_format)
        return StructuredOutput(bound, schema)

    def stream(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        raise NotSupportedError("streaming a fake chat model in the browser (use invoke)")

    def batch(self, inputs: Any, config: Any = None, **kwargs: Any) -> Any:
        raise NotSupportedError("batch() on a fake chat model in the browser (call invoke for each)")


class StructuredOutput:
    """``model.with_structured_output(schema)``: ``invoke`` answers the reply's tool call as ``schema``."""

    def __init__(self, model: Any, schema: Any) -> None:
        self.model = model
        self.schema = schema

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        return structured(self.model.invoke(input, config, **kwargs), self.schema)

    async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        return self.invoke(input, config, **kwargs)


def structured(reply: Any, schema: Any) -> Any:
    """What LangChain's tool-call parsers make of ``reply``: a Pydantic model from its first tool call
    (which must be the model's), else the arguments of its first call named as the schema (a
    ``TypedDict``'s name, a JSON schema's ``title``); ``None`` without one."""
    calls = getattr(reply, "tool_calls", None) or []
    if isinstance(schema, type) and hasattr(schema, "model_validate"):  # a Pydantic model
        if not calls:
            return None
        name = schema.model_config.get("title") or schema.__name__
        if calls[0]["name"] != name:
            raise ValueError(f"Unknown tool type: {calls[0]['name']!r}. Available tools: {name}")
        if not isinstance(calls[0]["args"], dict):
            raise ValueError(f"Tool arguments must be specified as a dict, received: {calls[0]['args']}")
        return schema(**calls[0]["args"])
    name = schema["title"] if isinstance(schema, dict) else schema.__name__
    return next((call["args"] for call in calls if call["name"] == name), None)


def _check_input(input: Any) -> None:
    if isinstance(input, str):
        return
    if isinstance(input, list | tuple) and all(
        isinstance(item, BaseMessage | str | dict | tuple | list) for item in input
    ):
        return
    raise ValueError(
        f"Invalid input type {type(input)}. Must be a PromptValue, str, or list of BaseMessages."
    )


class _Cycling(BaseChatModel):
    """Replies from ``responses``, in order, starting over after the last (``i``: the next one)."""

    required_fields = ("responses",)
    responses: list[Any]
    i: int = 0
    sleep: float | None = None

    def _next_response(self) -> Any:
        response = self.responses[self.i]
        self.i = self.i + 1 if self.i < len(self.responses) - 1 else 0
        return response


class FakeMessagesListChatModel(_Cycling):
    """Each reply is the next message of ``responses`` itself."""

    def _next_reply(self) -> Any:
        return self._next_response()


class FakeListChatModel(_Cycling):
    """Each reply is an ``AIMessage`` of the next text of ``responses`` (streamed a character a chunk)."""

    def _next_reply(self) -> Any:
        return AIMessage(content=self._next_response())

    def _pieces(self, reply: Any) -> list[Any] | None:
        return streamed(list(reply.content), f"lc_run--{uuid.uuid4()}")


class GenericFakeChatModel(BaseChatModel):
    """Each reply is the next item of ``messages`` (an iterator: ``iter([...])``); a string is made
    an ``AIMessage``."""

    required_fields = ("messages",)
    messages: Iterator[Any]

    def __init__(self, **fields: Any) -> None:
        super().__init__(**fields)
        if not isinstance(self.messages, Iterator):  # LangChain's Pydantic field refuses a list too
            raise ValueError(
                "GenericFakeChatModel: messages must be an iterator, as in messages=iter([...]); "
                f"got {type(self.messages).__name__}"
            )

    def _next_reply(self) -> Any:
        message = next(self.messages)
        return AIMessage(content=message) if isinstance(message, str) else message

    def _pieces(self, reply: Any) -> list[Any] | None:
        """A chunk per word and per whitespace character; its ``additional_kwargs`` are not streamed in
        the browser (LangChain streams each as a chunk of its own)."""
        if reply.additional_kwargs:
            raise NotSupportedError(
                "streaming a reply with additional_kwargs from a fake chat model in the browser"
            )
        if reply.content and not isinstance(reply.content, str):
            raise ValueError("Expected content to be a string.")
        tokens = re.split(r"(\s)", reply.content) if reply.content else []
        return streamed(tokens, reply.id or f"lc_run--{uuid.uuid4()}")


def streamed(tokens: list[str], id: str) -> list[Any]:
    """The chunks of a streamed reply, the last marked (LangChain's ``chunk_position="last"``); a reply
    with nothing to stream fails, as LangChain's does."""
    if not tokens:
        raise ValueError("No generations found in stream.")
    last = len(tokens) - 1
    return [
        AIMessageChunk(content=token, id=id, chunk_position="last" if i == last else None)
        for i, token in enumerate(tokens)
    ]
