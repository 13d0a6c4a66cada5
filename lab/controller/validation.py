"""Bad input from the page, refused with a message a learner can act on (issue 10, item 6).

LangGraph trusts its caller: ``update_state`` takes any value for any key (the next run then fails
inside a node with a raw ``TypeError``), a ``Command(resume="v")`` with two interrupts pending
raises a ``RuntimeError`` pointing at the docs. The lab's page takes its input from a learner (a
fork editor, a resume button) and from the URL, so it checks first, with these functions. Each
returns the checked value or raises :class:`BadInputError`; none touches a thread.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from lab.checkpoint.errors import UnsavableValueError
from lab.checkpoint.serde import MsgpackSerializer
from lab.controller.messages import SaidError
from lab.controller.record_texts import problem_message

MAX_FORK_BYTES = 64 * 1024
"""The most a fork's values may take, serialized. A case's whole state is ~5 KB; a 30 MB state took
16 s to save and slowed every later page load."""

MAX_URL_THREAD_ID = 64
"""A thread id in a link: short enough to show, and to type."""
URL_THREAD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
"""Letters, digits and ``. _ : -`` (what the lab's own ids use), starting with a letter or digit."""

_SERDE = MsgpackSerializer()


class BadInputError(SaidError):
    """Input the lab refuses; the message says what is wrong and what would be accepted."""


def shown(text: str, limit: int = 40) -> str:
    """Untrusted text, quoted and cut short, for a message (the page shows messages as text)."""
    return repr(text[:limit] + "…" if len(text) > limit else text)


# -- forks: values checked against the state schema ------------------------------------------------


def _expected(hint: Any) -> tuple[type, ...]:
    """The Python types a state key annotated ``hint`` accepts (``Annotated`` reducers and
    ``X | None`` unwrapped; ``Any`` accepts everything: the empty tuple)."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return _expected(typing.get_args(hint)[0])
    if origin in (typing.Union, types.UnionType):
        return tuple(kind for arg in typing.get_args(hint) for kind in _expected(arg))
    if hint is Any:
        return ()
    if hint is None or hint is type(None):
        return (type(None),)
    kind = origin or hint
    return (kind,) if isinstance(kind, type) else ()


def _type_names(kinds: tuple[type, ...]) -> str:
    names = {
        "dict": "an object",
        "list": "a list",
        "str": "text",
        "int": "a whole number",
        "float": "a number",
    }
    return " or ".join(names.get(kind.__name__, kind.__name__) for kind in kinds)


def _fits(value: Any, kinds: tuple[type, ...]) -> bool:
    if not kinds:
        return True
    if isinstance(value, bool) and bool not in kinds:  # True is an int to Python, not to a learner
        return False
    return isinstance(value, kinds) or (float in kinds and isinstance(value, int))


def check_fork_values(values: Any, schema: type) -> dict[str, Any]:
    """``values`` if each key is a state key of ``schema`` (a ``TypedDict``) and each value has the
    type that key is annotated with (the outer type: an object, a list, text, a number), and all of
    it is small enough and savable. The message names the key and the type it expects."""
    if not isinstance(values, dict):
        raise BadInputError(
            "input.fork_not_object",
            "A fork needs an object of state keys and values, not {given}",
            given=type(values).__name__,
        )
    hints = typing.get_type_hints(schema, include_extras=True)
    unknown = sorted(str(key) for key in values if key not in hints)
    if unknown:
        raise BadInputError(
            "input.fork_unknown_keys",
            "Unknown state key(s) {unknown}; the state keys are: {keys}",
            unknown=str(unknown),
            keys=", ".join(hints),
        )
    for key, value in values.items():
        expected = _expected(hints[key])
        if not _fits(value, expected):
            raise BadInputError(
                "input.fork_wrong_type",
                "State key {key} holds {expected}; the fork gives it {given} {value}",
                key=repr(key),
                expected=_type_names(expected),
                given=type(value).__name__,
                value=shown(repr(value)),
            )
    check_fork_size(values)
    return values


def check_fork_size(values: Mapping[str, Any]) -> int:
    """The serialized size of ``values``, if at most :data:`MAX_FORK_BYTES` and savable at all."""
    try:
        size = len(_SERDE.dumps_typed(dict(values))[1])
    except UnsavableValueError as error:
        raise BadInputError(
            "input.fork_unsavable", "The fork cannot be saved: {problem}", problem=problem_message(error)
        ) from None
    if size > MAX_FORK_BYTES:
        raise BadInputError(
            "input.fork_too_big",
            "The fork's values take {size} KB; a fork may take at most {limit} KB (a whole case is "
            "about 5 KB)",
            size=f"{size / 1024:,.0f}",
            limit=MAX_FORK_BYTES // 1024,
        )
    return size


# -- the URL ---------------------------------------------------------------------------------------


def check_url_thread_id(thread_id: Any) -> str:
    """A thread id taken from a link: text of 1 to 64 letters, digits and ``. _ : -``."""
    if not isinstance(thread_id, str) or not thread_id:
        raise BadInputError("input.link_no_thread", "The link names no thread")
    if len(thread_id) > MAX_URL_THREAD_ID:
        raise BadInputError(
            "input.link_thread_too_long",
            "The link's thread id has {length} characters; a thread id has at most {limit} ({shown})",
            length=f"{len(thread_id):,}",
            limit=MAX_URL_THREAD_ID,
            shown=shown(thread_id),
        )
    if not URL_THREAD_ID.fullmatch(thread_id):
        raise BadInputError(
            "input.link_thread_chars",
            "The link's thread id {shown} may hold only letters, digits and . _ : - (starting with a "
            "letter or a digit)",
            shown=shown(thread_id),
        )
    return thread_id


def check_url_frame(frame: Any, frame_count: int) -> int:
    """A frame number from a link (``0`` is the first checkpoint) that the thread has."""
    text = str(frame)
    if not re.fullmatch(r"\d{1,6}", text):
        raise BadInputError(
            "input.link_frame_not_number",
            "The link's frame {shown} is not a frame number (0, 1, 2...)",
            shown=shown(text),
        )
    number = int(text)
    if number >= frame_count:
        if not frame_count:
            raise BadInputError(
                "input.link_frame_no_frames",
                "The link asks for frame {number}, but this thread has no frames yet",
                number=number,
            )
        raise BadInputError(
            "input.link_frame_out_of_range",
            "The link asks for frame {number}, but this thread has frames 0 to {last}",
            number=number,
            last=frame_count - 1,
        )
    return number


# -- answering interrupts ----------------------------------------------------------------------------


def check_resume(pending: Sequence[Any], answer: Any) -> Any:
    """``answer`` if it can answer the ``pending`` interrupts (objects with an ``id``): there must be
    at least one, and with several, ``answer`` must map each id it answers to its answer (as
    ``Command(resume={id: value})``), only ids that are pending."""
    if not pending:
        raise BadInputError(
            "input.resume_nothing_pending",
            "Nothing is waiting for an answer: no interrupt is pending on this thread",
        )
    ids = [interrupt.id for interrupt in pending]
    if len(pending) == 1:
        return answer
    if not isinstance(answer, dict) or not answer:
        raise BadInputError(
            "input.resume_needs_ids",
            "{count} questions are waiting (ids {ids}): answer with an object that maps each id you "
            "answer to its answer",
            count=len(pending),
            ids=", ".join(ids),
        )
    unknown = sorted(str(key) for key in answer if key not in ids)
    if unknown:
        raise BadInputError(
            "input.resume_unknown_ids",
            "No pending question has the id(s) {unknown}; the pending ids are {ids}",
            unknown=str(unknown),
            ids=str(ids),
        )
    return answer
