"""Run a program of the corpus on real LangGraph and on lab as ``/play`` loads it; compare what each prints.

- :func:`run_on_langgraph`: ``python PROGRAM.py``, on this Python with real LangGraph and LangChain
  installed: the oracle, as a learner runs the program in a terminal.
- :func:`run_on_lab`: :mod:`tests.real_programs.as_play` in a Python that has only what the browser has:
  ``python -S`` (no site-packages) with nothing on its path but this repository (``lab``) and the
  packages the site serves (:data:`BROWSER_PACKAGES`, and :data:`SERVED_ON_IMPORT`'s for a program that
  imports one the lab says it serves). So ``langgraph`` and ``langchain_core`` are not importable there,
  and ``lab.playground`` answers them as it does in the browser.

What a run prints to stdout is compared line by line after :func:`normalize`, which replaces what
differs from run to run even on LangGraph itself (uuids, 32-digit hex ids, timestamps, memory addresses)
by its order of first appearance: the same id printed twice stays the same placeholder. LangGraph runs a
step's parallel nodes in threads, so two ``print`` calls of parallel nodes can come out in either order
(or even interleaved: ``print`` writes the text and the newline apart): where lab's output differs only
so (the same characters in other lines, alike exits), LangGraph runs the program again, up to
:data:`LANGGRAPH_RUNS` times, and lab passes if it printed what any of those runs printed.

Each run is a process of its own, forked (``tests/forked_python.py``) from a server that has imported what
every program imports anyway: ``langgraph.pregel`` (under both of LangGraph's APIs; it brings
``langchain_core``) on LangGraph, ``lab.playground`` (which the page's worker has imported before it loads
any program) on lab; so the imports, most of a run's time, are paid once per session, not once per run.
A LangGraph run still takes longer than a lab run, so the first run of each
program is kept in ``.cache/real-programs/``, named by the hash of the program's text and the versions of
Python, LangGraph and LangChain that ran it (every program was found to print the same, normalized, run
after run); the reruns above are always fresh, and ``REAL_PROGRAMS_FRESH=1`` makes every run fresh.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import importlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from tests.forked_python import ForkedPython
from tests.real_programs import PROGRAMS_DIR

__all__ = [
    "BROWSER_PACKAGES",
    "Outcome",
    "Run",
    "browser_python",
    "compare",
    "normalize",
    "run_on_lab",
    "run_on_langgraph",
    "run_on_langgraph_once",
]

REPO = PROGRAMS_DIR.parents[2]
BROWSER_PACKAGES = ("msgpack",)
"""The packages besides ``lab`` that the site serves to Pyodide (``build.py``'s boot wheels). Add a
package here the day the site serves it (``pydantic`` and ``pydantic_core``, say)."""
SERVED_ON_IMPORT: dict[str, tuple[str, ...]] = {
    "pydantic": ("pydantic", "pydantic_core", "typing_extensions", "annotated_types", "typing_inspection"),
}
"""What the site loads when a program imports a package it serves on import (the wheels ``build.py``
pins for it), used where the lab under test serves that package (``lab.browser.packages``)."""
LANGGRAPH_RUNS = 3
"""How many times LangGraph runs a program whose output lab's does not match (see the docstring)."""
CACHE_DIR = REPO / ".cache" / "real-programs"
"""Where LangGraph's first run of each program is kept (see the module's docstring)."""
TIMEOUT_S = 600
"""A guard against a program that never ends, far above any program's time: not a speed check."""

_VARYING = re.compile(
    r"(?P<uuid>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
    r"|(?P<hex>\b[0-9a-f]{32}\b)"
    r"|(?P<time>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:\d{2}|Z)?)"
    r"|(?P<address>\b0x[0-9a-f]{6,}\b)"
)


@dataclass(frozen=True)
class Run:
    """What one run of a program did: its exit code and what it wrote."""

    returncode: int
    stdout: str
    stderr: str

    def error_line(self) -> str:
        """The last line of stderr (an uncaught exception's, before the note LangGraph adds naming the
        task), or ``""`` if the run exited 0."""
        lines = [line for line in self.stderr.strip().splitlines() if not line.startswith("During task with")]
        return lines[-1] if self.returncode and lines else ""


@dataclass(frozen=True)
class Outcome:
    """The two runs of one program and where their output first differs (``None``: nowhere)."""

    program: str
    langgraph: Run
    lab: Run

    @functools.cached_property
    def first_difference(self) -> tuple[int, str, str] | None:
        """``(line number, LangGraph's line, lab's line)`` of the first line that differs after
        :func:`normalize` (``"<end>"`` past a side's last line); also the exit codes' success."""
        theirs, ours = normalize(self.langgraph.stdout), normalize(self.lab.stdout)
        for number, (line_theirs, line_ours) in enumerate(zip(theirs, ours, strict=False), start=1):
            if line_theirs != line_ours:
                return number, line_theirs, line_ours
        if len(theirs) != len(ours):
            number = min(len(theirs), len(ours)) + 1
            return number, _line(theirs, number), _line(ours, number)
        if (self.langgraph.returncode == 0) != (self.lab.returncode == 0):
            return len(theirs) + 1, f"exit {self.langgraph.returncode}", f"exit {self.lab.returncode}"
        return None

    @property
    def could_be_a_race(self) -> bool:
        """Whether the difference could be parallel nodes' prints in another order: both runs exited
        alike and printed the same characters, newlines aside (an interleaved pair of ``print`` calls
        moves a newline, a reordered pair moves lines)."""
        theirs, ours = self.langgraph, self.lab
        same_exit = (theirs.returncode == 0) == (ours.returncode == 0)
        return same_exit and Counter("".join(normalize(theirs.stdout))) == Counter(
            "".join(normalize(ours.stdout))
        )

    @property
    def same(self) -> bool:
        return self.first_difference is None

    def explain(self) -> str:
        """Where the two differ, and lab's error if it raised."""
        if self.first_difference is None:
            return "prints what LangGraph prints"
        number, theirs, ours = self.first_difference
        text = f"line {number}: LangGraph {theirs!r}, lab {ours!r}"
        if error := self.lab.error_line():
            text += f"; lab raised {error}"
        return text


def _line(lines: list[str], number: int) -> str:
    return lines[number - 1] if number <= len(lines) else "<end>"


def normalize(output: str) -> list[str]:
    """``output``'s lines with run-to-run values replaced by ``<uuid1>``, ``<hex1>``, ``<time>``, ...:
    each distinct value by its kind and order of first appearance (times all alike)."""
    seen: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        kind = match.lastgroup or ""
        if kind == "time":
            return "<time>"
        if match.group() not in seen:
            count = sum(1 for name in seen.values() if name.startswith(f"<{kind}"))
            seen[match.group()] = f"<{kind}{count + 1}>"
        return seen[match.group()]

    return [_VARYING.sub(placeholder, line) for line in output.splitlines()]


def _run(command: list[str], env: dict[str, str], cwd: Path) -> Run:
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=TIMEOUT_S)
    return Run(done.returncode, done.stdout, done.stderr)


@functools.cache
def _server(flags: tuple[str, ...], preload: str, path: tuple[str, ...] = ()) -> ForkedPython:
    """The server whose forks run programs under ``python FLAGS`` with ``path`` as ``PYTHONPATH``."""
    env = _base_env() | ({"PYTHONPATH": os.pathsep.join(path)} if path else {})
    return ForkedPython(list(flags), [preload], env, _scratch())


def _forked(server: ForkedPython, argv: list[str], module: bool = False) -> Run:
    ran = server.run(argv, module=module)
    return Run(ran.returncode, ran.stdout, ran.stderr)


def _base_env() -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")
    return {name: os.environ[name] for name in keep if name in os.environ} | {
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
        "LANGCHAIN_TRACING_V2": "false",
        "LANGSMITH_TRACING": "false",
    }


@functools.cache
def _scratch() -> Path:
    """An empty directory for runs' working directory (a program's relative files land there)."""
    path = Path(tempfile.mkdtemp(prefix="real-programs-"))
    atexit.register(shutil.rmtree, path, True)
    return path


@functools.cache
def browser_site(on_import: tuple[str, ...]) -> Path:
    """A directory holding (links to) exactly the modules of :data:`BROWSER_PACKAGES` and ``on_import``."""
    site = _scratch() / "-".join(("browser-site", *on_import))
    site.mkdir()
    for module in (*BROWSER_PACKAGES, *on_import):
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin, f"{module} is not installed here"
        origin = Path(spec.origin)
        if spec.submodule_search_locations:
            (site / module).symlink_to(origin.parent, target_is_directory=True)
        else:
            (site / origin.name).symlink_to(origin)
    return site


def served_on_import(source: str) -> tuple[str, ...]:
    """The modules the site loads for ``source`` on import (none where the lab serves no package so)."""
    try:
        packages = importlib.import_module("lab.browser.packages")
    except ModuleNotFoundError:
        return ()
    return tuple(module for name in packages.imported_packages(source) for module in SERVED_ON_IMPORT[name])


def run_on_langgraph(program: Path) -> Run:
    """``python PROGRAM.py`` with real LangGraph (this Python's site-packages)."""
    return _forked(_server((), "langgraph.pregel"), [str(program)])


def _cache_key(program: Path) -> str:
    versions = [sys.version] + [importlib.metadata.version(name) for name in ("langgraph", "langchain-core")]
    return hashlib.sha256("\n".join([*versions, program.read_text(encoding="utf-8")]).encode()).hexdigest()


def run_on_langgraph_once(program: Path) -> Run:
    """:func:`run_on_langgraph`, or what it printed the last time for this program text and these versions."""
    kept = CACHE_DIR / f"{_cache_key(program)}.json"
    if kept.exists() and not os.environ.get("REAL_PROGRAMS_FRESH"):
        return Run(**json.loads(kept.read_text(encoding="utf-8")))
    run = run_on_langgraph(program)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(vars(run)), encoding="utf-8")
    partial.replace(kept)
    return run


def run_on_lab(program: Path) -> Run:
    """The program's whole script on lab, loaded as ``/play`` loads it, with only the browser's packages."""
    site = browser_site(served_on_import(program.read_text(encoding="utf-8")))
    server = _server(("-S",), "lab.playground", (str(REPO), str(site)))
    return _forked(server, ["tests.real_programs.as_play", str(program)], module=True)


def browser_python(code: str) -> Run:
    """``code`` run by the Python :func:`run_on_lab` uses (to check what it can import)."""
    env = _base_env() | {"PYTHONPATH": os.pathsep.join([str(REPO), str(browser_site(()))])}
    return _run([sys.executable, "-S", "-c", code], env, _scratch())


def compare(name: str) -> Outcome:
    """Run the corpus program ``name`` on lab and on LangGraph (its kept first run, then fresh runs up
    to :data:`LANGGRAPH_RUNS` in all while their outputs differ as a race would); the outcome holds the
    first LangGraph run lab matched, else the first."""
    program = PROGRAMS_DIR / f"{name}.py"
    lab = run_on_lab(program)
    first = Outcome(name, run_on_langgraph_once(program), lab)
    for _ in range(LANGGRAPH_RUNS - 1):
        if first.same or not first.could_be_a_race:
            break
        if (again := Outcome(name, run_on_langgraph(program), lab)).same:
            return again
    return first
