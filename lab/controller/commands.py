"""What makes a method one of the page's commands, and the one check every thread id passes.

LangGraph raises at its caller; the lab's page is the caller here, and it needs plain data back: a
command answers ``{"ok": true, "result"}`` or ``{"ok": false, "error": {"type", "message"[, "say"]}}``,
JSON-able, never a traceback (:func:`command`).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from lab.checkpoint.base import MAX_THREAD_ID_LENGTH, check_thread_id_length
from lab.controller.frames import to_jsonable
from lab.controller.session import error_payload, said


def command(method: Callable[..., Awaitable[dict[str, Any]]]) -> Callable[..., Awaitable[dict[str, Any]]]:
    """Make ``method`` a page command: a JSON-able ``{"ok", "result" | "error"}`` dict, always."""

    @functools.wraps(method)
    async def answer(self: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        try:
            self._require_alive()
            result = await method(self, *args, **kwargs)
        except Exception as exc:
            return {"ok": False, "error": error_payload(exc)}
        return {"ok": True, "result": to_jsonable(result)}

    return answer


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
