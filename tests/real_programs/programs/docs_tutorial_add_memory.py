# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/3-add-memory (github.com/langchain-ai/docs
# src/oss/3-add-memory.mdx, commit 7df7f307), its Python blocks 7, 2, 3, 4, 5, 6 (counting from 0).
# Changed: the page's full program (block 7) first, then its run blocks; the chat model the tutorial selects
# in a tab (llm; init_chat_model imported) is LangChain's GenericFakeChatModel with fixed replies (a
# subclass whose bind_tools returns itself, as LangGraph's own tests do); TavilySearch(max_results=2), which
# needs the network, is a @tool of the same name with a fixed answer; block 6's displayed value printed.

from typing import Annotated

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langchain_core.messages import BaseMessage
from typing_extensions import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition

class FakeChatModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


llm = FakeChatModel(messages=iter([
    "Hello Will! It's nice to meet you. How can I assist you today?",
    "Of course, I remember your name, Will.",
    "I'm sorry, but I don't have any previous context or memory of your name.",
]))


@tool
def TavilySearch(query: str) -> str:
    """A search engine."""
    return "LangGraph is a low-level orchestration framework for building stateful agents."


class State(TypedDict):
    messages: Annotated[list, add_messages]

graph_builder = StateGraph(State)

tool = TavilySearch
tools = [tool]
llm_with_tools = llm.bind_tools(tools)

def chatbot(state: State):
    return {"messages": [llm_with_tools.invoke(state["messages"])]}

graph_builder.add_node("chatbot", chatbot)

tool_node = ToolNode(tools=[tool])
graph_builder.add_node("tools", tool_node)

graph_builder.add_conditional_edges(
    "chatbot",
    tools_condition,
)
graph_builder.add_edge("tools", "chatbot")
graph_builder.set_entry_point("chatbot")
memory = InMemorySaver()
graph = graph_builder.compile(checkpointer=memory)

config = {"configurable": {"thread_id": "1"}}

user_input = "Hi there! My name is Will."

# The config is the **second positional argument** to stream() or invoke()!
events = graph.stream(
    {"messages": [{"role": "user", "content": user_input}]},
    config,
    stream_mode="values",
)
for event in events:
    event["messages"][-1].pretty_print()

user_input = "Remember my name?"

# The config is the **second positional argument** to stream() or invoke()!
events = graph.stream(
    {"messages": [{"role": "user", "content": user_input}]},
    config,
    stream_mode="values",
)
for event in events:
    event["messages"][-1].pretty_print()

# The only difference is we change the `thread_id` here to "2" instead of "1"
events = graph.stream(
    {"messages": [{"role": "user", "content": user_input}]},
    {"configurable": {"thread_id": "2"}},
    stream_mode="values",
)
for event in events:
    event["messages"][-1].pretty_print()

snapshot = graph.get_state(config)
print(snapshot)
