# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/4-human-in-the-loop (github.com/langchain-ai/docs
# src/oss/4-human-in-the-loop.mdx, commit 7df7f307), its Python blocks 0, 1, 3, 4 (counting from 0).
# Changed: the chat model the tutorial selects in a tab (llm) is LangChain's GenericFakeChatModel with fixed
# replies (a subclass whose bind_tools returns itself, as LangGraph's own tests do);
# TavilySearch(max_results=2), which needs the network, is a @tool of the same name with a fixed answer;
# block 4's displayed value printed; the tutorial's step 5 (resume with a Command), whose indentation the
# page's source lost, added as it reads there.

from typing import Annotated

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from typing_extensions import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import StateGraph, START, END
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition

from langgraph.types import Command, interrupt

class FakeChatModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


llm = FakeChatModel(messages=iter([
    AIMessage(content="", tool_calls=[{"name": "human_assistance", "args": {"query": "A user is requesting expert guidance for building an AI agent."}, "id": "toolu_01"}]),
    AIMessage(content="The experts recommend LangGraph for building your agent: it is more reliable and extensible than simple autonomous agents."),
]))


@tool
def TavilySearch(query: str) -> str:
    """A search engine."""
    return "LangGraph is a low-level orchestration framework for building stateful agents."


class State(TypedDict):
    messages: Annotated[list, add_messages]

graph_builder = StateGraph(State)

@tool
def human_assistance(query: str) -> str:
    """Request assistance from a human."""
    human_response = interrupt({"query": query})
    return human_response["data"]

tool = TavilySearch
tools = [tool, human_assistance]
llm_with_tools = llm.bind_tools(tools)

def chatbot(state: State):
    message = llm_with_tools.invoke(state["messages"])
    # Because we will be interrupting during tool execution,
    # we disable parallel tool calling to avoid repeating any
    # tool invocations when we resume.
    assert len(message.tool_calls) <= 1
    return {"messages": [message]}

graph_builder.add_node("chatbot", chatbot)

tool_node = ToolNode(tools=tools)
graph_builder.add_node("tools", tool_node)

graph_builder.add_conditional_edges(
    "chatbot",
    tools_condition,
)
graph_builder.add_edge("tools", "chatbot")
graph_builder.add_edge(START, "chatbot")

memory = InMemorySaver()

graph = graph_builder.compile(checkpointer=memory)

user_input = "I need some expert guidance for building an AI agent. Could you request assistance for me?"
config = {"configurable": {"thread_id": "1"}}

events = graph.stream(
    {"messages": [{"role": "user", "content": user_input}]},
    config,
    stream_mode="values",
)
for event in events:
    if "messages" in event:
        event["messages"][-1].pretty_print()

snapshot = graph.get_state(config)
print(snapshot.next)

human_response = (
    "We, the experts are here to help! We'd recommend you check out LangGraph to build your agent."
    " It's much more reliable and extensible than simple autonomous agents."
)

human_command = Command(resume={"data": human_response})

events = graph.stream(human_command, config, stream_mode="values")
for event in events:
    if "messages" in event:
        event["messages"][-1].pretty_print()
