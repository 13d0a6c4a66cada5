"""The corpus of real programs (``tests/real_programs/programs``): each prints on lab, loaded as ``/play``
loads it and by the browser's rules, what it prints on real LangGraph (``python PROGRAM.py``).

A program lab does not print the same for yet is listed in :data:`DIFFERS` with the first line that
differs and why: its test is an ``xfail(strict=True)``, so it fails the day the program starts
passing, and its mark is removed then. ``python -m tests.real_programs.report`` prints the table.

Run: ``PYTHONPATH=$PWD pytest -q tests/test_real_programs.py`` (about 25 s once LangGraph's runs are kept
in ``.cache/real-programs``; a first run, or ``REAL_PROGRAMS_FRESH=1``, runs LangGraph for each program).
"""

import importlib.util

import pytest

from tests.real_programs import program_names
from tests.real_programs.harness import (
    SERVED_ON_IMPORT,
    Outcome,
    Run,
    browser_python,
    compare,
    normalize,
    served_on_import,
)

DIFFERS: dict[str, str] = {
    "academy_m3_streaming_interruption": "line 34: astream_events() is refused by lab",
}
"""Program -> why lab does not print what LangGraph prints (the first line that differs, and its cause)."""


class BrokenOnLangGraphError(Exception):
    """The program fails on LangGraph itself: the corpus needs fixing, not lab (never an expected failure)."""


def _case(name: str) -> object:
    if name not in DIFFERS:
        return pytest.param(name, id=name)
    return pytest.param(
        name, id=name, marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=DIFFERS[name])
    )


@pytest.mark.parametrize("name", [_case(name) for name in program_names()])
def test_the_program_prints_on_lab_what_it_prints_on_langgraph(name: str) -> None:
    outcome = compare(name)
    if outcome.langgraph.returncode != 0:
        raise BrokenOnLangGraphError(outcome.langgraph.stderr[-3000:])
    assert outcome.same, f"{outcome.explain()}\n{outcome.lab.stderr[-3000:]}"


def test_every_listed_difference_names_a_program_of_the_corpus() -> None:
    assert set(DIFFERS) <= set(program_names())


def test_the_corpus_has_programs() -> None:
    assert len(program_names()) >= 30


def test_the_lab_side_runs_where_only_the_browsers_packages_are() -> None:
    """What the browser lacks is not importable by the Python the lab side runs in; lab and msgpack are."""
    code = (
        "import importlib.util as u\n"
        "print([u.find_spec(m) is None for m in ('langgraph', 'langchain_core', 'pydantic', "
        "'typing_extensions', 'langsmith')], u.find_spec('lab') is None, u.find_spec('msgpack') is None)"
    )
    run = browser_python(code)
    assert (run.returncode, run.stdout) == (0, "[True, True, True, True, True] False False\n"), run.stderr


def test_a_program_importing_pydantic_gets_what_the_site_serves_for_it_if_it_serves_it() -> None:
    served = served_on_import("from pydantic import BaseModel\n")
    serves = importlib.util.find_spec("lab.browser.packages") is not None
    assert served == (SERVED_ON_IMPORT["pydantic"] if serves else ())
    assert served_on_import("import json\n") == ()


def test_normalize_keeps_each_id_apart_and_the_same_id_the_same() -> None:
    first, second = "1f0e8a4c-1d2b-6c3e-8001-0a1b2c3d4e5f", "0c62ca34-ac19-445d-bbb0-5b4984975b2a"
    text = f"{first} {second}\n{first} 2024-10-02T17:22:31.590602+00:00 id={'ab' * 16} at 0x7f3a2b1c9d80"
    assert normalize(text) == ["<uuid1> <uuid2>", "<uuid1> <time> id=<hex1> at <address1>"]


def test_outputs_that_differ_only_in_ids_are_the_same_and_any_other_difference_is_found() -> None:
    ran = Run(0, "a 0c62ca34-ac19-445d-bbb0-5b4984975b2a\nb\n", "")
    assert Outcome("p", ran, Run(0, "a 1f0e8a4c-1d2b-6c3e-8001-0a1b2c3d4e5f\nb\n", "")).same
    lab_run = Run(1, "a 1f0e8a4c-1d2b-6c3e-8001-0a1b2c3d4e5f\n", "Traceback\nImportError: x")
    differs = Outcome("p", ran, lab_run)
    assert differs.first_difference == (2, "b", "<end>")
    assert differs.explain() == "line 2: LangGraph 'b', lab '<end>'; lab raised ImportError: x"
    assert Outcome("p", ran, Run(1, ran.stdout, "")).first_difference == (3, "exit 0", "exit 1")
    noted = Run(1, "", "Traceback\nAttributeError: x\nDuring task with name 'n' and id '1'\n")
    assert noted.error_line() == "AttributeError: x"


def test_langgraph_runs_again_only_where_parallel_prints_could_explain_the_difference() -> None:
    """LangGraph's parallel nodes print in either order, even interleaved (``print`` writes the newline
    apart): such a difference is rerun; one that changes what is printed is not."""
    langgraph = Run(0, "A\nB\nC\n", "")
    assert Outcome("p", langgraph, Run(0, "B\nA\nC\n", "")).could_be_a_race
    assert Outcome("p", langgraph, Run(0, "AB\n\nC\n", "")).could_be_a_race
    assert not Outcome("p", langgraph, Run(0, "A\nB\nD\n", "")).could_be_a_race
    assert not Outcome("p", langgraph, Run(1, "B\nA\nC\n", "")).could_be_a_race
