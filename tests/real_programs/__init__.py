"""A corpus of real LangGraph programs we did not write, each run on real LangGraph and on lab.

Each ``*.py`` file of ``programs/`` is a program from LangGraph's docs, LangChain Academy or LangGraph's
examples, as a learner would paste it into the playground: its LLM calls replaced by fixed replies
(LangChain's fake chat models), the source and every change named in its header.
:mod:`tests.real_programs.harness` runs a program with ``python`` on real LangGraph and, by the
browser's rules, on lab as ``/play`` loads it, and compares what the two print;
``tests/test_real_programs.py`` asserts it for every program and ``python -m tests.real_programs.report``
prints the table.
"""

from pathlib import Path

__all__ = ["PROGRAMS_DIR", "program_names"]

PROGRAMS_DIR = Path(__file__).parent / "programs"
"""Where the programs are (outside ``ruff``'s checks: they are kept as their authors wrote them)."""


def program_names() -> list[str]:
    """The corpus's programs, by file stem, sorted."""
    return sorted(path.stem for path in PROGRAMS_DIR.glob("*.py"))
