# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/add-human-in-the-loop (github.com/langchain-ai/docs
# src/oss/add-human-in-the-loop.mdx, commit 7df7f307), its Python blocks 9, 10, 12 (counting from 0).
# Changed: model="anthropic:claude-3-5-sonnet-latest" replaced by a LangChain GenericFakeChatModel with
# fixed replies (a subclass whose bind_tools returns itself, as LangGraph's own tests do), defined before
# the agent.

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import interrupt
from langgraph.prebuilt import create_react_agent

# An example of a sensitive tool that requires human review / approval
def book_hotel(hotel_name: str):
    """Book a hotel"""
    response = interrupt(  # (1)!
        f"Trying to call `book_hotel` with args {{'hotel_name': {hotel_name}}}. "
        "Please approve or suggest edits."
    )
    if response["type"] == "accept":
        pass
    elif response["type"] == "edit":
        hotel_name = response["args"]["hotel_name"]
    else:
        raise ValueError(f"Unknown response type: {response['type']}")
    return f"Successfully booked a stay at {hotel_name}."

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage


class FakeChatModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


model = FakeChatModel(messages=iter([
    AIMessage(content="", tool_calls=[{"name": "book_hotel", "args": {"hotel_name": "McKittrick Hotel"}, "id": "toolu_01"}]),
    AIMessage(content="I've booked your stay at the McKittrick Hotel."),
]))

checkpointer = InMemorySaver() # (2)!

agent = create_react_agent(
    model=model,
    tools=[book_hotel],
    checkpointer=checkpointer, # (3)!
)

config = {
   "configurable": {
      "thread_id": "1"
   }
}

for chunk in agent.stream(
    {"messages": [{"role": "user", "content": "book a stay at McKittrick hotel"}]},
    config
):
    print(chunk)
    print("\n")

from langgraph.types import Command

for chunk in agent.stream(
    Command(resume={"type": "accept"}),  # (1)!
    # Command(resume={"type": "edit", "args": {"hotel_name": "McKittrick Hotel"}}),
    config
):
    print(chunk)
    print("\n")
