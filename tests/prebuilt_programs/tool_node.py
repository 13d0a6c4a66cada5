"""ToolNode + tools_condition around a fake chat model: parallel calls, a bad argument, an unknown tool."""

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


@tool
def multiply(a: int, b: int) -> int:
    """Multiply a and b."""
    return a * b


def weather(city: str) -> dict:
    """The weather in a city."""
    return {"city": city, "sky": "sunny", "°C": 21}


calls = [
    {"name": "multiply", "args": {"a": "6", "b": 7}, "id": "call_1"},
    {"name": "weather", "args": {"city": "Paris"}, "id": "call_2"},
    {"name": "multiply", "args": {"a": "six"}, "id": "call_3"},
    {"name": "search", "args": {"q": "x"}, "id": "call_4"},
]
replies = [AIMessage("", tool_calls=calls), "6 x 7 = 42, sunny in Paris."]
llm = GenericFakeChatModel(messages=iter(replies * 2))


def assistant(state: MessagesState):
    return {"messages": [llm.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("assistant", assistant)
builder.add_node(ToolNode([multiply, weather]))
builder.add_edge(START, "assistant")
builder.add_conditional_edges("assistant", tools_condition)
builder.add_edge("tools", "assistant")
graph = builder.compile()

print(multiply.name, multiply.description, multiply.args)
print(graph.get_graph().draw_mermaid())
for chunk in graph.stream({"messages": [HumanMessage("6 x 7? weather in Paris?")]}, stream_mode="updates"):
    for node, update in chunk.items():
        print(node, [type(m).__name__ for m in update["messages"]])
result = graph.invoke({"messages": [HumanMessage("again")]})
for message in result["messages"]:
    message.pretty_print()
    print(repr(message))
