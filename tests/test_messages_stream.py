"""``stream_mode="messages"`` (``lab.pregel.messages_stream``) with the lab's twin chat models beside
LangChain's own, on the lab's runtime: a twin streams what LangChain's model streams, fails where it
fails, and refuses by name what it leaves out. (What the chunks are against real LangGraph is judged
by the differential scenarios ``messages_stream_*``, with and without ``langchain_core``.)
"""

import re
from typing import Any

import pytest
from langchain_core.language_models import fake_chat_models as lc_models
from langchain_core.messages import AIMessage

from lab import plain_chat_models
from lab.config import get_config
from lab.graph import START, MessagesState, StateGraph
from lab.graph.unsupported import NotSupportedError

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def one_node_graph(model: Any) -> Any:
    return (
        StateGraph(MessagesState)
        .add_node("call_model", lambda state: {"messages": [model.invoke(state["messages"])]})
        .add_edge(START, "call_model")
        .compile()
    )


def streamed(model: Any) -> list[Any]:
    """Each chunk as (class, content, id, chunk_position, node), then the reply the state kept."""
    chunks: list[Any] = []
    for mode, chunk in one_node_graph(model).stream({"messages": "hi"}, stream_mode=["messages", "values"]):
        if mode == "messages":
            message, metadata = chunk
            shown = (type(message).__name__, message.content, UUID.sub("<id>", message.id))
            chunks.append((*shown, getattr(message, "chunk_position", None), metadata["langgraph_node"]))
        else:
            last = chunk["messages"][-1]
    return [*chunks, (type(last).__name__, last.content, UUID.sub("<id>", last.id))]


@pytest.mark.parametrize(
    "make",
    [
        lambda m: m.GenericFakeChatModel(messages=iter(["two  words"])),
        lambda m: m.GenericFakeChatModel(messages=iter([AIMessage("kept id", id="mine")])),
        lambda m: m.FakeListChatModel(responses=["abc"]),
        lambda m: m.FakeMessagesListChatModel(responses=[AIMessage("whole")]),
    ],
    ids=["generic", "generic-with-id", "list", "messages-list"],
)
def test_a_twin_streams_what_langchains_model_streams(make: Any) -> None:
    ours, theirs = streamed(make(plain_chat_models)), streamed(make(lc_models))
    assert ours == theirs
    assert len(ours) > 1  # something was streamed, and the state kept the reply


def test_a_twin_fails_where_langchains_fails_and_refuses_what_it_leaves_out() -> None:
    tool_call = AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": "1"}])
    for module in (plain_chat_models, lc_models):
        model = module.GenericFakeChatModel(messages=iter([tool_call]))
        with pytest.raises(ValueError, match="No generations found in stream."):
            list(one_node_graph(model).stream({"messages": "hi"}, stream_mode="messages"))
    model = plain_chat_models.GenericFakeChatModel(
        messages=iter([AIMessage("x", additional_kwargs={"a": 1})])
    )
    with pytest.raises(NotSupportedError, match="additional_kwargs"):
        list(one_node_graph(model).stream({"messages": "hi"}, stream_mode="messages"))


def test_a_run_not_streaming_messages_gives_its_nodes_no_callbacks() -> None:
    seen: list[Any] = []

    def node(state: dict) -> dict:
        seen.append(get_config().get("callbacks"))
        return {}

    graph = StateGraph(MessagesState).add_node("node", node).add_edge(START, "node").compile()
    graph.invoke({"messages": []})
    list(graph.stream({"messages": []}, stream_mode="messages"))
    assert seen[0] is None and len(seen[1]) == 1
