"""Time travel: the thread's checkpoints as frames, replay from one, fork at one, switch branches.

LangGraph's time travel is ``get_state_history`` (every checkpoint of a thread), ``invoke(None,
config_with_checkpoint_id)`` (replay: a ``fork`` checkpoint, then that step's tasks run again),
``update_state(config_with_checkpoint_id, values, as_node)`` (an ``update`` checkpoint as a new child,
the thread's new head) and ``update_state(..., None, as_node="__copy__")`` (a copy of a checkpoint
next to it: the lab's ``checkout``). ``frames``, ``frame``, ``replay``, ``fork``, ``branches``,
``checkout``: each a function of the controller (``lab``), listed in
:mod:`lab.controller.command_table`.
"""

from __future__ import annotations

from typing import Any

from lab.controller import thread_reading as read
from lab.controller.frames import branch_tree, checkpoint_id_of, diff_frames, frame_of
from lab.controller.session import Until
from lab.controller.state import Lab
from lab.controller.validation import check_fork_size, check_fork_values
from lab.func import EntrypointGraph


async def frames(lab: Lab) -> dict[str, Any]:
    """Every checkpoint of the thread, oldest first."""
    session = read.require_session(lab)
    return {"thread_id": session.thread_id, "frames": await read.frames(lab)}


async def frame(lab: Lab, checkpoint_id: str) -> dict[str, Any]:
    """One checkpoint, and what changed since its parent."""
    graph = read.graph(lab)
    shown = frame_of(await read.saved(lab, checkpoint_id), graph)
    parent = await read.saved(lab, shown["parent_id"]) if shown["parent_id"] else None
    return {"frame": shown, "diff": diff_frames(frame_of(parent, graph) if parent else None, shown)}


async def replay(
    lab: Lab, checkpoint_id: str, until: Until = "end", durability: str | None = None
) -> dict[str, Any]:
    """Re-execute from an old frame: ``ainvoke(None, config_with_checkpoint_id)`` writes a
    fork checkpoint, then re-runs that step's tasks (saved writes are not reused)."""
    await travel_to(lab, checkpoint_id)
    config = read.thread_config(lab, checkpoint_id)
    return await lab.driver.start_run("replay", None, config, until, durability)


async def fork(
    lab: Lab, checkpoint_id: str, values: dict[str, Any], as_node: str | None = None
) -> dict[str, Any]:
    """Edit the state at an old frame: ``aupdate_state(config_with_id, values, as_node)``
    writes an ``update`` checkpoint as a new child of it, the thread's new head."""
    await travel_to(lab, checkpoint_id)
    graph = read.graph(lab)
    if isinstance(graph, EntrypointGraph):
        check_fork_size(values)  # its state is what its function returned: the object is written whole
    else:
        check_fork_values(values, graph.builder.state_schema)
    return await update_state(lab, checkpoint_id, values, as_node)


async def branches(lab: Lab) -> dict[str, Any]:
    """The thread's checkpoints as a tree by parent id, with the head marked."""
    return branch_tree(await read.frames(lab))


async def checkout(lab: Lab, checkpoint_id: str) -> dict[str, Any]:
    """Switch branches: make a copy of ``checkpoint_id`` the thread's head, so that the next
    thread-only run continues there. LangGraph has no "checkout"; the head is always the
    newest checkpoint, and ``update_state(config, None, as_node="__copy__")`` writes a ``fork``
    copy next to the checkpoint (same parent, same values) without running anything."""
    await travel_to(lab, checkpoint_id)
    return await update_state(lab, checkpoint_id, None, "__copy__")


async def travel_to(lab: Lab, checkpoint_id: str) -> None:
    """Close a paused run and check that the thread has ``checkpoint_id``."""
    read.require_session(lab)
    await lab.driver.close_run()
    await read.saved(lab, checkpoint_id)


async def update_state(
    lab: Lab, checkpoint_id: str, values: dict[str, Any] | None, as_node: str | None
) -> dict[str, Any]:
    """``aupdate_state`` at ``checkpoint_id``; the new checkpoint announced and answered as a frame."""
    graph = read.graph(lab)
    config = await graph.aupdate_state(read.thread_config(lab, checkpoint_id), values, as_node)
    written = frame_of(await read.saved(lab, checkpoint_id_of(config)), graph)
    await lab.emit({"type": "checkpoint", "run": None, "frame": written})
    return {"checkpoint_id": written["checkpoint_id"], "frame": written}
