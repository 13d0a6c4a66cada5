"""What the browser tests (and ``bench/boot.py``) need: serve a built site, drive Debian's Chromium, wait for
the lab to boot.

- :class:`SiteServer` serves ``dist/`` with the Pages-like dev server (``dev_server/serve.py``), in a thread.
- :class:`WranglerSite` serves it with Cloudflare's own local runtime (``wrangler pages dev``).
- :func:`launch_chromium` starts ``/usr/bin/chromium`` and fails loudly when it is missing.
- :class:`WarmProfile` is a Chromium profile that has visited the lab once (a returning learner's browser
  with no saved work), copied for each test that is not about a first visit.
- :func:`claim_link` makes the page's ``navigator.connection`` report a link speed (the lab's boot reads it).
- :func:`wait_for_boot` polls the page until the lab is ready or shows its error view. It polls with
  ``page.evaluate``: the site's CSP forbids the string evaluation that ``wait_for_function`` uses.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # build.py lives at the repository root, not in an installed package

from playwright.sync_api import BrowserContext  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402
from tools import ensure_wrangler  # noqa: E402

from dev_server.serve import make_server  # noqa: E402
from site_build.offline import precache_list  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BOOT_TIMEOUT_S = 60


def launch_chromium(playwright):
    """Launch Debian's Chromium through Playwright; raise (never skip) when it is not installed."""
    if not CHROMIUM.exists():
        raise RuntimeError(
            f"{CHROMIUM} is missing: the browser tests need Debian's Chromium (apt-get install -y chromium)"
        )
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


# True once the first visit's background work is done: the service worker's offline copy holds every
# precached file (``paths``) of the build and the memory snapshot is stored (pyodide-boot.mjs, sw.mjs).
VISIT_SETTLED = """
async (paths) => {
  const names = await caches.keys();
  const named = (prefix) => names.filter((name) => name.startsWith(prefix));
  const [site, snapshot] = [named("checkpoint-lab-site-"), named("checkpoint-lab-snapshot-")];
  if (site.length !== 1 || snapshot.length !== 1) return false;
  const [files, snapshots] = [await caches.open(site[0]), await caches.open(snapshot[0])];
  if ((await snapshots.keys()).length !== 1) return false;
  const cached = await Promise.all(paths.map((path) => files.match(path)));
  return cached.every(Boolean);
}
"""
# What a page of the origin keeps of the learner's work: IndexedDB databases and localStorage keys.
SAVED_WORK = (
    "async () => [...(await indexedDB.databases()).map((db) => db.name), ...Object.keys(localStorage)]"
)


class WarmProfile:
    """A Chromium user-data folder that has visited the lab at ``site`` once and let the visit's background
    work finish (HTTP cache, service worker and its offline copy, the memory snapshot), then forgot the
    learner's work (IndexedDB, localStorage). It is made on first use; :meth:`context` launches a
    persistent context on a copy of it, so every test starts as a returning learner with nothing saved,
    and what one test stores never reaches another."""

    def __init__(self, site: str, dist: Path, folder: Path):
        self.site, self.dist, self.folder = site, dist, folder
        self.made = False

    @contextmanager
    def context(self, browser_type, **options) -> Iterator[BrowserContext]:
        """A persistent context (its own Chromium) on a copy of the profile, deleted when it closes;
        ``options`` as for ``launch_persistent_context`` (``viewport``...)."""
        if not self.made:
            self.make(browser_type)
        with tempfile.TemporaryDirectory(prefix="lab-profile-") as scratch:
            copy = Path(scratch) / "profile"
            shutil.copytree(self.folder, copy)
            context = launch_persistent(browser_type, copy, **options)
            try:
                yield context
            finally:
                context.close()

    def make(self, browser_type) -> None:
        context = launch_persistent(browser_type, self.folder)
        try:
            page = context.pages[0]
            page.goto(self.site + "/")
            wait_until_ready(page)
            made = page.evaluate("() => lab.snapshotNow()")  # now, not once the lab is quiet (LabSession)
            if made["snapshot"] != "made":
                raise AssertionError(f"the warm profile's first visit made no memory snapshot: {made}")
            paths = list(precache_list(self.dist))
            poll_until(page, lambda: page.evaluate(VISIT_SETTLED, paths), "the first visit's caches")
            page.goto("about:blank")  # the lab's workers end: nothing holds the databases open
            cdp = context.new_cdp_session(page)
            cdp.send(
                "Storage.clearDataForOrigin", {"origin": self.site, "storageTypes": "indexeddb,local_storage"}
            )
            page.goto(self.site + "/favicon.svg")
            if saved := page.evaluate(SAVED_WORK):
                raise AssertionError(f"the warm profile still holds the first visit's work: {saved}")
        finally:
            context.close()
        self.made = True


def launch_persistent(browser_type, profile: Path, **options) -> BrowserContext:
    """Debian's Chromium on the user-data folder ``profile`` (kept when it closes)."""
    return browser_type.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, **options
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SiteServer:
    """The dev server (``dev_server/serve.py``) for ``dist`` on a free port, in a background thread.
    ``requests`` counts the paths it has answered (what reached the network, not what a cache answered)."""

    def __init__(self, dist: Path):
        self.requests: Counter[str] = Counter()
        self.server = make_server(dist, port=0, quiet=True, on_request=self.count)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def count(self, path: str) -> None:
        self.requests[path] += 1

    def __enter__(self) -> SiteServer:
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.server.shutdown()
        self.server.server_close()


class WranglerSite:
    """``wrangler pages dev <dist>`` on a free loopback port, run from the repository root so it reads
    ``wrangler.toml`` and serves ``functions/`` (the class room's API) over a fresh local D1 database,
    made by applying ``migrations/`` first; its state, config and logs go to ``scratch``."""

    def __init__(self, dist: Path, scratch: Path, variables: dict[str, str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = scratch / "wrangler.log"
        bindings = [f"--binding={name}={value}" for name, value in (variables or {}).items()]
        state = str(scratch / "state")
        wrangler = str(ensure_wrangler())
        self.d1_command = [wrangler, "d1", "execute", "ROOMS", "--local", "--persist-to", state]
        command = [wrangler, "pages", "dev", str(dist), "--ip", "127.0.0.1",
                   "--port", str(self.port), "--persist-to", state, *bindings]  # fmt: skip
        env = {
            **os.environ,
            "XDG_CONFIG_HOME": str(scratch / "config"),  # keeps wrangler out of the home folder
            "WRANGLER_SEND_METRICS": "false",
            "CI": "true",  # no interactive prompts, no update check
        }
        self.env = env
        with self.log.open("wb") as log:
            migrate = [wrangler, "d1", "migrations", "apply", "ROOMS", "--local", "--persist-to", state]
            subprocess.run(migrate, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, check=True)
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def d1(self, sql: str) -> None:
        """Run ``sql`` on the site's local D1 database (a test's way to age a room past its expiry)."""
        subprocess.run([*self.d1_command, "--command", sql], cwd=ROOT, env=self.env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip

    def __enter__(self) -> WranglerSite:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"wrangler exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/", timeout=2).close()
                return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.25)
        self.__exit__()
        raise RuntimeError(f"wrangler did not answer on {self.url} within 90 s:\n{self.log.read_text()}")

    def __exit__(self, *_exc) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # wrangler and the workerd it started
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def boot_state(page) -> str:
    """``booting``, ``ready`` or ``error``: what the lab page shows (``body[data-boot-state]``)."""
    return page.evaluate("() => document.body.dataset.bootState ?? 'loading'")


def claim_link(page, mbit_per_s: float, latency_ms: float = 40) -> None:
    """Make ``navigator.connection`` of ``page`` and of the workers it starts report a link of this speed
    (Chromium's network state override, CDP; Chromium reports at most 10 Mbit/s), so the lab's boot
    chooses as it would on that link. The traffic itself is not throttled. Call it before ``goto``."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    rate = mbit_per_s * 1e6 / 8
    state = {"offline": False, "latency": latency_ms, "downloadThroughput": rate, "uploadThroughput": rate}
    cdp.send("Network.overrideNetworkState", state)


def poll_until(page, predicate, what: str, timeout_s: float = BOOT_TIMEOUT_S):
    """Poll ``predicate()`` every 50 ms until it returns something truthy; fail naming ``what``."""
    deadline = time.monotonic() + timeout_s
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")
        page.wait_for_timeout(50)
    return value


BOOTED = "() => ['ready', 'error'].includes(document.body?.dataset.bootState)"
"""Whether the lab page has booted or shows its error view: looked at inside the page every 50 ms (a look
from Python is a round trip through Playwright's driver, about ten times the CPU; a boot takes seconds)."""


def wait_for_boot(page, timeout_s: float = BOOT_TIMEOUT_S, frame=None) -> str:
    """Wait until the lab (in ``page``, or in one of its frames) is ready or shows its error view."""
    target = frame or page
    try:
        target.wait_for_function(BOOTED, polling=50, timeout=timeout_s * 1000)
    except PlaywrightTimeoutError:
        shows = target.inner_text("body")
        raise AssertionError(f"the lab did not boot within {timeout_s} s; it shows: {shows}") from None
    return boot_state(target)


def wait_until_ready(page, frame=None) -> None:
    """Like :func:`wait_for_boot`, but a boot failure fails the test with what the error view says."""
    if wait_for_boot(page, frame=frame) != "ready":
        target = frame or page
        raise AssertionError(f"the lab failed to boot: {target.inner_text('#boot-error')}")


REPORTS = pytest.StashKey[list[str]]()
"""The reports a run prints at its end (conftest.py's ``pytest_terminal_summary``)."""


def print_at_the_end(config: pytest.Config, text: str) -> None:
    """Print ``text`` (its first line as a heading) when the pytest run ends, also under pytest-xdist."""
    config.stash.setdefault(REPORTS, []).append(text)
