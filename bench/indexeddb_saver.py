"""Per-transaction cost of the IndexedDB saver in Chromium, against raw IndexedDB puts of the same bytes.

Not a test: run it by hand (``python bench/indexeddb_saver.py [--rounds 100]``). It builds the site,
serves it, boots the lab in Debian's Chromium and then, round by round:

1. ``aput`` one checkpoint (one checkpoint record + 3 blob records) and ``aput_writes`` a task's 2
   writes, through the worker command ``saver_call``; the worker reports how long the saver call took
   (``ms``: Python in Pyodide, serializing, converting to JS, one transaction, awaiting ``complete``);
2. in the page, plain JavaScript reads back the records the saver just wrote and, timed, puts copies of
   them (same shapes, same bytes, another thread id) in one transaction each, awaiting ``complete``.

The figure is the ratio of medians, saver / raw. Interleaving the two keeps machine noise alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser"), str(ROOT / "bench")]

from saver_adapter import call_saver, request, saver_call_args  # noqa: E402
from saver_bench_page import IDB_PROMISES_JS, BenchPage, saver_bench_page  # noqa: E402

from lab.checkpoint.base import empty_checkpoint  # noqa: E402
from lab.checkpoint.memory import InMemorySaver  # noqa: E402

# A module the benchmark adds to its own build of the site (never to dist/): it copies the records the
# saver wrote for checkpoint `id` (and its task's writes) to thread `target`, in one timed transaction
# each, like the saver's. The page imports it, and it also runs as a module worker, because the saver
# runs in one. Returns [checkpoint + blobs ms, writes ms, blob count, write count].
RAW_MODULE = (
    """
let db;
"""
    + IDB_PROMISES_JS
    + """
export async function rawPuts([database, thread, id, blobKeys, target]) {
  db ??= await settle(indexedDB.open(database));
  const read = db.transaction(["checkpoints", "blobs", "writes"]);
  const checkpoint = await settle(read.objectStore("checkpoints").get([thread, "", id]));
  const blobs = await Promise.all(blobKeys.map((key) => settle(read.objectStore("blobs").get(key))));
  const ofCheckpoint = IDBKeyRange.bound([thread, "", id], [thread, "", id, []]);
  const writes = await settle(read.objectStore("writes").getAll(ofCheckpoint));
  const copy = (record) => ({ ...record, thread_id: target });

  let started = performance.now();
  let tx = db.transaction(["checkpoints", "blobs"], "readwrite", { durability: "relaxed" });
  let done = ended(tx);
  tx.objectStore("checkpoints").put(copy(checkpoint));
  for (const blob of blobs) tx.objectStore("blobs").put(copy(blob));
  await done;
  const checkpointMs = performance.now() - started;

  started = performance.now();
  tx = db.transaction(["writes"], "readwrite", { durability: "relaxed" });
  done = ended(tx);
  for (const write of writes) tx.objectStore("writes").put(copy(write));
  await done;
  return [checkpointMs, performance.now() - started, blobs.length, writes.length];
}

export function close() {
  db?.close();
  db = undefined;
}

if (typeof WorkerGlobalScope !== "undefined") {
  self.onmessage = async ({ data }) => self.postMessage(data === "close" ? close() : await rawPuts(data));
}
"""
)

# Runs in the page: rawPuts in the page itself, or in a module worker of its own.
RAW_IN_PAGE = """
async (args) => (await import(new URL("./bench-raw.mjs", location.href))).rawPuts(args)
"""
RAW_IN_WORKER = """
(args) => {
  window.rawWorker ??= new Worker(new URL("./bench-raw.mjs", location.href), { type: "module" });
  return new Promise((resolve) => {
    window.rawWorker.onmessage = ({ data }) => resolve(data);
    window.rawWorker.postMessage(args);
  });
}
"""
CLOSE_RAW = """
async () => {
  (await import(new URL("./bench-raw.mjs", location.href))).close();
  window.rawWorker.postMessage("close");
  await new Promise((resolve) => { window.rawWorker.onmessage = resolve; });
}
"""

# Runs in the page: how long a request takes page -> worker -> Python -> page, doing nothing.
PING_MS = """
async () => {
  const started = performance.now();
  await lab.request("ping");
  return performance.now() - started;
}
"""


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f} ms"


class Rounds:
    """One thread of checkpoints written through the saver, each copied raw right after; all timings."""

    def __init__(self, page, database: str) -> None:
        self.page, self.database = page, database
        self.thread = "bench"
        self.versions: dict[str, str] = {}
        self.parent: str | None = None
        self.next_version = InMemorySaver().get_next_version  # the lab's own string versions
        self.ms: dict[str, list[float]] = {"ping": [], "rpc": []}
        for who in ("saver", "raw page", "raw worker"):
            self.ms.update({f"{who} aput": [], f"{who} aput_writes": []})

    def config(self, checkpoint_id: str | None) -> dict:
        return {
            "configurable": {"thread_id": self.thread, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}
        }

    def saver_call(self, method: str, *args) -> dict:
        return request(self.page, "saver_call", saver_call_args(self.database, method, args, {}))

    def run(self, step: int) -> None:
        values = {
            "messages": [f"message {i}: {'x' * 40}" for i in range(20)],  # about 1 KB
            "step": step,
            "route": "next",
        }
        self.versions = {name: self.next_version(self.versions.get(name)) for name in values}
        checkpoint = {**empty_checkpoint(), "channel_values": values}  # a new id each time
        checkpoint["channel_versions"] = self.versions
        metadata = {"source": "loop", "step": step, "parents": {}}

        started = time.perf_counter()
        answer = self.saver_call("aput", self.config(self.parent), checkpoint, metadata, self.versions)
        self.ms["rpc"].append((time.perf_counter() - started) * 1000)
        self.ms["saver aput"].append(answer["ms"])
        writes = [("messages", ["reply"]), ("route", "end")]
        answer = self.saver_call("aput_writes", self.config(checkpoint["id"]), writes, f"task-{step}")
        self.ms["saver aput_writes"].append(answer["ms"])

        blob_keys = [[self.thread, "", name, version] for name, version in self.versions.items()]
        for where, script in (("page", RAW_IN_PAGE), ("worker", RAW_IN_WORKER)):
            args = [self.database, self.thread, checkpoint["id"], blob_keys, f"raw-{where}"]
            aput_ms, writes_ms, blobs, stored_writes = self.page.evaluate(script, args)
            assert (blobs, stored_writes) == (3, 2), (blobs, stored_writes)
            self.ms[f"raw {where} aput"].append(aput_ms)
            self.ms[f"raw {where} aput_writes"].append(writes_ms)
        self.ms["ping"].append(self.page.evaluate(PING_MS))
        self.parent = checkpoint["id"]


def measure(lab: BenchPage, rounds: int) -> dict[str, list[float]]:
    """Run ``rounds`` rounds in the booted lab; the timings, by name."""
    page, database = lab.page, lab.database
    bench = Rounds(page, database)
    for step in range(rounds):
        bench.run(step)
    assert len(call_saver(page, database, "alist", bench.config(None))) == rounds
    page.evaluate(CLOSE_RAW)  # the database can only be deleted once every connection is closed
    request(page, "saver_close", {"database": database, "delete": True})
    return bench.ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    rounds = parser.parse_args().rounds

    with saver_bench_page({"bench-raw.mjs": RAW_MODULE}) as lab:
        ms = measure(lab, rounds)

    print(f"IndexedDB saver vs raw IndexedDB in Chromium, median of {rounds} transactions each")
    print(f"{'':32}{'saver':>10}{'raw JS':>12}{'raw JS':>12}{'ratio to raw JS in':>22}")
    print(f"{'':32}{'(worker)':>10}{'(page)':>12}{'(worker)':>12}{'page':>11}{'worker':>11}")
    for label, method in (
        ("aput (1 checkpoint + 3 blobs)", "aput"),
        ("aput_writes (2 writes)", "aput_writes"),
    ):
        saver, page, worker = (
            statistics.median(ms[f"{who} {method}"]) for who in ("saver", "raw page", "raw worker")
        )
        print(
            f"{label:32}{saver:7.2f} ms{page:9.2f} ms{worker:9.2f} ms"
            f"{saver / page:10.1f}x{saver / worker:10.1f}x"
        )
    print(f"{'page -> worker ping round trip':32}{median_ms(ms['ping']):>10}")
    print(f"{'CPython -> aput -> CPython':32}{median_ms(ms['rpc']):>10}   (Playwright + RPC + saver)")


if __name__ == "__main__":
    main()
