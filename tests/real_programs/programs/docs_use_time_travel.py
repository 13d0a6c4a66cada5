# Source: LangGraph docs, docs.langchain.com/oss/python/langgraph/use-time-travel (github.com/langchain-ai/docs
# src/oss/use-time-travel.mdx, commit 7df7f307), its Python blocks in order.
# Changed: the %pip and API-key blocks dropped; init_chat_model("anthropic:...") replaced by LangChain's
# GenericFakeChatModel with fixed replies; the bare `graph` (a notebook's picture) dropped; the last
# block's displayed value wrapped in print(...); the sample output block (a dict literal) left out.

import uuid

from typing_extensions import TypedDict, NotRequired
from langgraph.graph import StateGraph, START, END
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langgraph.checkpoint.memory import InMemorySaver


class State(TypedDict):
    topic: NotRequired[str]
    joke: NotRequired[str]


llm = GenericFakeChatModel(messages=iter([
    "The secret life of socks in the dryer",
    "Why did the sock go to therapy? It felt torn after its partner vanished in the dryer.",
    "Why did the chicken join a band?\n\nBecause it had excellent drumsticks!",
]))


def generate_topic(state: State):
    """LLM call to generate a topic for the joke"""
    msg = llm.invoke("Give me a funny topic for a joke")
    return {"topic": msg.content}


def write_joke(state: State):
    """LLM call to write a joke based on the topic"""
    msg = llm.invoke(f"Write a short joke about {state['topic']}")
    return {"joke": msg.content}


# Build workflow
workflow = StateGraph(State)

# Add nodes
workflow.add_node("generate_topic", generate_topic)
workflow.add_node("write_joke", write_joke)

# Add edges to connect nodes
workflow.add_edge(START, "generate_topic")
workflow.add_edge("generate_topic", "write_joke")
workflow.add_edge("write_joke", END)

# Compile
checkpointer = InMemorySaver()
graph = workflow.compile(checkpointer=checkpointer)

config = {
    "configurable": {
        "thread_id": uuid.uuid4(),
    }
}
state = graph.invoke({}, config)

print(state["topic"])
print()
print(state["joke"])

# The states are returned in reverse chronological order.
states = list(graph.get_state_history(config))

for state in states:
    print(state.next)
    print(state.config["configurable"]["checkpoint_id"])
    print()

# This is the state before last (states are listed in chronological order)
selected_state = states[1]
print(selected_state.next)
print(selected_state.values)

new_config = graph.update_state(selected_state.config, values={"topic": "chickens"})
print(new_config)

print(graph.invoke(None, new_config))
