"""Academy-style human review of a tool call: interrupt_before the tools, inspect, resume; a checkpointer."""

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent


class ReviewModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


@tool
def send_money(to: str, amount: int) -> str:
    """Send money."""
    return f"sent {amount} to {to}"


model = ReviewModel(
    messages=iter(
        [
            AIMessage(
                "", tool_calls=[{"name": "send_money", "args": {"to": "bob", "amount": 5}, "id": "m1"}]
            ),
            "Done: 5 sent to bob.",
        ]
    )
)
agent = create_react_agent(
    model, [send_money], checkpointer=InMemorySaver(), interrupt_before=["tools"], version="v1"
)
config = {"configurable": {"thread_id": "1"}}
agent.invoke({"messages": [("user", "send bob 5")]}, config)
state = agent.get_state(config)
print(state.next, state.values["messages"][-1].tool_calls)
for chunk in agent.stream(None, config, stream_mode="values"):
    print(type(chunk["messages"][-1]).__name__, chunk["messages"][-1].content)
print(agent.get_state(config).next)
