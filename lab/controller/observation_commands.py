"""What the lab observed: the ledger of the outside world, execution counts, and ``view()``.

LangGraph reports a run through ``get_state`` and ``stream``; what a node did to the world outside
(a paid API charged twice) no checkpoint records. The lab keeps that in the world's ledger and in
the journal, and ``view()`` computes everything the page draws from them and from the saved
checkpoints (:mod:`lab.controller.view`). ``ledger``, ``executions``, ``view``. A part of
``LabController``.
"""

from __future__ import annotations

from typing import Any

from lab.aml.graph import VARIANTS, describe_graph
from lab.controller.commands import command
from lab.controller.journal import executions_report
from lab.controller.ledger_rules import annotate_ledger
from lab.controller.seam_catalog import SEAMS
from lab.controller.session import DEFAULT_DURABILITY, DURABILITIES
from lab.controller.view import build_view


class ObservationCommands:
    """``ledger``, ``executions`` and ``view`` (a part of ``LabController``)."""

    @command
    async def ledger(self) -> dict[str, Any]:
        """Every request the paid API and the SAR registry received, repeated charges flagged."""
        rows = await self.world.entries()
        return annotate_ledger(rows, await self._journals_of(rows))

    @command
    async def executions(self) -> dict[str, Any]:
        """How often each node ran over the thread's life; restored vs re-run on the last resume."""
        session = self._require_session()
        return executions_report(await self.journal.records(session.thread_id))

    @command
    async def view(self) -> dict[str, Any]:
        """Everything the page draws, computed here (see :mod:`lab.controller.view`)."""
        frames = await self._frames() if self.session else []
        facts = await self._facts(frames)
        rows = await self.world.entries()
        journals = await self._journals_of(rows)
        variant = self.session.variant if self.session else VARIANTS[0]
        return build_view(
            seq=self._seq,
            facts=facts,
            diagram=describe_graph(self.graphs[variant]),
            frames=frames,
            ledger_rows=rows,
            journals=journals,
            defaults={
                "variant": VARIANTS[0],
                "variants": VARIANTS,
                "durability": DEFAULT_DURABILITY,
                "durabilities": DURABILITIES,
                "seams": SEAMS,
                "delay": self.delay,
            },
        )
