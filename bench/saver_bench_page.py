"""The page the IndexedDB saver benchmarks measure in: the built lab in Chromium, one saver database open.

Benchmarks 4 and 5 (``indexeddb_saver.py``, ``superstep_indexeddb.py``) time LangGraph's saver
interface (``aput`` / ``aput_writes``) on the lab's ``IndexedDBSaver`` against raw IndexedDB
transactions writing the same records in the same page. Both build the site into a temporary folder,
serve it, boot the lab in Debian's Chromium and open a database through the worker's ``saver_open``
(:func:`saver_bench_page`); both await raw IndexedDB requests and transactions as promises
(:data:`IDB_PROMISES_JS`). The benchmarks put the repository and ``tests/browser`` on ``sys.path``
before they import this module.
"""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from browser_harness import SiteServer, launch_chromium, wait_until_ready
from playwright.sync_api import Page, sync_playwright
from saver_adapter import request

import build  # noqa: E402  (browser_harness put the repository on sys.path)

IDB_PROMISES_JS = """
const settle = (request) => new Promise((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});
const ended = (tx) => new Promise((resolve, reject) => {
  tx.oncomplete = resolve;
  tx.onabort = () => reject(tx.error);
});
"""
"""JavaScript: ``settle(request)`` resolves with an IndexedDB request's result, ``ended(tx)`` once a
transaction completed (a raw script's own ``await`` of what the saver awaits)."""


@dataclass(frozen=True)
class BenchPage:
    """The booted lab's page, the saver database opened in its worker, and the built site."""

    page: Page
    database: str
    dist: Path


@contextmanager
def saver_bench_page(
    extra_files: dict[str, str] | None = None, after_boot: Callable[[Page, Path], None] | None = None
) -> Iterator[BenchPage]:
    """Build the site (plus ``extra_files``, name → text, the benchmark's own modules; never in
    ``dist/``), serve it, boot the lab in Chromium, call ``after_boot(page, dist)`` if given, and open
    a fresh saver database ``bench-<hex>``; the browser is closed on the way out."""
    with tempfile.TemporaryDirectory() as tmp:
        dist = build.build(Path(tmp) / "dist").dist
        for name, text in (extra_files or {}).items():
            (dist / name).write_text(text)
        with SiteServer(dist) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                page = browser.new_context().new_page()
                page.goto(server.url + "/")
                wait_until_ready(page)
                if after_boot is not None:
                    after_boot(page, dist)
                database = f"bench-{uuid.uuid4().hex[:8]}"
                request(page, "saver_open", {"database": database})
                yield BenchPage(page, database, dist)
            finally:
                browser.close()
