"""Plant one of issue 12's six resume bugs in a scratch copy and show which tests catch it.

Usage (from the repository root): ``python tests/plant_bugs.py N`` copies the repository to
``/tmp/plant12-N``, plants bug N there (never here), runs the tests that must catch it, and prints
pytest's summary of what failed. ``--list`` prints the plants; ``--no-run`` only plants.
A plant whose text is no longer in the code stops with a clear message: the recipe went stale.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPYTHON_TESTS = (
    "tests/test_crash_points.py",
    "tests/test_runtime.py",
    "tests/test_controller.py",
    "tests/test_view.py",
    "tests/differential",
)
BROWSER_TESTS = (
    "tests/browser/test_lab_ui.py::test_crash_inside_screen_sanctions_restores_fetch_and_reruns_screen",
    "tests/browser/test_lab_ui.py::test_crash_between_a_side_effect_and_its_saved_writes_reruns_the_node",
)


@dataclass(frozen=True)
class Plant:
    title: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...] = CPYTHON_TESTS


PLANTS = {
    1: Plant(
        "a resumed task re-runs instead of being restored",
        "lab/pregel/loop.py",
        "if not self.replaying:  # finished before the crash/interrupt: reuse",
        "if False:  # finished before the crash/interrupt: reuse",
    ),
    2: Plant(
        "a finished sibling's writes are not persisted",
        "lab/pregel/loop.py",
        '        if self.saver and self.durability != "exit":\n            await self.persist_writes(',
        "        sibling_running = any(not t.writes for t in self.tasks.values() if t is not task)\n"
        '        if self.saver and self.durability != "exit" and not (task and sibling_running):\n'
        "            await self.persist_writes(",
    ),
    3: Plant(
        "restore only when __error__ / __interrupt__ is present",
        "lab/pregel/loop.py",
        "if not self.replaying:  # finished before the crash/interrupt: reuse",
        "if not self.replaying and any(w[1] in (ERROR, INTERRUPT) for w in self.pending):",
    ),
    4: Plant(
        "checkpoint_ns dropped from the snapshot config",
        "lab/pregel/graph.py",
        "            config=subgraph.with_checkpoint_map(saved.config, saved.metadata),",
        "            config=subgraph.with_checkpoint_map(\n"
        '                {"configurable": {k: v for k, v in saved.config["configurable"].items()'
        ' if k != "checkpoint_ns"}},\n'
        "                saved.metadata,\n"
        "            ),",
    ),
    5: Plant(
        "next returned as a list instead of a tuple",
        "lab/pregel/graph.py",
        "next=tuple(t.name for t in tasks.values() if not t.writes),",
        "next=[t.name for t in tasks.values() if not t.writes],",
    ),
    6: Plant(
        'the visible "restored" / "re-run" labels of the executions table swapped',
        "static/views/executions.mjs",
        "text: t(`exec.${verdict}`)",
        'text: t(`exec.${verdict === "restored" ? "rerun" : "restored"}`)',
        BROWSER_TESTS,
    ),
}


class StaleRecipe(Exception):
    """The text a plant replaces is not in the code (exactly once) any more."""


def plant(number: int, copy: Path) -> None:
    spec = PLANTS[number]
    target = copy / spec.path
    text = target.read_text(encoding="utf-8")
    if text.count(spec.old) != 1:
        raise StaleRecipe(
            f"plant {number}: {spec.path} holds {spec.old!r} {text.count(spec.old)} times, not once"
        )
    target.write_text(text.replace(spec.old, spec.new), encoding="utf-8")


def scratch_copy(number: int) -> Path:
    copy = Path(f"/tmp/plant12-{number}")
    shutil.rmtree(copy, ignore_errors=True)
    ignore = shutil.ignore_patterns(".git", "dist", "__pycache__", ".pytest_cache", ".ruff_cache")
    shutil.copytree(ROOT, copy, symlinks=True, ignore=ignore)
    return copy


def run_tests(copy: Path, tests: tuple[str, ...]) -> int:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", "--no-header", *tests]
    return subprocess.run(command, cwd=copy, env=env, check=False).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("number", type=int, nargs="?", choices=sorted(PLANTS))
    parser.add_argument("--list", action="store_true", help="print the plants and stop")
    parser.add_argument("--no-run", action="store_true", help="plant only, run no tests")
    args = parser.parse_args()
    if args.list or args.number is None:
        for number, spec in PLANTS.items():
            print(f"{number}. {spec.title} ({spec.path})")
        return 0
    copy = scratch_copy(args.number)
    try:
        plant(args.number, copy)
    except StaleRecipe as stale:
        print(stale, file=sys.stderr)
        return 2
    print(f"planted {args.number} ({PLANTS[args.number].title}) in {copy}")
    return 0 if args.no_run else run_tests(copy, PLANTS[args.number].tests)


if __name__ == "__main__":
    sys.exit(main())
