"""A lab controller on CPython as the page drives it, with what survives a simulated crash.

A simulated crash keeps what lives outside the process (saver, world, journal) and replaces the
controller, as the browser replaces the worker. Execution counts are checked against the truth:
every controller built wraps the compiled node functions and counts real calls.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from lab.aml.profile import AML_PROFILE
from lab.checkpoint import CheckpointSaver
from lab.controller import LabController
from lab.controller.journal import MemoryJournal
from lab.controller.profile import GraphProfile
from lab.controller.simulated_lab import SimulatedLab
from lab.graph import CompiledStateGraph
from lab.lessons.commands import LESSON_COMMANDS


class Lab(SimulatedLab):
    """A simulated lab (``lab.controller.simulated_lab``) that keeps the page's event log and counts
    every real call of a node function across its processes."""

    def __init__(
        self,
        saver: CheckpointSaver | None = None,
        journal: MemoryJournal | None = None,
        profile: GraphProfile = AML_PROFILE,
    ) -> None:
        self.events: list[dict[str, Any]] = []
        self.probe: Callable[[dict[str, Any]], Awaitable[None]] | None = None  # awaited on every event
        self.calls: Counter[str] = Counter()  # node function bodies entered, across controllers
        super().__init__(profile, saver=saver, journal=journal, commands=LESSON_COMMANDS)

    def boot(self) -> LabController:
        """A new process whose graphs count their node functions' calls, each graph as the controller
        builds it (when first asked for: a test builds only the variants it runs)."""
        controller = super().boot()
        build = controller.graph_for

        def graph_for(variant: str, storage: str = "full") -> CompiledStateGraph:
            fresh = (variant, storage) not in controller.graphs
            graph = build(variant, storage)
            if fresh:
                for name, node in graph.nodes.items():
                    if node.func is not None:
                        node.func = self.counted(name, node.func)
            return graph

        controller.graph_for = graph_for  # type: ignore[method-assign]
        return controller

    def counted(self, name: str, func: Any) -> Any:
        async def call(state: dict) -> Any:
            self.calls[name] += 1
            return await func(state)

        return call

    async def emit(self, event: dict[str, Any]) -> None:
        assert json.loads(json.dumps(event)) == event  # JSON-able, and nothing lost on the way
        self.events.append(event)
        if self.probe is not None:
            await self.probe(event)

    async def do(self, name: str, /, **args: Any) -> dict[str, Any]:
        """Send a command as the page does; fail the test on ``ok: false``."""
        answer = await self.dispatch(name, **args)
        json.dumps(answer)
        assert answer["ok"], answer
        return answer["result"]

    async def fail(self, name: str, **args: Any) -> dict[str, Any]:
        answer = await self.dispatch(name, **args)
        assert not answer["ok"], answer
        assert set(answer["error"]) >= {"type", "message"} and "Traceback" not in answer["error"]["message"]
        return answer["error"]

    async def crash_and_reboot(self) -> None:
        """The page terminates the worker and boots a new one over the same storage."""
        assert (await self.crash())["session"] is not None

    async def view(self) -> dict[str, Any]:
        return await self.do("view")

    async def frames(self) -> list[dict[str, Any]]:
        return (await self.do("frames"))["frames"]

    async def frame_where(self, **match: Any) -> dict[str, Any]:
        return next(f for f in await self.frames() if all(f[k] == v for k, v in match.items()))

    async def started(self) -> dict[str, int]:
        nodes = (await self.do("executions"))["nodes"]
        return {node: counts["started"] for node, counts in nodes.items() if node != "__start__"}

    async def assert_counts_are_true(self) -> None:
        """What the controller reports == what the runtime really executed."""
        assert await self.started() == dict(self.calls)

    def events_of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]


@pytest.fixture
async def lab() -> AsyncIterator[Lab]:
    yield Lab()
    leftovers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert leftovers == [], "a run outlived its test"
