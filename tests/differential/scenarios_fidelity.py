"""Differential scenarios for issue 23's "silent differences": behaviour `lab` claimed to support
but did differently from LangGraph (routers' input, whole-value states, sync-only savers, drawing,
JSON schemas, what a checkpoint holds after a ``Send``, ``update_state`` as ``__input__``/``__copy__``),
and issue 34's: what real programs use (``MemorySaver``, ``NodeInterrupt``, ``response_schema``,
``get_state`` by checkpoint id, ``to_json()``'s classes, cached updates, schemas, ``Send``'s argument,
reducers on optional types, a custom saver's ``put_writes``, Pydantic values in the state).

Registered with ``@scenario`` like those in ``scenarios.py``; each runs unchanged against LangGraph
and ``lab``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import operator
import warnings
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, NotRequired, Optional, Required

import pydantic
from typing_extensions import TypedDict

from .scenarios import Log, asker, build, scenario
from .trace import Trace, thread


class Num(TypedDict):
    x: int
    log: Annotated[list, operator.add]


def seen_by(t: Trace, seen: list, name: str, destination: Any) -> Any:
    """A router that records what it was given (its type and value) and goes to ``destination``."""

    def route(state: Any) -> Any:
        shown = dataclasses.asdict(state) if dataclasses.is_dataclass(state) else state
        seen.append({name: [type(state).__name__, shown]})
        return destination

    route.__name__ = name
    return route


# --- 1. what a router reads ----------------------------------------------------------------------------


@scenario
def router_after_send(t: Trace) -> None:
    """The router of a node reached by a ``Send`` reads the graph state plus that node's writes,
    not the ``Send``'s argument."""
    fl = t.fl
    seen: list = []

    def work(arg: dict) -> dict:
        return {"log": [f"work {arg['item']}"]}

    g = fl.StateGraph(Num).add_node("work", work).add_node("after", t.node("after"))
    g.add_conditional_edges(fl.START, lambda s: [fl.Send("work", {"item": i}) for i in (1, 2)])
    g.add_conditional_edges("work", seen_by(t, seen, "after_work", "after"))
    t.invoke(t.compile(g), {"x": 5, "log": ["in"]}, thread())
    # (LangGraph runs the two work tasks on threads: which router runs first varies with the machine's load)
    t.call("routers saw", lambda: sorted(seen, key=repr))


@scenario
def router_at_start(t: Trace) -> None:
    """A conditional entry point reads the thread's state with the input applied (reducers fold it
    into what the thread saved), plus input keys that are not state keys."""
    fl = t.fl
    seen: list = []
    g = fl.StateGraph(Num).add_node("a", t.node("a"))
    g.add_conditional_edges(fl.START, seen_by(t, seen, "entry", "a"))
    app = t.compile(g)
    cfg = thread()
    t.invoke(app, {"x": 1}, cfg, label="first turn (no log given)")
    t.invoke(app, {"log": ["second"], "not a key": 7}, cfg, label="second turn")
    t.call("routers saw", lambda: seen)


class Secret(TypedDict):
    x: int
    secret: str


class OnlyX(TypedDict):
    x: int


@dataclasses.dataclass
class DataNum:
    x: int
    log: Annotated[list, operator.add] = dataclasses.field(default_factory=list)


@scenario
def router_input_schemas(t: Trace) -> None:
    """A router reads its own annotated input schema, else its node's input schema, else the state
    schema: private keys of other nodes stay out; non-state keys a node returns pass through; a
    dataclass state reaches its router as an instance."""
    fl = t.fl
    seen: list = []

    def keep(state: Secret) -> dict:
        return {"secret": "s", "x": state["x"] + 1}

    def reads_only_x(state: OnlyX) -> str:
        seen.append({"own schema": sorted(state.items())})
        return "tell"

    def tell(state: dict) -> dict:
        return {"log": ["tell"], "extra": "passed through"}

    g = fl.StateGraph(Num).add_node("keep", keep).add_node("tell", tell).add_node("done", t.node("done"))
    g.add_edge(fl.START, "keep")
    g.add_conditional_edges("keep", reads_only_x)
    g.add_conditional_edges("keep", seen_by(t, seen, "after_keep", fl.END))
    g.add_conditional_edges("tell", seen_by(t, seen, "after_tell", "done"))
    t.invoke(t.compile(g), {"x": 1, "log": []}, thread())

    dc = fl.StateGraph(DataNum).add_node("a", lambda s: {"x": s.x + 1})
    dc.add_edge(fl.START, "a").add_conditional_edges("a", seen_by(t, seen, "dataclass", fl.END))
    t.invoke(t.compile(dc), {"x": 1}, thread("dataclass"))
    t.call("routers saw", lambda: seen)


# --- 2. whole-value state -------------------------------------------------------------------------------


@scenario
def whole_value_updates(t: Trace) -> None:
    """``StateGraph(Annotated[list, add])``: a node returning ``[Command(update=...), value]`` applies
    both; the updates chunk shows each; one task interrupting while a sibling finishes."""
    fl = t.fl

    def many(state: list) -> list:
        return [fl.Command(update=["one"]), ["two"]]

    def ask(state: list) -> list:
        return ["ask:" + fl.interrupt("ok?")]

    g = fl.StateGraph(Annotated[list, operator.add]).add_node("many", many).add_node("ask", ask)
    g.add_node("sibling", lambda state: ["sibling"])
    g.add_edge(fl.START, "many").add_edge("many", "ask").add_edge("many", "sibling")
    app = t.compile(g)
    cfg = thread()
    t.stream(app, ["in"], cfg, stream_mode=["updates", "values"])
    t.invoke(app, ["again"], thread("invoke"), label="invoke until the interrupt")
    t.invoke(app, fl.Command(resume="yes"), cfg, label="resume")


# --- 6. what lab saves, it loads --------------------------------------------------------------------------


@scenario
def command_in_checkpoint(t: Trace) -> None:
    """A ``Command`` given to a new thread is stored in its first checkpoint, whatever it holds (a
    ``Send`` as ``goto``, a list of pairs as ``update``): the thread's history must still load."""
    fl = t.fl

    def work(arg: dict) -> dict:
        return {"log": [f"work {arg['item']}"]}

    g = fl.StateGraph(Num).add_node("work", work).add_node("a", t.node("a")).add_edge(fl.START, "a")
    app = t.compile(g)
    t.invoke(app, fl.Command(goto=fl.Send("work", {"item": 1})), thread("send"), label="goto=Send")
    both = fl.Command(goto=[fl.Send("work", {"item": 2}), "a"])
    t.invoke(app, both, thread("list"), label="goto=[Send, a]")
    # (not t.invoke: its history would show the stored pairs, tuples in lab and lists in LangGraph,
    # whose serializer turns tuples into lists: a deliberate difference, see docs/LANGGRAPH.md)
    pairs, cfg = fl.Command(update=[("log", ["pair"]), ("x", 1)]), thread("pairs")
    t.call("update=[pairs]", app.invoke, pairs, cfg)
    t.call("its history's values", lambda: [(s.values, s.next) for s in app.get_state_history(cfg)])
    whole = fl.StateGraph(Annotated[list, operator.add]).add_node("a", lambda s: ["a"])
    whole.add_edge(fl.START, "a")
    t.invoke(t.compile(whole), fl.Command(update=["listed"]), thread("whole"), label="update=[value]")


# --- 3. a saver that overrides only its sync methods -------------------------------------------------------


def recording_saver(t: Trace) -> Any:
    """A subclass of ``InMemorySaver`` that overrides only the sync methods, counting their calls."""

    class Recording(t.fl.InMemorySaver):  # type: ignore[name-defined,misc]
        def get_tuple(self, config: Any) -> Any:
            t.counts["get_tuple"] += 1
            return super().get_tuple(config)

        def list(self, config: Any, **kwargs: Any) -> Any:
            t.counts["list"] += 1
            return super().list(config, **kwargs)

        def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
            t.counts["put"] += 1
            return super().put(config, checkpoint, metadata, new_versions)

        def put_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
            t.counts["put_writes"] += 1
            super().put_writes(config, writes, task_id, task_path)

    return Recording()


@scenario
def saver_with_sync_overrides(t: Trace) -> None:
    """The sync API calls a saver's sync methods (the async API its async ones, which
    ``InMemorySaver`` runs through the sync ones): a subclass overriding only those is used."""
    fl = t.fl
    g = fl.StateGraph(Num).add_node("a", t.node("a")).add_node("b", t.node("b"))
    g.add_edge(fl.START, "a").add_edge("a", "b")
    app = g.compile(checkpointer=recording_saver(t))
    cfg = thread()
    t.call("invoke", app.invoke, {"x": 1, "log": []}, cfg)
    t.call("get_state", lambda: app.get_state(cfg).values)
    t.call("get_state_history", lambda: [s.values for s in app.get_state_history(cfg)])
    t.call("update_state", lambda: app.update_state(cfg, {"x": 5}, as_node="b") is not None)
    t.call("stream", lambda: list(app.stream({"x": 2, "log": []}, cfg, stream_mode="updates")))
    t.call("ainvoke", lambda: asyncio.run(app.ainvoke({"x": 3, "log": []}, cfg)))
    t.call("aget_state", lambda: asyncio.run(app.aget_state(cfg)).values)


# --- 4. drawing -------------------------------------------------------------------------------------------


@scenario
def drawing_loops(t: Trace) -> None:
    """``get_graph()`` of a loop with no exit (the edge to ``END`` leaves the node LangGraph's last
    step ran), of a router that loops back to its own node, and ``to_json()``."""
    fl = t.fl

    def again(state: dict) -> Literal["a", "__end__"]:
        return fl.END

    loop, three = build(t, "START>a a>b b>a"), build(t, "START>a a>b b>c c>a")
    itself, listed = build(t, "START>a"), build(t, "START>a b>END")
    mapped = build(t, "START>a", b=t.node("b"))
    itself.add_conditional_edges("a", again)
    mapped.add_conditional_edges("a", again, {"a": "a", "__end__": "b"})
    listed.add_conditional_edges("a", again, ["a", "b", fl.END])
    labelled = fl.StateGraph(Log).add_node("go", t.node("go"), metadata={"team": "ops"})
    labelled.add_edge(fl.START, "go")
    drawn = {"two-node loop": loop, "three-node loop": three, "self-loop": itself, "path map": mapped}
    for label, builder in (*drawn.items(), ("path list", listed)):
        app = t.compile(builder, checkpointer=False)
        t.call(f"{label}: edges", lambda app=app: [tuple(e) for e in app.get_graph().edges])
        t.call(f"{label}: draw_mermaid()", lambda app=app: app.get_graph().draw_mermaid().splitlines())
    for label, builder in (("self-loop", itself), ("path map", mapped), ("metadata", labelled)):
        app = t.compile(builder, checkpointer=False, interrupt_before=["a"] if label != "metadata" else None)
        t.call(f"{label}: to_json()", lambda app=app: app.get_graph().to_json())


# --- 5. JSON schemas ----------------------------------------------------------------------------------------


@dataclasses.dataclass
class Optionals:
    name: str
    maybe: int | None
    perhaps: Optional[str]  # noqa: UP045  (written the older way on purpose)
    noted: Annotated[float | None, "a note"]
    counted: Annotated[list, operator.add]
    given: int | None = 3
    listed: list[str] = dataclasses.field(default_factory=list)


class OptionalDict(TypedDict):
    name: str
    maybe: int | None


@scenario
def json_schema_optional_fields(t: Trace) -> None:
    """A dataclass field typed ``T | None`` without a default is not required (its default is
    ``None``, as LangGraph's ``get_field_default`` says); in a ``TypedDict`` it stays required."""
    for schema in (Optionals, OptionalDict):
        app = t.compile(t.fl.StateGraph(schema).add_node("a", lambda s: {}).add_edge(t.fl.START, "a"))
        t.call(f"{schema.__name__}: get_input_jsonschema()", app.get_input_jsonschema)
        t.call(f"{schema.__name__}: get_output_jsonschema()", app.get_output_jsonschema)


# --- 7. update_state as __input__ / __copy__, Overwrite as JSON ---------------------------------------------


@scenario
def update_state_as_input(t: Trace) -> None:
    """``update_state(..., as_node="__input__")`` stores the values as a new input checkpoint (the
    next run starts from ``__start__``); without values, or beside other updates, it is refused."""
    StateUpdate = t.fl.StateUpdate
    app = t.compile(build(t, "START>a a>b b>END", state=Num))
    cfg = thread()
    t.invoke(app, {"x": 1, "log": []}, cfg)
    t.update(app, cfg, {"x": 10, "log": ["typed in"]}, as_node="__input__")
    t.state(app, cfg)
    t.invoke(app, None, cfg, label="invoke(None) runs from __start__")
    t.update(app, cfg, None, as_node="__input__", label="as __input__ without values")
    both = [[StateUpdate({"x": 2}, "__input__"), StateUpdate({"x": 3}, "a")]]
    t.call("bulk: __input__ beside another update", app.bulk_update_state, cfg, both)
    t.call(
        "bulk: two supersteps as __input__",
        app.bulk_update_state,
        thread("bulk"),
        [
            [StateUpdate({"x": 4, "log": ["first"]}, "__input__")],
            [StateUpdate({"x": 5}, "__input__")],
        ],
    )
    t.state(app, thread("bulk"), label="get_state of the bulk thread")
    t.update(app, thread("new"), {"x": 7}, as_node="__input__", label="as __input__ on a new thread")


@scenario
def update_state_copy_with_values(t: Trace) -> None:
    """``as_node="__copy__"`` with a list of ``(values, node)`` forks the checkpoint and applies
    them to the copy in one more checkpoint (grouped by node); other values are ignored."""
    StateUpdate = t.fl.StateUpdate
    app = t.compile(build(t, "START>p START>q p>r q>r r>END", state=Num))
    cfg = thread()
    t.invoke(app, {"x": 0, "log": []}, cfg, interrupt_before=["r"])
    updates = [({"log": ["p again"]}, "p"), ({"log": ["q again"], "x": 5}, "q"), ({"log": ["p twice"]}, "p")]
    t.update(app, cfg, updates, as_node="__copy__", label="__copy__ with three updates")
    t.state(app, cfg)
    t.invoke(app, None, cfg, label="invoke(None) runs r")
    t.update(app, cfg, {"x": 9}, as_node="__copy__", label="__copy__ with a dict (ignored)")
    t.update(app, cfg, [5], as_node="__copy__", label="__copy__ with a bad item")
    copied = [[StateUpdate([({"log": ["in bulk"]}, "r")], "__copy__")]]
    t.call("bulk: __copy__ with values", app.bulk_update_state, cfg, copied)
    t.state(app, cfg, label="get_state after the bulk copy")


class Custom(TypedDict):
    log: Annotated[list, lambda old, new: old + new]
    added: Annotated[list, operator.add]


@scenario
def overwrite_as_json(t: Trace) -> None:
    """``{"__overwrite__": value}`` and ``{"value": value, "type": "__overwrite__"}`` (an
    ``Overwrite`` that went through JSON) replace a reducer key like ``Overwrite(value)``."""

    def reset(state: dict) -> dict:
        return {"log": {"__overwrite__": ["reset"]}, "added": {"value": ["erased"], "type": "__overwrite__"}}

    app = t.compile(
        build(t, "START>reset START>tail", state=Custom, reset=reset, tail=t.node("tail", "added"))
    )
    cfg = thread()
    t.invoke(app, {"log": ["in"], "added": ["in"]}, cfg)
    t.update(app, cfg, {"added": {"__overwrite__": ["by hand"]}}, as_node="tail")
    t.state(app, cfg)
    seeded = {"log": {"__overwrite__": ["seed"]}, "added": {"__overwrite__": ["seed"]}}
    t.invoke(app, seeded, thread("input"), label="invoke with overwrites as input")
    twice = t.compile(build(t, "START>reset START>again", state=Custom, reset=reset, again=reset))
    t.invoke(twice, {"log": [], "added": []}, thread("twice"), label="two overwrites in one step")
    t.invoke(
        app, {"log": {"__overwrite__": 1, "other": 2}, "added": []}, thread("plain"), label="not an overwrite"
    )


@scenario
def saver_with_sync_overrides_and_a_subgraph(t: Trace) -> None:
    """A subgraph inherits the saver as its parent's sync run reaches it: through the sync methods,
    for the subgraph's checkpoints and writes too, also when an interrupt inside is resumed."""
    fl = t.fl
    sub = fl.StateGraph(Num).add_node("ask", asker(t, "ask", "ok?")).add_edge(fl.START, "ask")
    g = fl.StateGraph(Num).add_node("sub", sub.compile()).add_node("b", t.node("b"))
    g.add_edge(fl.START, "sub").add_edge("sub", "b")
    app = g.compile(checkpointer=recording_saver(t))
    cfg = thread()
    t.call("invoke", app.invoke, {"x": 1, "log": []}, cfg)
    t.call("get_state", lambda: app.get_state(cfg, subgraphs=True).tasks[0].state.values)
    t.call("resume", app.invoke, fl.Command(resume="yes"), cfg)
    t.call("history", lambda: [s.values for s in app.get_state_history(cfg)])


# --- issue 34: what real programs use -------------------------------------------------------------------


def small_x_interrupts(t: Trace) -> Any:
    """A node that raises ``NodeInterrupt`` while ``x < 5`` (LangGraph 0.x's way to pause)."""

    def check(state: dict) -> dict:
        t.counts["check"] += 1
        if state["x"] < 5:
            raise t.fl.NodeInterrupt(f"x={state['x']} is too small")
        return {"log": ["checked"]}

    return check


@scenario
def memory_saver_and_node_interrupt(t: Trace) -> None:
    """``MemorySaver`` is ``InMemorySaver``; a node raising ``NodeInterrupt`` pauses the run (an
    interrupt with the placeholder id, a deprecation warning), runs again from its first line on
    resume, and goes on once the state lets it."""
    fl = t.fl
    t.call("MemorySaver is InMemorySaver", lambda: fl.MemorySaver is fl.InMemorySaver)
    g = build(t, "START>check check>END", state=Num, check=small_x_interrupts(t))
    app = g.compile(checkpointer=fl.MemorySaver())
    t.adopt(app, ["t1"])
    cfg = thread()

    def warned_invoke() -> list:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = app.invoke({"x": 1, "log": []}, cfg)
        return [result, [(issubclass(w.category, DeprecationWarning), str(w.message)) for w in caught]]

    t.call("invoke (and its warnings)", warned_invoke)
    t.state(app, cfg)
    t.stream(app, None, cfg, label="resume: raises again", stream_mode="updates")
    t.update(app, cfg, {"x": 9})
    t.invoke(app, None, cfg, label="resume after the fix")
    t.call("given id", lambda: list(fl.NodeInterrupt("v", id="mine").args[0]))


@dataclasses.dataclass
class Decision:
    approved: bool


class Answer(TypedDict):
    answer: Any


@scenario
def interrupt_response_schema(t: Trace) -> None:
    """``interrupt(value, response_schema=...)``: a JSON schema is surfaced as is, a type as its JSON
    schema, and the answer is validated into that type (an invalid answer raises, marked by
    ``is_invalid_resume``, and can be answered again); ``Interrupt``'s repr prints the schema, and the
    arguments of 0.x's ``Interrupt`` are still accepted."""
    fl = t.fl

    def ask(state: dict) -> dict:
        first = fl.interrupt("name?", response_schema={"type": "string"})
        second = fl.interrupt("approve?", response_schema=Decision)
        return {"answer": [first, second]}

    app = t.compile(fl.StateGraph(Answer).add_node("ask", ask).add_edge(fl.START, "ask"))
    cfg = thread()
    t.invoke(app, {"answer": None}, cfg)
    t.invoke(app, fl.Command(resume="Ada"), cfg, label="first answer")
    t.call("invalid answer", lambda: app.invoke(fl.Command(resume={"approved": "nope"}), cfg))
    t.call("is_invalid_resume", lambda: _invalid_resume(app, cfg, fl))
    t.invoke(app, fl.Command(resume={"approved": True}), cfg, label="valid answer")
    t.call("repr", lambda: repr(fl.Interrupt("v", "an-id", response_schema={"type": "string"})))
    t.call("repr without id", lambda: repr(fl.Interrupt("v")))
    old = fl.Interrupt("v", resumable=True, ns=["a:1"], when="during")
    t.call("0.x arguments", lambda: [repr(old), old.id[:16], old.id[16:]])  # (halves: not read as a uuid)


def _invalid_resume(app: Any, cfg: dict, fl: Any) -> list:
    try:
        app.invoke(fl.Command(resume={"approved": 3.5}), cfg)
    except Exception as error:  # the point: which error, and whether it is marked
        return [type(error).__name__, fl.is_invalid_resume(error), fl.is_invalid_resume(ValueError())]
    return ["no error"]


@scenario
def get_state_by_checkpoint_id(t: Trace) -> None:
    """``get_state`` of a config naming a ``checkpoint_id``: the snapshot's config is that config as
    given (its other keys too, no ``checkpoint_ns`` added); its parent's, and those of the history,
    are the saver's."""
    app = t.compile(build(t, "START>a a>b", state=Num))
    cfg = thread()
    t.invoke(app, {"x": 1, "log": []}, cfg)
    past = t.checkpoint(app, cfg, next=("b",))["configurable"]["checkpoint_id"]
    t.state(app, thread(checkpoint_id=past), label="by id")
    t.state(app, thread(checkpoint_id=past, checkpoint_ns=""), label="by id and namespace")
    t.state(app, {**thread(checkpoint_id=past, user=5), "tags": ["x"]}, label="by id, with more keys")
    t.state(app, thread(user=5), label="latest, with more keys")
    t.history(app, thread(checkpoint_id=past), label="history from that id", limit=1)


@scenario
def drawing_json_classes(t: Trace) -> None:
    """``to_json()`` names the class that runs each node as LangGraph does: ``RunnableCallable`` for a
    function (also one that calls a subgraph), ``CompiledStateGraph`` for a compiled graph added as the
    node; opened with ``xray``, the subgraph's own nodes."""
    sub = t.compile(build(t, "START>s1 s1>s2", state=Num), checkpointer=False)
    g = build(t, "START>a a>sub sub>calls", state=Num, sub=sub, calls=lambda state: sub.invoke(state))
    app = t.compile(g, checkpointer=False)
    t.call("to_json()", lambda: app.get_graph().to_json())
    t.call("to_json() with xray", lambda: app.get_graph(xray=True).to_json())
    t.call("run", lambda: app.invoke({"x": 1, "log": []}))


@scenario
def cached_update_on_resume(t: Trace) -> None:
    """On resume, a task that finished before the interrupt is not run again: its saved writes are
    reused, and its ``updates`` chunk says so (``"__metadata__": {"cached": True}``)."""
    app = t.compile(build(t, "START>a START>ask a,ask>c", state=Num, ask=asker(t, "ask", "ok?")))
    cfg = thread()
    t.invoke(app, {"x": 1, "log": []}, cfg)
    t.stream(app, t.fl.Command(resume="yes"), cfg, label="resume", stream_mode=["updates", "values"])


@dataclasses.dataclass
class Defaults:
    given: str
    maybe: int | None
    ellipsis: str = dataclasses.field(default=...)
    noted: Annotated[int, "some metadata"] = 42
    named: Annotated[str, "more metadata"] = dataclasses.field(default="some foo")
    listed: list[int] = dataclasses.field(default_factory=lambda: [1, 2, 3])
    mapped: dict[str, int] = dataclasses.field(default_factory=lambda: {"b": 1, "a": 2})
    kinds: Literal["x", "y"] = "x"


@scenario
def json_schema_dataclass_defaults(t: Trace) -> None:
    """A dataclass field with ``field(default=...)`` is required (Pydantic reads ``...`` so); the other
    defaults are shown; keys come in Pydantic's order (alphabetical, fields in declaration order)."""
    fl = t.fl
    app = t.compile(fl.StateGraph(Defaults).add_node("a", lambda s: {}).add_edge(fl.START, "a"))
    t.call("get_input_jsonschema() keys", lambda: _key_order(app.get_input_jsonschema()))
    t.call("get_input_jsonschema()", app.get_input_jsonschema)
    t.call("get_output_jsonschema() keys", lambda: _key_order(app.get_output_jsonschema()))
    whole = t.compile(fl.StateGraph(int).add_node("a", lambda s: s).add_edge(fl.START, "a"))
    t.call("whole value: keys", lambda: _key_order(whole.get_input_jsonschema()))


def _key_order(value: Any) -> Any:
    """The keys of every dict, in order, as nested lists (a trace compares dicts whatever their order)."""
    if isinstance(value, dict):
        return [[key, _key_order(item)] for key, item in value.items()]
    if isinstance(value, list):
        return [_key_order(item) for item in value]
    return value


class Fanned(pydantic.BaseModel):
    items: list[str] = []
    out: Annotated[list, operator.add] = []


@dataclasses.dataclass
class FannedData:
    items: list
    out: Annotated[list, operator.add] = dataclasses.field(default_factory=list)


@scenario
def send_argument_as_is(t: Trace) -> None:
    """A ``Send``'s argument reaches its node as it was sent: a dict stays a dict (even one that
    would not validate as the node's Pydantic or dataclass schema), an instance stays one."""
    fl = t.fl
    for schema in (Fanned, FannedData):

        def work(arg: schema) -> dict:  # type: ignore[valid-type]
            return {"out": [[type(arg).__name__, repr(arg)]]}

        def fan_out(state: Any) -> list:
            return [fl.Send("work", {"item": 1}), fl.Send("work", {"items": ["x"]}), fl.Send("work", state)]

        g = fl.StateGraph(schema).add_node("work", work)
        g.add_conditional_edges(fl.START, fan_out)
        t.invoke(t.compile(g, checkpointer=False), {"items": ["a"]}, label=f"{schema.__name__}: invoke")


def plus(a: Any, b: Any) -> Any:
    return (a or 0) + b


def pair(a: Any, b: Any) -> Any:
    return [a, b]


class Reduced(TypedDict, total=False):
    n: Annotated[int | None, plus]
    o: Annotated[Optional[int], plus]  # noqa: UP045  (written the older way on purpose)
    u: Annotated[dict | list, pair]
    seq: Annotated[Sequence[str], operator.add]
    req: Required[Annotated[list, operator.add]]
    nreq: NotRequired[Annotated[list, operator.add]]


@scenario
def reducers_on_any_type(t: Trace) -> None:
    """A reducer on a type that cannot be made empty (``int | None``, ``Optional[int]``, ``dict | list``)
    gets the first write as is; ``Sequence[str]`` starts from ``[]``; a reducer inside ``Required[...]``
    or ``NotRequired[...]`` is honoured, and the JSON schema is made."""
    fl = t.fl
    writes = {"n": 1, "o": 2, "u": {"x": 1}, "seq": ["s"], "req": ["r"], "nreq": ["q"]}
    app = t.compile(fl.StateGraph(Reduced).add_node("a", lambda s: writes).add_edge(fl.START, "a"))
    cfg = thread()
    t.invoke(app, {"req": ["in"]}, cfg, label="first run")
    t.invoke(app, {"n": 5, "nreq": ["in2"]}, cfg, label="second run, from the checkpoint")
    t.call("get_input_jsonschema()", app.get_input_jsonschema)


@scenario
def saver_put_writes_without_task_path(t: Trace) -> None:
    """A saver written before ``put_writes`` took a ``task_path`` (``put_writes(config, writes,
    task_id)``, ``aput_writes`` alike) is called with three arguments: LangGraph checks the signature."""
    fl = t.fl

    class Older(fl.InMemorySaver):  # type: ignore[name-defined,misc]
        def put_writes(self, config: Any, writes: Any, task_id: str) -> None:
            t.counts["put_writes"] += 1
            super().put_writes(config, writes, task_id)

        async def aput_writes(self, config: Any, writes: Any, task_id: str) -> None:
            t.counts["aput_writes"] += 1
            super().put_writes(config, writes, task_id)

    g = build(t, "START>a a>ask", state=Num, ask=asker(t, "ask", "ok?"))
    app = g.compile(checkpointer=Older())
    t.adopt(app, ["t1", "t2"])
    t.call("invoke", app.invoke, {"x": 1, "log": []}, thread())
    t.call("resume", app.invoke, fl.Command(resume="yes"), thread())
    t.call("update_state", lambda: app.update_state(thread(), {"log": ["by hand"]}, as_node="a") is not None)
    t.call("ainvoke", lambda: asyncio.run(app.ainvoke({"x": 2, "log": []}, thread("t2"))))


class Item(pydantic.BaseModel):
    name: str
    tags: list[str] = []


class Basket(pydantic.BaseModel):
    items: list[Item] = []


class Held(TypedDict):
    item: Item | None
    basket: Basket
    log: Annotated[list, operator.add]


@scenario
def pydantic_values_in_the_state(t: Trace) -> None:
    """Pydantic models the state's fields name (``Item | None``, a model holding ``list[Item]``) are
    saved in checkpoints and load back as those models: in the values, the writes, the history."""

    def pick(state: dict) -> dict:
        basket = Basket(items=[*state["basket"].items, Item(name="pear", tags=["ripe"])])
        return {"item": Item(name="apple"), "basket": basket, "log": ["pick"]}

    app = t.compile(build(t, "START>pick", state=Held, pick=pick))
    cfg = thread()
    t.invoke(app, {"item": None, "basket": Basket(), "log": []}, cfg)
    t.invoke(app, {"log": []}, cfg, label="again, from the saved state")
    t.call("types read back", lambda: [type(v).__name__ for v in app.get_state(cfg).values.values()])


@scenario
def add_messages_openai_format(t: Trace) -> None:
    """``add_messages(format="langchain-openai")``: the merged messages' contents in OpenAI's format
    (an Anthropic-style image block becomes ``image_url``, ``cache_control`` is dropped, the ids too)."""
    fl = t.fl

    Chat = TypedDict("Chat", {"messages": Annotated[list, fl.add_messages(format="langchain-openai")]})  # noqa: UP013

    image = {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "1234"}}

    def reply(state: dict) -> dict:
        content = [{"type": "text", "text": "an image:", "cache_control": {"type": "ephemeral"}}, image]
        return {"messages": [fl.HumanMessage(content, id="h2"), fl.AIMessage("seen", id="a1")]}

    g = fl.StateGraph(Chat).add_node("reply", reply).add_edge(fl.START, "reply")
    # (saved before the next step: converted messages have no ids, which the next merge sets on them)
    t.invoke(t.compile(g), {"messages": [fl.HumanMessage("hi", id="h1")]}, thread(), durability="sync")


@scenario
def interrupt_id_alias(t: Trace) -> None:
    """``Interrupt.interrupt_id``: 0.x's name of ``id``, still read by LangGraph 1.2 with one
    deprecation warning; a resume map keyed by it answers parallel interrupts."""
    fl = t.fl
    g = fl.StateGraph(Num).add_node("a", asker(t, "a", "qa")).add_node("b", asker(t, "b", "qb"))
    g.add_edge(fl.START, "a").add_edge(fl.START, "b")
    app = t.compile(g)
    cfg = thread()
    asked = t.invoke(app, {"x": 1, "log": []}, cfg)["__interrupt__"]

    def by_old_name() -> list:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ids = [i.interrupt_id == i.id for i in asked]
        return [ids, [(issubclass(w.category, DeprecationWarning), str(w.message)) for w in caught]]

    t.call("interrupt_id (and its warnings)", by_old_name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        answers = {i.interrupt_id: f"answer to {i.value}" for i in asked}
    t.invoke(app, fl.Command(resume=answers), cfg, label="resume by interrupt_id")


def _step(state: Any) -> dict:
    return {"x": state["x"] + 1, "log": ["a"]}


def _route_ab(state: Any) -> Literal["a", "__end__"]:
    return "__end__" if state["x"] > 1 else "a"


def _route_unannotated(state: Any) -> Any:
    return "__end__" if state["x"] > 1 else "a"


@scenario
def path_map_neither_dict_nor_list(t: Trace) -> None:
    """``add_conditional_edges``' ``path_map`` is read only as a dict or a list: a string or a tuple
    is ignored, and the ends come from the router's ``-> Literal[...]`` (else any node may follow)."""
    fl = t.fl
    for label, router, path_map in (
        ("str, Literal router", _route_ab, "a"),
        ("tuple, Literal router", _route_ab, ("a",)),
        ("str, unannotated router", _route_unannotated, "a"),
        ("list", _route_unannotated, ["a", "__end__"]),
        ("dict", _route_unannotated, {"a": "a", "__end__": fl.END}),
    ):
        g = fl.StateGraph(Num).add_node("a", _step).add_edge(fl.START, "a")
        g.add_conditional_edges("a", router, path_map)
        app = t.compile(g)
        t.call(f"{label}: draw_mermaid()", lambda app=app: app.get_graph().draw_mermaid().splitlines())
        t.invoke(app, {"x": 1, "log": []}, thread(), label=f"{label}: invoke")


@scenario
def custom_stream_writer(t: Trace) -> None:
    """``stream_mode="custom"``: what nodes give ``get_stream_writer()`` or a ``writer`` parameter,
    between the other modes' chunks; a subgraph's only with ``subgraphs=True``, named by its
    namespace; a writer that goes nowhere when the mode is not streamed."""
    fl = t.fl

    def inner(state: dict) -> dict:
        fl.get_stream_writer()({"inner saw": state["x"]})
        return {"x": state["x"] + 1}

    def first(state: dict, writer) -> dict:  # (not annotated: given the writer)
        writer("first starts")
        writer({"progress": 0.5})
        return {"x": 1, "log": ["first"]}

    sub = fl.StateGraph(Num).add_node("inner", inner).add_edge(fl.START, "inner").compile()
    g = fl.StateGraph(Num).add_node("first", first).add_node("sub", sub)
    app = t.compile(g.add_edge(fl.START, "first").add_edge("first", "sub"))
    for label, options in (
        ("custom", {"stream_mode": "custom"}),
        ("custom, subgraphs", {"stream_mode": "custom", "subgraphs": True}),
        ("custom and updates", {"stream_mode": ["custom", "updates"]}),
        ("custom and updates, subgraphs", {"stream_mode": ["custom", "updates"], "subgraphs": True}),
        ("updates only", {"stream_mode": "updates"}),
    ):
        t.stream(app, {"x": 0, "log": []}, thread(label), label=label, **options)
    t.invoke(app, {"x": 0, "log": []}, thread("invoke"), label="invoke")
    t.call("get_stream_writer outside a node", fl.get_stream_writer)


@scenario
def writer_parameter_annotations(t: Trace) -> None:
    """A node's ``writer`` parameter gets the stream writer if it is not annotated or is annotated
    ``StreamWriter`` (the type, or the string); under any other annotation nothing is passed."""
    fl = t.fl

    def node(state: dict, writer: Any) -> dict:
        writer(f"x is {state['x']}")
        return {"x": state["x"] + 1}

    for label, annotation in (
        ("StreamWriter", fl.StreamWriter),
        ("'StreamWriter'", "StreamWriter"),
        ("'fl.StreamWriter'", "fl.StreamWriter"),
        ("Callable", Callable[[Any], None]),
    ):
        node.__annotations__["writer"] = annotation
        g = fl.StateGraph(Num).add_node("node", node).add_edge(fl.START, "node")
        t.stream(t.compile(g), {"x": 1, "log": []}, thread(label), label=label, stream_mode="custom")


@scenario
def custom_stream_writer_func(t: Trace) -> None:
    """``stream_mode="custom"`` from an entrypoint's ``writer`` parameter and from a task it calls
    (the task's chunks named by the entrypoint's task with ``subgraphs=True``)."""
    fl = t.fl

    @fl.task
    def double(v: int) -> int:
        fl.get_stream_writer()(f"doubling {v}")
        return v * 2

    @fl.entrypoint(checkpointer=t.saver)
    def main(v: int, writer) -> int:
        writer("start")
        result = double(v).result()
        writer(f"got {result}")
        return result

    t.stream(main, 3, thread("both"), label="custom and updates", stream_mode=["custom", "updates"])
    t.stream(main, 4, thread("subgraphs"), label="custom, subgraphs", stream_mode="custom", subgraphs=True)
    t.invoke(main, 5, thread("invoke"), label="invoke")
