"""The case data a learner reads, as messages: each case's title and alert, and how a case ended.

LangGraph has no such thing: a graph's state holds what its nodes wrote (``outcome`` is the English
sentence ``file_sar`` or ``close_case`` wrote). The lab shows that data in the learner's language, so
the sentences a learner reads from a case travel as :data:`~lab.controller.messages.Message` codes
(``case.<id>.title``, ``case.<id>.alert``, ``case.outcome.*``) with the English text beside them.
"""

from __future__ import annotations

from typing import Any

from lab.aml.cases import case_summaries
from lab.controller.messages import Message, message


def case_choices() -> list[dict[str, Any]]:
    """The case picker's cases, each with its title and alert also as messages (``say``)."""
    return [
        {
            **case,
            "say": {
                "title": message(f"case.{case['id']}.title", case["title"]),
                "alert": message(f"case.{case['id']}.alert", case["alert"]),
            },
        }
        for case in case_summaries()
    ]


def outcome_message(values: dict[str, Any]) -> Message:
    """How a finished case ended: the sentence its ``outcome`` holds, by code when it is one the graph
    writes, else as written (a learner's fork may have written any outcome)."""
    told = told_outcome(values)
    if told["text"] == values.get("outcome"):
        return told
    return message("case.outcome.written", "{outcome}", outcome=values.get("outcome", ""))


def told_outcome(values: dict[str, Any]) -> Message:
    """The outcome the graph writes for this state, as ``file_sar`` and ``close_case`` decide it: a
    filed SAR (with its id), a SAR the officer rejected, or nothing suspicious."""
    if sar := values.get("sar"):
        return message("case.outcome.filed", "SAR {sar} filed", sar=sar.get("sar_id"))
    if (values.get("review") or {}).get("approved") is False:
        return message("case.outcome.rejected", "Closed: the officer rejected the SAR")
    return message("case.outcome.closed", "Closed: no suspicious typology")
