"""The AML case-investigation graph: a LangGraph ``StateGraph`` small enough to read in the page.

::

    START → intake ─┬→ fetch_transactions ─┐ (paid API)
                    └→ screen_sanctions ───┴→ classify_typology ─?→ close_case → END
                                                    └─?→ draft_sar → human_review ─?→ file_sar → END
                                                                     (interrupt)  └─?→ close_case

The LangGraph concepts it shows:

- **fan-out and a join**: ``intake`` fires two nodes that run in the same super-step;
  ``add_edge([fetch_transactions, screen_sanctions], classify_typology)`` is a barrier channel
  that fires ``classify_typology`` once both wrote;
- **conditional edges**: routers pick ``draft_sar`` or ``close_case``, then ``file_sar`` or
  ``close_case`` (a rejected SAR closes the case, with the officer's decision in ``outcome``);
- **human in the loop**: ``human_review`` calls ``interrupt()``; ``Command(resume={"approved": ...})``
  answers it, and the node runs again *from its first line*;
- **side effects outside the process**: ``fetch_transactions`` pays for a transaction-graph API call
  and ``file_sar`` files a report. Both go through the lab's outside world
  (:class:`~lab.aml.world.AmlWorld` over the lab's :class:`~lab.world.World`), which lives outside
  Python (a page-side ledger in the browser, :class:`lab.world.MemoryWorld` in tests).

Three variants of the same graph, chosen when it is built (:data:`VARIANTS`, described for the
page in :data:`VARIANT_INFO`), and a fourth that is built differently (``"subgraph"``, below):

- ``"misplaced"``: ``human_review`` buys the case-pack export *before* ``interrupt()``, so approving
  re-runs the purchase (charged ×2), and no external call carries an idempotency key, so a node
  re-run after a crash pays again;
- ``"task-key"`` (explicitly flawed): the export is bought *after* ``interrupt()`` and only when
  approved, and every call carries the key ``"<thread id>:<task id>"``. A task id is derived from
  the checkpoint its step started from (``lab.pregel.ids``), so a re-run *from that checkpoint*
  presents the same key. But under durability ``"exit"``, or ``"async"`` while that checkpoint is
  still being written, a crash loses it: the re-run starts from an older checkpoint, gets a new
  task id, a new key, and the API charges again;
- ``"fixed"``: as ``task-key``, but the key names the *business operation* - this investigation
  (thread), this case, this purpose - and no runtime id, so every re-run of it, after any crash in
  any durability mode or a replay of an old frame, presents the same key and gets the original
  receipt: each operation is charged once.

The ``"subgraph"`` variant keys its calls as ``fixed`` does, but ``human_review`` is a parent node
that awaits a compiled **subgraph** (``brief_officer`` then ``sign``, which interrupts): the
subgraph checkpoints under the parent's saver, in the namespace ``"human_review:<task id>"``, and
on resume the parent node runs again from its first line while the subgraph continues from its own
checkpoint (lesson 12). It is not in :data:`VARIANTS`, the variants the crash soak compares.

The ``"task"`` variant is LangGraph's own remedy for ``misplaced`` (its durable-execution guide:
wrap side effects in tasks): ``human_review`` still buys the export before ``interrupt()`` and with
no key, but inside a ``@task`` (``buy_export``, ``lab.func``). Approving re-runs the node from its
first line; the task's result was saved with the step's pending writes, so the call returns it and
the export is charged once. The window a task does not close: a crash after the charge and before
its result is saved (under ``"exit"``, before the run ends) re-runs the task, and the API, seeing
no key, charges again. Tasks and idempotency keys together, as LangGraph advises, close both.

Nodes learn their thread and checkpoint the way LangGraph nodes read ``get_config()``: through a
:class:`RunContext` the caller installs (``use_run_context``) and keeps current with its ``follow``
seam hook; the task id comes from the running task (LangGraph puts it in ``checkpoint_ns``).
"""

from __future__ import annotations

import asyncio
import functools
import operator
import re
from collections.abc import Callable
from contextvars import ContextVar, Token
from dataclasses import asdict, dataclass
from typing import Annotated, Any, Literal, TypedDict

from lab import diagram
from lab.aml.cases import REPORTING_THRESHOLD, WATCHLIST, get_case
from lab.aml.world import AmlWorld
from lab.channels import DeltaChannel
from lab.config import get_config
from lab.controller.messages import message
from lab.func import TaskFunction, task
from lab.graph import END, START, CompiledStateGraph, StateGraph
from lab.pregel import Seam
from lab.types import interrupt
from lab.world import World

Variant = Literal["misplaced", "task-key", "fixed", "subgraph", "task"]
VARIANTS: tuple[Variant, ...] = ("misplaced", "task-key", "fixed")
"""The three ways ``human_review`` buys the export (what the crash soak and harness compare)."""
SUBGRAPH: Variant = "subgraph"
"""``fixed``'s keys, with the officer's review as a subgraph."""
TASK: Variant = "task"
"""``misplaced``'s purchase before ``interrupt()``, wrapped in a ``@task`` (LangGraph's remedy)."""
DEFAULT_DELAY = 0.3
"""Seconds each node visibly works (``await asyncio.sleep``), so a crash can land inside one."""

QUERY_PRICE_CENTS = 250
"""Price of one transaction-graph query (``fetch_transactions``)."""
EXPORT_PRICE_CENTS = 1_200
"""Price of the full transaction-graph export attached to a SAR (``human_review``)."""

QUERY, EXPORT, FILING = "transaction-graph query", "case-pack export", "SAR filing"
"""The business operations that leave the process: what each paid or filed request is for."""


class ReviewState(TypedDict, total=False):
    """The review subgraph's state: what the officer is shown, and what they answered."""

    case_id: str
    sar_draft: dict[str, Any]
    brief: str
    decision: Any


class CaseState(TypedDict, total=False):
    """The graph's state: one channel per key (``LastValue`` unless annotated with a reducer)."""

    case_id: str
    customer: dict[str, Any]
    alert: str
    transactions: list[dict[str, Any]]
    sanctions: dict[str, Any]
    typology: str
    risk: int
    findings: list[str]
    sar_draft: dict[str, Any]
    review: dict[str, Any]
    sar: dict[str, Any]
    outcome: str
    charges: Annotated[list[dict[str, Any]], operator.add]
    """Receipts of the paid calls on this lineage: compare with the ledger after a double charge."""
    log: Annotated[list[str], operator.add]


def append(items: list[Any], batches: list[list[Any]]) -> list[Any]:
    """A ``DeltaChannel``'s reducer: the list so far and a batch of writes, each a list to append."""
    return items + [item for batch in batches for item in batch]


class DeltaCaseState(CaseState, total=False):
    """The same state with its two lists opted in to ``DeltaChannel`` (LangGraph's beta opt-in: a
    checkpoint stores a sentinel; the list is rebuilt from the ancestors' writes)."""

    charges: Annotated[list[dict[str, Any]], DeltaChannel(append)]
    log: Annotated[list[str], DeltaChannel(append)]


Storage = Literal["full", "delta"]
STATES: dict[Storage, type] = {"full": CaseState, "delta": DeltaCaseState}
"""The state a graph is built with, by how it stores its lists: whole (LangGraph's default) or as deltas."""


# -- the world outside the Python process -----------------------------------------------------------


@dataclass(frozen=True)
class CallSite:
    """Where an external call came from: what the ledger records next to each charge."""

    thread_id: str
    node: str
    task_id: str
    checkpoint_id: str


# -- idempotency keys: one rule per variant ---------------------------------------------------------


def no_key(site: CallSite, case_id: str, operation: str) -> None:
    """``misplaced``: no key, so every request is new to the API."""
    return None


def task_key(site: CallSite, case_id: str, operation: str) -> str:
    """``task-key``: stable while the task re-runs from the same checkpoint; new when a crash lost it."""
    return f"{site.thread_id}:{site.task_id}"


def operation_key(site: CallSite, case_id: str, operation: str) -> str:
    """``fixed``: the business operation (investigation, case, purpose); no runtime id in it."""
    return f"{site.thread_id}:{case_id}:{operation}"


KeyRule = Callable[[CallSite, str, str], str | None]


@dataclass(frozen=True)
class VariantInfo:
    """What a variant does, for the page: a label, one sentence, and its two choices."""

    label: str
    about: str
    charges_before_interrupt: bool
    key_rule: KeyRule


VARIANT_INFO: dict[Variant, VariantInfo] = {
    "misplaced": VariantInfo(
        "misplaced", "buys the export before interrupt(); no idempotency keys", True, no_key
    ),
    "task-key": VariantInfo(
        "task-key (flawed)",
        "buys after interrupt(); keys are thread:task id, so a crash that loses the step's checkpoint "
        "gives the re-run a new key and a second charge",
        False,
        task_key,
    ),
    "fixed": VariantInfo(
        "fixed",
        "buys after interrupt(); each key names the business operation (thread, case, purpose), so "
        "every re-run presents the same key",
        False,
        operation_key,
    ),
    SUBGRAPH: VariantInfo(
        "subgraph",
        "as fixed, but human_review awaits a review subgraph (brief_officer, then sign, which interrupts)",
        False,
        operation_key,
    ),
    TASK: VariantInfo(
        "task",
        "buys the export before interrupt(), in a @task, with no key: approving charges once (the task's "
        "saved result comes back), but a crash after the charge and before that result is saved "
        "charges again",
        True,
        no_key,
    ),
}


def business_operation(entry: dict[str, Any]) -> tuple[str, ...]:
    """The business operation a ledger entry (``{kind, thread_id, case_id, purpose, ...}``)
    performed: this thread's purchase of one thing ``("charge", thread id, purpose)``, or this case's
    SAR filing ``("sar", case id)``. A graph that is safe against double charges charges (or files)
    each operation once, however often its nodes re-run."""
    if entry["kind"] == "sar":
        return "sar", entry.get("case_id") or entry["purpose"]
    return "charge", entry["thread_id"], entry["purpose"]


# -- what a node knows about its run (LangGraph: get_config()) --------------------------------------


@dataclass
class RunContext:
    """The thread a run works on and the checkpoint its current step started from."""

    thread_id: str
    checkpoint_id: str = ""

    async def follow(self, seam: Seam) -> None:
        """A seam hook (``on_seam=``) that keeps ``checkpoint_id`` current."""
        if seam.name == "step_start":
            self.checkpoint_id = seam.checkpoint_id


_run_context: ContextVar[RunContext] = ContextVar("aml_run_context")


def use_run_context(context: RunContext) -> Token[RunContext]:
    """Install ``context`` for runs started from the current asyncio task."""
    return _run_context.set(context)


def reset_run_context(token: Token[RunContext]) -> None:
    """Put back the context ``use_run_context`` replaced."""
    _run_context.reset(token)


def call_site() -> CallSite:
    try:
        context = _run_context.get()
    except LookupError:
        raise RuntimeError(
            "The AML nodes need to know their thread: install a RunContext with use_run_context() "
            "and pass its follow hook as on_seam (lab.controller does both)."
        ) from None
    # "<node>:<task id>", or inside a @task the node calls, "<node>:<task id>|<task>:<its id>"
    node, task_id = get_config()["configurable"]["checkpoint_ns"].split("|")[0].split(":")
    return CallSite(context.thread_id, node, task_id, context.checkpoint_id)


# -- the investigation rules (pure functions) ---------------------------------------------------------


def structuring_deposits(transactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cash deposits within 10% under the reporting threshold."""
    floor = REPORTING_THRESHOLD * 0.9
    return [
        t for t in transactions if t["kind"] == "cash_deposit" and floor <= t["amount"] < REPORTING_THRESHOLD
    ]


def _tokens(name: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", name.lower()))


def watchlist_matches(names: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Watchlist entries whose name or alias appears (all its words) in a screened name.
    ``names`` maps each screened name to the ids of the transactions it appears in."""
    matches = []
    for name, transaction_ids in names.items():
        for entry in WATCHLIST:
            if any(_tokens(alias) <= _tokens(name) for alias in [entry["name"], *entry["aliases"]]):
                matches.append(
                    {
                        "name": name,
                        "entry": entry["name"],
                        "list": entry["list"],
                        "program": entry["program"],
                        "transaction_ids": transaction_ids,
                    }
                )
    return matches


FINDINGS = {
    "watchlist": "Watchlist match: {entry}",
    "structuring": (
        "{count} cash deposits just under {threshold} totalling {total} across {branches} branches"
    ),
    "profile": "Activity fits the customer's profile",
}
"""The findings ``classify_typology`` writes, by name (the lab's page says them in its language)."""
OUTCOMES = {
    "filed": "SAR {sar} filed",
    "rejected": "Closed: the officer rejected the SAR",
    "closed": "Closed: no suspicious typology",
}
"""The ``outcome`` ``file_sar`` and ``close_case`` write, by name."""
REVIEW_QUESTION = "File a SAR for {case}?"
"""What ``human_review`` asks the officer (its ``interrupt()`` payload's ``question``)."""
NARRATIVE = "{subject}: {findings}."
"""The SAR draft's narrative: the subject and the findings, joined by "; "."""


def classify(transactions: list[dict[str, Any]], sanctions: dict[str, Any]) -> dict[str, Any]:
    """Typology, risk score (0-100) and the findings that justify them."""
    if sanctions["hit"]:
        entries = sorted({m["entry"] for m in sanctions["matches"]})
        findings = [FINDINGS["watchlist"].format(entry=e) for e in entries]
        return {"typology": "sanctions", "risk": 95, "findings": findings}
    deposits = structuring_deposits(transactions)
    total = sum(t["amount"] for t in deposits)
    if len(deposits) >= 3 and total > REPORTING_THRESHOLD:
        finding = FINDINGS["structuring"].format(
            count=len(deposits),
            threshold=f"{REPORTING_THRESHOLD:,}",
            total=f"{total:,.2f}",
            branches=len({t["location"] for t in deposits}),
        )
        return {"typology": "structuring", "risk": min(99, 70 + 3 * len(deposits)), "findings": [finding]}
    return {"typology": "none", "risk": 10, "findings": [FINDINGS["profile"]]}


def is_approved(decision: Any) -> bool:
    """The officer's answer: ``{"approved": bool}`` (or a bare bool)."""
    return bool(decision.get("approved")) if isinstance(decision, dict) else decision is True


# -- node traits: what the diagram marks (paid, interrupting, filing) -------------------------------


def traits(**flags: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Tag a node function; :func:`describe_graph` reads the tags back from the builder."""

    def tag(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.aml_traits = flags
        return fn

    return tag


# -- the nodes ----------------------------------------------------------------------------------------


class Investigation:
    """The nodes of one graph variant, bound to the outside world they call."""

    def __init__(self, world: World, variant: Variant, delay: float) -> None:
        self.world = AmlWorld(world)
        self.key_rule = VARIANT_INFO[variant].key_rule
        self.delay = delay

    async def work(self) -> None:
        """The node's visible working time (a crash can land here)."""
        await asyncio.sleep(self.delay)

    async def charge(self, state: CaseState, purpose: str, amount_cents: int) -> dict[str, Any]:
        site = call_site()
        receipt = await self.world.charge(
            self.key_rule(site, state["case_id"], purpose),
            **asdict(site),
            amount_cents=amount_cents,
            purpose=purpose,
        )
        return receipt.as_dict()

    async def intake(self, state: CaseState) -> dict[str, Any]:
        """Open the case: load the customer and the alert."""
        await self.work()
        case = get_case(state["case_id"])
        return {
            "customer": case["customer"],
            "alert": case["alert"],
            "log": [f"intake: opened {case['id']} for {case['customer']['name']}"],
        }

    @traits(paid=True)
    async def fetch_transactions(self, state: CaseState) -> dict[str, Any]:
        """Query the paid transaction-graph API for the customer's transactions."""
        await self.work()
        receipt = await self.charge(state, QUERY, QUERY_PRICE_CENTS)
        transactions = get_case(state["case_id"])["transactions"]
        return {
            "transactions": transactions,
            "charges": [receipt],
            "log": [f"fetch_transactions: {len(transactions)} transactions ({receipt['receipt_id']})"],
        }

    async def screen_sanctions(self, state: CaseState) -> dict[str, Any]:
        """Screen the customer, then every wire counterparty, against the watchlist."""
        await self.work()
        case = get_case(state["case_id"])
        names: dict[str, list[str]] = {case["customer"]["name"]: []}
        await self.work()
        for t in case["transactions"]:
            if t["kind"].startswith("wire"):
                names.setdefault(t["counterparty"], []).append(t["id"])
        matches = watchlist_matches(names)
        verdict = f"{len(matches)} watchlist match(es)" if matches else "no watchlist match"
        return {
            "sanctions": {"hit": bool(matches), "matches": matches, "screened": sorted(names)},
            "log": [f"screen_sanctions: {len(names)} names screened, {verdict}"],
        }

    async def classify_typology(self, state: CaseState) -> dict[str, Any]:
        """Name the typology (structuring, sanctions, none) and score the risk."""
        await self.work()
        verdict = classify(state["transactions"], state["sanctions"])
        return {**verdict, "log": [f"classify_typology: {verdict['typology']} (risk {verdict['risk']})"]}

    async def draft_sar(self, state: CaseState) -> dict[str, Any]:
        """Draft the Suspicious Activity Report for the officer."""
        await self.work()
        involved = _involved_transactions(state)
        draft = {
            "subject": state["customer"]["name"],
            "typology": state["typology"],
            "risk": state["risk"],
            "amount_involved": round(sum(t["amount"] for t in involved), 2),
            "transaction_ids": [t["id"] for t in involved],
            "narrative": NARRATIVE.format(
                subject=state["customer"]["name"], findings="; ".join(state["findings"])
            ),
        }
        return {"sar_draft": draft, "log": [f"draft_sar: {len(involved)} transactions cited"]}

    @traits(paid=True, interrupts=True, charges_before_interrupt=True)
    async def human_review_misplaced(self, state: CaseState) -> dict[str, Any]:
        """Ask a compliance officer to approve the SAR (buys the export BEFORE asking)."""
        await self.work()
        export = await self.charge(state, EXPORT, EXPORT_PRICE_CENTS)  # runs again on resume
        decision = interrupt(_review_request(state, export))
        return _review_outcome(decision, export)

    @traits(paid=True, interrupts=True, charges_before_interrupt=True)
    async def human_review_task(self, state: CaseState) -> dict[str, Any]:
        """Ask a compliance officer to approve the SAR (buys the export BEFORE asking).

        In a task: on resume the node runs again, the task does not, unless a crash lost its result."""
        await self.work()
        export = await self.buy_export(state)
        decision = interrupt(_review_request(state, export))
        return _review_outcome(decision, export)

    @functools.cached_property
    def buy_export(self) -> TaskFunction:
        """The export purchase as a ``@task`` (``buy_export``): its result is saved as it returns."""

        async def buy_export(state: CaseState) -> dict[str, Any]:
            return await self.charge(state, EXPORT, EXPORT_PRICE_CENTS)

        return task(buy_export)

    @traits(paid=True, interrupts=True)
    async def human_review_fixed(self, state: CaseState) -> dict[str, Any]:
        """Ask a compliance officer to approve the SAR (buys the export after, if approved)."""
        await self.work()
        decision = interrupt(_review_request(state, None))
        approved = is_approved(decision)
        export = await self.charge(state, EXPORT, EXPORT_PRICE_CENTS) if approved else None
        return _review_outcome(decision, export)

    async def brief_officer(self, state: ReviewState) -> dict[str, Any]:
        """Sum the SAR draft up in one line for the officer (a node of the review subgraph)."""
        draft = state["sar_draft"]
        return {"brief": f"{draft['subject']}: {draft['typology']}, risk {draft['risk']}"}

    async def sign(self, state: ReviewState) -> dict[str, Any]:
        """Ask the officer to sign the SAR off (a node of the review subgraph)."""
        return {"decision": interrupt(_review_request(state, None))}

    def review_subgraph(self) -> CompiledStateGraph:
        """The officer's review as a graph of its own; compiled without a saver, it checkpoints
        under the parent's when a parent node awaits it."""
        builder = StateGraph(ReviewState)
        builder.add_node("brief_officer", self.brief_officer)
        builder.add_node("sign", self.sign)
        builder.add_edge(START, "brief_officer")
        builder.add_edge("brief_officer", "sign")
        return builder.compile()

    def human_review_subgraph(self) -> Callable[[CaseState], Any]:
        """``human_review`` as a parent node: it awaits the review subgraph (a closure variable,
        where LangGraph and the lab find a node's subgraph), then buys the export if approved."""
        review = self.review_subgraph()

        @traits(paid=True, interrupts=True, subgraph=True)
        async def human_review(state: CaseState) -> dict[str, Any]:
            """Have the review subgraph ask the officer; buy the export after, if approved."""
            await self.work()
            signed = await review.ainvoke({"case_id": state["case_id"], "sar_draft": state["sar_draft"]})
            approved = is_approved(signed["decision"])
            export = await self.charge(state, EXPORT, EXPORT_PRICE_CENTS) if approved else None
            return _review_outcome(signed["decision"], export)

        return human_review

    @traits(files_sar=True)
    async def file_sar(self, state: CaseState) -> dict[str, Any]:
        """File the approved SAR with the registry."""
        await self.work()
        site = call_site()
        receipt = await self.world.file_sar(
            self.key_rule(site, state["case_id"], FILING),
            **asdict(site),
            case_id=state["case_id"],
            report=state["sar_draft"],
        )
        return {
            "sar": receipt.as_dict(),
            "outcome": OUTCOMES["filed"].format(sar=receipt.sar_id),
            "log": [f"file_sar: filed {receipt.sar_id}"],
        }

    async def close_case(self, state: CaseState) -> dict[str, Any]:
        """Close the case: nothing suspicious, or the officer rejected the SAR."""
        await self.work()
        rejected = "review" in state and not state["review"]["approved"]
        outcome = OUTCOMES["rejected" if rejected else "closed"]
        return {"outcome": outcome, "log": [f"close_case: {outcome}"]}


def _involved_transactions(state: CaseState) -> list[dict[str, Any]]:
    if state["typology"] == "sanctions":
        cited = {tid for m in state["sanctions"]["matches"] for tid in m["transaction_ids"]}
        return [t for t in state["transactions"] if t["id"] in cited]
    return structuring_deposits(state["transactions"])


def _review_request(state: CaseState | ReviewState, export: dict[str, Any] | None) -> dict[str, Any]:
    """The ``interrupt()`` payload: what the officer is asked."""
    return {
        "question": REVIEW_QUESTION.format(case=state["case_id"]),
        "draft": state["sar_draft"],
        "export": export["receipt_id"] if export else None,
    }


def _review_outcome(decision: Any, export: dict[str, Any] | None) -> dict[str, Any]:
    approved = is_approved(decision)
    return {
        "review": {"approved": approved, "export": export["receipt_id"] if export else None},
        "charges": [export] if export else [],
        "log": [f"human_review: {'approved' if approved else 'rejected'}"],
    }


# -- routers (conditional edges) ----------------------------------------------------------------------


def route_after_classify(state: CaseState) -> str:
    return "close_case" if state["typology"] == "none" else "draft_sar"


def route_after_review(state: CaseState) -> str:
    return "file_sar" if state["review"]["approved"] else "close_case"


# -- building and describing ----------------------------------------------------------------------


def build_graph(
    world: World,
    variant: Variant = "misplaced",
    *,
    checkpointer: Any = None,
    delay: float = DEFAULT_DELAY,
    storage: Storage = "full",
) -> CompiledStateGraph:
    """The AML graph, compiled. ``variant`` picks ``human_review`` and how calls are keyed;
    ``storage="delta"`` opts ``log`` and ``charges`` in to ``DeltaChannel``."""
    if variant not in VARIANT_INFO:
        raise ValueError(f"Unknown variant {variant!r}; choose one of: {', '.join(VARIANT_INFO)}")
    nodes = Investigation(world, variant, delay)
    review = review_node(nodes, variant)
    builder = StateGraph(STATES[storage])
    builder.add_node("intake", nodes.intake)
    builder.add_node("fetch_transactions", nodes.fetch_transactions)
    builder.add_node("screen_sanctions", nodes.screen_sanctions)
    builder.add_node("classify_typology", nodes.classify_typology)
    builder.add_node("draft_sar", nodes.draft_sar)
    builder.add_node("human_review", review)
    builder.add_node("file_sar", nodes.file_sar)
    builder.add_node("close_case", nodes.close_case)
    builder.add_edge(START, "intake")
    builder.add_edge("intake", "fetch_transactions")
    builder.add_edge("intake", "screen_sanctions")
    builder.add_edge(["fetch_transactions", "screen_sanctions"], "classify_typology")
    builder.add_conditional_edges("classify_typology", route_after_classify, ["draft_sar", "close_case"])
    builder.add_edge("draft_sar", "human_review")
    builder.add_conditional_edges("human_review", route_after_review, ["file_sar", "close_case"])
    builder.add_edge("file_sar", END)
    builder.add_edge("close_case", END)
    return builder.compile(checkpointer=checkpointer)


def review_node(nodes: Investigation, variant: Variant) -> Callable[[CaseState], Any]:
    """The ``human_review`` node of ``variant``: buying first, buying after, or a subgraph's parent."""
    if variant == SUBGRAPH:
        return nodes.human_review_subgraph()
    if variant == TASK:
        return nodes.human_review_task
    misplaced = VARIANT_INFO[variant].charges_before_interrupt
    return nodes.human_review_misplaced if misplaced else nodes.human_review_fixed


def describe_graph(graph: CompiledStateGraph) -> dict[str, Any]:
    """Plain data for the page's SVG diagram (``lab.diagram``), each node with its AML traits."""
    return diagram.describe_graph(graph, node_traits)


FILING_MARK = {"glyph": "§", "say": message("case.mark.filing", "files a SAR")}
"""The badge the diagram draws on a node that files a SAR, and its legend (the page draws any profile's)."""


def node_traits(name: str, fn: Callable[..., Any]) -> dict[str, Any]:
    """What the diagram marks on a node (paid, interrupting, filing, running a subgraph; ``marks``: the
    badges of this graph's own), and whether it calls out."""
    flags = {
        "paid": False,
        "interrupts": False,
        "charges_before_interrupt": False,
        "files_sar": False,
        "subgraph": False,
    }
    flags |= getattr(fn, "aml_traits", {})
    marks = [FILING_MARK] if flags["files_sar"] else []
    return {**flags, "calls_out": flags["paid"] or flags["files_sar"], "marks": marks}
