"""LangGraph's remedy for the double charge, in the playground: the charge wrapped in a ``@task``.

The program's ``buy`` node (a plain ``def``) pays for the export through ``lab.world.charge`` inside a
task, then asks for approval. Approving re-runs the node from its top, but the task's saved result
comes back from the checkpoint: one charge. A crash *inside* the task, after the charge and before
its result is saved, is the window the task does not close: the re-run charges again.

And a Functional API program whose graph is an ``@entrypoint``: the lab drives it as any graph (its one
node is the entrypoint's function), through an interrupt in a task to what the function returned.
"""

from __future__ import annotations

import pytest

from gallery import FOLDER
from lab.playground import load_program
from lab.playground.script import ScriptCalls, run_script
from lab.world import use_recorder
from tests.test_playground_lab import PlayLab, play

PAYING_TASK = (FOLDER / "charge_in_a_task.py").read_text(encoding="utf-8")
"""The gallery's program: ``buy`` (a plain ``def``) calls the task ``pay_for_export``, then asks."""


async def charges(lab: PlayLab) -> list[int]:
    return [row["amount_cents"] for row in (await lab.do("ledger"))["entries"]]


async def task_states(lab: PlayLab) -> list[tuple[str, str]]:
    """The view's rows for the tasks ``buy`` called in its latest execution (lab.controller.task_rows)."""
    return [(row["name"], row["state"]) for row in (await lab.do("view"))["task_calls"].get("buy", [])]


async def test_approving_re_runs_the_node_but_not_the_task() -> None:
    lab = play(PAYING_TASK)
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default")
        asked = await lab.do("run")
        assert asked["status"] == "interrupted"
        assert await task_states(lab) == [("pay_for_export", "saved")]  # a plain def task, run at its call
        done = await lab.do("answer", value=True)
    assert done["status"] == "done"
    assert done["values"]["receipt"] == "ch_0001"
    assert await charges(lab) == [2500]
    assert await task_states(lab) == [("pay_for_export", "restored")]


Rows = list[tuple[str, str]]


async def crash_in_the_task_at(seam: str) -> tuple[PlayLab, Rows, Rows]:
    """Crash at ``seam`` of ``buy`` (the charge made inside its task ``pay_for_export`` meets the node's
    ``side_effect`` seams: a call site names the node), reboot and resume, then approve; with the task's
    rows after the crash and after the resume."""
    lab = play(PAYING_TASK)
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default", durability="sync")  # (the input is saved before the crash)
        await lab.do("arm_crash", seam=seam, node="buy")
        crashed = await lab.do("run")
        assert (crashed["status"], crashed["crash_point"]["seam"]) == ("crashed", seam)
        await lab.crash_and_reboot()
        after_crash = await task_states(lab)
        asked = await lab.do("resume")
        assert asked["status"] == "interrupted"
        after_resume = await task_states(lab)
        done = await lab.do("answer", value=True)
    assert done["status"] == "done"
    return lab, after_crash, after_resume


async def test_a_crash_before_the_charge_leaves_the_request_unsent() -> None:
    lab, after_crash, _ = await crash_in_the_task_at("side_effect")
    assert await charges(lab) == [2500]
    assert after_crash == [("pay_for_export", "crashed")]


async def test_a_crash_after_the_charge_before_the_task_is_saved_charges_again() -> None:
    lab, after_crash, after_resume = await crash_in_the_task_at("side_effect_done")
    assert await charges(lab) == [2500, 2500]
    assert (after_crash, after_resume) == ([("pay_for_export", "crashed")], [("pay_for_export", "rerun")])


async def test_a_crash_once_the_task_is_saved_does_not_charge_again() -> None:
    """Crashed as the node's interrupt is saved (its task's result was saved before): the node runs
    again on resume, its task's result comes back from the checkpoint."""
    lab, after_crash, after_resume = await crash_in_the_task_at("put_writes")
    assert await charges(lab) == [2500]
    assert (after_crash, after_resume) == ([("pay_for_export", "saved")], [("pay_for_export", "restored")])


FEEDBACK = """\
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import Command, interrupt


@task
def draft(topic):
    return f"An essay about {topic}"


@entrypoint(checkpointer=InMemorySaver())
def workflow(topic):
    \"\"\"Write an essay and ask for a review.\"\"\"
    essay = draft(topic).result()
    review = interrupt(f"Review: {essay}")
    return f"{essay} ({review})"


if __name__ == "__main__":
    config = {"configurable": {"thread_id": "1"}}
    print(workflow.invoke("cats", config))
    print(workflow.invoke(Command(resume="approved"), config))
"""
"""The docs' Functional API review workflow (``use-functional-api``), shortened: a task drafts, the
entrypoint asks."""


def test_an_entrypoint_program_loads_with_the_entrypoint_as_its_graph() -> None:
    loaded = load_program(FEEDBACK)
    assert (loaded.graph_name, type(loaded.graph).__name__, loaded.example) == (
        "workflow",
        "EntrypointGraph",
        "cats",
    )


async def test_the_lab_drives_an_entrypoint_through_its_interrupt_to_its_return_value() -> None:
    lab = play(FEEDBACK)
    diagram = (await lab.do("catalog"))["graphs"]["default"]
    (node,) = [node for node in diagram["nodes"] if node["kind"] == "node"]
    assert diagram["edges"] == [{"source": "__start__", "target": "workflow"}]  # and on to END, dotted
    assert (node["id"], node["interrupts"], node["summary"]) == (
        "workflow",
        True,
        "Write an essay and ask for a review.",
    )
    await lab.do("start", case_id="default")
    asked = await lab.do("run")
    assert asked["status"] == "interrupted"
    assert asked["interrupts"][0]["value"] == "Review: An essay about cats"
    done = await lab.do("answer", value="approved")
    assert (done["status"], done["values"]) == ("done", "An essay about cats (approved)")
    view = await lab.do("view")  # every panel's data, the frames' diffs with a plain value among them
    last = view["frames"][-1]
    essay = "An essay about cats (approved)"
    assert (last["values"], last["diff"]["values"]["added"]) == (essay, {"__end__": essay})


async def test_a_fork_of_an_entrypoint_writes_its_value_whole() -> None:
    """An entrypoint's state is what its function returned: a fork writes the object given as that
    value (``update_state`` on an entrypoint), there being no state keys to check it against."""
    lab = play(FEEDBACK)
    await lab.do("start", case_id="default")
    await lab.do("run")
    done = await lab.do("answer", value="approved")
    forked = await lab.do("fork", checkpoint_id=done["checkpoint_id"], values={"edited": True})
    assert forked["frame"]["values"] == {"edited": True}
    thread = {"configurable": {"thread_id": lab.controller.state.session.thread_id}}
    assert (await lab.controller.graph_for("default").aget_state(thread)).values == {"edited": True}


async def test_an_entrypoints_script_runs_as_written_printing_what_langgraph_prints() -> None:
    lab = play(FEEDBACK)
    calls = ScriptCalls(lab.controller, lab.program.graph)
    result = await run_script(lab.program.script, vars(lab.program.module), calls)
    assert result.error is None, result.error
    asked, answered = result.output.splitlines()
    assert asked.startswith("{'__interrupt__': [Interrupt(value='Review: An essay about cats', id=")
    assert answered == "An essay about cats (approved)"


def test_an_entrypoint_running_another_over_an_async_only_saver_is_refused_with_its_remedy() -> None:
    """The browser's saver answers only through the event loop, which a plain ``def`` entrypoint
    blocking on ``inner.invoke(...)`` holds: refused when decorated, with the remedy an entrypoint has
    (``async def`` and ``await inner.ainvoke(...)``; no node to add the subgraph as)."""
    from lab.func import entrypoint
    from lab.graph.subgraphs import SyncSubgraphCallRefused
    from tests.test_subgraphs import async_only_saver

    inner = entrypoint()(lambda x: x)

    def outer(x: int) -> int:
        return inner.invoke(x)

    with pytest.raises(
        SyncSubgraphCallRefused, match=r"make the node `async def` and `await sub.ainvoke"
    ) as no:
        entrypoint(checkpointer=async_only_saver())(outer)
    assert "add_node" not in str(no.value)


def test_an_entrypoint_running_another_is_the_graph_and_the_inner_one_is_not() -> None:
    source = (
        "from langgraph.func import entrypoint\n\n\n"
        "@entrypoint()\ndef double(x: int) -> int:\n    return 2 * x\n\n\n"
        "@entrypoint()\ndef main(x: int) -> int:\n    return double.invoke(x) + 1\n"
    )
    loaded = load_program(source)
    assert loaded.graph_name == "main"
    assert loaded.graph.invoke(3) == 7


async def test_the_gallerys_side_effect_outside_a_task_is_made_again_and_flagged() -> None:
    """LangGraph's durable-execution pitfall: the e-mail the workflow sends itself goes again when it
    resumes (the ledger flags it), the charge inside a task does not."""
    lab = play((FOLDER / "func_side_effect_outside_a_task.py").read_text(encoding="utf-8"))
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default")
        assert (await lab.do("run"))["status"] == "interrupted"
        done = await lab.do("answer", value=True)
    assert (done["status"], done["values"]["approved"]) == ("done", True)
    ledger = await lab.do("ledger")
    assert [row["kind"] for row in ledger["entries"]] == ["email", "charge", "email"]
    (twice,) = ledger["duplicates"]
    assert (twice["label"], twice["causes"]) == ("sent ×2", ["interrupt"])  # the answer re-ran it


async def test_the_gallerys_workflow_resumed_after_an_error_pays_its_lookup_once() -> None:
    lab = play((FOLDER / "func_resume_after_error.py").read_text(encoding="utf-8"))
    with use_recorder(lab.ledger):
        await lab.do("start", case_id="default")
        failed = await lab.do("run")
        assert (failed["status"], failed["error"]["message"]) == ("error", "the sanctions service timed out")
        done = await lab.do("resume")
    assert (done["status"], done["values"]) == ("done", {"receipt": "ch_0001", "screening": "clear"})
    assert await charges(lab) == [400]
