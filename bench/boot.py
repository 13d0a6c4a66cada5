"""Boot benchmarks of the lab in headless Chromium, next to a bare ``loadPyodide()`` page in the same run.

    python bench/boot.py [--runs 5]

Not a test: run it by hand. Each run opens fresh browser contexts (an empty profile: a first visit),
interleaving the lab and the bare page so that machine load hits both alike; the figures are medians
over the runs, and each ratio is a ratio of medians. The lab is measured twice per run, as the browser
describes the link to it (``navigator.connection``, set through CDP: ``claim_link``): "fast" (100
Mbit/s: a first visit downloads the build's memory snapshot and restores it) and "slow" (2 Mbit/s: it
boots as it did before the build shipped a snapshot, and makes one by a second boot afterwards). What is
measured:

1. cold time-to-interactive: navigation start -> the lab shows Start (``body[data-ready-ms]``), on a
   first visit; divided by a bare page that only awaits ``loadPyodide()`` (navigation start -> resolved).
2. warm reload time-to-interactive: the same lab, reloaded after its first visit finished (the service
   worker's offline copy and the memory snapshot are stored); divided by the cold bare boot.
3. bytes transferred on a cold visit: every byte the server sent (counted on the server, so a cache
   hit costs nothing) from navigation until the first visit has finished all its work (the spare is
   ready, the offline copy and the snapshot are stored); divided by Pyodide's core files' size.
4. crash -> resumed and running: ``lab.kill()`` during a thread, until the replacement process has
   restored the thread and answers (the session's ready event ``ms``); divided by the cold bare boot.
5. cold time-to-interactive on a throttled network (10 Mbit/s, 40 ms), divided by the bare page on
   the same network; the lab both ways (whether a browser on this link says "fast" or not is
   Chromium's noise: 10 Mbit/s reads as 9.55 through its network emulation, 10 through its override).
   Chromium's network emulation (CDP, per page) leaves the lab's workers' and service worker's
   requests alone, so the server's side is throttled instead: a proxy in front of it sends at most 10
   Mbit/s over all connections, each request 40 ms late (``ThrottledProxy``).
6. wire bytes of a cold visit against the bare page's (counted on the server): raw, and as Pages
   would send them compressed (gzip -6 per file here, for every type but the already compressed
   .gz/.zip/.png; Pages' brotli is smaller still).
7. the tab's memory once the cold visit is interactive: the resident memory of our Chromium's renderer
   processes (the page, its workers, its service worker), against the bare page's.

It also prints where a cold visit's time went, from the page's Performance marks (``lab:*``).

The bare page is added to a throwaway copy of the build, never to the site.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import socket
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_harness import SiteServer, claim_link, launch_chromium, wait_for_boot  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402  (browser_harness put the repository on sys.path)
from site_build.offline import precache_list  # noqa: E402
from site_build.pinned import PYODIDE_RUNTIME_FILES, PYODIDE_VERSION  # noqa: E402

BARE_HTML = '<!doctype html><meta charset="utf-8"><body><script type="module" src="bare.mjs"></script>'
BARE_MODULE = f"""
import {{ loadPyodide }} from "/pyodide/{PYODIDE_VERSION}/pyodide.mjs";
await loadPyodide({{ indexURL: new URL("/pyodide/{PYODIDE_VERSION}/", location.href).href }});
document.body.dataset.readyMs = String(Math.round(performance.now()));
document.body.dataset.bootState = "ready";
"""
# Whether the first visit has finished its background work: the spare, the offline copy, the snapshot.
FIRST_VISIT_DONE = """
async () => {
  const keys = await caches.keys();
  const site = keys.find((key) => key.startsWith("checkpoint-lab-site-"));
  const snapshot = keys.find((key) => key.startsWith("checkpoint-lab-snapshot-"));
  if (!site || !snapshot || lab.status.spare !== "ready") return false;
  const cached = (await (await caches.open(site)).keys()).length; // + the shipped snapshot, if fetched
  return cached >= FILES && Boolean(await (await caches.open(snapshot)).match("/pyodide-memory-snapshot"));
}
"""
TIMEOUT_S = 300
# What the lab's navigator.connection says, in Mbit/s: the first visit restores the shipped snapshot
# ("fast") or boots without it ("slow"); pyodide-boot.mjs's gate lies between.
LINKS = {"fast": 100, "slow": 2}
# Where a cold visit's time went: the page's Performance marks (lab-session.mjs, lab-client.mjs,
# python-process.mjs) as milliseconds between consecutive moments, navigation start -> Start shown.
COLD_PHASES = """
() => {
  const marks = performance.getEntriesByType("mark");
  // the first time each mark was set (the spare worker sets "lab:worker-start" again later)
  const at = Object.fromEntries(marks.reverse().map((mark) => [mark.name, mark.startTime]));
  const moments = [
    ["page modules", 0, at["lab:session"]],
    ["service worker takes control", at["lab:session"], at["lab:controlled"]],
    ["worker's modules", at["lab:worker-start"], at["lab:worker-1:runtime:start"]],
    ["Pyodide runtime", at["lab:worker-1:runtime:start"], at["lab:worker-1:runtime:done"]],
    ["wheels unpacked", at["lab:worker-1:packages:start"], at["lab:worker-1:packages:done"]],
    ["import lab", at["lab:worker-1:lab:start"], at["lab:worker-1:lab:done"]],
    ["restore", at["lab:worker-1:restore:start"], at["lab:worker-1:restore:done"]],
    ["Start shown", at["lab:worker-1:restore:done"], Number(document.body.dataset.readyMs)],
  ];
  return moments.map(([name, from, to]) => [name, Math.round(to - from)]);
}
"""


ALREADY_COMPRESSED = (".gz", ".zip", ".png")


class ThrottledProxy:
    """A TCP proxy on loopback in front of ``upstream``: what it sends back shares one budget of
    ``bits_per_s`` (all connections together, like one access link), and each chunk the browser sends
    waits ``latency_s`` first (a request's round trip)."""

    def __init__(self, upstream_port: int, bits_per_s: float = 10e6, latency_s: float = 0.040):
        self.upstream_port, self.bytes_per_s, self.latency_s = upstream_port, bits_per_s / 8, latency_s
        self.lock = threading.Lock()
        self.link_free_at = time.monotonic()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            threading.Thread(target=self.pipe, args=(client, upstream, self.delay), daemon=True).start()
            threading.Thread(target=self.pipe, args=(upstream, client, self.pace), daemon=True).start()

    def delay(self, size: int) -> None:
        time.sleep(self.latency_s)

    def pace(self, size: int) -> None:
        """Wait until the shared link has carried ``size`` more bytes."""
        with self.lock:
            self.link_free_at = max(self.link_free_at, time.monotonic()) + size / self.bytes_per_s
            done = self.link_free_at
        time.sleep(max(0.0, done - time.monotonic()))

    @staticmethod
    def pipe(source: socket.socket, target: socket.socket, wait) -> None:
        try:
            while chunk := source.recv(64 * 1024):
                wait(len(chunk))
                target.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, target):
                end.close()

    def close(self) -> None:
        self.listener.close()


def renderers_rss() -> int:
    """Resident bytes of the renderer processes that descend from this Python (our Chromium's only:
    other engineers' browsers run on this machine too)."""
    parents, rss = {}, {}
    for proc in Path("/proc").iterdir():
        try:
            status = (proc / "status").read_text()
            cmdline = (proc / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
        parents[proc.name] = fields.get("PPid", "0").strip()
        if b"--type=renderer" in cmdline:
            rss[proc.name] = int(fields.get("VmRSS", "0 kB").split()[0]) * 1024

    def ours(pid: str) -> bool:
        while pid not in ("0", "1", ""):
            if pid == str(os.getpid()):
                return True
            pid = parents.get(pid, "0")
        return False

    return sum(size for pid, size in rss.items() if ours(pid))


def wire_bytes(server: SiteServer, dist: Path) -> tuple[int, int]:
    """What the server sent since its counter was cleared: raw, and gzip -6 per file as Pages would
    compress it (every type but the already compressed ones)."""
    raw = packed = 0
    for path, count in server.requests.items():
        file = served_file(dist, path)
        data = file.read_bytes() if file else b""
        raw += count * len(data)
        compressed = file and not file.name.endswith(ALREADY_COMPRESSED)
        packed += count * (len(gzip.compress(data, 6)) if compressed else len(data))
    return raw, packed


def poll(page, expression: str, what: str, arg=None):
    deadline = time.monotonic() + TIMEOUT_S
    while not (value := page.evaluate(expression, arg)):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(50)
    return value


def ready_ms(page) -> int:
    if wait_for_boot(page, TIMEOUT_S) != "ready":
        raise AssertionError(f"the page failed to boot: {page.inner_text('body')}")
    return int(page.evaluate("() => document.body.dataset.readyMs"))


def new_page(browser, link: str):
    """A page in a fresh context (a first visit) whose navigator.connection says ``link``."""
    page = browser.new_context().new_page()
    claim_link(page, LINKS[link])
    return page


def bare_cold(browser, server: SiteServer, url: str, dist: Path) -> dict:
    page = new_page(browser, "fast")
    context = page.context
    server.requests.clear()
    page.goto(url)
    ms = ready_ms(page)
    memory = renderers_rss()
    raw, packed = wire_bytes(server, dist)
    context.close()
    return {"ms": ms, "memory": memory, "raw": raw, "packed": packed}


def lab_cold(browser, url: str, link: str) -> int:
    """The lab's cold time-to-interactive alone."""
    page = new_page(browser, link)
    page.goto(url)
    ms = ready_ms(page)
    page.context.close()
    return ms


def lab_visit(browser, server: SiteServer, url: str, files: int, dist: Path, link: str) -> dict[str, float]:
    """One learner: a cold visit, a warm reload, a crash. Returns the raw figures of this run."""
    page = new_page(browser, link)
    context = page.context
    server.requests.clear()
    page.goto(url)
    cold = ready_ms(page)
    memory = renderers_rss()
    cold_snapshot = poll(page, "() => lab.status.ready && lab.status.ready.snapshot", "the session")
    phases = dict(page.evaluate(COLD_PHASES))
    poll(page, FIRST_VISIT_DONE.replace("FILES", str(files)), "the first visit's background work")
    raw, packed = wire_bytes(server, dist)

    page.reload()
    warm = ready_ms(page)
    warm_snapshot = poll(page, "() => lab.status.ready && lab.status.ready.snapshot", "the session")
    page.evaluate("() => lab.command('start', {case_id: 'S-1001', variant: 'misplaced'})")
    page.evaluate("() => lab.command('step')")
    poll(page, "() => lab.status.spare === 'ready'", "the spare")
    crash = page.evaluate("() => lab.kill().then((ready) => ready.ms)")
    context.close()
    figures = {"cold": cold, "warm": warm, "bytes": raw, "packed": packed, "crash": crash, "memory": memory}
    return {**figures, "snapshot": (cold_snapshot, warm_snapshot), "phases": phases}


def ratio(label: str, measured: list[float], reference: list[float], unit: str, target: float) -> str:
    """One result line: both medians and their ratio, the median of the per-run ratios, the target."""
    mine, theirs = statistics.median(measured), statistics.median(reference)
    per_run = statistics.median(m / r for m, r in zip(measured, reference, strict=True))
    return (
        f"{label:<38} {mine:6.2f} {unit} / {theirs:6.2f} {unit} = {mine / theirs:5.2f}"
        f" | {per_run:5.2f}  (target <= {target}); runs: {[round(m, 2) for m in measured]}"
    )


def served_file(dist: Path, url_path: str) -> Path | None:
    """The file the server sent for ``url_path`` (the dev server sends whole files, uncompressed)."""
    relative = url_path.split("?")[0].lstrip("/")
    for candidate in (relative, f"{relative}index.html", f"{relative}.html", "404.html"):
        if candidate and (dist / candidate).is_file():
            return dist / candidate
    return None


def bare_mib(runs: list[dict], key: str) -> list[float]:
    """The bare page's figure ``key`` per run, in MiB."""
    return [run[key] / 2**20 for run in runs]


def built_site(tmp: str) -> tuple[Path, int]:
    """Build the site into ``tmp``: its folder, and how many files a first visit's offline copy caches
    (``FIRST_VISIT_DONE`` waits for that many)."""
    dist = build.build(Path(tmp) / "dist").dist
    return dist, len(precache_list(dist))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    with tempfile.TemporaryDirectory() as tmp:
        dist, files = built_site(tmp)
        pyodide = dist / "pyodide" / PYODIDE_VERSION
        core = sum((pyodide / name).stat().st_size for name in PYODIDE_RUNTIME_FILES)
        (dist / "__bare").mkdir()
        (dist / "__bare" / "index.html").write_text(BARE_HTML)
        (dist / "__bare" / "bare.mjs").write_text(BARE_MODULE)
        load_before = os.getloadavg()
        with SiteServer(dist) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            slow = ThrottledProxy(server.server.server_port)
            bare, bare_slow = [], []
            lab = {link: [] for link in LINKS}
            lab_slow = {link: [] for link in LINKS}
            for run in range(runs):  # interleaved, so all see the same machine load
                order = list(LINKS) if run % 2 == 0 else list(reversed(LINKS))
                bare.append(bare_cold(browser, server, server.url + "/__bare/", dist))
                for link in order:
                    visit = lab_visit(browser, server, server.url + "/?delay=0.05", files, dist, link)
                    lab[link].append(visit)
                bare_slow.append(bare_cold(browser, server, slow.url + "/__bare/", dist))
                for link in order:
                    lab_slow[link].append(lab_cold(browser, slow.url + "/?delay=0.05", link))
            slow.close()
            browser.close()
        load_after = os.getloadavg()

    seconds = [run["ms"] / 1000 for run in bare]
    print(f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} CPUs, load average "
          f"{load_before[0]:.1f} before / {load_after[0]:.1f} after, {runs} runs")  # fmt: skip
    print(f"bare loadPyodide() page, cold, per run: {[round(s, 2) for s in seconds]} s")
    print(f"{'figure':<38} {'medians and their ratio':>34} | median per-run ratio")
    rows = [  # label, key, unit, scale, reference per run, target
        ("1. cold TTI / bare cold", "cold", "s", 1000, seconds, 1.0),
        ("2. warm reload TTI / bare cold", "warm", "s", 1000, seconds, 0.3),
        ("3. bytes cold / Pyodide core files", "bytes", "MiB", 2**20, [core / 2**20] * runs, 1.1),
        ("4. crash -> resumed / bare cold", "crash", "s", 1000, seconds, 0.1),
        ("6. wire bytes cold / bare, raw", "bytes", "MiB", 2**20, bare_mib(bare, "raw"), 1.5),
        ("6. wire bytes cold / bare, gzip", "packed", "MiB", 2**20, bare_mib(bare, "packed"), 1.5),
        ("7. tab memory cold / bare", "memory", "MiB", 2**20, bare_mib(bare, "memory"), 99),
    ]
    slow_bare = [run["ms"] / 1000 for run in bare_slow]
    for link, visits in lab.items():
        print(f"-- the lab, navigator.connection says {LINKS[link]} Mbit/s ({link}):")
        for label, key, unit, scale, reference, target in rows:
            print(ratio(label, [run[key] / scale for run in visits], reference, unit, target))
        throttled = [ms / 1000 for ms in lab_slow[link]]
        print(ratio("5. cold TTI / bare, 10 Mbit/s 40 ms", throttled, slow_bare, "s", 1.0))
        print(f"   Python started from (cold, warm reload): {sorted({run['snapshot'] for run in visits})}")
        print("   cold visit, where the time went (median ms):")
        for phase in visits[0]["phases"]:
            print(f"      {phase:<30} {statistics.median(run['phases'][phase] for run in visits):7.0f}")
    print("-- the shipped snapshot's effect: the lab told fast / the lab told slow:")
    fast, slow = lab["fast"], lab["slow"]
    effects = [("cold TTI", "cold", "s", 1000), ("wire bytes, raw", "bytes", "MiB", 2**20),
               ("wire bytes, gzip", "packed", "MiB", 2**20)]  # fmt: skip
    for label, key, unit, scale in effects:
        print(ratio(label, [run[key] / scale for run in fast], [run[key] / scale for run in slow], unit, 1.0))
    throttled = {link: [ms / 1000 for ms in runs_ms] for link, runs_ms in lab_slow.items()}
    print(ratio("cold TTI, 10 Mbit/s 40 ms", throttled["fast"], throttled["slow"], "s", 1.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
