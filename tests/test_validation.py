"""Bad input from the page (issue 10, item 6): each refused with a message naming what is wrong."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

import pytest

from lab.aml import CaseState, get_case
from lab.controller.validation import (
    MAX_FORK_BYTES,
    BadInputError,
    check_fork_size,
    check_fork_values,
    check_resume,
    check_url_frame,
    check_url_thread_id,
)
from lab.types import Interrupt


def test_a_fork_of_the_right_types_passes() -> None:
    case = get_case("S-1001")
    values = {"customer": case["customer"], "risk": 40, "findings": ["edited"], "alert": "x"}
    assert check_fork_values(values, CaseState) == values


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ({"customer": "not an object"}, "State key 'customer' holds an object; the fork gives it str"),
        ({"risk": "high"}, "State key 'risk' holds a whole number; the fork gives it str"),
        ({"risk": True}, "State key 'risk' holds a whole number; the fork gives it bool"),
        ({"findings": {"a": 1}}, "State key 'findings' holds a list; the fork gives it dict"),
        ({"charges": 5}, "State key 'charges' holds a list"),  # Annotated reducer key
        ({"alert": None}, "State key 'alert' holds text; the fork gives it NoneType"),
        ({"colour": "red"}, "Unknown state key(s) ['colour']; the state keys are: case_id, customer"),
        (["customer"], "A fork needs an object of state keys and values, not list"),
    ],
)
def test_a_fork_of_the_wrong_type_names_the_key_and_the_type(values: Any, says: str) -> None:
    with pytest.raises(BadInputError) as refused:
        check_fork_values(values, CaseState)
    assert says in str(refused.value)


def test_optional_float_and_any_keys() -> None:
    class State(TypedDict):
        score: float
        note: str | None
        blob: Any
        log: Annotated[list[str], "not a reducer"]

    assert check_fork_values({"score": 1, "note": None, "blob": {1, 2}, "log": []}, State)
    with pytest.raises(BadInputError, match="'note' holds text or NoneType"):
        check_fork_values({"note": 3}, State)


def test_a_huge_fork_is_refused_before_it_is_saved() -> None:
    big = {"findings": ["x" * 1000] * 100}
    with pytest.raises(BadInputError, match=f"may take at most {MAX_FORK_BYTES // 1024} KB"):
        check_fork_values(big, CaseState)
    assert check_fork_size({"findings": ["x"]}) < 100


def test_a_fork_that_could_not_be_loaded_back_is_refused() -> None:
    deep: Any = []
    for _ in range(60):
        deep = [deep]
    with pytest.raises(BadInputError, match="The fork cannot be saved: it nests containers more than 50"):
        check_fork_values({"findings": deep}, CaseState)


@pytest.mark.parametrize("thread_id", ["lab-3f2a9c", "t1", "S-1001:review.2", "a_b"])
def test_url_thread_ids_that_pass(thread_id: str) -> None:
    assert check_url_thread_id(thread_id) == thread_id


@pytest.mark.parametrize(
    ("thread_id", "says"),
    [
        ("x" * 20_000, "has 20,000 characters; a thread id has at most 64"),
        ("<img src=x onerror=alert(1)>", "may hold only letters, digits"),
        ("-leading", "starting with a letter or a digit"),
        ("a b", "may hold only"),
        ("", "names no thread"),
        (None, "names no thread"),
    ],
)
def test_url_thread_ids_that_are_refused(thread_id: Any, says: str) -> None:
    with pytest.raises(BadInputError) as refused:
        check_url_thread_id(thread_id)
    message = str(refused.value)
    assert says in message
    assert len(message) < 200  # a 20,000-character id is never echoed whole


@pytest.mark.parametrize(
    ("frame", "count", "says"),
    [
        ("-1", 5, "'-1' is not a frame number"),
        ("two", 5, "'two' is not a frame number"),
        ("7", 5, "asks for frame 7, but this thread has frames 0 to 4"),
        ("0", 0, "this thread has no frames yet"),
        ("99999999999", 5, "is not a frame number"),
    ],
)
def test_url_frames_out_of_range_are_explained(frame: str, count: int, says: str) -> None:
    with pytest.raises(BadInputError, match=f".*{says}.*".replace("(", r"\(").replace(")", r"\)")):
        check_url_frame(frame, count)


def test_url_frames_in_range_pass() -> None:
    assert check_url_frame("0", 1) == 0 and check_url_frame(4, 5) == 4


ASK = Interrupt({"question": "File a SAR?"}, "a" * 32)
ASK_TOO = Interrupt({"question": "And the export?"}, "b" * 32)


def test_resume_with_nothing_pending_is_refused() -> None:
    with pytest.raises(BadInputError, match="Nothing is waiting for an answer"):
        check_resume([], {"approved": True})


def test_one_pending_interrupt_takes_any_answer() -> None:
    assert check_resume([ASK], {"approved": True}) == {"approved": True}


def test_several_interrupts_need_an_id_map() -> None:
    with pytest.raises(BadInputError, match=f"2 questions are waiting \\(ids {'a' * 32}, {'b' * 32}\\)"):
        check_resume([ASK, ASK_TOO], "yes")
    with pytest.raises(BadInputError, match=r"No pending question has the id\(s\) \['approved'\]"):
        check_resume([ASK, ASK_TOO], {"approved": True})
    answers = {ASK.id: {"approved": True}}
    assert check_resume([ASK, ASK_TOO], answers) == answers
