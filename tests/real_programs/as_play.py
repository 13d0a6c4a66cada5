"""Run a LangGraph program's whole script on lab as ``/play`` loads it:
``python -m tests.real_programs.as_play PROGRAM.py``, in a Python that has only what the browser has
(see :func:`tests.real_programs.harness.run_on_lab`).

``/play`` loads a program with :func:`lab.playground.load_program`: its top level up to the first line
that drives one of its graphs runs in a fresh module with ``langgraph`` (and, where it is not installed,
``langchain_core``) answered by lab, and the graph is found. The page then drives that graph with its own
Run and skips the program's script part (lab's sync API cannot run inside the worker's event loop). This
harness does what the page does not yet: after loading, it runs the skipped lines too, in the same module
and under the same import rules, so that the whole program prints what it prints under ``python`` (the
module is named as in the page, so an ``if __name__ == "__main__":`` block would not run: no program of
the corpus has one). A
:class:`~lab.playground.ProgramError` is reported as the page reports it (its problem, on stderr) and
exits 1, as an uncaught exception exits ``python``. A program that builds no graph loads as plain
Python, as on the page: what its top level printed is its output.
"""

import ast
import sys
import traceback
from pathlib import Path

from lab.playground import ProgramError, load_program
from lab.playground.langgraph_imports import langgraph_resolves_to_lab
from lab.playground.problems import PROGRAM_FILE
from lab.playground.program import future_flags


def run_whole_program(source: str) -> None:
    """Load ``source`` as ``/play`` does, then run the script part ``/play`` skips, in its module."""
    program = load_program(source, graphless=True)  # as /play loads it: a graphless program is plain Python
    sys.stdout.write(program.printed)  # what its top level printed while it loaded: the output pane's start
    if program.start is None:
        return
    tree = ast.parse(source, PROGRAM_FILE)
    rest = ast.Module(tree.body[program.start :], type_ignores=[])
    rest = compile(rest, PROGRAM_FILE, "exec", flags=future_flags(tree), dont_inherit=True)
    with langgraph_resolves_to_lab():
        exec(rest, vars(program.module))


def main() -> int:
    source = Path(sys.argv[1]).read_text(encoding="utf-8")
    try:
        run_whole_program(source)
    except ProgramError as error:
        sys.stdout.flush()
        print(f"ProgramError ({error.problem.kind}): {error.problem.text}", file=sys.stderr)
        return 1
    except Exception:
        sys.stdout.flush()
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
