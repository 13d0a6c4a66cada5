"""The differential scenarios: short graphs that exercise one checkpointing behaviour each.

Every scenario takes a ``Trace`` (which carries the flavour ``t.fl`` and a fresh saver), builds its
graph with ``t.fl.StateGraph``, runs it through ``t.invoke``/``t.state``/... and leaves the rest to
``Trace.finish`` (counters + full checkpoint history of every thread it touched). Section numbers
(``§9``) and probe tags (``s06``) refer to ``shared/langgraph-semantics.md``.
No timing games: parallel siblings never sleep, so nothing depends on completion order.
"""

import operator
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

from .flavours import Flavour
from .trace import Trace, thread


class Log(TypedDict):
    log: Annotated[list, operator.add]


class Doc(TypedDict):
    log: Annotated[list, operator.add]
    status: str


class Num(TypedDict):
    x: int
    log: Annotated[list, operator.add]


class Case(TypedDict):
    case: str
    log: Annotated[list, operator.add]
    risk: str
    decision: str


ScenarioFn = Callable[[Trace], None]
SCENARIOS: dict[str, ScenarioFn] = {}
EXPECTED_ABORTS: dict[str, str] = {}
"""Scenario name -> the exception type it declares LangGraph raises outside any recorded call."""


class ScenarioError(Exception):
    """A scenario that does not do on LangGraph (the oracle) what it declares."""


def scenario(fn: ScenarioFn | None = None, *, name: str | None = None, aborts: str | None = None) -> Any:
    """Register a scenario under its function name (or ``name``). ``aborts="KeyError"`` declares
    that LangGraph raises that exception type outside any recorded call, ending the scenario."""

    def register(f: ScenarioFn) -> ScenarioFn:
        SCENARIOS[name or f.__name__] = f
        if aborts is not None:
            EXPECTED_ABORTS[name or f.__name__] = aborts
        return f

    return register(fn) if fn is not None else register


def run_scenario(name: str, fl: Flavour) -> dict[str, Any]:
    """``scenario(fl) -> dict``: run one scenario against a flavour, return its normalised trace.
    A scenario that crashes outside a recorded call still yields its trace, ending in ``ABORTED``
    (the exception's type, message and notes, compared like any result); on LangGraph only if the
    scenario declared it (:func:`check_oracle_abort`)."""
    t = Trace(fl)
    raised: Exception | None = None
    try:
        SCENARIOS[name](t)
    except Exception as exc:  # the crash is part of what we compare
        raised = exc
        t.record("ABORTED", exc)
    if fl.name == "langgraph":
        check_oracle_abort(name, raised)
    return t.finish()


def check_oracle_abort(name: str, raised: Exception | None) -> None:
    """LangGraph ends a scenario early exactly when, and with the type, the scenario declares:
    otherwise the scenario is broken and both sides would 'agree' on comparing nothing."""
    expected, got = EXPECTED_ABORTS.get(name), type(raised).__name__ if raised else None
    if got == expected:
        return
    if expected is None:
        raise ScenarioError(
            f"{name}: LangGraph aborted the scenario with {got}: {raised}. Record the failing call "
            f"with t.invoke / t.call, or declare it: @scenario(aborts={got!r})"
        )
    outcome = f"raised {got}: {raised}" if raised else "finished it"
    raise ScenarioError(f"{name}: declared aborts={expected!r}, but LangGraph {outcome}")


def build(t: Trace, edges: str, state: type = Log, **nodes: Callable) -> Any:
    """A StateGraph from an edge list such as ``"START>a a>b,c b,c>d d>END"``.

    ``x>y`` is ``add_edge(x, y)``; ``x>y,z`` is one edge to each target; ``x,y>z`` is the join
    ``add_edge([x, y], z)``. Nodes default to ``t.node(name)`` unless given as keyword arguments,
    and are added in order of first appearance.
    """
    fl = t.fl
    g = fl.StateGraph(state)
    names = {"START": fl.START, "END": fl.END}
    added: set[str] = set()
    for edge in edges.split():
        sources, targets = (side.split(",") for side in edge.split(">"))
        for n in (*sources, *targets):
            if n not in names and n not in added:
                g.add_node(n, nodes.get(n) or t.node(n))
                added.add(n)
        if len(sources) > 1:
            g.add_edge(sources, targets[0])
        else:
            for target in targets:
                g.add_edge(names.get(sources[0], sources[0]), names.get(target, target))
    for n, fn in nodes.items():  # nodes reached only by conditional edges / Send
        if n not in added:
            g.add_node(n, fn)
    return g


def asker(t: Trace, name: str, *questions: str) -> Callable:
    """A node that counts runs before/after asking ``questions`` via ``interrupt()`` and logs the answers."""

    def run(state: dict) -> dict:
        t.counts[f"{name} before"] += 1
        answers = [t.fl.interrupt(q) for q in questions]
        t.counts[f"{name} after"] += 1
        return {"log": [f"{name}:{a}" for a in answers]}

    return run


# --- plain runs -------------------------------------------------------------------------------


@scenario
def linear(t: Trace) -> None:
    """N nodes -> N+2 checkpoints; a second input on the same thread continues the step count (§3)."""
    app = t.compile(build(t, "START>a a>b b>c c>END"))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, {"log": ["again"]}, cfg, label="invoke, same thread, new input")
    t.state(app, cfg)


@scenario
def fanout_edges(t: Trace) -> None:
    """Plain edges from two nodes of one step -> the target runs once; from different steps -> once
    per step; the reducer folds in node-name order, not declaration order (§7, s02-A/C)."""
    edges = "START>split split>zulu split>alpha zulu>merge alpha>merge zulu>late alpha>tail late>tail"
    app = t.compile(build(t, edges + " merge>END tail>END"))
    t.invoke(app, {"log": ["in"]}, thread())


@scenario
def fanout_list_join(t: Trace) -> None:
    """``add_edge([p, q2], r)`` waits for both, across steps; its barrier is a set channel (s02-B).
    ``durability="sync"``: under "async" LangGraph may store the set after the next step mutated it."""
    app = t.compile(build(t, "START>split split>p,q q>q2 p,q>both p,q2>r both>END r>END"))
    t.invoke(app, {"log": ["in"]}, thread(), durability="sync")


@scenario
def conditional_edges(t: Trace) -> None:
    """The router sees its node's own writes; a name, a list and END (§7, s03)."""

    def judge(state: dict) -> dict:
        t.counts["judge"] += 1
        return {"x": state["x"] + 1, "log": ["judge"]}

    def route(state: dict) -> Any:
        t.counts[f"route saw x={state['x']}"] += 1
        if state["x"] >= 100:
            return t.fl.END
        return "hi" if state["x"] % 2 == 0 else ["hi", "lo"]

    g = build(t, "hi>END lo>END", state=Num, judge=judge)
    g.add_edge(t.fl.START, "judge")
    g.add_conditional_edges("judge", route)
    app = t.compile(g)
    for x in (5, 6, 100):
        t.invoke(app, {"x": x, "log": []}, thread(f"x={x}"), label=f"invoke x={x}")


@scenario
def conditional_path_map(t: Trace) -> None:
    """A router whose return values are mapped by ``path_map`` (True -> yes, False -> END)."""
    g = build(t, "START>judge yes>END", state=Num)
    g.add_conditional_edges("judge", lambda s: s["x"] > 0, {True: "yes", False: t.fl.END})
    app = t.compile(g)
    for x in (1, -1):
        t.invoke(app, {"x": x, "log": []}, thread(f"x={x}"), label=f"invoke x={x}")


@scenario
def node_without_writes(t: Trace) -> None:
    """Nodes that return None or {} beside a writing sibling: their success is still saved (the
    ``__no_writes__`` marker where nothing else was written) so a resume does not re-run them (§6)."""

    def quiet(name: str, result: Any) -> Callable:
        def run(state: dict) -> Any:
            t.counts[name] += 1
            return result

        return run

    edges = "START>none START>empty START>bad none>END empty>END"
    nodes = {"none": quiet("none", None), "empty": quiet("empty", {}), "bad": t.node("bad", fail_times=1)}
    app = t.compile(build(t, edges, **nodes))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, None, cfg, label="invoke(None): only bad re-runs")


@scenario
def stream_modes(t: Trace) -> None:
    """What ``stream`` yields for "values", "updates" and both, incl. an interrupt and a resume."""
    app = t.compile(build(t, "START>a a>b b>END"))
    for mode in ("values", "updates", ["values", "updates"]):
        tid = mode if isinstance(mode, str) else "+".join(mode)
        t.stream(app, {"log": ["in"]}, thread(tid), label=f"stream_mode={mode}", stream_mode=mode)
    asking = t.compile(build(t, "START>a a>ask ask>END", ask=asker(t, "ask", "ok?")))
    cfg = thread("asking")
    t.stream(asking, {"log": ["in"]}, cfg, label="stream updates until interrupt", stream_mode="updates")
    t.stream(asking, t.fl.Command(resume="yes"), cfg, label="stream updates on resume", stream_mode="updates")


@scenario
def stream_checkpoints(t: Trace) -> None:
    """stream_mode="checkpoints": one event per checkpoint the loop makes, up to a failure and on
    resume, and still one per step under durability="exit" where they are not saved (§13)."""
    app = failing_sibling_graph(t, fail_times=1)
    for durability in ("async", "exit"):
        cfg, kwargs = thread(durability), {"stream_mode": "checkpoints", "durability": durability}
        t.stream(app, {"log": ["in"]}, cfg, label=f"stream checkpoints, durability={durability}", **kwargs)
        t.stream(app, None, cfg, label=f"resume, durability={durability}", **kwargs)


@scenario
def send_fanout(t: Trace) -> None:
    """A router returning ``Send`` packets: push tasks, the ``__pregel_tasks`` channel (§2, s12)."""

    def work(state: dict) -> dict:
        t.counts["work"] += 1
        return {"log": [f"work:{state['item']}"]}

    g = build(t, "START>plan work>END", work=work)
    g.add_conditional_edges("plan", lambda s: [t.fl.Send("work", {"item": i}) for i in ("x", "y", "z")])
    t.invoke(t.compile(g), {"log": ["in"]}, thread())


# --- failures -------------------------------------------------------------------------------------


@scenario
def lastvalue_conflict(t: Trace) -> None:
    """Two writes to a plain key in one step: error after both ran, no new checkpoint, stuck thread;
    invoke(None) re-raises without re-running; update_state(as_node="q") closes the step (§7, s04)."""

    def writer(name: str) -> Callable:
        def run(state: dict) -> dict:
            t.counts[name] += 1
            return {"status": name, "log": [name]}

        return run

    app = t.compile(build(t, "START>p START>q p>END q>END", state=Doc, p=writer("p"), q=writer("q")))
    cfg = thread()
    t.invoke(app, {"status": "new", "log": []}, cfg)
    t.state(app, cfg, label="get_state (live: raises too)")
    t.invoke(app, None, cfg, label="invoke(None) re-applies the saved writes")
    t.update(app, cfg, {"status": "fixed"}, as_node="q")
    t.state(app, cfg)
    t.invoke(app, None, cfg, label="invoke(None) after the fix")


def failing_sibling_graph(t: Trace, fail_times: int) -> Any:
    """a -> ok || bad -> join, where ``bad`` raises on its first ``fail_times`` runs."""
    edges = "START>a a>ok a>bad ok>join bad>join join>END"
    return t.compile(build(t, edges, bad=t.node("bad", fail_times=fail_times)))


@scenario
def failure_resume(t: Trace) -> None:
    """A node fails beside a sibling that succeeded; invoke(None) re-runs only the failed one, twice
    (the second failure overwrites ``__error__``), then the join runs once (§8, s05)."""
    app = failing_sibling_graph(t, fail_times=2)
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.state(app, cfg, label="get_state (live)")
    failed_step = t.checkpoint(app, cfg, step=1)
    t.state(app, failed_step, label="get_state(id of the failed step's checkpoint) (record mode)")
    t.invoke(app, None, cfg, label="invoke(None): bad fails again")
    t.invoke(app, None, cfg, label="invoke(None): bad succeeds")


@scenario
def failure_fork(t: Trace) -> None:
    """invoke(None, config with the latest checkpoint_id) after a failure is time travel: a fork
    checkpoint, and both the failed node and its finished sibling run again (s05-B)."""
    app = failing_sibling_graph(t, fail_times=1)
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, None, t.state(app, cfg).config, label="invoke(None, latest checkpoint id)")


@scenario
def bad_node_output(t: Trace) -> None:
    """A node returning a non-dict: InvalidUpdateError with the task note (§14)."""
    app = t.compile(build(t, "START>a a>five five>END", five=lambda state: 5))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.state(app, cfg)


@scenario
def recursion_limit(t: Trace) -> None:
    """A cycle with recursion_limit=3: steps 0..3 run, then GraphRecursionError; the last checkpoint
    still has ``next`` set (§3.7, s10)."""
    app = t.compile(build(t, "START>a a>b b>a"))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, {**cfg, "recursion_limit": 3})
    t.state(app, cfg)


# --- interrupts -----------------------------------------------------------------------------------


def ask_audit_graph(t: Trace) -> Any:
    """ask (interrupts) || audit -> done."""
    edges = "START>ask START>audit ask>done audit>done done>END"
    return t.compile(build(t, edges, ask=asker(t, "ask", "ok?")))


@scenario
def interrupt_single(t: Trace) -> None:
    """interrupt() beside a sibling: the return carries the sibling's writes and ``__interrupt__``;
    resume re-runs the node from the top, never the sibling (§9, s06)."""
    app = ask_audit_graph(t)
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.state(app, cfg, label="get_state (live)")
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")


@scenario
def interrupt_twice_in_node(t: Trace) -> None:
    """Two interrupt() calls in one node: answers are matched by call order; the code before the
    first call runs once per attempt (1 -> 2 -> 3) (§9)."""
    app = t.compile(build(t, "START>ask ask>END", ask=asker(t, "ask", "first?", "second?")))
    cfg = thread()
    t.invoke(app, {"log": []}, cfg)
    t.invoke(app, t.fl.Command(resume="A1"), cfg, label="resume A1")
    t.state(app, cfg, label="get_state after A1")
    t.invoke(app, t.fl.Command(resume="A2"), cfg, label="resume A2")


@scenario
def interrupt_parallel(t: Trace) -> None:
    """Two parallel nodes interrupt: a plain resume is a RuntimeError; an id map answers only x, y
    re-interrupts with the same id; then y is answered (§9, s06-B)."""
    app = t.compile(build(t, "START>x START>y x>END y>END", x=asker(t, "x", "x?"), y=asker(t, "y", "y?")))
    cfg = thread()
    t.invoke(app, {"log": []}, cfg)
    t.invoke(app, t.fl.Command(resume="both"), cfg, label="plain resume with two pending")
    ids = {i.value: i.id for i in t.state(app, cfg).interrupts}
    t.invoke(app, t.fl.Command(resume={ids["x?"]: "X"}), cfg, label="resume {id of x: 'X'}")
    t.invoke(app, t.fl.Command(resume={ids["y?"]: "Y"}), cfg, label="resume {id of y: 'Y'}")


@scenario
def resume_edge_cases(t: Trace) -> None:
    """A dict resume whose keys are not interrupt ids is one value; Command(resume=...) on a finished
    thread runs nothing and leaves a dangling ``__resume__``; on an empty thread it starts a run (§9)."""
    app = t.compile(build(t, "START>ask ask>END", ask=asker(t, "ask", "ok?")))
    cfg = thread()
    t.invoke(app, {"log": []}, cfg)
    t.invoke(app, t.fl.Command(resume={"approved": True}), cfg, label="resume with a plain dict")
    t.invoke(app, t.fl.Command(resume="late"), cfg, label="resume a finished thread")
    t.invoke(app, t.fl.Command(resume="early"), thread("empty"), label="resume an empty thread")


@scenario
def resume_with_checkpoint_id(t: Trace) -> None:
    """Command(resume=...) with a config carrying the latest checkpoint id resumes normally (no
    fork, answer delivered); plain invoke(None) with that id would be time travel (§11, p14)."""
    app = t.compile(build(t, "START>a a>ask ask>END", ask=asker(t, "ask", "ok?")))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    latest = t.state(app, cfg).config
    t.invoke(app, t.fl.Command(resume="yes"), latest, label="resume with the latest checkpoint id")


@scenario
def new_input_while_interrupted(t: Trace) -> None:
    """New input on a thread waiting on interrupt(): the pending task is dropped, the run restarts
    at START (§3.2, p19)."""
    app = t.compile(build(t, "START>a a>ask ask>END", ask=asker(t, "ask", "ok?")))
    cfg = thread()
    t.invoke(app, {"log": ["first"]}, cfg)
    t.invoke(app, {"log": ["second"]}, cfg, label="invoke(new input) while interrupted")
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="resume")


@scenario
def interrupt_before_after(t: Trace) -> None:
    """Static breakpoints: no ``__interrupt__`` key, ``next`` shows the node, no pending writes;
    invoke(None) passes the breakpoint (§9, s08). Compile-time and invoke-time forms."""
    before = t.compile(build(t, "START>a a>b b>END"), interrupt_before=["b"])
    after = t.compile(build(t, "START>a a>b b>END"), interrupt_after=["a"])
    plain = t.compile(build(t, "START>a a>b b>END"))
    for app, tid, kwargs in (
        (before, "before", {}),
        (after, "after", {}),
        (plain, "invoke-time before", {"interrupt_before": ["b"]}),
    ):
        cfg = thread(tid)
        t.invoke(app, {"log": ["in"]}, cfg, label=f"invoke [{tid}]", **kwargs)
        t.state(app, cfg, label=f"get_state [{tid}]")
        t.invoke(app, None, cfg, label=f"invoke(None) [{tid}]", **kwargs)


# --- time travel and update_state -------------------------------------------------------------------


@scenario
def replay_old_checkpoint(t: Trace) -> None:
    """invoke(None, old config): a ``fork`` checkpoint, then the rest re-runs (a=1, b=2, c=2); the
    old branch stays in history; get_state follows the new head (§11, s07)."""
    app = t.compile(build(t, "START>a a>b b>c c>END"))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, None, t.checkpoint(app, cfg, next=("b",)), label="replay from next=('b',)")
    t.state(app, cfg)


@scenario
def replay_edge_cases(t: Trace) -> None:
    """Replaying the final checkpoint forks and runs nothing; replaying that fork head adds nothing;
    replaying the input checkpoint re-runs everything (§11)."""
    app = t.compile(build(t, "START>a a>b b>END"))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, None, t.state(app, cfg).config, label="replay the final checkpoint")
    t.invoke(app, None, t.state(app, cfg).config, label="replay the fork head")
    t.invoke(app, None, t.checkpoint(app, cfg, source="input"), label="replay the input checkpoint")


@scenario
def update_state_latest(t: Trace) -> None:
    """update_state on the latest checkpoint: as_node inferred, then as_node='b' (next follows b's
    edges); reducers append, plain keys overwrite; invoke(None) runs c (§12, s08)."""
    app = t.compile(build(t, "START>a a>b b>c c>END", state=Doc))
    cfg = thread()
    t.invoke(app, {"log": ["in"], "status": "new"}, cfg)
    t.update(app, cfg, {"log": ["manual"], "status": "edited"}, label="update_state (as_node inferred)")
    t.state(app, cfg)
    t.update(app, cfg, {"log": ["as b"]}, as_node="b")
    t.state(app, cfg, label="get_state after as_node='b'")
    t.invoke(app, None, cfg, label="invoke(None) runs c")


@scenario
def update_state_old(t: Trace) -> None:
    """update_state on an old checkpoint forks: a child of it becomes the thread's head; invoke(None,
    fork config) continues there without another fork (§12)."""
    app = t.compile(build(t, "START>a a>b b>c c>END", state=Doc))
    cfg = thread()
    t.invoke(app, {"log": ["in"], "status": "new"}, cfg)
    old = t.checkpoint(app, cfg, next=("b",))
    fork = t.update(app, old, {"log": ["patched"], "status": "patched"}, as_node="a")
    t.state(app, cfg, label="get_state (thread head)")
    t.invoke(app, None, fork, label="invoke(None, fork config)")


@scenario
def update_state_errors(t: Trace) -> None:
    """Ambiguous as_node after a parallel step; unknown node; as_node inferred on a fresh thread
    (acts like input); ``__copy__`` forks a sibling (§12, p24)."""
    app = t.compile(build(t, "START>p START>q p>r q>r r>END", state=Doc))
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg, interrupt_before=["r"])
    t.update(app, cfg, {"status": "?"}, label="update_state after a parallel step (no as_node)")
    t.update(app, cfg, {"status": "?"}, as_node="zzz")
    t.update(app, cfg, None, as_node="__copy__")
    t.update(app, thread("fresh"), {"log": ["seed"]}, label="update_state on a fresh thread")
    t.state(app, thread("fresh"), label="get_state [fresh]")
    t.invoke(app, None, thread("fresh"), label="invoke(None) [fresh]")


@scenario
def update_instead_of_resume(t: Trace) -> None:
    """update_state(as_node=<interrupted node>) instead of resuming: the node is not re-run and the
    finished sibling's writes are dropped (s06-D)."""
    app = ask_audit_graph(t)
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.update(app, cfg, {"log": ["manual answer"]}, as_node="ask")
    t.state(app, cfg)
    t.invoke(app, None, cfg, label="invoke(None)")


@scenario
def update_as_end(t: Trace) -> None:
    """update_state(values=None, as_node=END) on an interrupted step keeps the finished sibling's
    writes and just clears the pending tasks (p25)."""
    app = ask_audit_graph(t)
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.update(app, cfg, None, as_node=t.fl.END)
    t.state(app, cfg)
    t.invoke(app, None, cfg, label="invoke(None)")


@scenario
def update_failed_step(t: Trace) -> None:
    """update_state(as_node=<failed node>) closes the failed step as if only that node ran: the
    succeeded sibling's saved writes are dropped, nothing re-runs the failed node (§12)."""
    app = failing_sibling_graph(t, fail_times=1)
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.update(app, cfg, {"log": ["bad, by hand"]}, as_node="bad")
    t.state(app, cfg)
    t.invoke(app, None, cfg, label="invoke(None)")


@scenario
def history_queries(t: Trace) -> None:
    """get_state_history with filter, before, limit and a checkpoint_id config; scalar configurable
    and metadata keys are copied into checkpoint metadata, nested ones are not (§1, §10)."""
    app = t.compile(build(t, "START>a a>b b>END"))
    cfg = thread("t1", user_id="u-1")
    t.invoke(app, {"log": ["in"]}, {**cfg, "metadata": {"tenant": "acme", "nested": {"no": 1}}})
    mid = t.checkpoint(app, cfg, step=1)
    t.history(app, cfg, label="history filter source=loop", filter={"source": "loop"})
    t.history(app, cfg, label="history filter step=1", filter={"step": 1})
    t.history(app, cfg, label="history filter user_id=u-1, limit=2", filter={"user_id": "u-1"}, limit=2)
    t.history(app, cfg, label="history before step 1", before=mid)
    t.history(app, mid, label="history(config with checkpoint_id)")


# --- durability -------------------------------------------------------------------------------------


def durability(t: Trace, mode: str) -> None:
    """The same runs under one durability mode: two runs on one thread, then a failure and its
    resume on another (§13, s09, p20)."""
    app = t.compile(build(t, "START>a a>b b>c c>END", c=t.node("c", fail_times=1)))
    ok, bad = thread("ok"), thread("fail")
    t.invoke(app, {"log": ["in"]}, bad, label="invoke: c fails", durability=mode)
    t.state(app, bad, label="get_state after the failure")
    t.invoke(app, None, bad, label="invoke(None): resume", durability=mode)
    t.invoke(app, {"log": ["one"]}, ok, label="invoke: first run", durability=mode)
    t.invoke(app, {"log": ["two"]}, ok, label="invoke: second run", durability=mode)


for _mode in ("sync", "async", "exit"):
    scenario(lambda t, mode=_mode: durability(t, mode), name=f"durability_{_mode}")


# --- bad inputs ---------------------------------------------------------------------------------


@scenario
def bad_config(t: Trace) -> None:
    """Missing config / configurable / thread_id; int vs str thread ids; the empty thread id (§14)."""
    app = t.compile(build(t, "START>a a>END"))
    for label, config in (("no config", None), ("{}", {}), ("{'configurable': {}}", {"configurable": {}})):
        t.invoke(app, {"log": ["in"]}, config, label=f"invoke, {label}")
    no_tid = {"configurable": {"user": "x"}}
    t.invoke(app, {"log": ["in"]}, no_tid, label="invoke, no thread_id")
    t.state(app, no_tid, label="get_state, no thread_id")
    t.history(app, no_tid, label="get_state_history, no thread_id")
    t.invoke(app, {"log": ["int"]}, thread(7), label="invoke, thread_id=7")
    t.invoke(app, {"log": ["str"]}, thread("7"), label="invoke, thread_id='7' (same thread)")
    t.call("saver.get_tuple(thread_id=7)", lambda: t.saver.get_tuple(thread(7)) is not None)
    t.invoke(app, {"log": ["empty"]}, thread(""), label="invoke, thread_id=''")


@scenario
def bad_checkpoint_id(t: Trace) -> None:
    """Unknown checkpoint id: empty snapshot, invoke(None) -> EmptyInputError, invoke(input) runs
    with a dangling parent; invoke(None) on a new / finished thread (§14)."""
    app = t.compile(build(t, "START>a a>END"))
    missing = thread(checkpoint_id="1f000000-0000-6000-8000-000000000000")
    t.state(app, missing, label="get_state(unknown id)")
    t.invoke(app, None, missing, label="invoke(None, unknown id)")
    t.invoke(app, {"log": ["in"]}, missing, label="invoke(input, unknown id)")
    t.invoke(app, None, thread("new"), label="invoke(None) on a new thread")
    t.invoke(app, None, thread(), label="invoke(None) on a finished thread")


@scenario
def no_checkpointer(t: Trace) -> None:
    """Without a checkpointer: invoke works, state APIs raise ValueError, interrupt() still returns
    ``__interrupt__`` but cannot be resumed (§9, §14)."""
    app = t.compile(build(t, "START>a a>ask ask>END", ask=asker(t, "ask", "ok?")), checkpointer=False)
    cfg = thread()
    t.invoke(app, {"log": ["in"]}, cfg)
    t.invoke(app, t.fl.Command(resume="yes"), cfg, label="invoke(Command(resume='yes'))")
    t.state(app, cfg)
    t.history(app, cfg)
    t.update(app, cfg, {"log": ["x"]})


# --- the AML review flow ------------------------------------------------------------------------------


def aml_graph(t: Trace) -> Any:
    """intake -> fetch || screen -> classify -> review (paid API call, then interrupt) -> file."""

    def review(state: dict) -> dict:
        t.counts["paid API calls"] += 1  # the side effect sits BEFORE interrupt(): it repeats
        decision = t.fl.interrupt({"case": state["case"], "risk": state["risk"]})
        return {"decision": decision, "log": ["review"]}

    def classify(state: dict) -> dict:
        t.counts["classify"] += 1
        return {"risk": "high" if "screen" in state["log"] else "low", "log": ["classify"]}

    edges = "START>intake intake>fetch,screen fetch>classify screen>classify"
    edges += " classify>review review>file file>END"
    return t.compile(build(t, edges, state=Case, review=review, classify=classify))


@scenario
def aml_flow(t: Trace) -> None:
    """Approval re-runs review from the top: the paid API is charged twice; a time-travel replay to
    before review charges again, and again after answering: 4 calls for one case (s11)."""
    app = aml_graph(t)
    cfg = thread("case-1")
    t.invoke(app, {"case": "ACME-42", "log": []}, cfg)
    t.invoke(app, t.fl.Command(resume="approved"), cfg, label="approve")
    before_review = t.checkpoint(app, cfg, next=("review",))
    t.invoke(app, None, before_review, label="time travel: replay before review")
    t.invoke(app, t.fl.Command(resume="rejected"), cfg, label="answer on the new branch")


@scenario
def aml_update_instead_of_resume(t: Trace) -> None:
    """Answering the review with update_state(as_node="review") instead of resuming: next is file,
    no second charge (p14)."""
    app = aml_graph(t)
    cfg = thread("case-2")
    t.invoke(app, {"case": "ACME-43", "log": []}, cfg)
    t.update(app, cfg, {"decision": "approved"}, as_node="review")
    t.state(app, cfg)
    t.invoke(app, None, cfg, label="invoke(None)")


@scenario
def aml_exit_durability(t: Trace) -> None:
    """The AML flow under durability="exit": only the interrupted step's start is stored, so there
    is nothing earlier to travel back to; resume adds one checkpoint (§13)."""
    app = aml_graph(t)
    cfg = thread("case-3")
    t.invoke(app, {"case": "ACME-44", "log": []}, cfg, durability="exit")
    t.invoke(app, t.fl.Command(resume="approved"), cfg, label="approve", durability="exit")


from . import (  # noqa: E402, F401  (register them)
    scenarios_api,
    scenarios_fidelity,
    scenarios_func,
    scenarios_messages,
    scenarios_pregel,
    scenarios_runtime,
    scenarios_storage,
    scenarios_store,
    scenarios_stream_messages,
    scenarios_subgraphs,
    scenarios_upstream,
)
