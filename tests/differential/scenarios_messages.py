"""Differential scenarios for ``MessagesState`` and ``add_messages`` (issue 23, "Fidelity round three").

Each runs unchanged against LangGraph and ``lab`` and goes through a graph, so the ids ``add_messages``
gives, the checkpoints and ``get_state_history`` are compared too (message ids are uuid4 texts: the
trace compares them through its placeholders). Message classes come from the flavour: LangChain's
for LangGraph, ``lab.messages`` for the lab. ``test_messages_fallback.py`` runs these scenarios again
with ``langchain_core`` made unimportable, so the lab's own classes meet the same traces.

A node that returns a message *object* without an id would make LangGraph's checkpoints timing-
dependent (``add_messages`` sets the id on that very object while a background thread may be
serialising it, even with ``durability="sync"``), so such objects go through graphs without a
checkpointer, or are given ids.
"""

from typing import Annotated, Any, TypedDict

from .scenarios import scenario
from .trace import Trace, thread


def chat_graph(t: Trace, state: Any = None, *, checkpointer: bool = True, **nodes: Any) -> Any:
    """START -> each node in turn -> END over ``state`` (``MessagesState`` by default), compiled."""
    g = t.fl.StateGraph(state or t.fl.MessagesState)
    previous = t.fl.START
    for name, fn in nodes.items():
        g.add_node(name, fn)
        g.add_edge(previous, name)
        previous = name
    return t.compile(g, checkpointer=checkpointer)


def shown(t: Trace, label: str, app: Any, config: dict) -> None:
    """What ``print(app.get_state(config).values["messages"])`` shows: the messages' repr."""
    t.call(label, lambda: repr(app.get_state(config).values["messages"]))


@scenario
def messages_seed_five_minute_example(t: Trace) -> None:
    """The seed's five-minute example, as written: ``MessagesState``, ``("user", "你好")`` tuples,
    ``InMemorySaver``, two invokes on one thread; the second turn sees the first."""
    StateGraph, MessagesState, START = t.fl.StateGraph, t.fl.MessagesState, t.fl.START

    def chatbot(state: MessagesState) -> dict:
        return {"messages": [("assistant", "收到：" + state["messages"][-1].content)]}

    g = StateGraph(MessagesState)
    g.add_node("chatbot", chatbot)
    g.add_edge(START, "chatbot")
    app = t.compile(g)
    config = {"configurable": {"thread_id": "user-42"}}
    t.invoke(app, {"messages": [("user", "你好")]}, config)
    t.invoke(app, {"messages": [("user", "我刚才说了什么？")]}, config)
    shown(t, "print(get_state().values['messages'])", app, config)
    t.history(app, config)


@scenario
def messages_ids_assigned(t: Trace) -> None:
    """Every message gets an id: a new uuid where it has none, its own where it has one; the id is
    set on the very object a node returned or the caller gave. Streamed values and updates show them.

    Objects without ids go through a graph without a checkpointer: with one, LangGraph saves such an
    object from a background thread while ``add_messages`` sets its id, so its stored writes vary."""
    fl = t.fl
    returned: list[Any] = []

    def reply(state: dict) -> dict:
        returned[:] = [fl.AIMessage("no id yet"), fl.AIMessage("mine", id="ai-1")]
        return {"messages": list(returned)}

    given = [fl.HumanMessage("hello"), fl.HumanMessage("hi", id="h-1")]
    app = chat_graph(t, reply=reply, checkpointer=False)
    t.invoke(app, {"messages": given}, label="invoke without a checkpointer")
    t.call("ids set on the objects given and returned", lambda: [m.id for m in given + returned])
    t.stream(app, {"messages": ("user", "streamed")}, None, stream_mode=["values", "updates"])

    def answer(state: dict) -> dict:
        return {"messages": [("assistant", "a tuple"), fl.AIMessage("mine", id="ai-2")]}

    saved = chat_graph(t, answer=answer)
    t.invoke(saved, {"messages": "a plain string"}, thread())
    t.stream(
        saved,
        {"messages": {"role": "user", "content": "a dict"}},
        thread(),
        stream_mode=["values", "updates"],
    )


@scenario
def messages_replace_by_id(t: Trace) -> None:
    """A message whose id is already in the list replaces it in place (also from ``update_state``
    and from the input); a new id is appended."""
    fl = t.fl

    def draft(state: dict) -> dict:
        return {"messages": [fl.AIMessage("draft", id="answer"), fl.AIMessage("note", id="note")]}

    def revise(state: dict) -> dict:
        return {"messages": fl.AIMessage("final", id="answer", name="editor")}

    app = chat_graph(t, draft=draft, revise=revise)
    cfg = thread()
    t.invoke(app, {"messages": [("user", "write")]}, cfg)
    t.update(app, cfg, {"messages": [fl.AIMessage("edited by hand", id="note")]}, as_node="revise")
    t.invoke(
        app, {"messages": [{"role": "user", "content": "again", "id": "answer"}]}, cfg, label="input replaces"
    )
    shown(t, "print(messages)", app, cfg)


@scenario
def messages_remove_message(t: Trace) -> None:
    """``RemoveMessage(id=...)`` deletes that message; removing and re-adding one id in one update
    keeps it; an id that is not in the list is a ValueError (the step fails, its writes are kept)."""
    fl = t.fl

    def prune(state: dict) -> dict:
        first, second = state["messages"][0], state["messages"][1]
        return {
            "messages": [
                fl.RemoveMessage(id=first.id),
                fl.RemoveMessage(id=second.id),
                fl.AIMessage("back", id=second.id),
            ]
        }

    app = chat_graph(t, prune=prune)
    cfg = thread()
    t.invoke(app, {"messages": [("user", "one"), ("user", "two"), ("user", "three")]}, cfg)
    t.update(app, cfg, {"messages": fl.RemoveMessage(id="nope")}, label="update_state removes an unknown id")

    def remove_unknown(state: dict) -> dict:
        return {"messages": [fl.RemoveMessage(id="missing")]}

    failing = chat_graph(t, remove_unknown=remove_unknown)
    t.invoke(failing, {"messages": [("user", "hi")]}, thread("unknown"))


@scenario
def messages_remove_all(t: Trace) -> None:
    """``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` clears the list: only what follows it stays, even
    messages written before it in the same update."""
    fl = t.fl

    def restart(state: dict) -> dict:
        return {
            "messages": [
                ("assistant", "dropped too"),
                fl.RemoveMessage(id=fl.REMOVE_ALL_MESSAGES),
                ("assistant", "fresh start"),
                ("user", "kept"),
            ]
        }

    app = chat_graph(t, restart=restart)
    cfg = thread()
    t.invoke(app, {"messages": [("user", "old"), ("assistant", "older")]}, cfg)
    t.update(
        app, cfg, {"messages": [fl.RemoveMessage(id=fl.REMOVE_ALL_MESSAGES)]}, label="update_state clears"
    )
    t.state(app, cfg)


@scenario
def messages_coerced(t: Trace) -> None:
    """Tuples, dicts and strings become messages, as LangChain's ``convert_to_messages`` makes them:
    every role name, extra dict keys into ``additional_kwargs``, tool calls in OpenAI's form,
    LangChain's serialized form, one message given without a list."""

    def tools(state: dict) -> dict:
        return {
            "messages": [
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call-1",
                            "type": "function",
                            "function": {"name": "add", "arguments": '{"a": 1}'},
                        }
                    ],
                },
                {
                    "role": "tool",
                    "content": "2",
                    "tool_call_id": "call-1",
                    "status": "error",
                    "artifact": [2],
                },
                ("ai", "done"),
            ]
        }

    app = chat_graph(t, tools=tools)
    inputs = [
        "just a string",
        ("human", "a tuple"),
        ["user", "a two-item list"],
        ("system", "be brief"),
        ("developer", "be briefer"),
        {"role": "user", "content": "a dict", "name": "ann", "extra": 1, "additional_kwargs": {"k": "v"}},
        {"type": "ai", "content": "typed", "response_metadata": {"model": "m"}},
        {
            "lc": 1,
            "type": "constructor",
            "id": ["langchain", "schema", "messages", "HumanMessage"],
            "kwargs": {"content": "serialized"},
        },
    ]
    t.invoke(app, {"messages": inputs}, thread())
    t.invoke(app, {"messages": ("user", "one tuple, no list")}, thread("single"))
    t.invoke(app, {"messages": {"role": "user", "content": "one dict"}}, thread("single dict"))


@scenario
def messages_not_messages(t: Trace) -> None:
    """What cannot be a message is refused with LangChain's errors: an unknown role, a dict without
    content, a three-item tuple, a number; a node writing ``None`` to the key."""
    bad_inputs = {
        "unknown role": [("robot", "beep")],
        "dict without content": [{"role": "user"}],
        "three-item tuple": [("user", "a", "b")],
        "a number": [42],
    }
    app = chat_graph(t, echo=lambda state: {"messages": []})
    for label, messages in bad_inputs.items():
        t.invoke(app, {"messages": messages}, thread(label), label=label)
    nothing = chat_graph(t, nothing=lambda state: {"messages": None})
    t.invoke(nothing, {"messages": [("user", "hi")]}, thread("none"), label="a node writes None")


@scenario
def messages_custom_state(t: Trace) -> None:
    """``MessagesState`` extended with a key, and ``Annotated[list, add_messages]`` in a state of
    one's own (also ``add_messages(format=None)``, the reducer factory); parallel writers."""
    fl = t.fl

    class Chat(fl.MessagesState):
        summary: str

    class Own(TypedDict):
        messages: Annotated[list, fl.add_messages]
        notes: Annotated[list, fl.add_messages(format=None)]

    def summarise(state: dict) -> dict:
        return {"summary": f"{len(state['messages'])} messages", "messages": [("assistant", "summarised")]}

    t.invoke(chat_graph(t, Chat, summarise=summarise), {"messages": "hi", "summary": ""}, thread("extended"))

    g = fl.StateGraph(Own)
    g.add_node("a", lambda state: {"messages": [("assistant", "from a")], "notes": "note a"})
    g.add_node("b", lambda state: {"messages": [("assistant", "from b")], "notes": ["note b"]})
    g.add_edge(fl.START, "a").add_edge(fl.START, "b")
    t.invoke(t.compile(g), {"messages": [("user", "go")], "notes": []}, thread("own"))


@scenario
def messages_time_travel(t: Trace) -> None:
    """Replay and fork a chat: ``update_state`` on an old checkpoint replaces a message by id there,
    and the fork's next turn continues from it."""
    fl = t.fl

    def echo(state: dict) -> dict:
        return {"messages": [("assistant", "echo: " + state["messages"][-1].content)]}

    app = chat_graph(t, echo=echo)
    cfg = thread()
    t.invoke(app, {"messages": [("user", "first")]}, cfg)
    t.invoke(app, {"messages": [("user", "second")]}, cfg)
    after_first = t.checkpoint(app, cfg, step=1)
    first_question = app.get_state(after_first).values["messages"][0]
    forked = t.update(
        app, after_first, {"messages": [fl.HumanMessage("first, edited", id=first_question.id)]}
    )
    t.invoke(app, {"messages": [("user", "third")]}, forked, label="continue the fork")
    shown(t, "print(messages)", app, cfg)


@scenario
def messages_ids_in_update_chunks(t: Trace) -> None:
    """An ``updates`` chunk, read as it arrives, already holds the ids ``add_messages`` gave the
    node's id-less messages (the ids the state keeps): LangGraph hands it out once the step's writes
    are applied. (The thread's history is not compared: LangGraph's saving of such writes races
    with ``add_messages``, see ``messages_ids_assigned``.)"""
    fl = t.fl

    def reply(state: dict) -> dict:
        return {"messages": [fl.AIMessage("no id yet"), ("assistant", "a tuple")]}

    app = chat_graph(t, reply=reply)

    def ids_as_they_arrive(stream_mode: Any) -> list:
        seen = []
        for chunk in app.stream({"messages": [("user", "hi")]}, thread(), stream_mode=stream_mode):
            mode, chunk = chunk if isinstance(stream_mode, list) else ("updates", chunk)
            if mode == "updates":
                seen.append(
                    [
                        (type(m).__name__, getattr(m, "id", None) is not None)
                        for m in chunk["reply"]["messages"]
                    ]
                )
        return seen

    t.call("updates", ids_as_they_arrive, "updates")
    t.call("updates and values", ids_as_they_arrive, ["updates", "values"])
