"""A tool that asks a human (interrupt() inside the tool): the run stops in the tools node, and the resume
value becomes the tool's answer; a tool that raises a ToolException is answered with handle_tool_errors."""

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import ToolException, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command, interrupt


@tool
def ask_human(question: str) -> str:
    """Ask a human."""
    return f"the human said: {interrupt({'question': question})}"


@tool
def flaky(x: int) -> str:
    """Fails on purpose."""
    raise ToolException(f"cannot do {x}")


llm = FakeMessagesListChatModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[
                {"name": "ask_human", "args": {"question": "go?"}, "id": "h1"},
                {"name": "flaky", "args": {"x": 3}, "id": "f1"},
            ],
        ),
        AIMessage("done"),
    ]
)


def assistant(state: MessagesState):
    return {"messages": [llm.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("assistant", assistant)
builder.add_node("tools", ToolNode([ask_human, flaky], handle_tool_errors=ToolException))
builder.add_edge(START, "assistant")
builder.add_conditional_edges("assistant", tools_condition)
builder.add_edge("tools", "assistant")
graph = builder.compile(checkpointer=InMemorySaver())

config = {"configurable": {"thread_id": "1"}}
first = graph.invoke({"messages": [("user", "hi")]}, config)
print([interrupt.value for interrupt in first["__interrupt__"]], graph.get_state(config).next)
final = graph.invoke(Command(resume="yes"), config)
print([(type(m).__name__, m.content, getattr(m, "status", None)) for m in final["messages"]])
