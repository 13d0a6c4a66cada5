# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/add-memory (github.com/langchain-ai/docs
# src/oss/add-memory.mdx, commit 7df7f307), its Python block 20 (counting from 0).
# Changed: the names the block uses but defines elsewhere (model, tools) added above it: model is
# LangChain's GenericFakeChatModel with fixed replies (a subclass whose bind_tools returns itself, as
# LangGraph's own tests do), tools one get_weather function; InMemorySaver imported; then the agent runs two
# turns on thread 1 and prints each reply and the messages the hook passed on (the page's next block does so
# with its own model).

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver


class FakeChatModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


model = FakeChatModel(messages=iter([
    AIMessage(content="", tool_calls=[{"name": "get_weather", "args": {"city": "San Francisco"}, "id": "toolu_01"}]),
    AIMessage(content="It's always sunny in San Francisco! " * 40),
    AIMessage(content="Your name is Bob."),
]))


def get_weather(city: str) -> str:
    """Get weather for a given city."""
    return f"It's always sunny in {city}!"


tools = [get_weather]

from langchain_core.messages.utils import (
    trim_messages,
    count_tokens_approximately
)
from langgraph.prebuilt import create_react_agent

# This function will be called every time before the node that calls LLM
def pre_model_hook(state):
    trimmed_messages = trim_messages(
        state["messages"],
        strategy="last",
        token_counter=count_tokens_approximately,
        max_tokens=384,
        start_on="human",
        end_on=("human", "tool"),
    )
    return {"llm_input_messages": trimmed_messages}

checkpointer = InMemorySaver()
agent = create_react_agent(
    model,
    tools,
    pre_model_hook=pre_model_hook,
    checkpointer=checkpointer,
)

config = {"configurable": {"thread_id": "1"}}
response = agent.invoke({"messages": "hi, my name is bob; what's the weather in sf?"}, config)
print(response["messages"][-1].content)
response = agent.invoke({"messages": "what's my name?"}, config)
print(response["messages"][-1].content)
print([(m.type, m.content[:40]) for m in response["messages"]])
print(pre_model_hook(response)["llm_input_messages"])
