"""create_react_agent with a pre_model_hook: the model is given the hook's llm_input_messages (the last
messages that fit, trim_messages), the state keeps every message; and a hook that rewrites the state's."""

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, RemoveMessage
from langchain_core.messages.utils import count_tokens_approximately, trim_messages
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.prebuilt import create_react_agent


class ShowingModel(FakeMessagesListChatModel):
    def bind_tools(self, tools, **kwargs):
        return self

    def invoke(self, messages, config=None, **kwargs):
        print("model sees", [(m.type, m.content[:24]) for m in messages])
        return super().invoke(messages, config, **kwargs)


@tool
def weather(city: str) -> str:
    """The weather in a city."""
    return f"Sunny in {city}, as always, all day long."


def last_turns(state):
    trimmed = trim_messages(
        state["messages"],
        strategy="last",
        token_counter=count_tokens_approximately,
        max_tokens=40,
        start_on="human",
        end_on=("human", "tool"),
    )
    return {"llm_input_messages": trimmed}


def keep_two(state):
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *state["messages"][-2:]]}


replies = [
    AIMessage("", tool_calls=[{"name": "weather", "args": {"city": "Lyon"}, "id": "w1"}]),
    AIMessage("It is sunny in Lyon."),
    AIMessage("You asked about Lyon."),
]
config = {"configurable": {"thread_id": "1"}}
for hook in (last_turns, keep_two):
    model = ShowingModel(responses=list(replies))
    agent = create_react_agent(model, [weather], pre_model_hook=hook, checkpointer=InMemorySaver())
    agent.invoke({"messages": "What is the weather in Lyon? Please answer at length."}, config)
    done = agent.invoke({"messages": "What did I ask?"}, config)
    print([(m.type, m.content[:24]) for m in done["messages"]])
    print(sorted(agent.get_state(config).values))
