"""The shapes `lab/pregel/` keeps for CPython's sake, each timed against the plainer one it replaced.

Not a test: run it by hand with any Python (``python bench/pregel_shapes.py``; it imports nothing of
``lab``, so ``python3.13 bench/pregel_shapes.py`` shows the same pairs where comprehensions are inlined,
PEP 709). Each pair is the code of one spot in ``lab/pregel/``, on the data the bench's super-step
gives it (``bench/superstep.py``: two state keys, one trigger, one task, 14 channels); the figure is
the fastest of 40 batches. ``bench/RESULTS.md`` ("Why `lab/pregel/` is written the way it is") says
which spot each pair is and what the figures were.
"""

from __future__ import annotations

import copy
import inspect
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass

MISSING = object()
CONTROL_WRITES = frozenset(("__no_writes__", "__resume__"))


class Cell:
    """A channel: a value and whether it holds one."""

    def __init__(self, value: object) -> None:
        self.value = value

    def is_available(self) -> bool:
        return self.value is not MISSING


@dataclass(slots=True)
class Slotted:
    id: str
    name: str
    path: tuple = ()
    writes: tuple = ()


@dataclass
class Plain:
    id: str
    name: str
    path: tuple = ()
    writes: tuple = ()


CHANNELS = {"n": Cell(1), "log": Cell(["a"]), "branch:to:n1": Cell(None)}
KEYS = ["n", "log"]
VERSIONS = {"branch:to:n1": "2", **{f"c{i}": f"{i:032}.0.1" for i in range(13)}}
STORED = dict(list(VERSIONS.items())[:12])
WRITES = [("n", 1), ("log", ["a"])]
TASKS = [Slotted("id-1", "n1")]
TRIGGERS = ("branch:to:n1",)
SEEN: dict[str, str] = {}


def read_values_loop() -> dict:
    state = {}
    for k in KEYS:
        if (value := CHANNELS[k].value) is not MISSING:
            state[k] = value
    return state


def read_values_comprehension() -> dict:
    return {k: v for k in KEYS if (v := CHANNELS[k].value) is not MISSING}


def triggered_loop() -> bool:
    for chan in TRIGGERS:  # noqa: SIM110  (the pair's point)
        if CHANNELS[chan].is_available() and VERSIONS.get(chan, "") > SEEN.get(chan, ""):
            return True
    return False


def triggered_any() -> bool:
    return any(
        CHANNELS[chan].is_available() and VERSIONS.get(chan, "") > SEEN.get(chan, "") for chan in TRIGGERS
    )


def control_only_loop() -> bool:
    for chan, _ in WRITES:  # noqa: SIM110  (the pair's point)
        if chan not in CONTROL_WRITES:
            return False
    return True


def control_only_all() -> bool:
    return all(chan in CONTROL_WRITES for chan, _ in WRITES)


def by_id_loop() -> dict:
    by_id = {}
    for task in TASKS:
        by_id[task.id] = task
    return by_id


def by_id_comprehension() -> dict:
    return {task.id: task for task in TASKS}


def new_versions_loop() -> dict:
    moved = {}
    for chan, v in VERSIONS.items():
        if chan not in STORED or v > STORED[chan]:
            moved[chan] = v
    return moved


def new_versions_comprehension() -> dict:
    return {chan: v for chan, v in VERSIONS.items() if chan not in STORED or v > STORED[chan]}


def node(state: dict) -> dict:
    return state


def is_async_flag() -> bool:
    return bool(node.__code__.co_flags & inspect.CO_COROUTINE)


def is_async_inspect() -> bool:
    return inspect.iscoroutinefunction(node)


def copy_by_hand() -> Cell:
    fresh = object.__new__(Cell)
    fresh.__dict__.update(CHANNELS["log"].__dict__)
    return fresh


def copy_copy() -> Cell:
    return copy.copy(CHANNELS["log"])


def slotted_task() -> str:
    task = Slotted("id-1", "n1")
    return task.id + task.name


def plain_task() -> str:
    task = Plain("id-1", "n1")
    return task.id + task.name


PAIRS: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
    ("algo.read_values (2 keys): loop / comprehension", read_values_loop, read_values_comprehension),
    ("algo.triggered (1 trigger): loop / any()", triggered_loop, triggered_any),
    ("algo.only_control_writes (2 writes): loop / all()", control_only_loop, control_only_all),
    ("algo.prepare_tasks by id (1 task): loop / comprehension", by_id_loop, by_id_comprehension),
    ("algo.new_versions (14 channels): loop / comprehension", new_versions_loop, new_versions_comprehension),
    ("nodes.is_async: code flag / inspect", is_async_flag, is_async_inspect),
    ("Channel.copy: by hand / copy.copy", copy_by_hand, copy_copy),
    ("Task made and read: slots / dict", slotted_task, plain_task),
]


def fastest_ns(func: Callable[[], object], number: int = 20000) -> float:
    timer = timeit.Timer(func)
    return min(timer.timeit(number) for _ in range(40)) / number * 1e9


def main() -> None:
    print(f"Python {sys.version.split()[0]}: ns per call, fastest of 40 batches")
    for label, kept, plainer in PAIRS:
        print(f"  {label:<62} {fastest_ns(kept):6.0f} / {fastest_ns(plainer):6.0f}")


if __name__ == "__main__":
    main()
