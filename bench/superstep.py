"""Per-super-step time of lab + InMemorySaver against langgraph + its InMemorySaver.

Not a test: run it by hand from the repository root (``python bench/superstep.py``; it puts the
root on ``sys.path`` itself, so no ``PYTHONPATH`` is needed). Both runtimes run the same 10-node
linear graph with ``durability="sync"`` in one process, interleaved round by round so machine
noise hits both alike; the figure is the ratio of medians.
"""

from __future__ import annotations

import argparse
import importlib
import operator
import statistics
import sys
import time
from pathlib import Path
from typing import Annotated, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # (the repository root: ``lab``)

NODES = 10


class State(TypedDict):
    n: int
    log: Annotated[list, operator.add]


def build(runtime: str):
    graph_mod = importlib.import_module(f"{runtime}.graph")
    memory = importlib.import_module(f"{runtime}.checkpoint.memory")
    g = graph_mod.StateGraph(State)
    names = [f"n{i}" for i in range(NODES)]
    for name in names:
        g.add_node(name, lambda s, name=name: {"n": s["n"] + 1, "log": [name]})
    g.add_edge(graph_mod.START, names[0])
    for a, b in zip(names, names[1:], strict=False):
        g.add_edge(a, b)
    g.add_edge(names[-1], graph_mod.END)
    return g.compile(checkpointer=memory.InMemorySaver())


def time_runs(app, runs: int, tag: str) -> list[float]:
    """Milliseconds per super-step, one sample per run (N nodes + the __start__ step)."""
    samples = []
    for i in range(runs):
        config = {"configurable": {"thread_id": f"{tag}-{i}"}}
        start = time.perf_counter()
        out = app.invoke({"n": 0, "log": []}, config, durability="sync")
        samples.append((time.perf_counter() - start) * 1000 / (NODES + 1))
        assert out["n"] == NODES
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=30, help="runs per round and runtime")
    args = parser.parse_args()
    apps = {name: build(name) for name in ("langgraph", "lab")}
    for name, app in apps.items():  # warm up imports and caches
        time_runs(app, 5, f"warm-{name}")
    samples: dict[str, list[float]] = {"langgraph": [], "lab": []}
    for r in range(args.rounds):
        for name, app in apps.items():
            samples[name] += time_runs(app, args.runs, f"r{r}-{name}")
    med = {name: statistics.median(s) for name, s in samples.items()}
    print(f"{NODES}-node linear graph, durability='sync', {args.rounds * args.runs} runs each")
    for name in samples:
        print(f"  {name:<10} median {med[name]:.4f} ms per super-step")
    print(f"  ratio lab/langgraph = {med['lab'] / med['langgraph']:.3f} (target <= 0.2)")


if __name__ == "__main__":
    main()
