"""Print the corpus's table: each program, where it comes from, and whether lab prints what LangGraph prints.

    PYTHONPATH=$PWD python -m tests.real_programs.report [PROGRAM ...]

One row a program (all of them, or those named): ``same``, or where lab's output first differs and the
last line lab wrote to stderr; a program listed in ``tests/test_real_programs.py``'s ``DIFFERS`` that now
prints the same is flagged (its xfail mark is to go), and so is one that differs without being listed.
The last line is the corpus figure: N of M print what LangGraph prints.
"""

import sys

from tests.real_programs import PROGRAMS_DIR, program_names
from tests.real_programs.harness import Outcome, compare
from tests.test_real_programs import DIFFERS

SOURCE_PREFIX = "# Source: "


def source_of(name: str) -> str:
    """The program's header line that names its source, without the comment marker."""
    for line in (PROGRAMS_DIR / f"{name}.py").read_text(encoding="utf-8").splitlines():
        if line.startswith(SOURCE_PREFIX):
            return line.removeprefix(SOURCE_PREFIX).split(",")[1].split(" (")[0].strip()
    return "?"


def row(outcome: Outcome) -> str:
    """One line of the table for ``outcome``."""
    listed = outcome.program in DIFFERS
    if outcome.same:
        verdict = "same" + ("  [listed in DIFFERS: remove its xfail mark]" if listed else "")
    else:
        verdict = "DIFFERS " + outcome.explain() + ("" if listed else "  [not listed in DIFFERS]")
    if outcome.langgraph.returncode:
        verdict += f"  [fails on LangGraph itself: {outcome.langgraph.error_line()}]"
    return f"| {outcome.program} | {source_of(outcome.program)} | {verdict} |"


def main(names: list[str]) -> int:
    print("| program | source | on lab, loaded as /play loads it |")
    print("| --- | --- | --- |")
    same = 0
    for name in names:
        outcome = compare(name)
        same += outcome.same
        print(row(outcome), flush=True)
    print(f"\n{same} of {len(names)} print what LangGraph prints.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or program_names()))
