"""The worker's asyncio event loop: Pyodide's ``WebLoop``, running ready callbacks the way asyncio does.

No LangGraph concept: this is the platform under the runtime. Every ``await`` in the lab's Python
ends with a callback made ready (``loop.call_soon``): a task's next step, a future's done-callback.
CPython's asyncio runs all the callbacks that are ready in one turn of its loop, at once. Pyodide's
``WebLoop`` gives each one a new JavaScript function and *two* browser tasks: one to schedule it, and
one that Pyodide waits before it enters Python with JavaScript Promise Integration (so that the
callback could suspend in ``run_sync``). On the lab's hot path - a saver call awaiting the end of
its IndexedDB transaction - that was 0.2-0.4 ms per ``await`` on a quiet machine and about 1 ms under
load, against 0.1 ms or less on this loop (``bench/event_loop.py``, ``bench/RESULTS.md``).

:func:`install` turns the loop Pyodide made into a :class:`BatchingWebLoop`, whose rules are:

1. ``call_soon`` queues the callback; the first one queued arms a *drain*.
2. A drain runs, in order, the callbacks that were queued when it began (asyncio's ``_run_once``).
3. Armed from JavaScript - a promise settled, an IndexedDB event fired, outside any drain - the
   drain runs as a microtask: Python resumes right after the JavaScript that woke it.
4. Armed by Python during a drain (``await asyncio.sleep(0)``, a task's next step) the drain waits
   for the next browser task, so Python that keeps scheduling itself never starves the worker's
   messages: the page can always be heard.
5. Callbacks are plain calls into Python, as in CPython: a blocking call (``time.sleep``) blocks the
   loop, and ``run_sync`` is not available. The lab needs neither: the AML graph's nodes are
   ``async def``, and sync nodes of one step run one after another anyway (docs/LANGGRAPH.md).

Timers (``call_later`` with a delay, ``asyncio.sleep(1)``) are ``WebLoop``'s own.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import deque
from collections.abc import Callable
from typing import Any

from js import queueMicrotask
from pyodide.ffi import create_proxy
from pyodide.webloop import WebLoop
from pyodide_js._api import scheduleCallback


class BatchingWebLoop(WebLoop):
    """``WebLoop`` with :meth:`call_soon` queued and drained in batches (rules 1-5 above)."""

    _ready: deque[asyncio.Handle]
    _armed: bool  # a drain is scheduled and has not begun
    _draining: bool  # a drain is running the ready callbacks
    _drain_from_js: Any  # the JavaScript function that calls _drain

    def _start_batching(self) -> None:
        self._ready = deque()
        self._armed = False
        self._draining = False
        self._drain_from_js = create_proxy(self._drain)

    def call_soon(  # type: ignore[override]
        self,
        callback: Callable[..., Any],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> asyncio.Handle:
        handle = asyncio.Handle(callback, args, self, context=context)
        self._ready.append(handle)
        self._arm()
        return handle

    def _arm(self) -> None:
        if self._armed:
            return
        self._armed = True
        if self._draining:
            scheduleCallback(self._drain_from_js, 0)  # rule 4: the next browser task
        else:
            queueMicrotask(self._drain_from_js)  # rule 3: right after the JavaScript that woke Python

    def _drain(self) -> None:
        self._armed = False
        self._draining = True
        self._install_running_loop()
        self._install_asyncgen_hooks()
        try:
            for _ in range(len(self._ready)):
                handle = self._ready.popleft()
                if not handle.cancelled():
                    self._run_handle(handle)
        finally:
            if self._ready:  # left behind by SystemExit (callbacks queued while draining armed already)
                self._arm()
            self._draining = False

    def _run_handle(self, handle: asyncio.Handle) -> None:
        """Run one callback; ``SystemExit`` and ``KeyboardInterrupt`` go where ``WebLoop`` sends them."""
        try:
            handle._run()
        except SystemExit as exit_:
            if self._system_exit_handler is None:
                raise
            self._system_exit_handler(exit_.code)
        except KeyboardInterrupt:
            if self._keyboard_interrupt_handler is None:
                raise
            self._keyboard_interrupt_handler()


def install() -> BatchingWebLoop:
    """Make the event loop Pyodide runs every task on a :class:`BatchingWebLoop`, and return it.

    The loop object stays the same - Pyodide holds it, and a second loop beside it would mix tasks -
    only its class changes. Call it with nothing queued, before the first task (the worker does, as it
    imports the lab); calling it again changes nothing.
    """
    loop = asyncio.get_event_loop()
    if not isinstance(loop, BatchingWebLoop):
        loop.__class__ = BatchingWebLoop
        loop._start_batching()
    return loop
