"""The lab's state: everything a command may read or change, in one plain value, and the shape of
the controller the commands are functions of.

LangGraph keeps a thread's state in its checkpoints, and the saver is the one place to read it.
The lab controller adds what no checkpoint holds and what lives only as long as its Python process:
the thread the learner chose (the session), the run going on now (:class:`Run`), the crash armed
for the next run (:class:`CrashPoint`) and the report of the one that happened, which tab writes the
thread, how many events were sent, and the answer to the last command a learner did.
:class:`LabState` is that, and nothing else: the commands (:mod:`lab.controller.command_table`)
read and change it, the run driver (:mod:`lab.controller.run_driver`) sets ``run`` and
``crash_report``, the rules read it through :class:`~lab.controller.facts.ThreadFacts`.

:class:`Lab` is what a command gets: this state, the graph and its profile, and the services
outside the state (saver, world, journal behind the process's fence; the run driver; ``emit``).
:class:`~lab.controller.controller.LabController` is the one implementation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from lab.controller.journal import Journal
from lab.controller.process import Process, ProcessSaver, ProcessWorld
from lab.controller.profile import GraphProfile, SeamHook
from lab.controller.session import Session, Until, said
from lab.graph import CompiledStateGraph
from lab.pregel.seams import Seam

SeamOf = tuple[str, str | None]
"""A seam and its node, e.g. ``("put_writes", "fetch_prices")``."""


@dataclass(frozen=True)
class CrashPoint:
    """Where the next run dies: a seam name, optionally of one node and of one step.

    ``after`` (one :data:`SeamOf`, or a tuple of them) makes the crash fire only once those seams
    have happened in the run too: parallel siblings, and under ``durability="async"`` the saves
    running in the background, go at whatever pace the machine gives them, and a lesson or a test
    needs one order. The process dies when the last of them happens: if that is the crash's own
    seam, it waits for the others (at most :data:`AFTER_WAIT_S`); if it is one of ``after``, that
    seam holds where it is until the crash's seam comes (see ``RunDriver._hold_for_crash``)."""

    seam: str
    node: str | None = None
    step: int | None = None
    after: SeamOf | tuple[SeamOf, ...] | None = None

    def matches(self, seam: Seam) -> bool:
        return (
            seam.name == self.seam
            and (self.node is None or seam.node == self.node)
            and (self.step is None or seam.step == self.step)
        )

    def waits_for(self) -> tuple[SeamOf, ...]:
        """The seams ``after`` names, as a tuple of ``(seam, node)``."""
        if self.after is None:
            return ()
        if isinstance(self.after[0], tuple):
            return self.after  # type: ignore[return-value]
        return (self.after,)  # type: ignore[return-value]


def crash_after(after: Any) -> SeamOf | tuple[SeamOf, ...] | None:
    """``arm_crash``'s ``after`` as a :class:`CrashPoint` keeps it: ``[seam, node]`` or a list of them."""
    if after is None:
        return None
    if _is_seam_of(after):
        return (after[0], after[1])
    if isinstance(after, list | tuple) and after and all(_is_seam_of(one) for one in after):
        return tuple((one[0], one[1]) for one in after)
    raise said("input.after_shape", "after must be [seam, node], got {given}", given=repr(after))


def _is_seam_of(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2 and not isinstance(value[0], list | tuple)


@dataclass
class Run:
    """One ``ainvoke`` of the graph, as the controller drives it."""

    number: int
    kind: str  # input | continue | resume | answer | replay
    thread_id: str
    durability: str
    until: Until
    stopped: asyncio.Future[dict[str, Any]]  # resolved when the run pauses, stops, ends or crashes
    frame: str | None  # the checkpoint the run stood on when last (re)started: pause at a new one
    task: asyncio.Task[None] | None = None
    follow: SeamHook | None = None  # the graph profile's hook: tells the nodes about their run
    gate: asyncio.Event | None = None  # set while paused; setting it releases the run
    paused_at: str | None = None
    paused: dict[str, Any] | None = None  # where it pauses: {"step", "checkpoint_id", "next"}
    closing: bool = False
    step: int = -1  # the step running now (from the last step_start seam)
    seen: set[tuple[str, str | None]] = field(default_factory=set)  # (seam, node) met so far
    progressed: asyncio.Event = field(default_factory=asyncio.Event)  # set and cleared at every seam
    dying: asyncio.Event = field(default_factory=asyncio.Event)  # set when the armed crash's seam is met


@dataclass
class LabState:
    """One lab session's state, as plain fields (see the module docstring)."""

    session: Session | None = None
    run: Run | None = None  # the live ainvoke (running or paused at the gate)
    crash: CrashPoint | None = None  # the crash armed for the next run
    crash_report: dict[str, Any] | None = None  # where this process was killed, once it was
    writer: str = "here"  # who holds the thread's lock across tabs (set_writer; the page knows)
    seq: int = 0  # events sent so far: a view carries it so the page drops a stale one
    program: str | None = None  # the program this controller drives, as the page named it (a view's owner)
    last_answer: dict[str, Any] | None = None  # to the last command that is not a read


class Driver(Protocol):
    """What commands ask of the run driver (:class:`~lab.controller.run_driver.RunDriver`)."""

    async def start_run(
        self, kind: str, request: Any, config: dict[str, Any], until: Until, durability: str | None
    ) -> dict[str, Any]: ...

    async def release(self, run: Run, until: Until) -> dict[str, Any]: ...

    async def close_run(self) -> None: ...


class Lab(Protocol):
    """The controller as its commands, reads and run driver see it."""

    state: LabState
    profile: GraphProfile
    process: Process
    saver: ProcessSaver
    world: ProcessWorld
    journal: Journal
    driver: Driver
    delay: float
    commands: Mapping[str, Any]
    """The page's commands by name (``lab.controller.command_table``), with any plugged in from above."""

    def emit(self, event: dict[str, Any], *, last_words: bool = False) -> Awaitable[None]: ...

    def graph_for(self, variant: str, storage: str = ...) -> CompiledStateGraph: ...

    def diagram_for(self, variant: str, storage: str = ...) -> dict[str, Any]: ...
