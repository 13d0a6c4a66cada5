"""The storage panel's commands: the bytes each thread stored, and ``prune``.

LangGraph's savers store a channel's value only when its version changed, and
``prune(thread_ids, strategy="keep_latest")`` keeps a thread's newest checkpoint only. ``storage``
reports the current thread's bill checkpoint by checkpoint against naive full snapshots, ``prune``
prunes it (:mod:`lab.controller.storage_panel`). A part of ``LabController``.
"""

from __future__ import annotations

from typing import Any

from lab.controller.commands import command


class StorageCommands:
    """``storage`` and ``prune`` (a part of ``LabController``)."""

    @command
    async def storage(self) -> dict[str, Any]:
        """``{"threads", "thread"}``: every thread's bytes, and the current thread's bill checkpoint by
        checkpoint, its growth against naive full snapshots, and what ``prune`` would keep."""
        # here, not above: the panel's reckoning is imported when it is first opened, not by every boot
        from lab.controller.storage_panel import storage_report

        thread_id = self.session.thread_id if self.session else None
        return await storage_report(self.saver.saver, self._graph(), thread_id)

    @command
    async def prune(self) -> dict[str, Any]:
        """Prune the current thread to its newest checkpoint (``prune(strategy="keep_latest")``, its
        delta values stored whole first); answers with ``storage()``'s report."""
        from lab.controller.storage_panel import prune_thread, storage_report  # here: see storage

        self._require_idle()
        self.process.check()
        await prune_thread(self.saver.saver, self._graph(), self._require_session().thread_id)
        return await storage_report(self.saver.saver, self._graph(), self._require_session().thread_id)
