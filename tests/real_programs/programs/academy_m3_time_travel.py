# Source: LangChain Academy, github.com/langchain-ai/langchain-academy, module-3/time-travel.ipynb (commit fa15bec),
# its code cells in order.
# Changed: the %pip cell dropped; display(Image(graph.get_graph().draw_mermaid_png())) printed as
# print(graph.get_graph().draw_mermaid()) (the diagram's text: no IPython, no network); a cell's last
# expression, which Jupyter displays, wrapped in print(...). The OPENAI_API_KEY cell dropped and ChatOpenAI replaced by LangChain's GenericFakeChatModel with fixed replies (a subclass whose bind_tools returns itself, as LangGraph's own tests do); the LangGraph Studio cells dropped (they need a server).

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage


class FakeChatModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self

def multiply(a: int, b: int) -> int:
    """Multiply a and b.

    Args:
        a: first int
        b: second int
    """
    return a * b

# This will be a tool
def add(a: int, b: int) -> int:
    """Adds a and b.

    Args:
        a: first int
        b: second int
    """
    return a + b

def divide(a: int, b: int) -> float:
    """Divide a by b.

    Args:
        a: first int
        b: second int
    """
    return a / b

tools = [add, multiply, divide]
llm = FakeChatModel(messages=iter([
    AIMessage(content="", tool_calls=[{"name": "multiply", "args": {"a": 2, "b": 3}, "id": "call_1"}]),
    AIMessage(content="The result of multiplying 2 and 3 is 6."),
    AIMessage(content="", tool_calls=[{"name": "multiply", "args": {"a": 2, "b": 3}, "id": "call_2"}]),
    AIMessage(content="The result of multiplying 2 and 3 is 6."),
    AIMessage(content="", tool_calls=[{"name": "multiply", "args": {"a": 5, "b": 3}, "id": "call_3"}]),
    AIMessage(content="The result of multiplying 5 and 3 is 15."),
]))
llm_with_tools = llm.bind_tools(tools)


from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import MessagesState
from langgraph.graph import START, END, StateGraph
from langgraph.prebuilt import tools_condition, ToolNode

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

# System message
sys_msg = SystemMessage(content="You are a helpful assistant tasked with performing arithmetic on a set of inputs.")

# Node
def assistant(state: MessagesState):
   return {"messages": [llm_with_tools.invoke([sys_msg] + state["messages"])]}

# Graph
builder = StateGraph(MessagesState)

# Define nodes: these do the work
builder.add_node("assistant", assistant)
builder.add_node("tools", ToolNode(tools))

# Define edges: these determine the control flow
builder.add_edge(START, "assistant")
builder.add_conditional_edges(
    "assistant",
    # If the latest message (result) from assistant is a tool call -> tools_condition routes to tools
    # If the latest message (result) from assistant is a not a tool call -> tools_condition routes to END
    tools_condition,
)
builder.add_edge("tools", "assistant")

memory = MemorySaver()
graph = builder.compile(checkpointer=MemorySaver())

# Show
print(graph.get_graph(xray=True).draw_mermaid())

# Input
initial_input = {"messages": HumanMessage(content="Multiply 2 and 3")}

# Thread
thread = {"configurable": {"thread_id": "1"}}

# Run the graph until the first interruption
for event in graph.stream(initial_input, thread, stream_mode="values"):
    event['messages'][-1].pretty_print()

print(graph.get_state({'configurable': {'thread_id': '1'}}))

all_states = [s for s in graph.get_state_history(thread)]

print(len(all_states))

print(all_states[-2])

to_replay = all_states[-2]

print(to_replay)

print(to_replay.values)

print(to_replay.next)

print(to_replay.config)

for event in graph.stream(None, to_replay.config, stream_mode="values"):
    event['messages'][-1].pretty_print()

to_fork = all_states[-2]
print(to_fork.values["messages"])

print(to_fork.config)

fork_config = graph.update_state(
    to_fork.config,
    {"messages": [HumanMessage(content='Multiply 5 and 3', 
                               id=to_fork.values["messages"][0].id)]},
)

print(fork_config)

all_states = [state for state in graph.get_state_history(thread) ]
print(all_states[0].values["messages"])

print(graph.get_state({'configurable': {'thread_id': '1'}}))

for event in graph.stream(None, fork_config, stream_mode="values"):
    event['messages'][-1].pretty_print()

print(graph.get_state({'configurable': {'thread_id': '1'}}))
