"""Differential scenarios for ``stream_mode="messages"``: each chunk a ``(message, metadata)`` pair.

``messages_stream_tokens`` streams a chat model that streams (``GenericFakeChatModel``: a chunk per
word), ``messages_stream_whole_replies`` models that reply whole, ``push_message`` and a subgraph. As
``messages_`` scenarios they run twice on the lab: with LangChain's models (``langchain_core``
installed) and again with it unimportable (``test_messages_fallback.py``), the lab's twin models
then streaming through the same lab code. Chunks show their metadata without ``lc_versions`` (the
``langchain-core`` version LangChain's models add; the browser has none).
"""

import asyncio
from typing import Any

from .scenarios import scenario
from .scenarios_messages import chat_graph
from .trace import Trace, thread


def chunks_shown(
    t: Trace,
    label: str,
    app: Any,
    inp: Any,
    config: Any,
    stream_mode: Any = "messages",
    subgraphs: bool = False,
) -> None:
    """The chunks of ``app.stream(...)``, each ``messages`` chunk's metadata without ``lc_versions``."""
    several = isinstance(stream_mode, list)

    def without_versions(pair: tuple) -> tuple:
        message, metadata = pair
        return message, {key: value for key, value in metadata.items() if key != "lc_versions"}

    def shown(chunk: tuple) -> tuple:
        if not (several or subgraphs):
            return without_versions(chunk)
        *head, payload = chunk  # (namespace, mode, payload) with both, one of them with one
        if several and head[-1] != "messages":
            return chunk
        return (*head, without_versions(payload))

    chunks = lambda: app.stream(inp, config, stream_mode=stream_mode, subgraphs=subgraphs)  # noqa: E731
    t.call(label, lambda: [shown(chunk) for chunk in chunks()])


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
def messages_stream_tokens(t: Trace) -> None:
    """A chat model's tokens as they stream (one chunk per word, the last marked), a ``"nostream"``
    model's reply only as its node's output, a node's new messages once (its input's are not
    repeated); metadata: the node's step, name, triggers, path and namespace, the thread, the model's
    ``ls_*`` fields. With ``["messages", "updates"]`` each chunk is named by its mode."""
    app = agent_graph(t)
    first = thread("tokens", run_id="run-1", api_key="not shown")
    chunks_shown(t, "stream", app, {"messages": [("user", "hi")]}, first)
    again = thread("tokens", run_id="run-2")  # (LangGraph streams nothing for a run_id used before)
    chunks_shown(t, "stream again", app, {"messages": [("user", "again")]}, again, ["messages", "updates"])


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
    more = {"messages": [("user", "more")]}
    chunks_shown(t, "subgraphs=True", app, more, thread("whole"), subgraphs=True)


@scenario
def messages_stream_tasks_and_async(t: Trace) -> None:
    """An entrypoint's ``@task`` calls: a model's tokens, and the message a task returns, are its own
    (``langgraph_node`` the task's name); an ``async def`` node awaiting ``ainvoke`` under ``astream``."""
    fl = t.fl
    model = fl.GenericFakeChatModel(messages=iter(["from a task", "from async"]))

    @fl.task
    def ask(question: str) -> Any:
        return model.invoke(question)

    @fl.task
    def note(text: str) -> Any:
        return fl.AIMessage(text, id="note-1")

    @fl.entrypoint()
    def flow(question: str) -> dict:
        return {"messages": [ask(question).result(), note("noted").result()]}

    chunks_shown(t, "entrypoint", flow, "hi", None)

    async def respond(state: dict) -> dict:
        return {"messages": [await model.ainvoke(state["messages"])]}

    app = chat_graph(t, checkpointer=False, respond=respond)

    async def streamed() -> list:
        return [chunk async for chunk in app.astream({"messages": [("user", "hi")]}, stream_mode="messages")]

    t.call(
        "astream",
        lambda: [(message.content, meta["langgraph_node"]) for message, meta in asyncio.run(streamed())],
    )
