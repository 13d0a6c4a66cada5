"""The lab's own graph, as plain LangGraph code: an anti-money-laundering case. The intake fans out
to a paid transaction query and a sanctions screen, a join classifies, a router drafts a report or
closes, an officer answers an interrupt(), and the report is filed. The query pays through
lab.world.charge with no idempotency key, as the lab's "misplaced" variant: crash after it and the
re-run pays again (the ledger flags it)."""

import operator
from typing import Annotated, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from lab.world import charge, send_email

THRESHOLD = 10_000  # cash at or above it is reported anyway, so structuring stays just below
WATCHLIST = {"Borealis Vektor Trading FZE"}
TRANSACTIONS = [
    {"id": "T-01", "kind": "cash_deposit", "amount": 9_800, "counterparty": "branch 12"},
    {"id": "T-02", "kind": "cash_deposit", "amount": 9_650, "counterparty": "branch 7"},
    {"id": "T-03", "kind": "cash_deposit", "amount": 9_900, "counterparty": "branch 3"},
    {"id": "T-04", "kind": "wire_out", "amount": 28_000, "counterparty": "Kessler Holdings"},
]


class Case(TypedDict, total=False):
    case_id: str
    transactions: list[dict]
    hits: list[str]
    typology: str
    approved: bool
    outcome: str
    log: Annotated[list[str], operator.add]


def intake(state: Case) -> dict:
    return {"log": [f"intake: opened {state['case_id']}"]}


def fetch_transactions(state: Case) -> dict:
    charge(2.50, f"transaction query for {state['case_id']}")  # paid: a re-run pays again
    return {"transactions": TRANSACTIONS, "log": [f"fetch_transactions: {len(TRANSACTIONS)} found"]}


def screen_sanctions(state: Case) -> dict:
    hits = sorted({t["counterparty"] for t in TRANSACTIONS} & WATCHLIST)
    return {"hits": hits, "log": [f"screen_sanctions: {len(hits)} watchlist hits"]}


def classify_typology(state: Case) -> dict:
    near = [
        t for t in state["transactions"] if t["kind"] == "cash_deposit" and t["amount"] >= THRESHOLD * 0.9
    ]
    typology = "sanctions" if state["hits"] else "structuring" if len(near) >= 3 else "none"
    return {"typology": typology, "log": [f"classify_typology: {typology}"]}


def draft_sar(state: Case) -> dict:
    return {"log": [f"draft_sar: {state['typology']} report for {state['case_id']}"]}


def human_review(state: Case) -> dict:
    approved = interrupt({"question": f"File a SAR for {state['case_id']}?"})
    return {"approved": bool(approved), "log": [f"human_review: {'approved' if approved else 'rejected'}"]}


def file_sar(state: Case) -> dict:
    send_email("registry@fiu.example", f"SAR for {state['case_id']}", idempotency_key=state["case_id"])
    return {"outcome": "SAR filed", "log": ["file_sar: filed"]}


def close_case(state: Case) -> dict:
    return {"outcome": "closed", "log": ["close_case: closed"]}


def after_classify(state: Case) -> str:
    return "close_case" if state["typology"] == "none" else "draft_sar"


def after_review(state: Case) -> str:
    return "file_sar" if state["approved"] else "close_case"


builder = StateGraph(Case)
builder.add_node(intake)  # named after its function
builder.add_node(fetch_transactions)
builder.add_node(screen_sanctions)
builder.add_node(classify_typology)
builder.add_node(draft_sar)
builder.add_node(human_review)
builder.add_node(file_sar)
builder.add_node(close_case)
builder.add_edge(START, "intake")
builder.add_edge("intake", "fetch_transactions")
builder.add_edge("intake", "screen_sanctions")
builder.add_edge(["fetch_transactions", "screen_sanctions"], "classify_typology")
builder.add_conditional_edges("classify_typology", after_classify, ["draft_sar", "close_case"])
builder.add_edge("draft_sar", "human_review")
builder.add_conditional_edges("human_review", after_review, ["file_sar", "close_case"])
builder.add_edge("file_sar", END)
builder.add_edge("close_case", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    from lab.world import MemoryWorld, use_recorder

    config = {"configurable": {"thread_id": "investigation-1"}}
    with use_recorder(MemoryWorld()) as ledger:
        asked = graph.invoke({"case_id": "S-1001", "log": []}, config)
        print(asked["__interrupt__"][0].value)
        done = graph.invoke(Command(resume=True), config)
    print(done["outcome"], done["log"])
    print([(row["kind"], row["amount_cents"]) for row in ledger.rows])
    assert (done["typology"], done["outcome"]) == ("structuring", "SAR filed")
    assert [(row["kind"], row["amount_cents"]) for row in ledger.rows] == [("charge", 250), ("email", 0)]
