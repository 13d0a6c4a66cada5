"""The five-minute version: a checkpointer keeps one conversation per thread_id."""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph


def chatbot(state: MessagesState) -> dict:
    return {"messages": [("assistant", "收到：" + state["messages"][-1].content)]}


builder = StateGraph(MessagesState)
builder.add_node("chatbot", chatbot)
builder.add_edge(START, "chatbot")
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    config = {"configurable": {"thread_id": "user-42"}}
    graph.invoke({"messages": [("user", "你好")]}, config)
    graph.invoke({"messages": [("user", "我刚才说了什么？")]}, config)
    messages = graph.get_state(config).values["messages"]
    contents = [message.content for message in messages]
    print(contents)
    # Both turns are there: the second invoke read the thread's last checkpoint first.
    assert contents == ["你好", "收到：你好", "我刚才说了什么？", "收到：我刚才说了什么？"]
