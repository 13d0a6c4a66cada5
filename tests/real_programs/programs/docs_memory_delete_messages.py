# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/add-memory (github.com/langchain-ai/docs
# src/oss/add-memory.mdx, commit 7df7f307), its Python block 25 (counting from 0).
# Changed: the names the block uses but defines elsewhere on the page added above it: the imports
# (MessagesState, StateGraph, START, InMemorySaver), config (thread 1) and model, which is LangChain's
# GenericFakeChatModel with fixed replies (the page's is init_chat_model("anthropic:...")).

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import MessagesState, StateGraph, START

model = GenericFakeChatModel(messages=iter([
    "Hi Bob! How are you doing today?",
    "Your name is Bob.",
]))
config = {"configurable": {"thread_id": "1"}}

from langchain_core.messages import RemoveMessage

def delete_messages(state):
    messages = state["messages"]
    if len(messages) > 2:
        # remove the earliest two messages
        return {"messages": [RemoveMessage(id=m.id) for m in messages[:2]]}

def call_model(state: MessagesState):
    response = model.invoke(state["messages"])
    return {"messages": response}

builder = StateGraph(MessagesState)
builder.add_sequence([call_model, delete_messages])
builder.add_edge(START, "call_model")

checkpointer = InMemorySaver()
app = builder.compile(checkpointer=checkpointer)

for event in app.stream(
    {"messages": [{"role": "user", "content": "hi! I'm bob"}]},
    config,
    stream_mode="values"
):
    print([(message.type, message.content) for message in event["messages"]])

for event in app.stream(
    {"messages": [{"role": "user", "content": "what's my name?"}]},
    config,
    stream_mode="values"
):
    print([(message.type, message.content) for message in event["messages"]])
