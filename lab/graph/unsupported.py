"""``NotSupportedError``: the LangGraph features ``lab`` leaves out on purpose, refused by name.

LangGraph would accept them; ``lab`` says which feature it is and where the README lists what it
leaves out, instead of failing later with a bare ``AttributeError`` or ``KeyError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

UNSUPPORTED = "lab does not support {}; see docs/LANGGRAPH.md (Where lab deliberately differs)"


class NotSupportedError(ValueError):
    """A LangGraph feature the lab leaves out on purpose; the message names it."""

    def __init__(self, feature: str) -> None:
        super().__init__(UNSUPPORTED.format(feature))


def refused_names(module: str, names: frozenset[str] | None = None) -> Callable[[str], Any]:
    """A module ``__getattr__`` that refuses by name what LangGraph's (or LangChain's) ``module`` has
    and lab leaves out (``names``; ``None``: every public name lab's module lacks):
    ``from langgraph.prebuilt import InjectedState`` says so, not a bare ``ImportError``."""

    def __getattr__(name: str) -> Any:
        if name in names if names is not None else not name.startswith("__"):
            raise NotSupportedError(f"{module}.{name}")
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


def refuse_options(method: str, options: dict[str, Any]) -> None:
    """Options lab does not implement (a node's retry policy, error handler, timeout...) are
    refused by name when set, never silently ignored. ``debug=False`` and friends are fine."""
    if given := [key for key, value in options.items() if value not in (None, False)]:
        raise NotSupportedError(f"{method}({', '.join(f'{key}=...' for key in given)})")


UNSUPPORTED_METHODS = frozenset(
    (
        "astream_events",
        "astream_log",
        "batch_as_completed",
        "abatch_as_completed",
        "with_retry",
        "with_fallbacks",
        "get_context_jsonschema",
        "get_config_jsonschema",
        "pipe",
    )
)
"""Methods of LangGraph's compiled graph (many from LangChain's ``Runnable``) lab does not have."""


class RefusesLeftOutMethods:
    """A compiled graph (a ``StateGraph``'s, an ``@entrypoint``'s) whose LangGraph methods that lab
    leaves out (:data:`UNSUPPORTED_METHODS`) fail by name (still an ``AttributeError``)."""

    def __getattr__(self, name: str) -> Any:
        if name in UNSUPPORTED_METHODS:
            raise AttributeError(UNSUPPORTED.format(f"{type(self).__name__}.{name}()"))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
