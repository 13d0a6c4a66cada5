"""Worker commands that run the lab controller in the browser: one ``LabController`` per Web Worker.

The page drives the lab through one object, ``LabSession`` (``static/lab-session.mjs``), which sends
these commands (the protocol is documented in ``static/protocol.mjs``):

=============  ==============================  ==================================================
command        args                            result
=============  ==============================  ==================================================
lab            ``{name, args}``                the controller's answer to ``dispatch(name, args)``:
                                               ``{ok: true, result}`` or ``{ok: false, error}``
world_reply    ``{call, ok, result | error}``  ``{accepted}``: the page's answer to a world call
records_reply  ``{call, ok, result | error}``  ``{accepted}``: the page's answer to a records call
lab_info       ``{}``                          ``{process, storage, database, threads, delay}``
lab_configure  ``{delay}``                     the same, once the controller is rebuilt
=============  ==============================  ==================================================

**What lives where.** The worker is the process the lab kills, so it holds nothing that must
survive: the checkpoints and the controller's journal are in the IndexedDB database
:data:`DATABASE` (the saver's three stores plus the journal's, see ``lab.browser.idb_journal``),
and the paid API and SAR registry are the page's ledger, reached through
:class:`~lab.browser.page_world.PageWorld`. If IndexedDB is unavailable, the platform's restore
stage has already told the page so; the checkpoints and the journal then live in the page's memory
(:class:`~lab.browser.page_storage.PageStorage` and :class:`~lab.browser.page_journal.PageJournal`
over :class:`~lab.browser.page_records.PageRecords`): a crash keeps the thread, a reload loses it.

**Boot.** ``worker_api.restore`` (the "restore" boot stage) calls :func:`open_lab`: it opens the
database and, when the page names a graph (the worker's name: ``LabSession({graph})``,
``static/lab-session.mjs``), builds the controller over it and restores the session its journal
remembers; the stage's ``detail.lab`` lists the saved threads and that session. The graph is a module
of ``lab`` the page names (:func:`page_graph`: the lab page's is ``lab.aml.lab_page``), imported only
then: a page that names none (``/play``) has no controller until it loads a program
(:func:`use_profile`), and imports no graph it never shows.

**Events.** The controller's events go to the page as they are (``{type, seq, thread_id, ...}``),
and so do the world's calls (``{type: "world", call, op, args}``), through ``worker_api.emit``.
When another tab upgrades the database, this worker's connection closes and the page is told
(``{type: "storage", change: "versionchange", database}``, :func:`version_change_notice`).

**Crashes.** At an armed seam the controller emits ``crash_point`` and freezes; the page then
terminates this worker. Nothing here tries to survive that: the next worker opens the same
database and the page sends it ``lab`` ``{name: "restore"}``.
"""

from __future__ import annotations

import importlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pyodide.ffi import JsProxy

from lab.browser import idb, idb_journal
from lab.browser.idb_journal import IndexedDBJournal
from lab.browser.page_world import PageWorld
from lab.checkpoint import BaseCheckpointSaver, CheckpointSaver
from lab.checkpoint.indexeddb import IndexedDBSaver
from lab.checkpoint.indexeddb import create_stores as create_checkpoint_stores
from lab.controller import Journal, LabController
from lab.controller.command_table import Command
from lab.controller.profile import GraphProfile

if TYPE_CHECKING:
    from lab.browser.page_records import PageRecords

DATABASE = "checkpoint-lab-threads"
"""The IndexedDB database of the lab's threads: checkpoints and the controller's journal."""
SCHEMA_VERSION = 1
MAX_DELAY_S = 10.0
CLOSED_BY_UPGRADE = "The lab was updated in another tab: reload this page to go on"

Emit = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class PageGraph:
    """The graph a page's lab opens: its profile, the commands the page adds to the controller's, and
    how many seconds each node works (a module's ``PROFILE``, ``COMMANDS`` and ``DELAY``)."""

    profile: GraphProfile
    commands: dict[str, Command]
    delay: float


@dataclass
class _Lab:
    """This worker's lab: where it stores, how it reaches the page, and its one controller."""

    process: dict[str, Any] = field(
        default_factory=lambda: {"id": uuid.uuid4().hex[:12], "started_at": time.time()}
    )
    emit: Emit | None = None
    saver: BaseCheckpointSaver | None = None
    journal: Journal | None = None
    database: str | None = None  # None when the lab keeps everything in memory
    world: PageWorld | None = None
    records: PageRecords | None = None  # the page's records, when the lab keeps everything in memory
    graph: PageGraph | None = None  # the graph the page named; None: none until a program loads
    controller: LabController | None = None
    delay: float = 0.0
    commands_run: int = 0
    closed_by_upgrade: str | None = None  # the database another tab upgraded (its connection closed)


_lab = _Lab()


def _upgrade(db: JsProxy, old_version: int, _tx: JsProxy) -> None:
    """Schema version 1: the checkpoint saver's stores and the journal's, in one database."""
    if old_version < 1:
        create_checkpoint_stores(db)
        idb_journal.create_stores(db)


async def open_lab(emit: Emit, *, indexeddb: bool, graph: str | None = None) -> dict[str, Any]:
    """Open the lab's storage and, if the page named a ``graph`` (:func:`page_graph`), build its
    controller and restore the session the journal remembers.

    ``emit`` posts an event to the page; ``indexeddb`` says whether the platform could open IndexedDB.
    Returns ``{"lab": {...}}`` for the restore stage's detail: :func:`lab_info` plus ``session`` (None
    without a graph).
    """
    named = page_graph(graph) if graph is not None else None  # a bad name fails before storage opens
    if indexeddb:
        await open_storage(emit, DATABASE)
    else:
        # here, not above: only a lab without IndexedDB (a cross-site frame) needs them
        from lab.browser.page_journal import PageJournal
        from lab.browser.page_records import PageRecords
        from lab.browser.page_storage import PageStorage

        _lab.records = PageRecords(emit)  # in the page's memory: they outlive this worker
        _lab.saver, _lab.journal = CheckpointSaver(PageStorage(_lab.records)), PageJournal(_lab.records)
        _lab.database = None
    _lab.emit = emit
    _lab.world = PageWorld(emit)
    _lab.graph = named
    restored = await _build_controller(named.delay) if named is not None else None
    return {"lab": {**await lab_info({}), "session": restored}}


def page_graph(name: str) -> PageGraph:
    """The graph the module ``name`` of ``lab`` defines (``PROFILE``, and optionally ``COMMANDS`` and
    ``DELAY``), imported now; a name that is no such module is refused by name."""
    if not isinstance(name, str) or name.split(".")[0] != "lab":
        raise ValueError(f"the graph must be named by a module of lab that defines PROFILE, not {name!r}")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        raise ValueError(f"no graph module {name!r}: {error}") from None
    profile = getattr(module, "PROFILE", None)
    if not isinstance(profile, GraphProfile):
        raise ValueError(f"{name!r} names no graph: it defines no PROFILE (a GraphProfile)")
    return PageGraph(profile, getattr(module, "COMMANDS", {}), float(getattr(module, "DELAY", 0.0)))


async def open_storage(emit: Emit, database: str) -> None:
    """Keep this worker's checkpoints and journal in the IndexedDB database ``database`` (the lab's,
    or the playground's own, ``lab.browser.play_rpc``), with the lab's schema."""
    notice = version_change_notice(emit, database)
    db = await idb.open_database(database, SCHEMA_VERSION, _upgrade, notice)
    _lab.saver, _lab.journal, _lab.database = IndexedDBSaver(db), IndexedDBJournal(db), database


async def use_profile(profile: GraphProfile, database: str, program: str | None = None) -> LabController:
    """Make a controller over ``profile``'s graph this worker's (the playground's loaded program),
    over the worker's world and, where IndexedDB is open, the database ``database`` (without it, the
    page's records, as for the lab); nothing is restored (the page says which thread). ``program`` is
    the page's name for the program: each view says it (its ``owner``), so the page never draws one
    program's view under another's."""
    if _lab.world is None:  # the lab must be open: its world (and, without IndexedDB, its records) are reused
        raise RuntimeError(NOT_OPEN)
    if _lab.database not in (None, database):
        await open_storage(_lab.emit, database)
    _lab.controller = LabController(
        _lab.saver, _lab.world, _forward, profile=profile, journal=_lab.journal, delay=0
    )
    _lab.controller.state.program = program
    return _lab.controller


async def _forward(event: dict[str, Any]) -> None:
    """The controller's events go to the page as they are."""
    _lab.emit(event)


def version_change_notice(emit: Emit, database: str) -> Callable[[], None]:
    """What to do when another tab upgrades ``database`` (the connection is closed by then): tell the
    page, which asks the learner to reload (``{type: "storage", change: "versionchange", database}``),
    and refuse every later command with the same advice instead of failing inside a run."""

    def closed() -> None:
        _lab.closed_by_upgrade = database
        emit({"type": "storage", "change": "versionchange", "database": database})

    return closed


async def _build_controller(delay: float) -> dict[str, Any] | None:
    """A new controller over this worker's storage and world and the page's graph; the session it
    restored, if any."""
    graph = _named_graph()
    _lab.controller = LabController(
        _lab.saver,
        _lab.world,
        _forward,
        profile=graph.profile,
        journal=_lab.journal,
        delay=delay,
        commands=graph.commands,
    )
    _lab.delay = delay
    # Only read: this may be a spare booting while the active process runs the thread. LabSession
    # sends the real "restore" when this process becomes the active one.
    answer = await _lab.controller.dispatch("restore", {"observe_only": True})
    if not answer["ok"]:
        raise RuntimeError(f"the lab could not restore its session: {answer['error']['message']}")
    return answer["result"]["session"]


def own_saver() -> CheckpointSaver:
    """This worker's own saver (IndexedDB, or the page's records): where a learner's forks go."""
    if not isinstance(_lab.saver, CheckpointSaver):
        raise RuntimeError(NOT_OPEN)
    return _lab.saver


def own_controller() -> LabController:
    """This worker's controller: its journal, its graph's profile and its open thread (what a class
    room's commands read: ``lab.browser.room_rpc``, ``lab.browser.room_publish``)."""
    return _controller()


NOT_OPEN = "the lab is not open yet: the worker opens it in its 'restore' boot stage"
NO_GRAPH = "this lab has no graph yet: its page named none, and no program is loaded (play_load)"


def _controller() -> LabController:
    if _lab.controller is None:
        raise RuntimeError(NOT_OPEN if _lab.world is None else NO_GRAPH)
    return _lab.controller


def _named_graph() -> PageGraph:
    if _lab.graph is None:
        raise RuntimeError(NOT_OPEN if _lab.world is None else NO_GRAPH)
    return _lab.graph


# --------------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------------


async def lab(args: dict[str, Any]) -> dict[str, Any]:
    """Run the controller command ``args["name"]`` with the keyword arguments ``args["args"]``."""
    name, command_args = args.get("name"), args.get("args") or {}
    if not isinstance(name, str):
        raise ValueError("'name' must be the name of a controller command, e.g. 'start'")
    if not isinstance(command_args, dict):
        raise ValueError("'args' must be an object of the command's keyword arguments")
    controller = _controller()
    if _lab.closed_by_upgrade is not None:
        return {"ok": False, "error": {"type": "StorageClosed", "message": CLOSED_BY_UPGRADE}}
    _lab.commands_run += 1
    return await controller.dispatch(name, command_args)


async def world_reply(args: dict[str, Any]) -> dict[str, Any]:
    """The page's answer to a world call: ``{call, ok: true, result}`` or ``{call, ok: false, error}``."""
    if _lab.world is None:
        raise RuntimeError("the lab is not open yet, so no world call is waiting")
    return {"accepted": _lab.world.reply(args)}


async def records_reply(args: dict[str, Any]) -> dict[str, Any]:
    """The page's answer to a records call: ``{call, ok: true, result}`` or ``{call, ok: false, error}``."""
    if _lab.records is None:
        raise RuntimeError("the lab keeps no records in the page, so no records call is waiting")
    return {"accepted": _lab.records.reply(args)}


async def lab_info(_args: dict[str, Any]) -> dict[str, Any]:
    """Who answers (this Python process) and what it stores where."""
    journal = _lab.journal
    return {
        "process": _lab.process,
        "storage": "memory" if _lab.database is None else "indexeddb",
        "database": _lab.database,
        "threads": await journal.sessions() if journal is not None else [],
        "delay": _lab.delay,
    }


async def lab_configure(args: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the controller with nodes that work ``args["delay"]`` seconds each (tests use a short
    one). Allowed only before this worker's first ``lab`` command, so no run can be in progress."""
    delay = args.get("delay")
    if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= MAX_DELAY_S:
        raise ValueError(f"'delay' must be a number of seconds from 0 to {MAX_DELAY_S:g}")
    if _lab.commands_run:
        raise RuntimeError("configure the lab before its first command: this worker already ran one")
    _named_graph()  # the lab must be open over the page's graph: its storage and world are reused
    await _build_controller(float(delay))
    return await lab_info({})


COMMANDS = {
    "lab": lab,
    "world_reply": world_reply,
    "records_reply": records_reply,
    "lab_info": lab_info,
    "lab_configure": lab_configure,
}
