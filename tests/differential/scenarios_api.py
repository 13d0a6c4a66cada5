"""Differential scenarios for the API real programs use (issue 8, "API that real programs use"):
state schemas, node return shapes, graph building, validation, drawing, node signatures.

Each is registered with ``@scenario`` like those in ``scenarios.py`` and runs unchanged against
LangGraph and ``lab``. Graph code is written the way LangGraph's docs write it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import operator
from collections.abc import Callable
from typing import Annotated, Any, Literal

import pydantic
from typing_extensions import TypedDict

from .scenarios import Log, build, scenario
from .trace import Trace, thread


class Num(TypedDict):
    x: int
    log: Annotated[list, operator.add]


@dataclasses.dataclass
class DataState:
    x: int
    log: Annotated[list, operator.add] = dataclasses.field(default_factory=list)


class ModelState(pydantic.BaseModel):
    x: int
    log: Annotated[list, operator.add] = []


def build_call(t: Trace, label: str, make: Callable[[], Any]) -> Any:
    """Record building (``StateGraph(...)``, ``add_*``, ``compile``): its result or what it raised."""
    return t.call(label, lambda: _built(make()))


def _built(obj: Any) -> str:
    return type(obj).__name__


# --- state schemas ------------------------------------------------------------------------------------


def schema_graph(t: Trace, schema: type) -> Any:
    """START -> bump -> END over ``schema``; ``bump`` logs the type of the state it received."""

    def bump(state: Any) -> dict:
        t.counts[f"bump saw {type(state).__name__}"] += 1
        return {"x": state.x + 1, "log": [type(state).__name__]}

    g = t.fl.StateGraph(schema)
    g.add_node("bump", bump)
    g.add_edge(t.fl.START, "bump")
    return t.compile(g)


@dataclasses.dataclass
class Maybe:
    x: int | None = None
    note: str | None = None
    log: Annotated[list, operator.add] = dataclasses.field(default_factory=list)


class MaybeModel(pydantic.BaseModel):
    x: int | None = None
    note: str | None = "unset"
    log: Annotated[list, operator.add] = []


@scenario
def state_objects_as_updates(t: Trace) -> None:
    """A node returning a state object: a dataclass writes every field (``None`` too); a Pydantic
    model skips a ``None`` left at a ``None`` default, keeps one set explicitly."""
    for schema in (Maybe, MaybeModel):

        def returns_objects(state: Any, schema: type = schema) -> Any:
            return schema(x=None, log=[type(state).__name__])

        g = t.fl.StateGraph(schema).add_node("obj", returns_objects).add_edge(t.fl.START, "obj")
        t.invoke(t.compile(g), {"x": 1, "note": "n"}, thread(schema.__name__), label=f"{schema.__name__}")


@scenario
def schema_dataclass(t: Trace) -> None:
    """A dataclass state: nodes get an instance, the caller gets a dict; input as dict or instance."""
    app = schema_graph(t, DataState)
    t.invoke(app, {"x": 1}, thread("dict"), label="invoke with a dict")
    t.invoke(app, DataState(x=5, log=["in"]), thread("instance"), label="invoke with an instance")
    t.stream(app, {"x": 9}, thread("stream"), stream_mode=["values", "updates"])


@scenario
def schema_pydantic(t: Trace) -> None:
    """A Pydantic state (pydantic is optional for lab): nodes get a model, the caller a dict."""
    app = schema_graph(t, ModelState)
    t.invoke(app, {"x": 1}, thread("dict"), label="invoke with a dict")
    t.invoke(app, ModelState(x=5, log=["in"]), thread("model"), label="invoke with a model")


@scenario
def schema_whole_value(t: Trace) -> None:
    """``StateGraph(Annotated[list, operator.add])``: the state is the list itself; nodes return
    items to add, a ``Command`` updates it, a router reads it; an interrupt, update_state."""
    fl = t.fl

    def ask(state: list) -> list:
        return ["ask:" + fl.interrupt(f"{len(state)} items?")]

    def jump(state: list) -> Any:
        return fl.Command(update=["jump"], goto="quiet")

    g = fl.StateGraph(Annotated[list, operator.add])
    g.add_node("first", lambda state: ["first"]).add_node("ask", ask).add_node("jump", jump)
    g.add_node("quiet", lambda state: None)
    g.add_edge(fl.START, "first").add_edge("first", "ask")
    g.add_conditional_edges("ask", lambda state: "jump" if len(state) < 5 else fl.END)
    app = t.compile(g)
    cfg = thread()
    t.stream(app, ["in"], cfg, stream_mode=["values", "updates"])
    t.invoke(app, fl.Command(resume="yes"), cfg, label="resume")
    t.invoke(app, ["again"], thread("again"), label="invoke until the interrupt")
    t.update(app, cfg, ["by hand"], as_node="quiet")
    t.state(app, cfg)
    t.call("get_input_jsonschema()", app.get_input_jsonschema)
    drawing(t, "whole value", app)
    scalar = fl.StateGraph(int).add_node("inc", lambda n: n + 1).add_edge(fl.START, "inc")
    t.stream(t.compile(scalar, checkpointer=False), 1, None, stream_mode=["values", "updates"])


class Public(TypedDict):
    question: str
    answer: str


class Private(TypedDict):
    scratch: str


@scenario
def private_state(t: Trace) -> None:
    """A node whose input type declares keys outside the state: they become channels another node
    writes; each node reads only the keys of its own input type."""

    def think(state: Public) -> Private:
        t.counts[f"think saw {sorted(state)}"] += 1
        return {"scratch": state["question"] + "?"}

    def reply(state: Private) -> dict:
        t.counts[f"reply saw {sorted(state)}"] += 1
        return {"answer": state["scratch"] + "!"}

    g = t.fl.StateGraph(Public)
    g.add_node("think", think)
    g.add_node("reply", reply)
    g.add_edge(t.fl.START, "think")
    g.add_edge("think", "reply")
    app = t.compile(g)
    t.invoke(app, {"question": "why"}, thread())
    t.stream(app, {"question": "how"}, thread("stream"), stream_mode=["values", "updates"])


class Question(TypedDict):
    question: str


class Answer(TypedDict):
    answer: str


@scenario
def input_output_schema(t: Trace) -> None:
    """``StateGraph(State, input_schema=..., output_schema=...)``: the input is cut to the input keys,
    invoke returns the output keys (values chunks still show every key), also when interrupted."""

    def draft(state: Question) -> dict:
        return {"scratch": state["question"] + "?", "answer": "draft", "not a key": 1}

    def ask(state: Public) -> dict:
        return {"answer": t.fl.interrupt(state["answer"])}

    g = t.fl.StateGraph(Public, input_schema=Question, output_schema=Answer)
    g.add_node("draft", draft).add_node("ask", ask).add_edge(t.fl.START, "draft").add_edge("draft", "ask")
    app = t.compile(g)
    cfg = thread()
    t.invoke(app, {"question": "why", "answer": "ignored", "scratch": "ignored"}, cfg)
    t.stream(app, t.fl.Command(resume="because"), cfg, stream_mode=["values", "updates"])
    t.call("get_input_jsonschema()", app.get_input_jsonschema)
    t.call("get_output_jsonschema()", app.get_output_jsonschema)


class Typed(TypedDict, total=False):
    name: str
    count: int
    score: float
    done: bool
    items: list
    tags: list[str]
    extra: dict
    limits: dict[str, int]
    maybe: int | None
    mode: Literal["fast", "slow"]
    log: Annotated[list[str], operator.add]


@dataclasses.dataclass
class TypedData:
    name: str
    count: int = 3
    log: Annotated[list, operator.add] = dataclasses.field(default_factory=list)


@scenario
def json_schemas(t: Trace) -> None:
    """``get_input_jsonschema()`` for the field types states use: TypedDict (total=False), a
    dataclass with defaults, a Pydantic model."""
    for schema in (Typed, TypedData, ModelState):
        g = t.fl.StateGraph(schema).add_node("a", lambda s: {}).add_edge(t.fl.START, "a")
        t.call(f"{schema.__name__}: get_input_jsonschema()", t.compile(g).get_input_jsonschema)


# --- what a node returns --------------------------------------------------------------------------------


@scenario
def list_of_updates(t: Trace) -> None:
    """A node returning ``[Command(update=...), {...}, Command(goto=...)]``: every item applies, in
    order; the updates chunk lists them; the snapshot's task result shows ``$writes``. (``many`` has no
    edge of its own: a sibling of ``last`` in step 2 would run beside it on LangGraph's threads, and the
    order of their ``updates`` chunks is timing.)"""

    def many(state: dict) -> list:
        return [t.fl.Command(update={"log": ["one"]}), {"log": ["two"], "x": 2}, t.fl.Command(goto="last")]

    def bad(state: dict) -> list:
        return [{"log": ["fine"]}, 5]

    def dicts_only(state: dict) -> list:
        return [{"log": ["one"]}, {"log": ["two"]}]

    def pairs(state: dict) -> Any:
        return t.fl.Command(update=[("log", ["pair"]), ("x", 3)])

    g = build(t, "START>many", state=Num, many=many, last=t.node("last"))
    app = t.compile(g)
    t.stream(app, {"x": 1, "log": []}, thread(), stream_mode=["updates", "values"])
    t.invoke(t.compile(build(t, "START>bad", state=Num, bad=bad)), {"x": 0, "log": []}, thread("bad"))
    only = t.compile(build(t, "START>dicts_only", state=Num, dicts_only=dicts_only))
    t.invoke(only, {"x": 0, "log": []}, thread("dicts"), label="a list of dicts only")
    t.invoke(t.compile(build(t, "START>pairs", state=Num, pairs=pairs)), {"x": 0, "log": []}, thread("pairs"))


@scenario
def overwrite(t: Trace) -> None:
    """``Overwrite`` bypasses a reducer; later writes that step are ignored; two in one step are
    an error; as input it replaces the value too."""
    Overwrite = t.fl.Overwrite

    def reset(state: dict) -> dict:
        return {"log": Overwrite(["reset"])}

    app = t.compile(build(t, "START>reset START>tail", reset=reset))
    t.invoke(app, {"log": ["in"]}, thread("one"))
    t.invoke(app, {"log": Overwrite(["seed"])}, thread("input"), label="invoke with an Overwrite input")
    twice = t.compile(build(t, "START>reset START>again", reset=reset, again=reset))
    t.invoke(twice, {"log": ["in"]}, thread("twice"), label="two Overwrites in one step")

    def route(state: dict) -> str:
        t.counts[f"router saw {state['log']}"] += 1
        return t.fl.END

    routed = build(t, "START>reset", reset=reset)
    routed.add_conditional_edges("reset", route)
    t.invoke(t.compile(routed), {"log": ["in"]}, thread("router"), label="a router after an Overwrite")


# --- building a graph -----------------------------------------------------------------------------------


@scenario
def builder_shortcuts(t: Trace) -> None:
    """set_entry_point / set_finish_point, set_conditional_entry_point, add_sequence (functions and
    ``(name, fn)`` pairs), and a join into END (``add_edge([a, b], END)``)."""
    fl = t.fl

    def step_a(state: dict) -> dict:
        return {"log": ["a"]}

    def step_b(state: dict) -> dict:
        return {"log": ["b"]}

    seq = fl.StateGraph(Log).add_sequence([step_a, step_b, ("third", t.node("third"))])
    seq.set_entry_point("step_a").set_finish_point("third")
    t.invoke(t.compile(seq), {"log": []}, thread("sequence"))

    cond = fl.StateGraph(Log).add_node("yes", t.node("yes")).add_node("no", t.node("no"))
    cond.set_conditional_entry_point(lambda s: bool(s["log"]), {True: "yes", False: "no"})
    app = t.compile(cond)
    t.invoke(app, {"log": ["x"]}, thread("entry-true"), label="conditional entry, True")
    t.invoke(app, {"log": []}, thread("entry-false"), label="conditional entry, False")

    join_end = build(t, "START>p START>q")
    join_end.add_edge(["p", "q"], fl.END)
    t.invoke(t.compile(join_end), {"log": []}, thread("join-end"), label="add_edge([p, q], END)")


@scenario
def builder_validation(t: Trace) -> None:
    """What LangGraph refuses while building: a one-argument reducer, a checkpointer that is not a
    saver, an empty or duplicate sequence, reserved node names and state keys, an unknown branch
    target, a duplicate branch (messages compared by their first sentence)."""
    fl = t.fl

    def node(state: dict) -> dict:
        return {"log": ["n"]}

    class OneArg(TypedDict):
        log: Annotated[list, lambda a: a]

    build_call(t, "reducer with one argument", lambda: fl.StateGraph(OneArg))
    not_a_saver = object()
    plain = build(t, "START>a")
    build_call(t, "compile(checkpointer=object())", lambda: plain.compile(checkpointer=not_a_saver))
    build_call(t, "add_sequence([])", lambda: fl.StateGraph(Log).add_sequence([]))
    build_call(t, "add_sequence, same name twice", lambda: fl.StateGraph(Log).add_sequence([node, node]))
    for name in ("__interrupt__", "__input__", "__error__", "a|b", "a:b", fl.START, fl.END):
        build_call(t, f"node named {name!r}", lambda name=name: _single_node(t, name, node))
    for key in ("__interrupt__", "__input__", "__pregel_tasks"):
        schema = TypedDict("Reserved", {key: int, "log": Annotated[list, operator.add]})
        build_call(t, f"state key {key!r}", lambda schema=schema: _keyed(t, schema, node))
    unknown = build(t, "START>a")
    unknown.add_conditional_edges("a", lambda s: "ghost", ["ghost"])
    build_call(t, "branch to an unknown node", lambda: t.compile(unknown))
    twice = build(t, "START>a")
    twice.add_conditional_edges("a", lambda s: fl.END)
    again = lambda s: fl.END  # noqa: E731  (a second lambda: same branch name "condition")
    build_call(t, "two lambda branches on one node", lambda: twice.add_conditional_edges("a", again))
    build_call(t, "join from START", lambda: build(t, "START>a b>END").add_edge([fl.START, "a"], "b"))
    build_call(t, "join into START", lambda: build(t, "START>a START>b").add_edge(["a", "b"], fl.START))


def _single_node(t: Trace, name: str, fn: Callable) -> Any:
    return t.compile(t.fl.StateGraph(Log).add_node(name, fn).add_edge(t.fl.START, name))


def _keyed(t: Trace, schema: type, fn: Callable) -> Any:
    return t.compile(t.fl.StateGraph(schema).add_node("a", fn).add_edge(t.fl.START, "a"))


# --- writing state in bulk ------------------------------------------------------------------------------


@scenario
def bulk_update_state(t: Trace) -> None:
    """``bulk_update_state``: one checkpoint per superstep, each on the last; rebuilding a thread
    from another's history; no supersteps / an empty superstep are ValueErrors."""
    StateUpdate = t.fl.StateUpdate
    app = t.compile(build(t, "START>a a>b b>c c>END", state=Num))
    cfg = thread()
    t.invoke(app, {"x": 1, "log": ["in"]}, cfg, interrupt_before=["c"])
    steps = [[StateUpdate({"log": ["by a"]}, "a")], [StateUpdate({"x": 7, "log": ["as b"]}, "b")]]
    t.call("bulk_update_state, two supersteps", app.bulk_update_state, cfg, steps)
    t.state(app, cfg)
    t.invoke(app, None, cfg, label="invoke(None) runs c")
    history = [s for s in app.get_state_history(cfg) if s.metadata["source"] == "loop"][::-1]
    rebuilt = [[StateUpdate(s.values, "b")] for s in history]
    t.call("rebuild another thread", app.bulk_update_state, thread("copy"), rebuilt)
    parallel = t.compile(build(t, "START>p START>q p>r q>r r>END", state=Num))
    fork = thread("parallel")
    t.invoke(parallel, {"x": 0, "log": []}, fork, interrupt_before=["r"])
    both = [[StateUpdate({"log": ["p again"]}, "p"), StateUpdate({"log": ["q again"], "x": 5}, "q")]]
    t.call("two updates in one superstep", parallel.bulk_update_state, fork, both)
    t.state(parallel, fork, label="get_state after two updates")
    t.invoke(parallel, None, fork, label="invoke(None) runs r once")
    mixed = [[StateUpdate(None, t.fl.END), StateUpdate({"log": ["x"]}, "p")]]
    t.call("clearing with another update", parallel.bulk_update_state, fork, mixed)
    no_node = [[StateUpdate({"log": ["x"]}, "p"), StateUpdate({"log": ["y"]})]]
    t.call("several updates, one without as_node", parallel.bulk_update_state, fork, no_node)
    t.call("no supersteps", app.bulk_update_state, cfg, [])
    t.call("an empty superstep", app.bulk_update_state, cfg, [[]])


# --- drawing --------------------------------------------------------------------------------------------


def drawing(t: Trace, label: str, app: Any) -> None:
    """Record ``get_graph()`` (nodes, edges) and ``draw_mermaid()``, line by line."""
    t.call(f"{label}: get_graph()", lambda: _graph_data(app.get_graph()))
    t.call(f"{label}: draw_mermaid()", lambda: app.get_graph().draw_mermaid().splitlines())


def _graph_data(graph: Any) -> dict:
    nodes = {key: node.metadata for key, node in graph.nodes.items()}
    edges = [[e.source, e.target, e.conditional, e.data] for e in graph.edges]
    return {"nodes": list(nodes), "metadata": {k: v for k, v in nodes.items() if v}, "edges": edges}


@scenario
def get_graph_mermaid(t: Trace) -> None:
    """``get_graph().draw_mermaid()``: plain edges, a join, routers with a path map, a ``Literal``
    return and none, ``Command[Literal[...]]`` returns, breakpoints, a node leading nowhere."""
    fl = t.fl
    drawing(t, "linear", t.compile(build(t, "START>a a>b b>END")))
    drawing(t, "fan-out and join", t.compile(build(t, "START>a a>b,c b,c>d d>END")))

    def route(state: dict) -> Literal["yes", "__end__"]:
        return "yes"

    mapped = build(t, "START>judge yes>END no>END", state=Num)
    mapped.add_conditional_edges("judge", lambda s: s["x"] > 0, {True: "yes", False: "no"})
    drawing(t, "path map", t.compile(mapped))
    hinted = build(t, "START>judge yes>END", state=Num)
    hinted.add_conditional_edges("judge", route)
    drawing(t, "Literal router", t.compile(hinted))
    bare = build(t, "START>judge hi>END lo>END", state=Num)
    bare.add_conditional_edges("judge", lambda s: "hi")
    drawing(t, "router without a map", t.compile(bare))

    def pick(state: dict) -> Any:
        return fl.Command(goto="b")

    pick.__annotations__["return"] = fl.Command[Literal["b", "c"]]  # as written in a module

    def hop(state: dict) -> Any:
        return fl.Command(goto=fl.END)

    hop.__annotations__["return"] = fl.Command[Literal["c", "__end__"]]
    commands = build(t, "START>pick b>c", pick=pick, hop=hop)
    commands.add_edge("c", "hop")
    drawing(t, "Command[Literal]", t.compile(commands, interrupt_before=["c"], interrupt_after=["b", "c"]))
    labels = {"x": "to x once the case is ready", "y": "y"}
    routed = fl.StateGraph(Log).add_node("go", lambda s: fl.Command(goto="x"), destinations=labels)
    routed.add_node("x", t.node("x"), metadata={"team": "ops", "tags": ["a", "b"], "cost": 2, "skip": {}})
    routed.add_node("y", t.node("y")).add_edge(fl.START, "go")
    drawing(t, "destinations and metadata", t.compile(routed))
    unstyled = t.compile(routed).get_graph()
    t.call(
        "draw_mermaid(with_styles=False, wrap_label_n_words=3)",
        lambda: unstyled.draw_mermaid(with_styles=False, wrap_label_n_words=3).splitlines(),
    )
    t.invoke(t.compile(routed), {"log": []}, thread("destinations"))
    drawing(t, "dead end", t.compile(build(t, "START>a a>b")))


# --- node signatures, config and runtime -----------------------------------------------------------------


@dataclasses.dataclass
class Ctx:
    user: str


def run_signature_graph(t: Trace, seen: list, *nodes: Callable, **invoke: Any) -> None:
    """``nodes`` in sequence, run once with ``ainvoke`` (so ``async def`` nodes run too) on a
    thread with a ``user_id``; records the result and what the nodes put in ``seen``."""
    fl = t.fl
    g = fl.StateGraph(Log, context_schema=Ctx)
    g.add_sequence(list(nodes)).add_edge(fl.START, nodes[0].__name__)
    app = t.compile(g)
    cfg = thread(user_id="u-1")
    t.call("ainvoke", lambda: asyncio.run(app.ainvoke({"log": []}, cfg, **invoke)))
    t.record("what the nodes saw", list(seen))
    seen.clear()


@scenario
def node_signature_state(t: Trace) -> None:
    """A node taking only ``state`` reads its config with ``get_config()``; outside a node
    ``get_config()`` is a RuntimeError."""
    seen: list = []

    def plain(state):
        seen.append(("plain", _config_view(t.fl.get_config())))
        return {"log": ["plain"]}

    async def plain_async(state):
        seen.append(("plain_async", _config_view(t.fl.get_config())))
        return {"log": ["plain_async"]}

    run_signature_graph(t, seen, plain, plain_async)
    t.call("get_config() outside a node", t.fl.get_config)


@scenario
def node_signature_config(t: Trace) -> None:
    """``(state, config)`` and ``(state, *, config)``: the config is the one ``get_config()``
    returns: the caller's configurable keys plus the task's namespace and metadata."""
    seen: list = []

    def with_config(state, config):
        seen.append(("with_config", config is t.fl.get_config(), _config_view(config)))
        return {"log": ["with_config"]}

    async def keyword_config(state, *, config):
        seen.append(("keyword_config", _config_view(config)))
        return {"log": ["keyword_config"]}

    run_signature_graph(t, seen, with_config, keyword_config)


@scenario
def node_signature_runtime(t: Trace) -> None:
    """``(state, runtime)`` and ``(state, *, config, runtime)`` with ``context_schema``: the
    runtime carries ``invoke(..., context=...)``; ``get_runtime()`` returns the same; without a
    context it is ``None``."""
    seen: list = []

    def with_runtime(state, runtime):
        seen.append(("with_runtime", runtime.context, runtime is t.fl.get_runtime()))
        return {"log": [f"runtime:{getattr(runtime.context, 'user', None)}"]}

    async def both(state, *, config, runtime):
        seen.append(("both", config["configurable"]["user_id"], runtime.context))
        return {"log": ["both"]}

    run_signature_graph(t, seen, with_runtime, both, context=Ctx("ann"))
    seen: list = []
    run_signature_graph(t, seen, with_runtime, both)


def _config_view(config: dict) -> dict:
    conf, meta = config["configurable"], config["metadata"]
    node, _, task = conf["checkpoint_ns"].partition(":")
    keys = ("langgraph_step", "langgraph_node", "langgraph_triggers", "langgraph_path")
    return {
        "thread_id": conf["thread_id"],
        "user_id": conf["user_id"],
        "checkpoint_ns node": node,
        "checkpoint_ns task id": task,
        "checkpoint_id": conf["checkpoint_id"],
        **{k: meta[k] for k in keys},
    }


@scenario
def compiled_graph_with_config(t: Trace) -> None:
    """``with_config(config, **kwargs)``: a copy of the graph whose calls start from that config
    (configurable keys, tags, metadata, ``recursion_limit``), each call's own merged over it; the
    graph it was made from is unchanged."""
    fl = t.fl

    def look(state: dict) -> dict:
        config = fl.get_config()
        metadata = sorted(k for k in config.get("metadata", {}) if not k.startswith("langgraph_"))
        return {"log": [config["configurable"].get("user"), config.get("recursion_limit"), metadata]}

    app = t.compile(build(t, "START>look", look=look))
    bound = app.with_config({"configurable": {"thread_id": "t1", "user": "ada"}}, recursion_limit=7)
    bound = bound.with_config(metadata={"team": "ops"}, tags=["x"])
    t.call("bound", lambda: [type(bound).__name__, bound is app, bound.config])
    t.invoke(bound, {"log": []}, None, label="invoke without a config")
    t.invoke(bound, {"log": []}, {"tags": ["y"], "configurable": {"extra": 1}}, label="invoke with one")
    t.call("get_state", lambda: bound.get_state({"configurable": {}}).values)
    t.invoke(app, {"log": []}, None, label="the original graph still needs a thread")
    t.invoke(app.with_config(recursion_limit=1), {"log": []}, thread("short"), label="recursion_limit=1")


class Asked(TypedDict):
    question: str


class AskedWithFoo(Asked):
    foo: str


class Answered(TypedDict):
    input_state: Asked


class FooReader:
    """A node that is an instance of a class with ``__call__``, its state annotated there."""

    def __call__(self, state: AskedWithFoo) -> Answered:
        return {"input_state": state}


@scenario
def node_callable_instance_schema(t: Trace) -> None:
    """A callable object as a node: its ``__call__``'s first parameter names its input schema, whose
    extra keys become channels (the node reads ``foo``, which the state schema lacks)."""
    fl = t.fl
    g = fl.StateGraph(Asked, output_schema=Answered)
    g.add_node("pre", lambda _: {"foo": "bar"}).add_node("foo", FooReader())
    g.add_edge(fl.START, "pre").add_edge("pre", "foo")
    t.invoke(t.compile(g), {"question": "q"}, thread())
