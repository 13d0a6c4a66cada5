# Source: LangChain Academy, github.com/langchain-ai/langchain-academy, module-2/trim-filter-messages.ipynb (commit fa15bec),
# its code cells in order.
# Changed: the %pip cell and the API-key cells (_set_env) dropped; display(Image(graph.get_graph().draw_mermaid_png())) printed as
# print(graph.get_graph().draw_mermaid()) (the diagram's text: no IPython, no network); a cell's last
# expression, which Jupyter displays, wrapped in print(...). ChatOpenAI replaced by LangChain's GenericFakeChatModel with fixed replies, and as trim_messages' token_counter by langchain_core's offline count_tokens_approximately (ChatOpenAI counts with tiktoken, which downloads its encoding).

from pprint import pprint
from langchain_core.messages import AIMessage, HumanMessage
messages = [AIMessage(f"So you said you were researching ocean mammals?", name="Bot")]
messages.append(HumanMessage(f"Yes, I know about whales. But what others should I learn about?", name="Lance"))

for m in messages:
    m.pretty_print()

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
llm = GenericFakeChatModel(messages=iter([
    "Besides whales, you could learn about dolphins, seals, sea lions and manatees.",
    "Dolphins, porpoises, seals and sea otters are all fascinating marine mammals.",
    "You might enjoy learning about narwhals, belugas and walruses.",
    "Narwhals are Arctic whales known for the long spiral tusk of the males.",
    "Orcas live in every ocean, from the Arctic and Antarctic to tropical seas.",
]))
print(llm.invoke(messages))

from langgraph.graph import MessagesState
from langgraph.graph import StateGraph, START, END

# Node
def chat_model_node(state: MessagesState):
    return {"messages": llm.invoke(state["messages"])}

# Build graph
builder = StateGraph(MessagesState)
builder.add_node("chat_model", chat_model_node)
builder.add_edge(START, "chat_model")
builder.add_edge("chat_model", END)
graph = builder.compile()

# View
print(graph.get_graph().draw_mermaid())

output = graph.invoke({'messages': messages})
for m in output['messages']:
    m.pretty_print()

from langchain_core.messages import RemoveMessage

# Nodes
def filter_messages(state: MessagesState):
    # Delete all but the 2 most recent messages
    delete_messages = [RemoveMessage(id=m.id) for m in state["messages"][:-2]]
    return {"messages": delete_messages}

def chat_model_node(state: MessagesState):    
    return {"messages": [llm.invoke(state["messages"])]}

# Build graph
builder = StateGraph(MessagesState)
builder.add_node("filter", filter_messages)
builder.add_node("chat_model", chat_model_node)
builder.add_edge(START, "filter")
builder.add_edge("filter", "chat_model")
builder.add_edge("chat_model", END)
graph = builder.compile()

# View
print(graph.get_graph().draw_mermaid())

# Message list with a preamble
messages = [AIMessage("Hi.", name="Bot", id="1")]
messages.append(HumanMessage("Hi.", name="Lance", id="2"))
messages.append(AIMessage("So you said you were researching ocean mammals?", name="Bot", id="3"))
messages.append(HumanMessage("Yes, I know about whales. But what others should I learn about?", name="Lance", id="4"))

# Invoke
output = graph.invoke({'messages': messages})
for m in output['messages']:
    m.pretty_print()

# Node
def chat_model_node(state: MessagesState):
    return {"messages": [llm.invoke(state["messages"][-1:])]}

# Build graph
builder = StateGraph(MessagesState)
builder.add_node("chat_model", chat_model_node)
builder.add_edge(START, "chat_model")
builder.add_edge("chat_model", END)
graph = builder.compile()

# View
print(graph.get_graph().draw_mermaid())

messages.append(output['messages'][-1])
print(messages.append(HumanMessage(f"Tell me more about Narwhals!", name="Lance")))

for m in messages:
    m.pretty_print()

# Invoke, using message filtering
output = graph.invoke({'messages': messages})
for m in output['messages']:
    m.pretty_print()

from langchain_core.messages import trim_messages
from langchain_core.messages.utils import count_tokens_approximately

# Node
def chat_model_node(state: MessagesState):
    messages = trim_messages(
            state["messages"],
            max_tokens=100,
            strategy="last",
            token_counter=count_tokens_approximately,
            allow_partial=False,
        )
    return {"messages": [llm.invoke(messages)]}

# Build graph
builder = StateGraph(MessagesState)
builder.add_node("chat_model", chat_model_node)
builder.add_edge(START, "chat_model")
builder.add_edge("chat_model", END)
graph = builder.compile()

# View
print(graph.get_graph().draw_mermaid())

messages.append(output['messages'][-1])
print(messages.append(HumanMessage(f"Tell me where Orcas live!", name="Lance")))

# Example of trimming messages
print(trim_messages(
            messages,
            max_tokens=100,
            strategy="last",
            token_counter=count_tokens_approximately,
            allow_partial=False
        ))

# Invoke, using message trimming in the chat_model_node 
messages_out_trim = graph.invoke({'messages': messages})
