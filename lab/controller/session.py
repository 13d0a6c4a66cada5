"""The lab's session and the language of refusals: which thread the lab works on, and the error a
command answers with when the lab refuses it.

LangGraph identifies a conversation by ``config["configurable"]["thread_id"]`` and lets each run pick
its ``durability``; the lab remembers that choice per thread (:class:`Session`) and refuses a command
with a :class:`LabError` whose message is meant for the learner (:func:`error_payload` turns any
exception into the plain ``{"type", "message"}`` the page shows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from lab.checkpoint.base import MAX_THREAD_ID_LENGTH, check_thread_id_length
from lab.controller.messages import message

Until = Literal["step", "end"]
"""A run command runs one super-step (``step``) or to the next interrupt or the end."""

DURABILITIES = ("sync", "async", "exit")
DEFAULT_DURABILITY = "async"
"""The durability a new case runs with unless the learner picks another (LangGraph's default)."""

DEFAULT_STORAGE = "full"
"""How a new case's graph stores its appending lists unless a lesson opts in to ``"delta"``
(``DeltaChannel``): LangGraph's default, every list whole (``GraphProfile.storages``)."""

CHOICES = ("case_id", "variant", "durability", "storage")
"""What a session remembers of the choices a thread was started with."""


class LabError(Exception):
    """A command the lab refuses, with a message meant for the learner (and, when the refusal is
    one of the page's rules, that message as a code: ``say``)."""

    say: dict[str, Any] | None = None


@dataclass
class Session:
    """The thread the lab works on and the choices it was started with."""

    thread_id: str
    case_id: str
    variant: str
    durability: str
    storage: str = DEFAULT_STORAGE


def choices(saved: dict[str, Any]) -> dict[str, str]:
    """A saved session's choices (a session saved before the storage switch stored its lists whole)."""
    return {key: saved.get(key, DEFAULT_STORAGE) if key == "storage" else saved[key] for key in CHOICES}


STORAGE_FULL = message(
    "storage.full",
    "The browser's storage for this site is full, so nothing of this change was saved: the thread "
    "stays at its last saved checkpoint. Drop threads you no longer need, or clear this site's data "
    "in the browser settings.",
)
"""What the page says when IndexedDB refused a write for want of space: the browser saver's
``StorageFullError`` (browser-only code: known here by its name), or a journal or ledger write the
browser refused with a ``QuotaExceededError``."""


def is_storage_full(exc: BaseException) -> bool:
    return type(exc).__name__ == "StorageFullError" or "QuotaExceededError" in str(exc)


def refused(reason: dict[str, Any]) -> LabError:
    """The :class:`LabError` for a refusal the page's rules state as a message (``say``)."""
    error = LabError(reason["text"])
    error.say = reason
    return error


def said(code: str, text: str, **params: Any) -> LabError:
    """The :class:`LabError` that says ``text`` (``{name}`` filled from ``params``) by ``code``."""
    return refused(message(code, text, **params))


def error_payload(exc: BaseException) -> dict[str, Any]:
    """``{"type", "message"}`` (plus ``say``, the message as a code, and ``notes`` such as
    LangGraph's "During task with name ...")."""
    message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    payload = {"type": type(exc).__name__, "message": str(message) or type(exc).__name__}
    if is_storage_full(exc):
        payload["say"] = STORAGE_FULL
    if said := getattr(exc, "say", None):
        payload["say"] = said  # the page says it in the learner's language (lab.controller.messages)
    if notes := getattr(exc, "__notes__", None):
        payload["notes"] = list(notes)
    return payload


def choose(value: Any, choices: tuple[str, ...], what: str) -> str:
    if value not in choices:
        raise said(
            f"input.unknown_{what}",
            "Unknown " + what + " {value}; choose one of: {choices}",
            value=repr(value),
            choices=", ".join(choices),
        )
    return value


def validate_thread_id(thread_id: Any) -> str:
    """``thread_id`` as a saver keys it. LangGraph's savers key a thread by the text of its id, so a
    whole number is taken as its text (``42`` and ``"42"`` are one thread) and ``""`` is a thread like
    any other; refused: any other type (``None`` included) and ids over the lab's length limit."""
    if isinstance(thread_id, int) and not isinstance(thread_id, bool):
        thread_id = str(thread_id)
    if not isinstance(thread_id, str):
        raise said(
            "thread.id_not_text", "A thread id must be text, got {given}", given=type(thread_id).__name__
        )
    try:
        check_thread_id_length(thread_id)
    except ValueError as too_long:
        raise said(
            "thread.id_too_long",
            "{problem}",
            problem=str(too_long),
            length=len(thread_id),
            limit=MAX_THREAD_ID_LENGTH,
        ) from None
    return thread_id
