# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/use-streaming (github.com/langchain-ai/docs
# src/oss/use-streaming.mdx, commit 7df7f307), its Python block 4 (counting from 0).
# Changed: model="anthropic:claude-3-7-sonnet-latest" replaced by a LangChain GenericFakeChatModel with
# fixed replies (a subclass whose bind_tools returns itself, as LangGraph's own tests do), with the imports
# the block leaves out (create_react_agent).

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.prebuilt import create_react_agent
from langgraph.config import get_stream_writer


class FakeChatModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


model = FakeChatModel(messages=iter([
    AIMessage(content="", tool_calls=[{"name": "get_weather", "args": {"city": "San Francisco"}, "id": "toolu_01"}]),
    AIMessage(content="It's always sunny in San Francisco!"),
]))

def get_weather(city: str) -> str:
    """Get weather for a given city."""
    writer = get_stream_writer()
    # stream any arbitrary data
    writer(f"Looking up data for city: {city}")
    return f"It's always sunny in {city}!"

agent = create_react_agent(
    model=model,
    tools=[get_weather],
)

for chunk in agent.stream(
    {"messages": [{"role": "user", "content": "what is the weather in sf"}]},
    stream_mode="custom"
):
    print(chunk)
    print("\n")
