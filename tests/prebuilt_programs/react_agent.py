"""create_react_agent over a fake chat model that binds tools, with a prompt and a return_direct tool."""

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


class ToolCallingModel(FakeMessagesListChatModel):
    def bind_tools(self, tools, **kwargs):
        print("bound", [t.name for t in tools])
        return self


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@tool(return_direct=True)
def lookup(key: str) -> str:
    """Look a key up."""
    return f"value of {key}"


model = ToolCallingModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[
                {"name": "add", "args": {"a": 1, "b": 2}, "id": "c1"},
                {"name": "add", "args": {"a": 3, "b": 4}, "id": "c2"},
            ],
        ),
        AIMessage("1 + 2 = 3 and 3 + 4 = 7"),
        AIMessage("", tool_calls=[{"name": "lookup", "args": {"key": "k"}, "id": "c3"}]),
    ]
)
agent = create_react_agent(model, [add, lookup], prompt="You are a calculator.")
print(sorted(agent.get_graph().nodes))
print(agent.get_graph().draw_mermaid())  # the tools node lists its tools
for text in ("add please", "look k up"):
    # (the parallel tools' "updates" chunks come in the order their threads end: print whole states)
    for state in agent.stream({"messages": [("user", text)]}, stream_mode="values"):
        print([(type(m).__name__, m.content, m.name) for m in state["messages"]])
    print("---")
print(model.i)
