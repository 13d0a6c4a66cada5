"""The playground's Python side: a learner's own LangGraph program, loaded to run on ``lab``.

LangGraph runs a program the developer wrote; so does the playground (``/play``), in the browser:

- :mod:`lab.playground.langgraph_imports`: ``langgraph.*`` imports answered by ``lab`` while a program
  loads or runs (never otherwise: in CPython tests real LangGraph stays the oracle);
- :mod:`lab.playground.program`: load the program in a fresh module and find the graph it compiles;
- :mod:`lab.playground.problems`: what went wrong, at the program's line, in LangGraph's words.

The outside world a program may call (``charge``, ``send_email``) is :mod:`lab.world`; the programs
the page offers are site content, in the top-level ``gallery/`` (not shipped in the lab's wheel).
"""

from lab.playground.langgraph_imports import LAB_MODULES, NotInLabError, langgraph_resolves_to_lab
from lab.playground.problems import Problem, ProgramError
from lab.playground.program import MAX_PROGRAM_BYTES, Program, describe_run_error, load_program

__all__ = [
    "LAB_MODULES",
    "MAX_PROGRAM_BYTES",
    "NotInLabError",
    "Problem",
    "Program",
    "ProgramError",
    "describe_run_error",
    "langgraph_resolves_to_lab",
    "load_program",
]
