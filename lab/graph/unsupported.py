"""``NotSupportedError``: the LangGraph features ``lab`` leaves out on purpose, refused by name.

LangGraph would accept them; ``lab`` says which feature it is and where the README lists what it
leaves out, instead of failing later with a bare ``AttributeError`` or ``KeyError``.
"""

from __future__ import annotations

UNSUPPORTED = "lab does not support {}; see docs/LANGGRAPH.md (Where lab deliberately differs)"


class NotSupportedError(ValueError):
    """A LangGraph feature the lab leaves out on purpose; the message names it."""

    def __init__(self, feature: str) -> None:
        super().__init__(UNSUPPORTED.format(feature))
