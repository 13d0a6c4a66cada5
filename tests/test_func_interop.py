"""A Functional API thread crosses the border (``lab.interop``) both ways and resumes there: the
task that charged before the interrupt is not run again on the other side, because its
``__return__`` write (keyed by a task id both runtimes derive alike) travels with the thread."""

import asyncio
from collections import Counter
from types import ModuleType
from typing import Any

from langgraph import func as lg_func  # real LangGraph, the oracle ([test] extra): missing, the run fails
from langgraph import types as lg_types
from langgraph.checkpoint import memory as lg_memory

from lab import func as lab_func
from lab import types as lab_types
from lab.checkpoint.memory import InMemorySaver as LabSaver
from lab.controller.thread_file import export_thread, import_thread, read_thread_file
from lab.interop import from_langgraph, to_langgraph

THREAD = {"configurable": {"thread_id": "border"}}


def export_flow(func: ModuleType, types: ModuleType, saver: Any, counts: Counter[str]) -> Any:
    """The same program on either runtime: charge in a task, then ask for approval."""

    @func.task
    def charge(amount: int) -> str:
        counts["charge"] += 1
        return f"charged {amount}"

    @func.entrypoint(checkpointer=saver)
    def export(case: str) -> dict:
        receipt = charge(100).result()
        return {"receipt": receipt, "answer": types.interrupt(f"approve {case}?")}

    return export


def test_a_langgraph_functional_thread_resumes_in_the_lab() -> None:
    counts: Counter[str] = Counter()
    lg_saver = lg_memory.InMemorySaver()
    export_flow(lg_func, lg_types, lg_saver, counts).invoke("ACME-1", THREAD)
    data = asyncio.run(from_langgraph(lg_saver, "border"))

    lab_saver = LabSaver()
    asyncio.run(import_thread(lab_saver, read_thread_file(data)))
    resumed = export_flow(lab_func, lab_types, lab_saver, counts).invoke(
        lab_types.Command(resume="yes"), THREAD
    )
    assert resumed == {"receipt": "charged 100", "answer": "yes"}
    assert counts["charge"] == 1


def test_a_lab_functional_thread_resumes_in_langgraph() -> None:
    counts: Counter[str] = Counter()
    lab_saver = LabSaver()
    export_flow(lab_func, lab_types, lab_saver, counts).invoke("ACME-1", THREAD)
    data = asyncio.run(export_thread(lab_saver, "border"))

    lg_saver = lg_memory.InMemorySaver()
    asyncio.run(to_langgraph(data, lg_saver))
    resumed = export_flow(lg_func, lg_types, lg_saver, counts).invoke(lg_types.Command(resume="yes"), THREAD)
    assert resumed == {"receipt": "charged 100", "answer": "yes"}
    assert counts["charge"] == 1
