"""/play runs a tool-calling program as LangChain's tutorials write it, with no ``langchain_core`` in the
browser: ``langgraph.prebuilt``'s ``ToolNode`` and ``tools_condition``, ``@tool`` from
``langchain_core.tools`` and a fake chat model from ``langchain_core.language_models.fake_chat_models``
are the lab's pure-Python twins there (``lab.prebuilt``, ``lab.plain_tools``, ``lab.plain_chat_models``),
and the run ends with the messages real LangGraph gives (``tests/test_prebuilt.py`` compares them on
CPython)."""

from playwright.sync_api import Page, expect

from tests.browser.test_play import controller, open_instruments, run_program

PROGRAM = """\
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import MemorySaver as _unused  # noqa
"""

PROGRAM = """\
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


@tool
def multiply(a: int, b: int) -> int:
    \"\"\"Multiply a and b.\"\"\"
    return a * b


calls = [
    {"name": "multiply", "args": {"a": "6", "b": 7}, "id": "call_1"},
    {"name": "multiply", "args": {"a": "six"}, "id": "call_2"},
]
llm = GenericFakeChatModel(messages=iter([AIMessage("", tool_calls=calls), "6 x 7 = 42"]))


def assistant(state: MessagesState):
    return {"messages": [llm.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("assistant", assistant)
builder.add_node(ToolNode([multiply]))
builder.add_edge(START, "assistant")
builder.add_conditional_edges("assistant", tools_condition)
builder.add_edge("tools", "assistant")
graph = builder.compile()

graph.invoke({"messages": [("user", "6 x 7?")]})
"""


def test_a_tool_node_program_with_a_fake_chat_model_runs_without_langchain(page: Page, site: str) -> None:
    open_instruments(page, site)
    run_program(page, PROGRAM)
    expect(page.locator("#play-problem")).to_be_hidden()
    messages = controller(page, "state")["values"]["messages"]  # each as its repr
    assert [message.split("(content=")[0] for message in messages] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "ToolMessage",
        "AIMessage",
    ]
    assert "content='42', name='multiply'" in messages[2] and "tool_call_id='call_1'" in messages[2]
    assert "Error invoking tool 'multiply' with kwargs {'a': 'six'}" in messages[3]
    assert "a: Input should be a valid integer, unable to parse string as an integer" in messages[3]
    assert "b: Field required" in messages[3] and "status='error'" in messages[3]
    assert "content='6 x 7 = 42'" in messages[4] and "id='lc_run--" in messages[4]
