# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/use-streaming (github.com/langchain-ai/docs
# src/oss/use-streaming.mdx, commit 7df7f307), its Python block 19 (counting from 0).
# Changed: init_chat_model(model="openai:gpt-4o-mini") replaced by LangChain's GenericFakeChatModel with a
# fixed reply (it streams its reply word by word).

from dataclasses import dataclass

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langgraph.graph import StateGraph, START


@dataclass
class MyState:
    topic: str
    joke: str = ""


llm = GenericFakeChatModel(messages=iter([
    "Why did the ice cream truck break down? Because of the rocky road!",
]))

def call_model(state: MyState):
    """Call the LLM to generate a joke about a topic"""
    llm_response = llm.invoke( # (1)!
        [
            {"role": "user", "content": f"Generate a joke about {state.topic}"}
        ]
    )
    return {"joke": llm_response.content}

graph = (
    StateGraph(MyState)
    .add_node(call_model)
    .add_edge(START, "call_model")
    .compile()
)

for message_chunk, metadata in graph.stream( # (2)!
    {"topic": "ice cream"},
    stream_mode="messages",
):
    if message_chunk.content:
        print(message_chunk.content, end="|", flush=True)
