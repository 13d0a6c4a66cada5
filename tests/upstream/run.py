"""Run LangGraph's own tests against ``lab`` and count what passes (a tool run by hand, not by CI).

    python -m tests.upstream.run SOURCE [--report FILE] [--files F ...] [--timeout S] [-- PYTEST_ARG ...]

``SOURCE`` is where LangGraph's tests are: a checkout or a bare git directory of its repository
(``libs/langgraph/tests`` at ``--rev``, default ``HEAD``), an sdist (``langgraph-1.2.24.tar.gz``, which
holds the tests of exactly that release), or a ``tests`` directory. Nothing of them is copied into this
repository: they are copied to a temporary directory, their ``conftest.py`` is replaced by an empty one
(its fixtures, in-memory only, come from ``lab_upstream_plugin``), and pytest runs there in a process of
its own, under the import shim (``lab_shim``), with plugin autoloading off and only the plugins below,
installed once with ``pip --target`` into ``.cache/upstream-plugins`` (never into the project).

Each test function is placed in or out of the honest ceiling by ``selection.py``; the summary counts
pytest items (one per parametrisation), and the report lists every failure of the ceiling by cause.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tests.upstream.selection import Selector, Verdict

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PLUGIN_DIR = REPO / ".cache" / "upstream-plugins"
PLUGINS = {"pytest-mock": "3.16.0", "syrupy": "6.1.1", "pytest-timeout": "2.4.0"}
"""Pure-Python pytest plugins LangGraph's tests need (the first two at the versions its ``uv.lock`` pins)."""
PYTEST_PLUGINS = ["anyio.pytest_plugin", "pytest_mock", "syrupy", "pytest_timeout", "lab_upstream_plugin"]
"""In this order: the last registered wins a fixture's name, and LangGraph's ``anyio_backend`` (ours) is
``asyncio`` only, where anyio's own would add ``trio``."""

FOCUS_FILES = [
    "test_subgraph_persistence.py",
    "test_subgraph_persistence_async.py",
    "test_messages_state.py",
    "test_pydantic.py",
    "test_state.py",
    "test_time_travel.py",
    "test_time_travel_async.py",
    "test_parent_command.py",
    "test_parent_command_async.py",
    "test_interruption.py",
]
"""Files of subgraphs, ``MessagesState``, Pydantic state, routers and ``update_state`` (issue 23): all
their tests are in the focus."""

GENERAL_FILES = ["test_pregel.py", "test_pregel_async.py"]
"""LangGraph's two general files: only the tests whose name matches :data:`FOCUS_NAMES` are in the focus;
the others (the functional API, caches, stores, retries, the low-level ``Pregel`` builder ...) run too
and are counted apart."""

FOCUS_NAMES = re.compile(
    r"subgraph|nested|parent|message|pydantic|cond|branch|router|send|update_state|update_as|bulk|fork|replay"
)
"""A general file's test is in the focus when its name says subgraphs (``subgraph``, ``nested``,
``parent``), messages, Pydantic, routers (``cond``, ``branch``, ``router``, ``send``) or ``update_state``
(``update_state``, ``update_as``, ``bulk``, ``fork``, ``replay``)."""

UPSTREAM_TESTS = Path("libs/langgraph/tests")
EMPTY_CONFTEST = '"""Replaced by Checkpoint Lab\'s tests/upstream/lab_upstream_plugin.py."""\n'
PARAMS = re.compile(r"\[.*\]$")


def find_tests(source: Path, rev: str, scratch: Path) -> Path:
    """The directory of LangGraph's ``tests`` package inside ``source`` (extracted into ``scratch``)."""
    if source.is_file() and source.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(source) as archive:
            archive.extractall(scratch, filter="data")
        return only(scratch.glob("*/tests/test_pregel.py")).parent
    for candidate in (source / UPSTREAM_TESTS, source / "tests", source):
        if (candidate / "test_pregel.py").is_file():
            return candidate
    archive = subprocess.run(
        ["git", "-C", str(source), "archive", rev, str(UPSTREAM_TESTS)], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive, check=True)
    return scratch / UPSTREAM_TESTS


def only(paths: Iterable[Path]) -> Path:
    found = list(paths)
    if len(found) != 1:
        raise SystemExit(f"expected one LangGraph tests directory, found {len(found)}")
    return found[0]


def stage(tests: Path, workdir: Path) -> Path:
    """Copy the tests to ``workdir/tests`` with an empty ``conftest.py``; returns that directory."""
    staged = workdir / "tests"
    shutil.copytree(tests, staged, ignore=shutil.ignore_patterns("__pycache__"))
    (staged / "conftest.py").write_text(EMPTY_CONFTEST, encoding="utf-8")
    (workdir / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return staged


def ensure_plugins() -> None:
    """Install the pinned plugins into ``.cache/upstream-plugins`` once (``pip --target``, no deps)."""
    wanted = [f"{name}=={version}" for name, version in PLUGINS.items()]
    installed = {path.name.lower() for path in PLUGIN_DIR.glob("*.dist-info")}
    if all(f"{pin.replace('-', '_').replace('==', '-')}.dist-info" in installed for pin in wanted):
        return
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    subprocess.run([*pip, "--target", str(PLUGIN_DIR), *wanted], check=True)


def run_pytest(
    workdir: Path, verdicts: dict[str, dict[str, Verdict]], timeout: float, extra: list[str]
) -> dict:
    """Run pytest on the files of ``verdicts`` in ``workdir`` under the shim, the excluded tests
    deselected; returns the plugin's results."""
    results = workdir / "results.json"
    skip = workdir / "excluded.json"
    excluded = {file: [v.test for v in tests.values() if v.excluded] for file, tests in verdicts.items()}
    skip.write_text(json.dumps(excluded), encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(PLUGIN_DIR), str(HERE), str(REPO)]),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "NO_DOCKER": "true",
        "LAB_UPSTREAM_RESULTS": str(results),
        "LAB_UPSTREAM_SKIP": str(skip),
    }
    plugins = [arg for name in PYTEST_PLUGINS for arg in ("-p", name)]
    command = [sys.executable, "-m", "pytest", *plugins, "-p", "no:cacheprovider", "-q", "--no-header"]
    command += ["-rN", "--tb=no", f"--timeout={timeout}", *extra, *(f"tests/{name}" for name in verdicts)]
    subprocess.run(command, cwd=workdir, env=env, check=False)
    return json.loads(results.read_text(encoding="utf-8"))


REFUSAL = re.compile(r"^lab does not support (.+?);")


def cause(entry: dict) -> str:
    """A failure's cause, for grouping: what ``lab`` lacks or refuses by name, a timeout, or the
    exception's type."""
    message = entry.get("message", "")
    if entry.get("lacks"):
        return f"lab lacks {entry['lacks']}"
    if entry.get("type") == "Failed" and message.startswith("Timeout"):
        return "timeout"
    if refused := REFUSAL.match(message):
        return f"refused by name: {refused.group(1)}"
    return entry.get("type", "?")


@dataclass(frozen=True)
class Outcome:
    """One pytest item: where it is, its function's verdict, whether it is in the focus, what happened."""

    nodeid: str
    verdict: Verdict
    focus: bool
    entry: dict

    @property
    def failed(self) -> bool:
        return self.entry["outcome"] in ("failed", "error")


@dataclass
class Tally:
    """Counts of a set of items: collected, in the honest ceiling, and the ceiling's outcomes."""

    collected: int = 0
    ceiling: int = 0
    outcomes: Counter = field(default_factory=Counter)

    @classmethod
    def of(cls, outcomes: Iterable[Outcome]) -> "Tally":
        tally = cls()
        for outcome in outcomes:
            tally.collected += 1
            if not outcome.verdict.excluded:
                tally.ceiling += 1
                tally.outcomes[outcome.entry["outcome"]] += 1
        return tally

    @property
    def failed(self) -> int:
        return self.outcomes["failed"] + self.outcomes["error"]

    def line(self) -> str:
        return (
            f"collected {self.collected}, honest ceiling {self.ceiling}, passed {self.outcomes['passed']}, "
            f"failed {self.failed}, skipped {self.outcomes['skipped']}"
        )


@dataclass
class Judgement:
    """Everything the report says: every item's outcome, the exclusions, what failed to import."""

    outcomes: list[Outcome]
    exclusions: list[Verdict]
    collection_errors: dict[str, str]
    uncollected: dict[str, int]
    real_langgraph_modules: list[str]

    def passed_touching_absent(self) -> list[Outcome]:
        """Passes during which the shim refused something: the test caught a ``LabLacks`` (an
        ``ImportError``), e.g. in ``pytest.raises(Exception)``; listed so none passes by accident."""
        return [o for o in self.outcomes if o.entry["outcome"] == "passed" and o.entry.get("lacks")]

    def failures(self, focus: bool) -> dict[str, list[Outcome]]:
        grouped: dict[str, list[Outcome]] = defaultdict(list)
        for outcome in self.outcomes:
            if outcome.focus == focus and outcome.failed and not outcome.verdict.excluded:
                grouped[cause(outcome.entry)].append(outcome)
        return dict(sorted(grouped.items(), key=lambda item: (-len(item[1]), item[0])))


def in_focus(file: str, test: str) -> bool:
    return file in FOCUS_FILES or bool(FOCUS_NAMES.search(test))


def judge(verdicts: dict[str, dict[str, Verdict]], results: dict) -> Judgement:
    """Join the static verdicts with pytest's outcomes."""
    outcomes = []
    for nodeid, entry in sorted(results["outcomes"].items()):
        path, _, test = nodeid.partition("::")
        verdict = verdicts[Path(path).name][PARAMS.sub("", test)]
        outcomes.append(Outcome(nodeid, verdict, in_focus(verdict.file, verdict.test), entry))
    errors = {Path(nodeid).name: info["message"] for nodeid, info in results["collection_errors"].items()}
    collected = {outcome.verdict.file for outcome in outcomes}
    uncollected = {file: len(verdicts[file]) for file in errors if file in verdicts and file not in collected}
    exclusions = [v for per_file in verdicts.values() for v in per_file.values() if v.excluded]
    return Judgement(outcomes, exclusions, errors, uncollected, results["real_langgraph_modules"])


def causes_line(failures: dict[str, list[Outcome]]) -> str:
    return "; ".join(f"{name} {len(items)}" for name, items in failures.items())


def summary(judgement: Judgement) -> str:
    focus = [outcome for outcome in judgement.outcomes if outcome.focus]
    lines = [
        f"issue-23 focus: {Tally.of(focus).line()}",
        f"  failures by cause: {causes_line(judgement.failures(focus=True))}",
        f"all tests of these files: {Tally.of(judgement.outcomes).line()}",
        f"excluded test functions: {len(judgement.exclusions)}",
        f"passed while the shim refused something: {len(judgement.passed_touching_absent())}",
    ]
    if judgement.uncollected:
        lines.append(f"failed to import (not collected): {judgement.uncollected}")
    lines.append(f"real LangGraph modules loaded: {judgement.real_langgraph_modules or 'none'}")
    return "\n".join(lines)


def failure_section(title: str, failures: dict[str, list[Outcome]]) -> list[str]:
    out = ["", f"## {title}"]
    for name, items in failures.items():
        out += ["", f"### {name} ({len(items)})", ""]
        out += [f"- `{item.nodeid}`: {item.entry.get('message', '')}" for item in items]
    return out


def report(judgement: Judgement, source: str) -> str:
    """The Markdown report: the summary, a table per file, failures by cause, the exclusions."""
    out = ["# LangGraph's tests against lab", "", f"Source: `{source}`", "", "```", summary(judgement), "```"]
    out += ["", "| file | collected | ceiling | passed | failed | focus ceiling | focus passed |"]
    out.append("|---|---|---|---|---|---|---|")
    by_file: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in judgement.outcomes:
        by_file[outcome.verdict.file].append(outcome)
    for file, outcomes in by_file.items():
        whole, focus = Tally.of(outcomes), Tally.of(o for o in outcomes if o.focus)
        row = [file, whole.collected, whole.ceiling, whole.outcomes["passed"], whole.failed, focus.ceiling]
        out.append("| " + " | ".join(str(cell) for cell in [*row, focus.outcomes["passed"]]) + " |")
    out += failure_section("Failures in the focus, by cause", judgement.failures(focus=True))
    out += failure_section("Failures outside the focus, by cause", judgement.failures(focus=False))
    if touching := judgement.passed_touching_absent():
        out += ["", "## Passed although the shim refused something during the test", ""]
        out += [f"- `{item.nodeid}`: lab lacks {item.entry['lacks']}" for item in touching]
    if judgement.collection_errors:
        out += ["", "## Files that failed to import", ""]
        out += [f"- `{file}`:\n```\n{message}\n```" for file, message in judgement.collection_errors.items()]
    out += ["", "## Excluded from the ceiling", ""]
    out += [f"- `{v.file}::{v.test}`: {v.excluded}" for v in judgement.exclusions]
    return "\n".join(out) + "\n"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("source", type=Path, help="a LangGraph checkout, git dir, sdist or tests directory")
    parser.add_argument("--rev", default="HEAD", help="revision, when SOURCE is a git directory")
    parser.add_argument("--files", nargs="+", default=FOCUS_FILES + GENERAL_FILES, help="test files to run")
    parser.add_argument("--report", type=Path, default=REPO / ".cache" / "upstream-report.md")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per test")
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    args.pytest_args = argv[cut + 1 :]
    return args


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    ensure_plugins()
    with tempfile.TemporaryDirectory(prefix="lab-upstream-") as scratch_name:
        scratch = Path(scratch_name)
        (scratch / "source").mkdir()
        staged = stage(find_tests(args.source.resolve(), args.rev, scratch / "source"), scratch / "work")
        if missing := [name for name in args.files if not (staged / name).is_file()]:
            raise SystemExit(f"not among LangGraph's tests: {', '.join(missing)}")
        selector = Selector(staged)
        verdicts = {name: {v.test: v for v in selector.verdicts(staged / name)} for name in args.files}
        results = run_pytest(scratch / "work", verdicts, args.timeout, args.pytest_args)
    judgement = judge(verdicts, results)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(report(judgement, str(args.source)), encoding="utf-8")
    print(summary(judgement))
    print(f"report: {args.report}")


if __name__ == "__main__":
    main(sys.argv[1:])
