"""Differential scenarios for ``stream_mode="messages"``: each chunk a ``(message, metadata)`` pair.

``stream_messages_tokens`` streams a chat model that streams (LangChain's ``GenericFakeChatModel``:
a token per word) and is compared in full, metadata included; it runs where ``langchain_core`` is
installed (both flavours use LangChain's models there). ``messages_stream_whole_replies`` uses models
that reply whole, ``push_message`` and a subgraph; being a ``messages_`` scenario it runs again with
``langchain_core`` unimportable (``test_messages_fallback.py``): the lab's twin models stream through
the same lab code. Its chunks show their metadata without ``lc_versions`` (the ``langchain-core``
version LangChain's models add; the browser has none), every other key in LangGraph's order.
"""

from typing import Any

from .scenarios import scenario
from .scenarios_messages import chat_graph
from .trace import Trace, thread


def chunks_shown(t: Trace, label: str, app: Any, inp: Any, config: Any, **kwargs: Any) -> None:
    """The chunks of ``app.stream(..., stream_mode="messages")`` (``(namespace, pair)`` with
    ``subgraphs=True``), each pair's metadata without ``lc_versions``."""

    def without_versions(pair: tuple) -> tuple:
        message, metadata = pair
        return message, {key: value for key, value in metadata.items() if key != "lc_versions"}

    def shown(chunk: tuple) -> tuple:
        if isinstance(chunk[1], dict):
            return without_versions(chunk)
        return chunk[0], without_versions(chunk[1])

    t.call(
        label, lambda: [shown(chunk) for chunk in app.stream(inp, config, stream_mode="messages", **kwargs)]
    )


def agent_graph(t: Trace) -> Any:
    """START -> agent -> quiet -> wrap_up -> END: ``agent`` asks a chat model that streams a token per
    word, ``quiet`` one tagged ``"nostream"`` (passing its config on), ``wrap_up`` returns a ``Command``
    whose update repeats a message of its input and adds one."""
    fl = t.fl
    talker = fl.GenericFakeChatModel(messages=iter(["Hello there, learner", "Second turn"]))
    hushed = fl.GenericFakeChatModel(messages=iter(["hidden words", "more hidden"]), tags=["nostream"])

    def agent(state: dict) -> dict:
        return {"messages": [talker.invoke(state["messages"])]}

    def quiet(
        state: dict, config
    ) -> dict:  # (passed on, as some docs do; typed `dict`, LangGraph passes none)
        return {"messages": hushed.invoke(state["messages"], config)}

    def wrap_up(state: dict) -> Any:
        done = fl.AIMessage("done", id=f"done-{len(state['messages'])}")
        return fl.Command(update={"messages": [state["messages"][0], done]})

    return chat_graph(t, agent=agent, quiet=quiet, wrap_up=wrap_up)


@scenario
def stream_messages_tokens(t: Trace) -> None:
    """A chat model's tokens as they stream (one chunk per word, the last marked), a ``"nostream"``
    model's reply only as its node's output, a node's new messages once (its input's are not
    repeated); metadata: the node's step, name, triggers, path and namespace, the thread, the model's
    ``ls_*`` fields. With ``["messages", "updates"]`` each chunk is named by its mode."""
    app = agent_graph(t)
    first = thread("tokens", run_id="run-1", api_key="not shown")
    t.stream(app, {"messages": [("user", "hi")]}, first, stream_mode="messages")
    again = thread("tokens", run_id="run-2")  # (LangGraph streams nothing for a run_id used before)
    t.stream(
        app,
        {"messages": [("user", "again")]},
        again,
        label="stream again",
        stream_mode=["messages", "updates"],
    )


@scenario
def messages_stream_whole_replies(t: Trace) -> None:
    """Chat models that reply whole (``FakeMessagesListChatModel``): the reply is one chunk;
    ``push_message`` sends at once (and writes the state); a subgraph's messages come as its parent
    node's output, or, with ``subgraphs=True``, from the subgraph's own node, named by its namespace."""
    fl = t.fl
    replies = [fl.AIMessage("a whole reply", id="reply-1"), fl.AIMessage("and another", id="reply-2")]
    model = fl.FakeMessagesListChatModel(responses=replies)

    def respond(state: dict) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    def announce(state: dict) -> dict:
        fl.push_message(fl.AIMessage("working on it", id=f"push-{len(state['messages'])}"))
        return {"messages": [fl.HumanMessage("thanks", id=f"thanks-{len(state['messages'])}")]}

    inner = chat_graph(t, checkpointer=False, respond=respond)
    app = chat_graph(t, announce=announce, inner=inner)
    chunks_shown(t, "stream", app, {"messages": [("user", "hi")]}, thread("whole"))
    chunks_shown(t, "subgraphs=True", app, {"messages": [("user", "more")]}, thread("whole"), subgraphs=True)
