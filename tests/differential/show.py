"""Print a scenario's normalised trace, to debug ``lab`` against LangGraph.

python -m tests.differential.show                     # list scenarios
python -m tests.differential.show linear              # LangGraph's trace
python -m tests.differential.show linear lab          # lab's trace
python -m tests.differential.show linear diff         # unified diff LangGraph -> lab
python -m tests.differential.show all diff            # first differing line of every scenario
python -m tests.differential.show all langgraph --json  # {scenario: [lines]} as JSON
"""

from __future__ import annotations

import difflib
import json
import sys

from .flavours import FLAVOURS, load_flavour
from .scenarios import SCENARIOS, ScenarioError, run_scenario
from .trace import render


def trace_lines(name: str, flavour: str) -> list[str]:
    return render(run_scenario(name, load_flavour(flavour)))


def first_difference(expected: list[str], actual: list[str], context: int = 3) -> str | None:
    """``None`` if equal, else where the traces first differ: the enclosing keys (e.g. the
    history row) and a few lines of each side from there."""
    i = next((i for i, (e, a) in enumerate(zip(expected, actual, strict=False)) if e != a), None)
    if i is None:
        if len(expected) == len(actual):
            return None
        i = min(len(expected), len(actual))
    where = " > ".join(_enclosing(expected if i < len(expected) else actual, i)) or "top"

    def show(lines: list[str]) -> str:
        return "\n".join(f"    {line}" for line in lines[i : i + context]) or "    <end>"

    return f"line {i + 1} (in {where}):\n  langgraph:\n{show(expected)}\n  lab:\n{show(actual)}"


def _enclosing(lines: list[str], i: int) -> list[str]:
    """The lines above ``lines[i]`` with less indentation: its keys, outermost first; a list item
    is named by its first line (e.g. ``checkpoint: "C3"``)."""
    path, indent = [], len(lines[i]) - len(lines[i].lstrip())
    for j in range(i - 1, -1, -1):
        ind = len(lines[j]) - len(lines[j].lstrip())
        if ind < indent:
            path.append((lines[j + 1] if lines[j].strip() == "-" else lines[j]).strip()[:60])
            indent = ind
    return path[::-1]


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    argv = [a for a in argv if a != "--json"]
    if not argv:
        print("\n".join(SCENARIOS))
        return 0
    name, mode = argv[0], (argv[1] if len(argv) > 1 else "langgraph")
    names = list(SCENARIOS) if name == "all" else [name]
    if mode in FLAVOURS and as_json:
        print(json.dumps({n: trace_lines(n, mode) for n in names}))
        return 0
    if mode in FLAVOURS:
        for n in names:
            print(f"=== {n} [{mode}]", *trace_lines(n, mode), sep="\n")
        return 0
    if mode != "diff":
        print(f"unknown mode {mode!r}: use {', '.join(FLAVOURS)} or diff", file=sys.stderr)
        return 2
    differing = 0
    for n in names:
        expected, actual = trace_lines(n, "langgraph"), trace_lines(n, "lab")
        if name == "all":
            diff = first_difference(expected, actual)
            print(f"{'OK  ' if diff is None else 'DIFF'} {n}" + (f"  {diff}" if diff else ""))
        else:
            diff = "\n".join(difflib.unified_diff(expected, actual, "langgraph", "lab", lineterm="", n=3))
            print(diff or f"{n}: identical")
        differing += diff is not None and diff != ""
    return 1 if differing else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ScenarioError as exc:
        sys.exit(f"scenario error: {exc}")
