"""The pytest plugin that runs LangGraph's tests against ``lab`` (loaded by ``tests/upstream/run.py``).

Loaded with ``-p`` before any test file is read, it installs the import shim (``lab_shim``), so every
``langgraph`` import is ``lab``'s (the shim refuses to install if a plugin loaded before it had
imported the real LangGraph); it replaces LangGraph's ``conftest.py`` fixtures with their in-memory
variants on ``lab`` (``sync_checkpointer``/``async_checkpointer``: ``lab``'s ``InMemorySaver``,
``sync_store``/``async_store`` its ``InMemoryStore``; no SQLite, Postgres or Redis); it deselects the
test functions named in the JSON file ``LAB_UPSTREAM_SKIP`` (those outside the honest ceiling: counted,
not run); and it records each test's outcome and exception, and whether any real LangGraph module was
ever loaded, as JSON in the file named by ``LAB_UPSTREAM_RESULTS``.
"""

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import lab_shim
import pytest

lab_shim.install()

RESULTS_ENV = "LAB_UPSTREAM_RESULTS"
SKIP_ENV = "LAB_UPSTREAM_SKIP"
PARAMS = re.compile(r"\[.*\]$")
UUID_COUNT = 10_000


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["sync", "async", "exit"])
def durability(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def deterministic_uuids(mocker: Any) -> Any:
    uuids = (UUID(f"00000000-0000-4000-8000-{i:012}", version=4) for i in range(UUID_COUNT))
    return mocker.patch("uuid.uuid4", side_effect=uuids)


@pytest.fixture
def sync_checkpointer() -> Any:
    from lab.checkpoint.memory import InMemorySaver

    return InMemorySaver()


@pytest.fixture
def async_checkpointer() -> Any:
    from lab.checkpoint.memory import InMemorySaver

    return InMemorySaver()


CHECKPOINTER_FIXTURES = ("sync_checkpointer", "async_checkpointer")
"""LangGraph's parametrized saver fixtures, whose in-memory variant LangGraph's own run names ``memory``."""


@pytest.fixture
def snapshot(snapshot: Any, request: pytest.FixtureRequest) -> Any:
    """syrupy's ``snapshot``, read under the name LangGraph's own run gives the test: with the
    in-memory saver's parameter id (``test_x[memory]``, ``test_y[memory-False]``), which the lab's
    unparametrized saver fixtures leave out of the test's id (kept as it is, so counts do not move)."""
    name = langgraph_node_name(request)
    if name != request.node.name:
        object.__setattr__(snapshot.test_location, "nodename", name)
        object.__setattr__(snapshot.test_location, "testname", name)
    return snapshot


def langgraph_node_name(request: pytest.FixtureRequest) -> str:
    """The test's name as LangGraph parametrizes it: fixture parameters first, in the order the test's
    fixtures close over them (a saver fixture's id ``memory``), then the test's own ``parametrize``."""
    fixtures = [name for name in request.fixturenames if name in (*CHECKPOINTER_FIXTURES, "durability")]
    if not any(name in CHECKPOINTER_FIXTURES for name in fixtures):
        return request.node.name
    callspec = getattr(request.node, "callspec", None)
    lab_ids = iter(callspec.id.split("-") if callspec else [])
    ids = ["memory" if name in CHECKPOINTER_FIXTURES else next(lab_ids) for name in fixtures]
    return f"{request.node.originalname}[{'-'.join([*ids, *lab_ids])}]"


@pytest.fixture
def cache() -> Any:
    from lab.cache.memory import InMemoryCache

    return InMemoryCache()


@pytest.fixture
def sync_store() -> Any:
    from lab.store.memory import InMemoryStore

    return InMemoryStore()


@pytest.fixture
def async_store() -> Any:
    from lab.store.memory import InMemoryStore

    return InMemoryStore()


def exception_chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def describe(error: BaseException) -> dict[str, Any]:
    """The exception's type, first message line and the first name ``lab`` lacked during the test
    (raised by the shim, even if a library caught it and raised something else, or named in the message)."""
    chained = (e.missing for e in exception_chain(error) if isinstance(e, lab_shim.LabLacks))
    lacking = next(chained, None) or next(iter(lab_shim.RAISED), None) or lab_shim.named_absent(str(error))
    message = str(error).strip().splitlines()
    return {"type": type(error).__name__, "message": message[0][:300] if message else "", "lacks": lacking}


class Recorder:
    """Collects outcomes by node id (setup errors, call failures, skips) and collection errors by file."""

    def __init__(self, skip: dict[str, list[str]]) -> None:
        self.skip = {(file, test) for file, tests in skip.items() for test in tests}
        self.outcomes: dict[str, dict[str, Any]] = {}
        self.collection_errors: dict[str, dict[str, Any]] = {}

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Deselect the tests outside the ceiling (they are counted, not run)."""
        kept, dropped = [], []
        for item in items:
            (dropped if test_key(item.nodeid) in self.skip else kept).append(item)
        for item in dropped:
            self.outcomes[item.nodeid] = {"outcome": "excluded"}
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        lab_shim.RAISED.clear()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
        outcome = yield
        report = outcome.get_result()
        if report.passed and report.when != "call":
            return
        earlier = self.outcomes.get(item.nodeid)
        if earlier is not None and earlier["outcome"] != "passed":
            return
        failed_outside_call = report.failed and report.when != "call"
        entry = {"outcome": "error" if failed_outside_call else report.outcome, "when": report.when}
        if report.failed and call.excinfo is not None:
            entry.update(describe(call.excinfo.value))
        elif lab_shim.RAISED:
            entry["lacks"] = lab_shim.RAISED[0]
        self.outcomes[item.nodeid] = entry

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collection_errors[report.nodeid] = {"message": str(report.longrepr)[-2000:]}

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        path = os.environ.get(RESULTS_ENV)
        if not path:
            return
        results = {
            "outcomes": self.outcomes,
            "collection_errors": self.collection_errors,
            "real_langgraph_modules": lab_shim.real_langgraph_modules(),
        }
        with open(path, "w", encoding="utf-8") as file:
            json.dump(results, file, indent=1)


def test_key(nodeid: str) -> tuple[str, str]:
    """``tests/test_x.py::test_y[p]`` -> (``test_x.py``, ``test_y``): a test function, all its parameters."""
    path, _, test = nodeid.partition("::")
    return os.path.basename(path), PARAMS.sub("", test)


def pytest_configure(config: pytest.Config) -> None:
    skip_file = os.environ.get(SKIP_ENV)
    skip = json.loads(Path(skip_file).read_text(encoding="utf-8")) if skip_file else {}
    config.pluginmanager.register(Recorder(skip), "lab_upstream_recorder")
