"""Fixtures for the browser tests: one build, one dev server and one wrangler per session, one Chromium
per module, and a fresh browser context (an empty profile: no cache, no IndexedDB) per test."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import SiteServer, WranglerSite, build, launch_chromium
from playwright.sync_api import Browser, Page, sync_playwright


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """The site, built once into a temporary folder (the developer's dist/ is untouched)."""
    return build.build(tmp_path_factory.mktemp("site") / "dist").dist


@pytest.fixture(scope="session")
def site(dist) -> Iterator[str]:
    """The base URL of ``build.py``'s dev server for the built site."""
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


@pytest.fixture
def page(browser) -> Iterator[Page]:
    """A page in a fresh context: no HTTP cache, no IndexedDB (they persist within the context)."""
    context = browser.new_context()
    yield context.new_page()
    context.close()
