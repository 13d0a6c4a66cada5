"""How ToolNode answers a tool that raises: by default the run fails; handle_tool_errors answers it."""

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode


@tool
def divide(a: float, b: float) -> float:
    """Divide a by b."""
    return a / b


def handle_zero(error: ZeroDivisionError) -> str:
    return f"cannot divide: {error}"


call = AIMessage("", tool_calls=[{"name": "divide", "args": {"a": 1, "b": 0}, "id": "d1"}])
for handling in ("default", True, "Try again.", handle_zero, ValueError, False):
    options = {} if handling == "default" else {"handle_tool_errors": handling}
    graph = (
        StateGraph(MessagesState).add_node(ToolNode([divide], **options)).add_edge(START, "tools").compile()
    )
    try:
        print(repr(graph.invoke({"messages": [call]})["messages"][-1]))
    except Exception as error:
        print("raised", type(error).__name__, error)

chat = FakeListChatModel(responses=["one", "two"])
print([chat.invoke("hi").content for _ in range(3)], chat.i)
print(
    divide.invoke({"a": "3", "b": 2}),
    divide.invoke({"name": "divide", "args": {"a": 3, "b": 2}, "id": "x", "type": "tool_call"}),
)
