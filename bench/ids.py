"""What LangGraph's ids cost the lab per super-step: pure-Python XXH3-128 (``lab/pregel/xxh3.py``).

Not a test: run it by hand. ``python bench/ids.py`` times, on this CPython, one task id and one
interrupt id as the AML graph's steps derive them (``lab.pregel.ids``), next to the BLAKE2b the
lab hashed the same bytes with before; ``python bench/ids.py --pyodide`` runs the same timing
inside the pinned Pyodide in Node (the worker's Python, without the browser), as ``build.py``
runs it to compile bytecode. Each figure is the best of several repeats (``timeit``'s rule: the
machine is shared, and load only ever adds time). A super-step derives one task id per task it
prepares, and an interrupt id only when a node interrupts; for scale, the script also times a
whole super-step of ``bench/superstep.py``'s 10-node graph (one task each), run with ``ainvoke``
as the worker runs the lab, on the in-memory saver.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import subprocess
import sys
import time
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHECKPOINT_ID = "1f0d0c6e-1234-6abc-8003-0123456789ab"
TASKS = [  # (node, triggers): the AML graph's parallel step and a longer name
    ("fetch_transactions", ("branch:to:fetch_transactions",)),
    ("screen_sanctions", ("branch:to:screen_sanctions",)),
    ("officer_review_of_the_escalated_case", ("join:fetch_transactions+screen_sanctions:officer_review",)),
]


def best_us(stmt, number: int = 2000, repeat: int = 7) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number * 1e6


def hashed_bytes(node: str, triggers: tuple[str, ...]) -> bytes:
    """What a pull task's id hashes at step 3 (``lab.pregel.ids.task_id``)."""
    return (
        bytes.fromhex(CHECKPOINT_ID.replace("-", ""))
        + f"{node}3{node}__pregel_pull{''.join(triggers)}".encode()
    )


def blake2b_task_id(node: str, triggers: tuple[str, ...]) -> str:
    """The lab's ids before they were LangGraph's: the same bytes, BLAKE2b."""
    return hashlib.blake2b(hashed_bytes(node, triggers), digest_size=16).hexdigest()


def measure() -> None:
    sys.path.insert(0, str(REPO))
    from lab.pregel.ids import interrupt_id, task_id

    print(f"Python {sys.version.split()[0]} on {sys.platform}; µs per id, best of 7")
    for node, triggers in TASKS:
        size = len(hashed_bytes(node, triggers))
        xxh3 = best_us(lambda n=node, t=triggers: task_id(CHECKPOINT_ID, 3, n, "__pregel_pull", t))
        blake = best_us(lambda n=node, t=triggers: blake2b_task_id(n, t))
        print(f"  task id of {node!r} ({size} bytes hashed): xxh3 {xxh3:.2f}, BLAKE2b {blake:.2f}")
    namespace = f"officer_review:{task_id(CHECKPOINT_ID, 3, 'officer_review', '__pregel_pull', ())}"
    print(f"  interrupt id ({len(namespace)} bytes): xxh3 {best_us(lambda: interrupt_id(namespace, 0)):.2f}")
    print(f"  interrupt id, '|1' form: xxh3 {best_us(lambda: interrupt_id(namespace, 1)):.2f}")


async def superstep_us(runs: int = 30, repeat: int = 5) -> float:
    """µs per super-step of ``bench/superstep.py``'s graph (durability "sync"), best of ``repeat``."""
    from bench.superstep import NODES, build

    app, best = build("lab"), float("inf")
    for r in range(repeat):
        start = time.perf_counter()
        for i in range(runs):
            await app.ainvoke(
                {"n": 0, "log": []}, {"configurable": {"thread_id": f"{r}-{i}"}}, durability="sync"
            )
        best = min(best, (time.perf_counter() - start) / runs / (NODES + 1) * 1e6)
    return best


PYODIDE_JS = """
const [indexURL, repo, wheels, msgpackWheel] = process.argv.slice(1);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + indexURL).href);
const pyodide = await loadPyodide({ indexURL });
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
pyodide.FS.mkdirTree("/wheels");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: wheels }, "/wheels");
await pyodide.runPythonAsync(`
import sys
sys.path[:0] = ["/repo", "/wheels/${msgpackWheel}"]  # the build's pure-Python msgpack
from bench.ids import measure, superstep_us
measure()
print(f"  a whole super-step (ainvoke): {await superstep_us():.0f}")`);
"""


def run_in_pyodide() -> None:
    sys.path.insert(0, str(REPO))
    from site_build.pinned import build_msgpack, fetch_pyodide

    wheel = build_msgpack().resolve()
    pyodide = f"{fetch_pyodide()}/"
    command = [
        "node",
        "--input-type=module",
        "-e",
        PYODIDE_JS,
        pyodide,
        str(REPO),
        str(wheel.parent),
        wheel.name,
    ]
    subprocess.run(command, check=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--pyodide", action="store_true", help="time it in the pinned Pyodide in Node")
    if parser.parse_args().pyodide:
        run_in_pyodide()
    else:
        measure()
        print(f"  a whole super-step (ainvoke): {asyncio.run(superstep_us()):.0f}")
