"""Fixtures for the browser tests: one build, one dev server and one wrangler per session, one Chromium
per module, and a ``page`` per test: a returning learner's browser with nothing saved (the HTTP cache,
service worker and memory snapshot of one earlier visit, so Python boots fast and no first visit's
background work competes with the test), or, for the tests marked ``first_visit``, a truly fresh one."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import (
    REPORTS,
    SiteServer,
    WarmProfile,
    WranglerSite,
    launch_chromium,
    print_at_the_end,
)
from lab_page import TIMEOUT_S
from playwright.sync_api import Browser, Page, expect, sync_playwright

import build

# An expect() waits for what the page shows as long as wait_until() does, not Playwright's 5 s: on a loaded
# machine the page draws late, and the deadline is there to end a hang, not to time the page.
expect.set_options(timeout=TIMEOUT_S * 1000)


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """The site, built once into a temporary folder (the developer's dist/ is untouched)."""
    return build.build(tmp_path_factory.mktemp("site") / "dist").dist


@pytest.fixture(scope="session")
def site(dist) -> Iterator[str]:
    """The base URL of the dev server (``dev_server/serve.py``) for the built site."""
    with SiteServer(dist) as server:
        yield server.url


@pytest.fixture(scope="session")
def wrangler_site(dist, tmp_path_factory) -> Iterator[str]:
    """The base URL of ``wrangler pages dev`` serving the same build."""
    with WranglerSite(dist, tmp_path_factory.mktemp("wrangler")) as server:
        yield server.url


@pytest.fixture(params=["build.py serve", "wrangler pages dev"])
def served(request) -> str:
    """The base URL of the built site behind each of the two servers: a test using it runs twice."""
    return request.getfixturevalue("site" if request.param == "build.py serve" else "wrangler_site")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium per test module (0.8 s to start). Not one per session: while Playwright's sync API is
    open it marks an asyncio loop as running in this thread, which breaks ``asyncio.run()`` in the test
    modules that come after."""
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def warm_profile(site, dist, tmp_path_factory) -> WarmProfile:
    """One profile that has visited ``site`` once, made the first time a test asks for a ``page``."""
    return WarmProfile(site, dist, tmp_path_factory.mktemp("warm-profile") / "profile")


FRESH_CONTEXT_MARKERS = ("first_visit", "no_python")


@pytest.fixture
def page(request, browser, warm_profile) -> Iterator[Page]:
    """A page in its own copy of the warm profile: the lab boots from the caches and the memory snapshot;
    no IndexedDB database, no localStorage (they persist within the context, never to the next test).
    A test marked ``first_visit`` (a module's ``pytestmark``) gets a fresh context instead: no HTTP cache,
    no service worker, no IndexedDB, no memory snapshot; so does one marked ``no_python``, where the copy
    and its own Chromium would only cost time."""
    if any(request.node.get_closest_marker(name) for name in FRESH_CONTEXT_MARKERS):
        context = browser.new_context()
        yield context.new_page()
        context.close()
        return
    with warm_profile.context(browser.browser_type) as context:
        yield context.pages[0]


def pytest_configure(config) -> None:
    if hasattr(config.option, "loadscopereorder"):  # pytest-xdist: hand modules out in collection order
        config.option.loadscopereorder = False
    config.addinivalue_line(
        "markers", "first_visit: the test is about a first visit: its page gets an empty profile"
    )
    config.addinivalue_line(
        "markers", "no_python: the test's page boots no Python (no use for a warm profile): an empty profile"
    )


# -- the longest modules first -------------------------------------------------------------------------
# CI runs these tests in pytest-xdist workers, a module per worker at a time (--dist loadfile), a worker
# handed the next module in line when it has two tests or fewer left: a long module handed out late runs
# alone at the end while the other worker idles. These take longest (seconds in CI's runs of 2026-12-06,
# beside a CPU burner: the crash harness 150-216, the English walk ~190 with its setup, the room
# 120-390, the Chinese walk 122, the lab's UI, the room's thread ~100, offline ~95, bad input ~90); they
# are handed out first, the others keep their order. xdist's own order (--loadscope-reorder, its
# default: the modules with the most tests first) would hand the one-test modules, the Chinese walk and
# the room among them, out last: it is switched off (pytest_configure above).
LONGEST_MODULES = (
    "test_crash_harness.py",
    "test_lesson_runner.py",
    "test_room.py",
    "test_lesson_runner_zh.py",
    "test_lab_ui.py",
    "test_room_thread.py",
    "test_offline.py",
    "test_bad_input.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONGEST_MODULES.index(name) if name in LONGEST_MODULES else len(LONGEST_MODULES)

    items.sort(key=rank)


# -- reports printed at the end of the run --------------------------------------------------------------
# A test's report (the crash seam table, the kill soak) is printed in pytest's terminal summary, visible
# without ``-s``. Under pytest-xdist (CI runs the browser tests in two processes) the tests run in
# workers, which print no summary: each worker hands its reports to the controller when it ends.


def pytest_sessionfinish(session: pytest.Session) -> None:
    if hasattr(session.config, "workeroutput"):  # an xdist worker: hand the reports over
        session.config.workeroutput["reports"] = session.config.stash.get(REPORTS, [])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """The xdist controller: a worker ended; keep its reports."""
    for text in getattr(node, "workeroutput", {}).get("reports", []):
        print_at_the_end(node.config, text)


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    for text in config.stash.get(REPORTS, []):
        heading, *lines = text.splitlines()
        terminalreporter.write_sep("=", heading)
        for line in lines:
            terminalreporter.write_line(line)
