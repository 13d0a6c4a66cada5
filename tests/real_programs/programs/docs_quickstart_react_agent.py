# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/quickstart (github.com/langchain-ai/docs
# src/oss/quickstart.mdx, commit 7df7f307), its Python block 0 (counting from 0).
# Changed: model="anthropic:claude-3-7-sonnet-latest" replaced by a LangChain GenericFakeChatModel with
# fixed replies (a subclass whose bind_tools returns itself, as LangGraph's own tests do); the value of
# agent.invoke(...) printed.

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.prebuilt import create_react_agent


class FakeChatModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


model = FakeChatModel(messages=iter([
    AIMessage(content="", tool_calls=[{"name": "get_weather", "args": {"city": "San Francisco"}, "id": "toolu_01"}]),
    AIMessage(content="It's always sunny in San Francisco!"),
]))

def get_weather(city: str) -> str:  # (1)!
    """Get weather for a given city."""
    return f"It's always sunny in {city}!"

agent = create_react_agent(
    model=model,  # (2)!
    tools=[get_weather],  # (3)!
    prompt="You are a helpful assistant"  # (4)!
)

# Run the agent
print(agent.invoke(
    {"messages": [{"role": "user", "content": "what is the weather in sf"}]}
))
