"""Deterministic task and interrupt ids, as in LangGraph's ``_algo`` and ``types``.

A task id is a hash of the checkpoint the step starts from, the step, the node and its
triggers. Re-running a step *from the same checkpoint* therefore regenerates the same ids,
which is how a resumed step finds the writes its finished tasks saved before a crash. A fork
(a new checkpoint id) yields new ids, so old writes never match. The hash is LangGraph's own,
XXH3-128 over the same bytes: a thread made here is one real LangGraph recognises, pending writes
and interrupts included, and the other way round. The hash comes from the ``xxhash`` C extension
where it is installed (CPython beside LangGraph), else from ``lab.pregel.xxh3`` (pure Python, the
browser); ``tests/test_xxh3.py`` checks that both give the same digests.
"""

from __future__ import annotations

import re

try:
    from xxhash import xxh3_128_hexdigest
except ImportError:  # (Pyodide: no xxhash wheel is loaded)
    from lab.pregel.xxh3 import xxh3_128_hexdigest

_HEX32 = re.compile(r"[0-9a-f]{32}")


def task_id(
    checkpoint_id: str, step: int, node: str, kind: str, parts: tuple[str, ...], namespace: str = ""
) -> str:
    """``kind`` is ``__pregel_pull`` (parts: the triggers) or ``__pregel_push`` (parts: the index);
    ``namespace`` is the graph's when it runs as a subgraph (``lab.pregel.subgraph``)."""
    where = f"{namespace}|{node}" if namespace else node
    key = bytes.fromhex(checkpoint_id.replace("-", ""))
    key += f"{where}{step}{node}{kind}{''.join(parts)}".encode()
    h = xxh3_128_hexdigest(key)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def interrupt_id(task_namespace: str, answered: int) -> str:
    """The id of a task's next interrupt, keyed by how many answers the task already has."""
    key = f"{task_namespace}|{answered}" if answered else task_namespace
    return xxh3_128_hexdigest(key.encode())


def is_interrupt_id(value: object) -> bool:
    return isinstance(value, str) and _HEX32.fullmatch(value) is not None
