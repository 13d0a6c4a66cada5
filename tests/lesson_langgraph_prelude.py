"""The prelude every lesson's "The same in LangGraph" code runs against (tests/test_lessons_langgraph.py):
the lab's AML case graph (lab/aml/graph.py) rebuilt with LangGraph's own classes, small enough to read.

What the snippets may name: ``graph``, ``builder``, ``saver``, ``config``, ``api`` (a paid API that
keeps receipts by idempotency key), ``sars`` (the SARs filed), ``interrupt``, ``Command``,
``get_config``, ``task``, ``TypedDict``, ``Annotated``, ``operator``, ``DeltaChannel``, ``CaseState``.
The test reads (and the snippets never show) ``ran`` (how often each node function was entered),
``crash_in`` (nodes that die as they start), ``together`` (nodes two runs enter at once),
``api.crash_after`` (a request after which the process dies) and ``crash_at_interrupt`` (a node that
dies as it calls ``interrupt()``): the lab's armed crashes, played as a :class:`Crash` no node
catches, after which nothing is saved until the next step.
"""

import functools
import operator
import threading
import time
from collections import Counter
from typing import Annotated, TypedDict

from langgraph.channels.delta import DeltaChannel
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config
from langgraph.func import task
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from langgraph.types import interrupt as langgraph_interrupt

__all__ = [
    "Annotated",
    "Command",
    "DeltaChannel",
    "StateGraph",
    "TypedDict",
    "get_config",
    "interrupt",
    "operator",
    "task",
]


class Crash(BaseException):
    """The process dies (the lab kills its worker): a ``BaseException``, so no node catches it, and
    from then on the saver saves nothing (a killed process writes no checkpoint on its way out)."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        saver.dead = True


class KillableSaver(InMemorySaver):
    """``InMemorySaver`` that stops saving once the process is dead, until the harness restarts it."""

    dead = False

    def put(self, config, checkpoint, metadata, new_versions):
        if self.dead:
            return {"configurable": {**config["configurable"], "checkpoint_id": checkpoint["id"]}}
        return super().put(config, checkpoint, metadata, new_versions)

    def put_writes(self, config, writes, task_id, task_path=""):
        if not self.dead:
            super().put_writes(config, writes, task_id, task_path)


class PaidApi:
    """The transaction-graph query (2.50) and the case-pack export (12.00); a request whose key was
    seen is answered with the first receipt and moves no money."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, int, bool]] = []  # (what, cents, replayed)
        self.receipts: dict[str, str] = {}
        self.crash_after: str | None = None

    def _charge(self, what: str, cents: int, idempotency_key: str | None) -> str:
        if idempotency_key is not None and idempotency_key in self.receipts:
            self.requests.append((what, cents, True))
            return self.receipts[idempotency_key]
        receipt = f"{what}-{len(self.requests)}"
        self.requests.append((what, cents, False))
        if idempotency_key is not None:
            self.receipts[idempotency_key] = receipt
        if self.crash_after == what:
            self.crash_after = None
            raise Crash(f"after the {what} was paid")
        return receipt

    def query(self, case_id: str, idempotency_key: str | None = None) -> str:
        return self._charge("query", 250, idempotency_key)

    def buy_export(self, case_id: str, idempotency_key: str | None = None) -> str:
        return self._charge("export", 1200, idempotency_key)

    def paid(self) -> str:
        """What moved money, in dollars: the lab's ``charged`` fact."""
        return f"{sum(cents for _, cents, replayed in self.requests if not replayed) / 100:.2f}"

    def count(self, replayed: bool) -> int:
        return sum(was_replayed == replayed for _, _, was_replayed in self.requests)


class CaseState(TypedDict, total=False):
    case_id: str
    customer: dict
    transactions: list
    hits: list
    typology: str
    findings: list[str]
    log: Annotated[list[str], operator.add]
    review: dict
    outcome: str


api = PaidApi()
sars: list[str] = []
ran: Counter[str] = Counter()
crash_in: set[str] = set()
together: dict[str, threading.Barrier] = {}
"""Nodes that two runs (two tabs) are inside at the same moment: each waits there for the other."""
crash_at_interrupt: dict[str, bool] = {}
"""Nodes that die as they call ``interrupt()`` (the lab's ``interrupt`` seam), each with whether it
waits first until its tasks' results are saved (LangGraph saves them in the background)."""


CUSTOMERS = {"S-1001": "Dana Whitfield", "S-1002": "Kestrel Freight Ltd", "S-1003": "Priya Raman"}
"""The lab's cases' customers (lab/aml/cases.py): what ``intake`` writes into the state."""


def intake(state):
    customer = {"name": CUSTOMERS[state["case_id"]]}
    return {"customer": customer, "log": [f"intake {state['case_id']}"]}


def fetch_transactions(state):
    api.query(state["case_id"])
    return {"transactions": ["deposit"] * 3, "log": ["fetched"]}


def screen_sanctions(state):
    return {"hits": [], "log": ["screened"]}


def classify_typology(state):
    typology = "none" if state["case_id"] == "S-1003" else "structuring"
    return {"typology": typology, "log": [f"typology {typology}"]}


def draft_sar(state):
    return {"findings": ["deposits under the threshold"], "log": ["drafted"]}


def human_review(state):
    export = api.buy_export(state["case_id"])  # the misplaced variant: before interrupt()
    decision = interrupt({"question": "File a SAR?"})
    return {"review": {**decision, "export": export}}


def file_sar(state):
    sars.append(state["case_id"])
    return {"outcome": "Filed: SAR"}


def close_case(state):
    reason = "no suspicious typology" if state.get("typology") == "none" else "the officer rejected the SAR"
    return {"outcome": f"Closed: {reason}"}


CRASH_WAITS_FOR = {"screen_sanctions": "transactions"}
"""An armed ``screen_sanctions`` dies once ``fetch_transactions``' writes are saved, as the lab's
crash of lessons 1 and 3 does (``after=["put_writes", "fetch_transactions"]``)."""


def wait_until_written(channel, thread=None):
    """Until a write to ``channel`` (of ``thread``'s, if given) is saved."""
    for _ in range(500):
        saved = [writes for key, writes in list(saver.writes.items()) if thread in (None, key[0])]
        if any(write[1] == channel for writes in saved for write in writes.values()):
            return
        time.sleep(0.01)
    raise AssertionError(f"no write to {channel!r} was saved")


def interrupt(value):
    """LangGraph's ``interrupt()``; in a node armed in ``crash_at_interrupt``, the process dies first."""
    run = get_config()
    node = run["metadata"]["langgraph_node"]
    if node in crash_at_interrupt:
        if crash_at_interrupt.pop(node):
            wait_until_written("__return__", run["configurable"]["thread_id"])
        raise Crash(f"at {node}'s interrupt()")
    return langgraph_interrupt(value)


def counted(name, function):
    """``function`` as node ``name``: counted in ``ran``, and dying when armed (``crash_in``). It wraps
    ``function`` (``__wrapped__``), so LangGraph reads the subgraph a snippet's node calls in it."""

    @functools.wraps(function)
    def node(state):
        ran[name] += 1
        if name in together:
            together[name].wait(timeout=10)
        if name in crash_in:
            crash_in.discard(name)
            if name in CRASH_WAITS_FOR:
                wait_until_written(CRASH_WAITS_FOR[name])
            raise Crash(f"in {name}")
        return function(state)

    return node


NODES = {
    node.__name__: node
    for node in (
        intake,
        fetch_transactions,
        screen_sanctions,
        classify_typology,
        draft_sar,
        human_review,
        file_sar,
        close_case,
    )
}


def route_after_classify(state):
    return "close_case" if state["typology"] == "none" else "draft_sar"


def route_after_review(state):
    return "file_sar" if state["review"]["approved"] else "close_case"


def build(schema=CaseState, **replaced):
    """The case graph's builder; ``replaced`` swaps node functions (a snippet's own ``human_review``)."""
    builder = StateGraph(schema)
    for name, function in {**NODES, **replaced}.items():
        builder.add_node(name, counted(name, function))
    builder.add_edge(START, "intake")
    builder.add_edge("intake", "fetch_transactions")
    builder.add_edge("intake", "screen_sanctions")
    builder.add_edge(["fetch_transactions", "screen_sanctions"], "classify_typology")
    builder.add_conditional_edges("classify_typology", route_after_classify, ["draft_sar", "close_case"])
    builder.add_edge("draft_sar", "human_review")
    builder.add_conditional_edges("human_review", route_after_review, ["file_sar", "close_case"])
    builder.add_edge("file_sar", END)
    builder.add_edge("close_case", END)
    return builder


saver = KillableSaver()
builder = build()
graph = builder.compile(checkpointer=saver)
config = {"configurable": {"thread_id": "case-1"}}
