"""What the lab says to a learner, as data: a stable code, its parameters, and the English text.

LangGraph has no such thing; it is the lab's way of keeping every sentence a learner reads in
Python. The page renders ``code`` with ``params`` from its catalogue (English and 简体中文,
``static/i18n.mjs``); ``text`` is the English sentence, used by error messages and CPython tests.
"""

from __future__ import annotations

from typing import Any

Message = dict[str, Any]


def message(code: str, text: str, **params: Any) -> Message:
    """``{"code", "params", "text"}``: ``text`` is formatted with ``params``. A parameter may itself be
    a :data:`Message` (a case's outcome inside the status line): the page says it in its own words,
    and ``text`` uses its English text."""
    english = {name: value["text"] if is_message(value) else value for name, value in params.items()}
    return {"code": code, "params": params, "text": text.format(**english)}


def is_message(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"code", "params", "text"}


class SaidError(ValueError):
    """Refused input whose message is also a :data:`Message` (``say``), so the page shows it in the
    learner's language; ``str()`` is the English text."""

    def __init__(self, code: str, text: str, **params: Any) -> None:
        self.say = message(code, text, **params)
        super().__init__(self.say["text"])
