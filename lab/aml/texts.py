"""The AML investigation's words, as messages: each case's title and alert, what a ledger request
was for, what the officer's review asks, how a case ended, and what each node does. The AML graph
profile (:mod:`lab.aml.profile`) hands them to the lab controller, which knows no case.

LangGraph has no such thing: a graph's state holds what its nodes wrote (``outcome`` is the English
sentence ``file_sar`` or ``close_case`` wrote). The lab shows that data in the learner's language, so
the sentences a learner reads from a case travel as :data:`~lab.controller.messages.Message` codes
(``case.<id>.title``, ``case.<id>.alert``, ``case.purpose.*``, ``case.outcome.*``) with the English
text beside them. So do the graph's nodes: what each does (its tooltip) is ``node.<name>``, the
first line of the node function's docstring its English text.
"""

from __future__ import annotations

import re
from typing import Any

from lab.aml.cases import case_summaries
from lab.aml.graph import EXPORT, FINDINGS, NARRATIVE, OUTCOMES, QUERY, REVIEW_QUESTION
from lab.aml.world import SAR_PURPOSE
from lab.controller.messages import Message, message
from lab.controller.profile import summarised, written


def case_choices() -> list[dict[str, Any]]:
    """The case picker's cases, each with its title, alert and what the picker says of it (``info``)
    also as messages (``say``)."""
    return [{**case, "say": case_words(case)} for case in case_summaries()]


def case_words(case: dict[str, Any]) -> dict[str, Message]:
    alert = message(f"case.{case['id']}.alert", case["alert"])
    return {
        "title": message(f"case.{case['id']}.title", case["title"]),
        "alert": alert,
        "info": message(
            "case.info",
            "{customer}: {alert} ({count} transactions)",
            customer=case["customer"],
            alert=alert,
            count=case["transactions"],
        ),
    }


PURPOSES = {QUERY: "query", EXPORT: "export"}
EXPORT_BOUGHT = (
    "The case-pack export {id} was already bought before this question was asked: approving re-runs "
    "human_review from its first line."
)
"""The purposes the graph's nodes pay for, by code."""


def purpose_message(row: dict[str, Any]) -> Message:
    """What a ledger request was for: one of the graph's purposes, the registry's "SAR for <case>"
    (lab.aml.world), else the purpose as written."""
    purpose = row.get("purpose", "")
    if purpose in PURPOSES:
        return message(f"case.purpose.{PURPOSES[purpose]}", purpose)
    said = message("case.purpose.sar", SAR_PURPOSE, case=row.get("case_id"))
    if row.get("kind") == "sar" and said["text"] == purpose:
        return said
    return written(purpose)


def finding_message(text: str) -> Message:
    """One of ``classify_typology``'s findings by name (its numbers and names as parameters)."""
    for name, template in FINDINGS.items():
        pattern = re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
        if found := re.fullmatch(re.sub(r"\{(\w+)\}", r"(?P<\1>.+?)", pattern), text):
            return message(f"case.finding.{name}", template, **found.groupdict())
    return written(text)


def review_texts(request: Any, values: dict[str, Any]) -> dict[str, Any] | None:
    """What the officer's review box says: the question, and the SAR draft's narrative and typology
    (each by code when it is the graph's own sentence, else as written; nothing for a payload that
    is not the review's dict), and the draft's ``facts`` the box lists (none without a draft)."""
    if not isinstance(request, dict):
        return None
    draft = request.get("draft") or {}
    case = values.get("case_id")
    findings = values.get("findings") or []
    asked = message("case.review.question", REVIEW_QUESTION, case=case)
    narrative = message(
        "case.narrative",
        NARRATIVE,
        subject=draft.get("subject"),
        findings=finding_message(findings[0]) if len(findings) == 1 else written("; ".join(findings)),
    )
    question, told = request.get("question"), draft.get("narrative")
    said = {
        "question": asked if asked["text"] == question else written(question),
        "narrative": narrative if narrative["text"] == told else written(told),
        "typology": message(f"case.typology.{draft.get('typology')}", str(draft.get("typology"))),
    }
    if request.get("export"):  # the node bought the export before it asked: approving re-runs it
        said["warning"] = message("case.review.export_bought", EXPORT_BOUGHT, id=request["export"])
    return {**said, "facts": draft_facts(draft, said) if draft.get("subject") else []}


def draft_facts(draft: dict[str, Any], said: dict[str, Message]) -> list[dict[str, Message]]:
    """The SAR draft as the review box lists it: each ``label`` and ``value`` a message."""
    typology = message(
        "case.review.typology_risk",
        "{typology} (risk {risk})",
        typology=said["typology"],
        risk=draft.get("risk"),
    )
    return [
        {"label": message("case.review.subject", "Subject"), "value": written(draft["subject"])},
        {"label": message("case.review.typology", "Typology"), "value": typology},
        {
            "label": message("case.review.amount", "Amount involved"),
            "value": written(str(draft.get("amount_involved"))),
        },
        {"label": message("case.review.narrative", "Narrative"), "value": said["narrative"]},
    ]


def outcome_message(values: dict[str, Any]) -> Message:
    """How a finished case ended: the sentence its ``outcome`` holds, by code when it is one the graph
    writes, else as written (a learner's fork may have written any outcome)."""
    told = told_outcome(values)
    if told["text"] == values.get("outcome"):
        return told
    return written(values.get("outcome", ""))


def told_outcome(values: dict[str, Any]) -> Message:
    """The outcome the graph writes for this state, as ``file_sar`` and ``close_case`` decide it: a
    filed SAR (with its id), a SAR the officer rejected, or nothing suspicious."""
    if sar := values.get("sar"):
        return message("case.outcome.filed", OUTCOMES["filed"], sar=sar.get("sar_id"))
    ending = "rejected" if (values.get("review") or {}).get("approved") is False else "closed"
    return message(f"case.outcome.{ending}", OUTCOMES[ending])


def node_summary(node: dict[str, Any]) -> Message:
    """What a node of the diagram does (``describe_graph``'s ``summary``, its docstring's first line),
    by node name; ``human_review`` says when it buys the export (or that a subgraph asks), which its
    variant decides."""
    code = f"node.{node['id']}"
    if node["id"] == "human_review":
        code += ".charges_first" if node.get("charges_before_interrupt") else ".charges_after"
        code += ".subgraph" if node.get("subgraph") else ""
    return message(code, node.get("summary", ""))


def with_node_summaries(diagram: dict[str, Any]) -> dict[str, Any]:
    """The AML diagram with each node's :func:`node_summary`, as the lab controller describes it."""
    return summarised(diagram, node_summary)
