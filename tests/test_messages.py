"""``lab.graph.message`` (``add_messages``, ``MessagesState``), ``lab.messages`` and the lab's own
message classes (``lab.plain_messages``), against LangGraph's ``add_messages`` and LangChain's classes.

Through graphs, checkpoints and histories they are compared in ``tests/differential``
(``scenarios_messages.py``), also with ``langchain_core`` made unimportable
(``test_messages_fallback.py``). Here: the reducer called directly, the classes side by side, and
the checkpoint wire form.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import langchain_core.messages as lc
import msgpack
import pytest
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph.message import add_messages as langgraph_add_messages

from lab import messages, plain_messages
from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.serde import MAX_DEPTH, MsgpackSerializer
from lab.graph import MessagesState, StateGraph, add_messages
from lab.graph.message import REMOVE_ALL_MESSAGES

REPO = Path(__file__).resolve().parents[1]
serde = MsgpackSerializer()


def test_lab_messages_are_langchains_where_langchain_core_is_importable() -> None:
    assert messages.USES_LANGCHAIN
    assert messages.HumanMessage is lc.HumanMessage
    assert messages.RemoveMessage is lc.RemoveMessage


# --- add_messages, called directly, against LangGraph's -------------------------------------------------

Make = Callable[[], Any]
"""Builds one side's arguments afresh (add_messages sets ids on the objects it is given)."""

CASES: dict[str, tuple[Make, Make]] = {
    "append": (lambda: [lc.HumanMessage("a", id="1")], lambda: [lc.AIMessage("b", id="2")]),
    "ids given to new messages": (lambda: [lc.HumanMessage("a")], lambda: lc.AIMessage("b")),
    "replace by id, in place": (
        lambda: [lc.HumanMessage("a", id="1"), lc.AIMessage("b", id="2")],
        lambda: [lc.HumanMessage("a again", id="1")],
    ),
    "remove by id": (
        lambda: [lc.HumanMessage("a", id="1"), lc.AIMessage("b", id="2")],
        lambda: lc.RemoveMessage(id="1"),
    ),
    "remove then write again": (
        lambda: [lc.HumanMessage("a", id="1")],
        lambda: [lc.RemoveMessage(id="1"), lc.AIMessage("back", id="1")],
    ),
    "remove a message added in the same update": (
        lambda: [],
        lambda: [lc.AIMessage("new", id="n"), lc.RemoveMessage(id="n")],
    ),
    "duplicate ids on the left": (
        lambda: [lc.HumanMessage("a", id="1"), lc.HumanMessage("b", id="1")],
        lambda: [lc.AIMessage("c", id="1")],
    ),
    "remove all: only what follows the last one stays": (
        lambda: [lc.HumanMessage("a", id="1")],
        lambda: [
            ("ai", "gone"),
            lc.RemoveMessage(id=REMOVE_ALL_MESSAGES),
            ("ai", "gone too"),
            lc.RemoveMessage(id=REMOVE_ALL_MESSAGES),
            ("user", "kept"),
        ],
    ),
    "strings, tuples, lists, dicts": (
        lambda: "left as a string",
        lambda: [
            "a string",
            ("assistant", "a tuple"),
            ["system", "a list"],
            ("developer", "dev"),
            {"role": "user", "content": None, "name": "n", "id": 7, "x": 1, "additional_kwargs": {"y": 2}},
            {"type": "ai", "content": "typed", "response_metadata": {"model": "m"}, "example": True},
            {"role": "tool", "content": "out", "tool_call_id": "c", "artifact": {"a": 1}, "status": "error"},
            {"role": "function", "content": "f", "name": "fn"},
        ],
    ),
    "tool calls in OpenAI's form": (
        lambda: [],
        lambda: {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "c1", "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'}}],
        },
    ),
    "LangChain's serialized form": (
        lambda: [lc.HumanMessage("a", id="r")],
        lambda: [
            {"lc": 1, "type": "constructor", "id": ["x", "AIMessageChunk"], "kwargs": {"content": "c"}},
            {
                "lc": 1,
                "type": "constructor",
                "id": ["x", "RemoveMessage"],
                "kwargs": {"id": "r", "content": ""},
            },
        ],
    ),
    "an unknown class in LangChain's serialized form": (
        lambda: [],
        lambda: {"lc": 1, "type": "constructor", "id": ["x", "Unknown"], "kwargs": {}, "content": "c"},
    ),
    "a chunk becomes its message": (lambda: [], lambda: lc.AIMessageChunk(content="streamed", id="s")),
    "unknown role": (lambda: [], lambda: [("robot", "beep")]),
    "dict without content": (lambda: [], lambda: {"role": "user"}),
    "three-item tuple": (lambda: [], lambda: [("user", "a", "b")]),
    "a number": (lambda: [], lambda: [42]),
    "remove an unknown id": (lambda: [lc.HumanMessage("a", id="1")], lambda: lc.RemoveMessage(id="2")),
    "right is None": (lambda: [lc.HumanMessage("a", id="1")], lambda: None),
    "left is an empty list, right None": (lambda: [], lambda: None),
}


def outcome(reducer: Callable[..., Any], make_left: Make, make_right: Make, **kwargs: Any) -> Any:
    """The merged list as data (ids numbered in order of appearance), or the error raised."""
    try:
        merged = reducer(make_left(), make_right(), **kwargs)
    except Exception as error:  # compared like a result
        return type(error).__name__, str(error)
    ids: dict[str, str] = {}
    return [
        (
            type(m).__name__,
            {**m.model_dump(), "id": ids.setdefault(m.id, f"id{len(ids)}")},
            m.id in ("1", "2"),
        )
        for m in merged
    ]


@pytest.mark.parametrize("case", CASES)
def test_add_messages_gives_langgraphs_result(case: str) -> None:
    left, right = CASES[case]
    assert outcome(add_messages, left, right) == outcome(langgraph_add_messages, left, right)


def test_the_reducer_factory_and_an_unknown_format_are_langgraphs() -> None:
    left, right = CASES["append"]
    assert outcome(add_messages(format=None), left, right) == outcome(
        langgraph_add_messages(format=None), left, right
    )
    assert outcome(add_messages(format="nope"), left, right) == outcome(
        langgraph_add_messages(format="nope"), left, right
    )


def test_ids_are_set_on_the_objects_given_and_are_uuid4_texts() -> None:
    given, answer = lc.HumanMessage("a"), lc.AIMessage("b")
    merged = add_messages(given, [answer])
    assert merged == [given, answer] and merged[0] is given and merged[1] is answer
    assert len({given.id, answer.id}) == 2
    assert all(len(m.id) == 36 and m.id[14] == "4" for m in merged)


def test_openai_format_is_langgraphs() -> None:
    """``format="langchain-openai"``: contents in OpenAI's format (Anthropic's image and tool blocks
    rewritten, ``cache_control`` dropped), as LangGraph gives them, as a reducer and called directly."""
    content = [
        {"type": "text", "text": "an image:", "cache_control": {"type": "ephemeral"}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "1234"}},
    ]
    left = [lc.HumanMessage("hi", id="1")]
    right = [lc.HumanMessage(content, id="2"), lc.AIMessage([{"type": "text", "text": "ok"}], id="3")]
    ours = add_messages(format="langchain-openai")(left, right)
    assert ours == langgraph_add_messages(format="langchain-openai")(left, right)
    assert ours[1].content[1] == {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,1234"}}
    assert add_messages(left, right, format="langchain-openai") == ours


def test_openai_format_without_langchain_core_is_refused_by_name() -> None:
    """In the browser (no ``langchain_core``, whose converter it uses): refused when the reducer is made."""
    script = """
import sys
sys.modules["langchain_core"] = None
from lab.graph.message import add_messages
from lab.graph.unsupported import NotSupportedError
try:
    add_messages(format="langchain-openai")
except NotSupportedError as refused:
    print(refused)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith(
        "lab does not support add_messages(format='langchain-openai') without langchain_core"
    ), done.stdout


def test_messages_state_is_langgraphs_shape() -> None:
    """One key, ``messages``, a list reduced by ``add_messages``: a graph built on it appends."""
    assert list(MessagesState.__annotations__) == ["messages"]
    g = StateGraph(MessagesState).add_node("hi", lambda s: {"messages": ("ai", "hi")})
    app = g.add_edge("__start__", "hi").compile()
    out = app.invoke({"messages": "hello"})["messages"]
    assert [(type(m).__name__, m.content) for m in out] == [("HumanMessage", "hello"), ("AIMessage", "hi")]


# --- the lab's own classes, beside LangChain's ---------------------------------------------------------

SAME_CALLS: list[tuple[str, tuple, dict]] = [
    ("HumanMessage", ("hi",), {}),
    ("HumanMessage", (), {"content": "hi", "id": "1", "name": "bob"}),
    ("HumanMessage", (["a", {"type": "text", "text": "b"}, {"type": "image"}],), {}),
    ("HumanMessage", ("x",), {"id": 5, "example": True}),
    ("AIMessage", ("x",), {"tool_calls": [{"id": "c1", "name": "f", "args": {"a": 1}, "type": "tool_call"}]}),
    ("AIMessage", ("",), {"invalid_tool_calls": [{"name": "f", "args": "{", "id": "c2", "error": "bad"}]}),
    ("AIMessage", ("u",), {"usage_metadata": {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}}),
    ("SystemMessage", ("be brief",), {"additional_kwargs": {"k": 1}, "response_metadata": {"m": 2}}),
    ("ToolMessage", ("out",), {"tool_call_id": "c1"}),
    (
        "ToolMessage",
        (5,),
        {"tool_call_id": 3, "status": "error", "artifact": [1], "additional_kwargs": {"a": 1}},
    ),
    ("ToolMessage", ((1, "a"),), {"tool_call_id": "c"}),
    ("FunctionMessage", ("f",), {"name": "fn"}),
    ("RemoveMessage", (), {"id": "gone"}),
]


def both(name: str, args: tuple, kwargs: dict) -> tuple[Any, Any]:
    return getattr(plain_messages, name)(*args, **kwargs), getattr(lc, name)(*args, **kwargs)


@pytest.mark.parametrize(
    ("name", "args", "kwargs"), SAME_CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(SAME_CALLS)]
)
def test_the_labs_own_class_reads_as_langchains(name: str, args: tuple, kwargs: dict) -> None:
    """Same fields in the same order, same repr, str, pretty_repr and text."""
    ours, theirs = both(name, args, kwargs)
    assert list(ours.model_dump().items()) == list(theirs.model_dump().items())
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert ours.pretty_repr() == theirs.pretty_repr()
    assert ours.text == theirs.text


def test_the_labs_own_classes_compare_as_langchains_do() -> None:
    human = plain_messages.HumanMessage
    assert human("a", id="1") == human("a", id="1")
    assert human("a", id="1") != human("a", id="2")
    assert human("a") != plain_messages.AIMessage("a")
    assert human("a") != lc.HumanMessage("a"), "another library's class is another class"
    with pytest.raises(TypeError):
        hash(human("a"))
    message = human("a")
    message.id = "set later"
    assert message.model_dump()["id"] == "set later"


def test_the_labs_own_classes_refuse_what_langchain_refuses() -> None:
    with pytest.raises(ValueError, match="does not support 'content'"):
        plain_messages.RemoveMessage(id="x", content="no")
    with pytest.raises(TypeError):
        plain_messages.ToolMessage("out")  # no tool_call_id
    with pytest.raises(TypeError):
        plain_messages.HumanMessage(5)
    with pytest.raises(ValueError):
        plain_messages.HumanMessage("x", type="ai")


# --- checkpoints ---------------------------------------------------------------------------------------


def langgraph_payload(message: Any) -> bytes:
    """The bytes of LangGraph's Pydantic v2 extension value (its code 5) for ``message``."""
    _, data = JsonPlusSerializer().dumps_typed(message)
    ext = msgpack.unpackb(data, ext_hook=lambda code, payload: (code, payload))
    assert ext[0] == 5
    return ext[1]


def lab_payload(message: Any) -> bytes:
    _, data = serde.dumps_typed(message)
    ext = msgpack.unpackb(data, ext_hook=lambda code, payload: (code, payload))
    assert ext[0] == 7
    return ext[1]


@pytest.mark.parametrize(
    ("name", "args", "kwargs"), SAME_CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(SAME_CALLS)]
)
def test_a_message_is_stored_in_langgraphs_wire_form_by_either_class(
    name: str, args: tuple, kwargs: dict
) -> None:
    ours, theirs = both(name, args, kwargs)
    assert lab_payload(theirs) == langgraph_payload(theirs)
    assert lab_payload(ours) == langgraph_payload(theirs)


def test_a_record_loads_as_langchains_class_whichever_class_saved_it() -> None:
    ours, theirs = both(
        "AIMessage", ("x",), {"id": "1", "tool_calls": [{"id": "c", "name": "f", "args": {}}]}
    )
    for saved in (ours, theirs):
        loaded = serde.loads_typed(serde.dumps_typed([saved]))
        assert type(loaded[0]) is lc.AIMessage and loaded == [theirs]


def test_langgraphs_record_of_a_message_loads_in_the_lab() -> None:
    """The bytes of LangGraph's ext 5 under the lab's code 7 are a lab record: one code apart."""
    message = lc.ToolMessage("out", tool_call_id="c", id="t")
    record = msgpack.packb(msgpack.ExtType(7, langgraph_payload(message)))
    assert serde.loads_typed(("msgpack", record)) == message


def test_a_thread_of_messages_saves_and_loads() -> None:
    from lab.checkpoint.memory import InMemorySaver

    app = (
        StateGraph(MessagesState)
        .add_node("reply", lambda s: {"messages": [("ai", "echo " + s["messages"][-1].content)]})
        .add_edge("__start__", "reply")
        .compile(checkpointer=InMemorySaver())
    )
    config = {"configurable": {"thread_id": "chat"}}
    app.invoke({"messages": "one"}, config)
    app.invoke({"messages": [("user", "two")]}, config)
    history = list(app.get_state_history(config))
    assert [m.content for m in history[0].values["messages"]] == ["one", "echo one", "two", "echo two"]
    assert len(history) == 6


def test_loading_names_no_module_and_builds_only_allow_listed_classes() -> None:
    name = "lab_test_never_imported_module"
    payload = msgpack.packb([name, "Anything", {"content": "x"}, "model_validate_json"])
    with pytest.raises(CorruptRecordError, match=f"{name}.Anything is not registered"):
        serde.loads_typed(("msgpack", msgpack.packb(msgpack.ExtType(7, payload))))
    assert name not in sys.modules


def test_a_message_nested_too_deep_to_load_back_is_not_saved() -> None:
    content: Any = "deep"
    for _ in range(MAX_DEPTH):
        content = [content]
    with pytest.raises(UnsavableValueError, match="more than 50 deep"):
        serde.dumps_typed({"messages": [lc.HumanMessage(content=[{"type": "text", "nested": content}])]})


def test_without_langchain_core_the_labs_own_classes_are_used_and_load_langchains_records() -> None:
    """What runs in the browser: ``langchain_core`` unimportable. A record LangChain's class saved
    here loads there as the lab's own class, equal to one built there; saved there, it loads here."""
    saved_here = serde.dumps_typed(
        [lc.AIMessage("x", id="1", tool_calls=[{"id": "c", "name": "f", "args": {}}])]
    )
    script = f"""
import sys
sys.modules["langchain_core"] = None
from lab import messages, plain_messages
from lab.checkpoint.serde import MsgpackSerializer
assert not messages.USES_LANGCHAIN and messages.AIMessage is plain_messages.AIMessage
serde = MsgpackSerializer()
loaded = serde.loads_typed(("msgpack", bytes.fromhex("{saved_here[1].hex()}")))
calls = [{{"id": "c", "name": "f", "args": {{}}}}]
assert loaded == [messages.AIMessage("x", id="1", tool_calls=calls)], loaded
assert "langchain_core.messages" not in sys.modules or sys.modules["langchain_core"] is None
print(serde.dumps_typed([messages.ToolMessage("out", tool_call_id="c", id="t")])[1].hex())
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    saved_there = ("msgpack", bytes.fromhex(done.stdout.strip()))
    assert serde.loads_typed(saved_there) == [lc.ToolMessage("out", tool_call_id="c", id="t")]
