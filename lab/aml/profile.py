"""The AML investigation as the lab controller sees it: one graph profile (``lab.controller.profile``).

Its variants are the three ways ``human_review`` buys the export, and ``subgraph`` (its review a
subgraph, for lesson 12); its cases the seeded alerts (a
thread starts with ``{"case_id"}``); its nodes that call out are those that pay the transaction-graph
API or file a SAR; Approve / Reject answer the officer's review with ``{"approved": ...}``; and its
nodes learn their thread and step's checkpoint from a :class:`~lab.aml.graph.RunContext` (the call
site the ledger records). Its words (what a node does, what a request was for, what the review asks,
how a case ended) are :mod:`lab.aml.texts`'s; a SAR is filed once per case, whichever thread files it
(``business_operation``).
"""

from __future__ import annotations

from typing import Any

from lab.aml.cases import get_case
from lab.aml.graph import (
    STATES,
    VARIANT_INFO,
    RunContext,
    build_graph,
    business_operation,
    node_traits,
    use_run_context,
)
from lab.aml.texts import case_choices, node_summary, outcome_message, purpose_message, review_texts
from lab.aml.world import AML_OPERATIONS
from lab.controller.messages import message
from lab.controller.profile import GraphProfile, SeamHook


def case_input(case_id: str) -> dict[str, Any]:
    """A new investigation of ``case_id`` (``KeyError`` if there is no such case)."""
    get_case(case_id)
    return {"case_id": case_id}


def enter_run(thread_id: str) -> SeamHook:
    """Tell the nodes of this run (this asyncio task) their thread, and follow its steps' checkpoints."""
    context = RunContext(thread_id)
    use_run_context(context)
    return context.follow


def review_answer(approve: bool) -> dict[str, bool]:
    return {"approved": approve}


AML_PROFILE = GraphProfile(
    build=build_graph,
    variants=tuple(VARIANT_INFO),
    storages=tuple(STATES),
    cases=case_choices,
    case_input=case_input,
    node_traits=node_traits,
    answer=review_answer,
    enter_run=enter_run,
    node_summary=node_summary,
    purpose=purpose_message,
    business_operation=business_operation,
    operations=AML_OPERATIONS,
    outcome=outcome_message,
    review_texts=review_texts,
    title=message("graph.aml", "The AML investigation graph"),
    outside_calls=message("world.aml", "calls the paid API or files the SAR"),
)
