"""Differential scenarios for subgraphs (issue 23): a compiled graph run inside a node of another.

Numbered as the issue's subgraph list: (1) a compiled graph as a node, a ``def`` node calling
``sub.invoke`` and an ``async def`` node awaiting ``sub.ainvoke``; (2) ``checkpoint_ns`` and the
subgraph's own checkpoints (every scenario's history shows them: ``history[<thread>|<namespace>]``);
(3) ``get_state(subgraphs=True)``, ``get_state_history`` of a namespace, ``tasks[i].state``;
(4) ``interrupt()`` inside, resumed from the parent (whose node runs again from its first line);
(5) ``Command(graph=Command.PARENT)``; (6) ``compile(checkpointer=None/True/False)``;
(7) ``stream(..., subgraphs=True)``.

Parallel subgraphs are never streamed: LangGraph runs them on threads, so their chunks interleave
by timing.
"""

from __future__ import annotations

import asyncio
import operator
from collections.abc import Callable
from typing import Annotated, Any

from typing_extensions import TypedDict

from .scenarios import Log, asker, build, scenario
from .trace import Trace, thread

LIVE_WAIT_S = 5.0
"""How long a subgraph's node waits for the caller to have seen an earlier chunk (it need not wait at
all when chunks are handed over live; the bound only keeps a wrong runtime from hanging)."""


class Inner(TypedDict):
    """A subgraph's own state: ``log`` is shared with the parent, ``note`` is not."""

    log: Annotated[list, operator.add]
    note: str


def child(t: Trace, edges: str = "START>i1 i1>i2 i2>END", **kwargs: Any) -> Any:
    """A small subgraph, without a saver of its own (``compile(**kwargs)``)."""
    return build(t, edges).compile(**kwargs)


def asking_child(t: Trace, question: str = "ok?", **kwargs: Any) -> Any:
    """A subgraph whose second node asks ``question``."""
    return build(t, "START>i1 i1>ask ask>END", ask=asker(t, "ask", question)).compile(**kwargs)


def calling(t: Trace, name: str, sub: Any, calls: int = 1) -> Callable:
    """A ``def`` node that calls ``sub.invoke`` ``calls`` times, counting runs before and after."""

    def run(state: dict) -> dict:
        t.counts[f"{name} before"] += 1
        outs = [sub.invoke({"log": [f"{name}#{n}"]}) for n in range(calls)]
        t.counts[f"{name} after"] += 1
        return {"log": [f"{name} got {out['log']}" for out in outs]}

    return run


def pause_look_answer(t: Trace, app: Any, answer: str) -> None:
    """Run until a subgraph asks, look with ``get_state(subgraphs=True)``, answer."""
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.state(app, cfg, label="get_state(subgraphs=True)", subgraphs=True)
    t.invoke(app, t.fl.Command(resume=answer), cfg, label=f"invoke(Command(resume={answer!r}))")


def ainvoke(t: Trace, app: Any, inp: Any, config: dict, label: str = "ainvoke", **kwargs: Any) -> Any:
    """Record ``asyncio.run(app.ainvoke(...))`` (a graph with ``async def`` nodes)."""
    t._use(app, config)
    return t.call(label, lambda: asyncio.run(app.ainvoke(inp, config, **kwargs)))


# --- (1) the three ways a graph runs inside another -------------------------------------------------


@scenario
def subgraph_as_node(t: Trace) -> None:
    """A compiled graph added as a node gets the parent's state and writes back its whole output
    (a shared reducer key doubles); its checkpoints go under ``"sub:<task id>"``, steps from -1,
    ``parents`` naming the parent's checkpoint."""
    app = t.compile(build(t, "START>a a>sub sub>b b>END", sub=child(t)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.state(app, cfg)
    t.call("get_graph().draw_mermaid()", lambda: app.get_graph().draw_mermaid())


@scenario
def subgraph_own_schema(t: Trace) -> None:
    """A subgraph with a state schema of its own: it takes the keys it shares with the parent,
    and only those reach the parent's state."""

    def note(state: dict) -> dict:
        return {"note": f"saw {len(state['log'])}", "log": ["note"]}

    inner = t.fl.StateGraph(Inner)
    inner.add_node("note", note)
    inner.add_edge(t.fl.START, "note")
    app = t.compile(build(t, "START>sub sub>END", sub=inner.compile()))
    t.invoke(app, {"log": ["in"]}, thread())


@scenario
def subgraph_named_after_its_graph(t: Trace) -> None:
    """``add_node(compiled_graph)`` without a name names the node after the graph."""
    g = t.fl.StateGraph(Log)
    g.add_node(child(t, "START>i1 i1>END", name="inner"))
    g.add_edge(t.fl.START, "inner")
    t.call("nodes", lambda: sorted(g.nodes))
    t.invoke(t.compile(g), {"log": ["in"]}, thread())


@scenario
def subgraph_invoked_by_a_def_node(t: Trace) -> None:
    """A plain ``def`` node calling ``sub.invoke(...)`` (the common form): the subgraph runs in the
    node's namespace; a second call from the same task runs under ``"<namespace>|1"``."""
    sub = child(t)
    app = t.compile(
        build(t, "START>one one>two two>END", one=calling(t, "one", sub), two=calling(t, "two", sub, 2))
    )
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.state(app, cfg)


@scenario
def subgraph_awaited_by_an_async_node(t: Trace) -> None:
    """An ``async def`` node awaiting ``sub.ainvoke(...)``, two levels deep (the inner graph is a
    node of the middle one)."""
    middle = build(t, "START>m m>inner inner>END", inner=child(t)).compile()

    async def outer(state: dict) -> dict:
        t.counts["outer"] += 1
        out = await middle.ainvoke({"log": ["from outer"]})
        return {"log": [f"outer got {out['log']}"]}

    app = t.compile(build(t, "START>outer outer>END", outer=outer))
    ainvoke(t, app, {"log": ["in"]}, thread())


# --- (2, 3) namespaces, the parent's view and the subgraph's ------------------------------------------


@scenario
def subgraph_state_views(t: Trace) -> None:
    """While the subgraph waits on an interrupt the parent's ``get_state`` is blind to the
    subgraph's progress (``tasks[i].state`` is just a config naming its namespace) unless asked
    with ``subgraphs=True``; a config naming the namespace reads the subgraph, its history too."""
    app = t.compile(build(t, "START>a a>sub sub>END", sub=asking_child(t)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    parent = t.state(app, cfg, label="get_state (parent only)")
    t.state(app, cfg, label="get_state(subgraphs=True)", subgraphs=True)
    inner_cfg = parent.tasks[0].state
    t.state(app, inner_cfg, label="get_state(the task's state config)")
    t.history(app, inner_cfg, label="get_state_history(the task's state config)")
    t.call("saver.list of the thread sees every namespace", lambda: len(list(t.saver.list(cfg))))


# --- (4) interrupt() inside a subgraph -----------------------------------------------------------------


@scenario
def subgraph_interrupt_reruns_parent_node(t: Trace) -> None:
    """``interrupt()`` in a subgraph a ``def`` node invoked: the parent saves the interrupt on its
    own task; on ``Command(resume=...)`` the parent's node runs again from its first line, and the
    subgraph resumes from its own checkpoint (its first node does not run again)."""
    app = t.compile(build(t, "START>call call>END", call=calling(t, "call", asking_child(t))))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.state(app, cfg)
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")
    t.state(app, cfg, label="get_state after resume", subgraphs=True)


@scenario
def subgraph_interrupt_two_levels(t: Trace) -> None:
    """An interrupt two graphs deep, seen from the top with ``subgraphs=True``, resumed from the top."""
    middle = build(t, "START>m m>inner inner>END", inner=asking_child(t)).compile()
    pause_look_answer(t, t.compile(build(t, "START>middle middle>END", middle=middle)), "deep")


@scenario
def subgraph_parallel_interrupts(t: Trace) -> None:
    """Two subgraph nodes of one step both ask: the parent holds both interrupts and is resumed
    with a map from interrupt id to answer."""
    left, right = asking_child(t, "left?"), asking_child(t, "right?")
    app = t.compile(build(t, "START>left START>right left>END right>END", left=left, right=right))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    asked = app.get_state(cfg).interrupts
    answers = {i.id: f"answer {n}" for n, i in enumerate(sorted(asked, key=lambda i: i.value))}
    t.invoke(app, t.fl.Command(resume=answers), cfg, label="invoke(Command(resume={id: answer}))")


@scenario
def subgraph_failure_resumes_inside(t: Trace) -> None:
    """A node of the subgraph fails: the error carries both tasks' notes; ``invoke(None)`` runs
    the parent's node again and the subgraph retries only its failed node."""
    sub = build(t, "START>i1 i1>flaky flaky>END", flaky=t.node("flaky", fail_times=1)).compile()
    app = t.compile(build(t, "START>sub sub>END", sub=sub))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, None, cfg, label="invoke(None)")


@scenario
def subgraph_static_breakpoint(t: Trace) -> None:
    """A subgraph compiled with ``interrupt_before``: the parent pauses with an empty interrupt,
    and ``invoke(None)`` goes on past the breakpoint."""
    sub = child(t, interrupt_before=["i2"])
    app = t.compile(build(t, "START>sub sub>END", sub=sub))
    cfg = thread()
    both = {"stream_mode": ["values", "updates"], "subgraphs": True}
    t.stream(app, {"log": ["in"]}, cfg, label="stream until the breakpoint", **both)
    t.state(app, cfg)
    t.stream(app, None, cfg, label="stream on", **both)


# --- (5) Command(graph=Command.PARENT) -------------------------------------------------------------------


@scenario
def subgraph_command_parent(t: Trace) -> None:
    """A subgraph's node returns ``Command(graph=Command.PARENT, goto=..., update=...)``: it becomes
    the parent node's writes (the update, the goto, then the node's own edge); the subgraph stops.
    From a graph that is not a subgraph, the ``ParentCommand`` reaches the caller."""

    def jump(state: dict) -> Any:
        return t.fl.Command(graph=t.fl.Command.PARENT, goto="c", update={"log": ["jumped"]})

    sub = build(t, "START>i1 i1>jump jump>END", jump=jump).compile()
    app = t.compile(build(t, "START>sub sub>END c>END", sub=sub, c=t.node("c")))
    cfg = thread()
    t.stream(app, {"log": ["in"]}, cfg, label="stream updates", stream_mode="updates", subgraphs=True)
    # b and c run in one step: invoked, not streamed (LangGraph's threads finish them in any order)
    called = t.compile(build(t, "START>call call>b b>END c>END", call=calling(t, "call", sub), c=t.node("c")))
    t.invoke(called, {"log": ["in"]}, thread("called"), label="invoke [a def node calls it]")
    alone = t.compile(build(t, "START>jump jump>END c>END", jump=jump, c=t.node("c")))
    t.invoke(alone, {"log": ["in"]}, thread("alone"), label="invoke [no parent]")


# --- (6) compile(checkpointer=None / True / False) ---------------------------------------------------------


@scenario
def subgraph_checkpointer_modes(t: Trace) -> None:
    """``None`` inherits the parent's saver, one namespace per task; ``True`` keeps one namespace
    per thread (the next run continues it); ``False`` saves nothing. Two parent runs each."""
    for mode in (None, True, False):
        sub = child(t, "START>i1 i1>END", checkpointer=mode)
        app = t.compile(build(t, "START>call call>END", call=calling(t, "call", sub, 2)))
        cfg = thread(f"checkpointer={mode}")
        t.invoke(app, {"log": ["first"]}, cfg, label=f"invoke [checkpointer={mode}]")
        t.invoke(app, {"log": ["second"]}, cfg, label=f"invoke again [checkpointer={mode}]")
        t.state(app, cfg, label=f"get_state(subgraphs=True) [checkpointer={mode}]", subgraphs=True)
    t.history(app, thread("checkpointer=True", checkpoint_ns="call"), label="get_state_history of 'call'")
    own = child(t, "START>i1 i1>END", checkpointer=True)
    t.invoke(own, {"log": ["in"]}, thread("root"), label="invoke a checkpointer=True graph as the root")


@scenario
def subgraph_checkpointer_true_interrupt(t: Trace) -> None:
    """A ``checkpointer=True`` subgraph asks, is resumed, and the next parent run continues its state."""
    app = t.compile(build(t, "START>sub sub>END", sub=asking_child(t, checkpointer=True)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")
    t.invoke(app, {"log": ["again"]}, cfg, label="invoke again")


@scenario
def subgraph_checkpointer_false_interrupt(t: Trace) -> None:
    """A ``checkpointer=False`` subgraph keeps nothing: resumed, it runs again from its start and
    takes the answer; the parent's task shows no subgraph state."""
    app = t.compile(build(t, "START>sub sub>END", sub=asking_child(t, checkpointer=False)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.state(app, cfg)
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")


# --- (7) stream(..., subgraphs=True) ------------------------------------------------------------------------


@scenario
def subgraph_stream(t: Trace) -> None:
    """``stream(..., subgraphs=True)``: ``(namespace, chunk)`` for one mode, ``(namespace, mode,
    chunk)`` for a list; the subgraph's chunks come between the parent's, also on resume; without
    ``subgraphs=True`` only the parent's; with no saver, no checkpoints. ``invoke(subgraphs=True)``
    counts the subgraph's interrupt as well as the parent's (twice the same one), as LangGraph does."""
    app = t.compile(build(t, "START>a a>sub sub>END", sub=asking_child(t)))
    modes: list[Any] = ["updates", "values", ["values", "updates"], "checkpoints", ["checkpoints", "updates"]]
    for mode in modes:
        cfg = thread(mode if isinstance(mode, str) else "+".join(mode))
        t.stream(app, {"log": ["in"]}, cfg, label=f"stream {mode}", stream_mode=mode, subgraphs=True)
        resume = t.fl.Command(resume="yes")
        t.stream(app, resume, cfg, label=f"resume {mode}", stream_mode=mode, subgraphs=True)
    cfg = thread("parent only")
    t.stream(app, {"log": ["in"]}, cfg, label="stream updates (subgraphs=False)", stream_mode="updates")
    t.invoke(app, {"log": ["in"]}, thread("invoke"), label="invoke(subgraphs=True)", subgraphs=True)
    unsaved = t.compile(build(t, "START>sub sub>END", sub=child(t)), checkpointer=False)
    t.stream(
        unsaved,
        {"log": ["in"]},
        None,
        label="stream checkpoints, no saver",
        stream_mode="checkpoints",
        subgraphs=True,
    )


@scenario
def subgraph_stream_from_def_node(t: Trace) -> None:
    """A subgraph a ``def`` node invokes streams into the parent's ``subgraphs=True`` stream too."""
    app = t.compile(build(t, "START>call call>END", call=calling(t, "call", child(t), 2)))
    both = {"stream_mode": ["updates", "values"], "subgraphs": True}
    t.stream(app, {"log": ["in"]}, thread(), label="stream updates+values", **both)


# --- durability and time travel ------------------------------------------------------------------------


@scenario
def subgraph_durability(t: Trace) -> None:
    """The subgraph saves as the parent's run does: under ``"exit"`` a subgraph that finishes saves
    nothing, one that is interrupted saves where it stopped, and the resume finds it."""
    for durability in ("sync", "exit"):
        app = t.compile(build(t, "START>first first>sub sub>END", first=child(t), sub=asking_child(t)))
        cfg = thread(durability)
        t.invoke(app, {"log": ["in"]}, cfg, label=f"invoke [{durability}]", durability=durability)
        resume = t.fl.Command(resume="yes")
        t.invoke(app, resume, cfg, label=f"resume [{durability}]", durability=durability)


@scenario
def subgraph_replay(t: Trace) -> None:
    """Replaying the parent from the checkpoint before its subgraph node forks the thread: the
    subgraph runs again from its input, under the new task's namespace."""
    app = t.compile(build(t, "START>a a>sub sub>END", sub=child(t)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    before_sub = t.checkpoint(app, cfg, next=("sub",))
    t.invoke(app, None, before_sub, label="invoke(None, the checkpoint before sub)")


# --- what a subgraph's node sees, and other ways in ------------------------------------------------------


@scenario
def subgraph_node_config_and_context(t: Trace) -> None:
    """A subgraph's node sees its nested namespace in ``get_config()`` and the parent run's
    ``context`` in its ``Runtime``; ``get_subgraphs`` lists the nodes that run a subgraph."""
    seen: list = []

    def look(state: dict, runtime: Any) -> dict:
        config = t.fl.get_config()
        conf, meta = config["configurable"], config["metadata"]
        seen.append(
            {
                "thread_id": conf["thread_id"],
                "checkpoint_ns": conf["checkpoint_ns"],
                "langgraph_checkpoint_ns": meta["langgraph_checkpoint_ns"],
                "langgraph_node": meta["langgraph_node"],
                "langgraph_step": meta["langgraph_step"],
                "context": runtime.context,
            }
        )
        return {"log": ["look"]}

    inner = build(t, "START>look look>END", look=look).compile()
    middle = build(t, "START>inner inner>END", inner=inner).compile()
    app = t.compile(build(t, "START>a a>middle middle>END", middle=middle))
    t.invoke(app, {"log": ["in"]}, thread(), context={"user": "ann"})
    t.call("what the subgraph's node saw", lambda: seen)
    t.call("get_subgraphs(recurse=True)", lambda: [name for name, _ in app.get_subgraphs(recurse=True)])
    t.call(
        "get_subgraphs(namespace='middle|inner')",
        lambda: [n for n, _ in app.get_subgraphs(namespace="middle|inner", recurse=True)],
    )


@scenario
def subgraph_reached_by_send(t: Trace) -> None:
    """A ``Send`` to a subgraph node: the subgraph gets the ``Send``'s argument, under the push
    task's namespace."""
    g = build(t, "START>plan sub>END", sub=child(t, "START>i1 i1>END"))
    g.add_conditional_edges("plan", lambda state: [t.fl.Send("sub", {"log": ["sent"]})])
    cfg = thread()
    app = t.compile(g)
    t.invoke(app, {"log": ["in"]}, cfg)


@scenario
def subgraph_built_inside_the_node(t: Trace) -> None:
    """A graph compiled inside the node's function cannot be found by reading the function: its
    checkpoints are still saved under the task's namespace, but the task shows no ``state`` and a
    config naming that namespace is read with the parent's nodes and channels."""

    def call(state: dict) -> dict:
        t.counts["call"] += 1
        return build(t, "START>i1 i1>ask ask>END", ask=asker(t, "ask", "ok?")).compile().invoke(state)

    pause_look_answer(t, t.compile(build(t, "START>call call>END", call=call)), "yes")


@scenario
def subgraph_parent_edited_while_paused(t: Trace) -> None:
    """``update_state`` on the parent while its subgraph waits on an interrupt makes a new
    checkpoint, so the subgraph task is a new one: it starts over under a new namespace and asks
    again."""
    app = t.compile(build(t, "START>a a>sub sub>END", sub=asking_child(t)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.update(app, cfg, {"log": ["edited"]}, as_node="a")
    t.invoke(app, None, cfg, label="invoke(None)")
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")


@scenario
def subgraph_interrupts_in_turn(t: Trace) -> None:
    """A subgraph's node asks two questions, one resume each; then the parent's own node asks after
    its subgraph finished: on that resume the subgraph is not run again (it is done) and the
    answer goes to the parent's question."""
    sub = build(t, "START>ask ask>END", ask=asker(t, "ask", "q1?", "q2?")).compile()

    def call(state: dict) -> dict:
        t.counts["call before"] += 1
        out = sub.invoke({"log": ["p"]})
        answer = t.fl.interrupt("parent?")
        return {"log": [*out["log"], f"parent:{answer}"]}

    app = t.compile(build(t, "START>call call>END", call=call))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    for answer in ("a1", "a2", "a3"):
        t.invoke(app, t.fl.Command(resume=answer), cfg, label=f"invoke(Command(resume={answer!r}))")


# --- drawing the subgraphs inside their nodes: get_graph(xray=...) -----------------------------------------


def drawn(graph: Any) -> dict:
    """``get_graph()`` as data: nodes with their labels and metadata, edges, ``to_json()``'s ids
    and names (its class paths name each library's own classes), ``draw_mermaid()`` line by line."""
    as_json = graph.to_json()
    return {
        "nodes": {key: [node.name, node.metadata] for key, node in graph.nodes.items()},
        "edges": [[e.source, e.target, e.conditional, e.data] for e in graph.edges],
        "to_json nodes": [[n["id"], n.get("type"), n.get("data", {}).get("name")] for n in as_json["nodes"]],
        "to_json edges": as_json["edges"],
        "draw_mermaid": graph.draw_mermaid().splitlines(),
    }


@scenario
def subgraph_drawn_with_xray(t: Trace) -> None:
    """``get_graph(xray=True)`` draws each subgraph's nodes inside its node (ids prefixed
    ``"middle:inner:i1"``, Mermaid ``subgraph`` blocks, the subgraph's first and last nodes joined to
    the node's edges); ``xray=1`` opens one level; a ``def`` node that calls ``sub.invoke`` is opened
    too; a subgraph whose start or end has several edges keeps its ``__start__``/``__end__``; two
    subgraph blocks of one name are refused by ``draw_mermaid``."""
    inner = child(t, interrupt_before=["i2"])
    middle = build(t, "START>m m>inner inner>END", inner=inner).compile()
    g = build(t, "START>a a>middle b>END", middle=middle)
    g.add_conditional_edges("middle", lambda state: "b", {"b": "b", "stop": t.fl.END})
    app = g.compile()
    for xray in (False, True, 1, 2):
        t.call(f"get_graph(xray={xray})", lambda level=xray: drawn(app.get_graph(xray=level)))
    t.call("aget_graph(xray=True)", lambda: drawn(asyncio.run(app.aget_graph(xray=True))))
    called = t.compile(build(t, "START>call call>END", call=calling(t, "call", child(t))))
    t.call("a def node calling sub.invoke, xray=True", lambda: drawn(called.get_graph(xray=True)))
    fanned = build(t, "START>p START>q p>END q>END").compile()
    wide = t.compile(build(t, "START>a a>fan fan>END", fan=fanned))
    t.call("a subgraph that fans out and in, xray=True", lambda: drawn(wide.get_graph(xray=True)))
    wrapped = build(t, "START>m m>x x>END", x=child(t)).compile()
    twice = t.compile(build(t, "START>left START>right left>END right>END", left=wrapped, right=wrapped))
    t.call("two nested subgraphs named x, xray=1", lambda: drawn(twice.get_graph(xray=1)))
    t.call("two nested subgraphs named x, xray=True", lambda: drawn(twice.get_graph(xray=True)))


# --- writing a subgraph's state: update_state with its config ----------------------------------------------


@scenario
def subgraph_state_edited(t: Trace) -> None:
    """``update_state`` with a subgraph's config (``get_state(subgraphs=True).tasks[i].state.config``)
    writes an ``update`` checkpoint in that subgraph's namespace (its ``parents`` kept); the resume
    continues the subgraph from it. A namespace no node leads to is refused; ``as_node`` names the
    subgraph's own nodes; ``bulk_update_state`` goes there too."""
    app = t.compile(build(t, "START>a a>sub sub>END", sub=asking_child(t)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    inner = t.state(app, cfg, label="get_state(subgraphs=True)", subgraphs=True).tasks[0].state.config
    t.update(app, inner, {"log": ["edited"]}, label="update_state(the subgraph's config)")
    t.state(app, cfg, label="get_state(subgraphs=True) after the edit", subgraphs=True)
    t.update(app, inner, {"log": ["as i1"]}, label="update_state(as_node='i1')", as_node="i1")
    t.update(app, inner, {"log": ["x"]}, label="update_state(as_node='a'), a parent's node", as_node="a")
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")
    t.state(app, cfg, label="get_state after the resume")
    StateUpdate = t.fl.StateUpdate
    bulk = [[StateUpdate({"log": ["bulk"]}, "i1")]]
    inner_history = t.history(app, {"configurable": {**inner["configurable"], "checkpoint_id": None}})
    t.call("bulk_update_state(the subgraph's config)", app.bulk_update_state, inner_history[0].config, bulk)
    nowhere = thread(checkpoint_ns="nowhere:1")
    t.update(app, nowhere, {"log": ["x"]}, label="update_state(a namespace no node leads to)")


@scenario
def subgraph_state_edited_checkpointer_true(t: Trace) -> None:
    """A ``checkpointer=True`` subgraph's one history per thread is edited through the task's
    config too (its namespace without task ids), and the next parent run continues from the edit;
    the edit's config taken back in time replays the parent from the checkpoint its map names."""
    app = t.compile(build(t, "START>sub sub>END", sub=asking_child(t, checkpointer=True)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    inner = t.state(app, cfg, label="get_state(subgraphs=True)", subgraphs=True).tasks[0].state.config
    edited = t.update(app, inner, {"log": ["edited"]}, label="update_state(the subgraph's config)")
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")
    t.invoke(app, None, edited, label="invoke(None, the edited checkpoint's config)")
    t.state(app, cfg, label="get_state(subgraphs=True) after time travel", subgraphs=True)


# --- running from a subgraph's checkpoint -----------------------------------------------------------------


@scenario
def subgraph_time_travel(t: Trace) -> None:
    """A subgraph's checkpoint config given to the parent's ``invoke``/``stream``: LangGraph runs the
    parent from the checkpoint that config's ``checkpoint_map`` names for it (a replay: it forks,
    and the subgraph runs again from its input under a new namespace), its checkpoints keeping that
    map as their ``parents``. A config naming only a namespace runs the parent's latest."""
    app = t.compile(build(t, "START>a a>sub sub>END", sub=child(t)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    sub_ns = [s for s in t.saver.list(cfg) if s.config["configurable"]["checkpoint_ns"]]
    ns = sub_ns[0].config["configurable"]["checkpoint_ns"]
    history = t.history(app, thread(checkpoint_ns=ns), label="get_state_history(the subgraph's namespace)")
    middle = next(s.config for s in history if s.next == ("i2",))
    t.invoke(app, None, middle, label="invoke(None, the subgraph's checkpoint before i2)")
    both = {"stream_mode": ["updates", "values"], "subgraphs": True}
    t.stream(app, None, middle, label="stream(None, the same checkpoint)", **both)
    t.invoke(app, None, thread(checkpoint_ns=ns), label="invoke(None, only the namespace)")


@scenario
def subgraph_time_travel_while_paused(t: Trace) -> None:
    """Time travel to a paused subgraph's checkpoint: where the parent's checkpoint is an
    ``update`` (no fork, the same task), the subgraph's own entry in ``checkpoint_map`` takes it
    back to that very checkpoint, so its interrupt is asked again; then answered."""
    app = t.compile(build(t, "START>a a>sub sub>END", sub=asking_child(t)))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.update(app, cfg, {"log": ["edited"]}, as_node="a")
    t.invoke(app, None, cfg, label="invoke(None): the subgraph asks again")
    inner = t.state(app, cfg, label="get_state(subgraphs=True)", subgraphs=True).tasks[0].state.config
    t.invoke(app, None, inner, label="invoke(None, the paused subgraph's checkpoint)")
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")


@scenario
def subgraph_stream_is_live(t: Trace) -> None:
    """``astream(..., subgraphs=True)`` hands over a subgraph's chunk as soon as it is emitted, while
    the parent's task is still running: the subgraph's second node waits for the caller to have
    seen its first node's chunk (for at most a few seconds), and does see it."""
    seen = asyncio.Event()

    async def first(state: dict) -> dict:
        return {"log": ["first"]}

    async def second(state: dict) -> dict:
        try:
            await asyncio.wait_for(seen.wait(), LIVE_WAIT_S)
        except TimeoutError:
            return {"log": ["second: the caller had not seen first"]}
        return {"log": ["second: the caller had seen first"]}

    sub = build(t, "START>first first>second second>END", first=first, second=second).compile()
    app = t.compile(build(t, "START>a a>sub sub>END", sub=sub))

    async def consume() -> list:
        seen.clear()
        chunks = []
        config = thread()
        async for namespace, chunk in app.astream({"log": ["in"]}, config, subgraphs=True):
            chunks.append((namespace, chunk))
            if "first" in chunk:
                seen.set()
        return chunks

    t._use(app, thread())
    t.call("astream(subgraphs=True), the caller unblocking second", lambda: asyncio.run(consume()))
