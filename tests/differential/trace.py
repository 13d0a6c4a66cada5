"""Record what a learner sees while a scenario runs, then normalise it into comparable data.

A scenario talks to its graph only through a ``Trace`` (``t.invoke``, ``t.state``, ``t.update``,
``t.stream``...). Each call is recorded raw: its return value or the exception it raised. When the
scenario ends, ``Trace.finish`` appends the side-effect counters and, for every thread a checkpointed
graph touched, the checkpoint history (``get_state_history`` merged with the saver's ``list``, oldest
first), then ``Normaliser`` turns the whole record into plain JSON-able data:

* checkpoint ids -> ``C0, C1, ...`` (history checkpoints first, oldest first, then first-seen order);
* task ids -> ``<node>@<Ck>`` (the checkpoint whose snapshot lists the task), ``<null>`` for
  LangGraph's ``NULL_TASK_ID``, ``T0, T1, ...`` for ids no snapshot explains;
* interrupt ids -> ``I0, I1, ...`` in first-seen order; other uuid-like strings -> ``U0, U1, ...``;
* timestamps -> ``<ts>``; channel versions -> their integer part (the random suffix is dropped);
* exceptions -> type name, first builtin base class, first sentence of the message, notes;
* tuples -> ``{"<tuple>": [...]}``, sets -> ``{"<set>": [...]}`` (a list stays a list);
* chat messages -> ``{"message": <class name>, <field>: <value>...}`` (their ``model_dump()``), ids
  through the placeholders above;
* configs (``config``, ``parent_config``) -> every key kept; thread ids stay verbatim.

Only the *consistency* of ids is compared here (the same placeholder where LangGraph reuses an id):
checkpoint ids hold the clock, and task and interrupt ids derive from them. ``test_raw_ids.py``
compares the derived ids themselves, from checkpoint ids both runtimes are given.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .flavours import Flavour

NULL_TASK_ID = "00000000-0000-0000-0000-000000000000"
FAIL_AFTER_S = 0.05  # how long a failing node works before it raises
_UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b")
WIDTH = 108


def thread(thread_id: Any = "t1", **configurable: Any) -> dict:
    """A thread config, as a learner writes it."""
    return {"configurable": {"thread_id": thread_id, **configurable}}


def _fields(obj: Any) -> tuple[str, ...]:
    return getattr(obj, "_fields", ()) if isinstance(obj, tuple) else ()


def is_snapshot(obj: Any) -> bool:
    return _fields(obj)[:3] == ("values", "next", "config")


def is_task(obj: Any) -> bool:
    return _fields(obj)[:3] == ("id", "name", "path")


def is_message(obj: Any) -> bool:
    """A chat message (``type``, ``content`` and ``model_dump()``), of either library."""
    return (
        isinstance(getattr(obj, "type", None), str) and hasattr(obj, "content") and hasattr(obj, "model_dump")
    )


def checkpoint_id(config: dict | None) -> str | None:
    return ((config or {}).get("configurable") or {}).get("checkpoint_id")


@dataclass(frozen=True)
class Raised:
    """An exception as a learner sees it (its object is not kept: it is not comparable)."""

    type: str
    kind: str
    message: str
    notes: tuple[str, ...]

    @classmethod
    def of(cls, exc: BaseException) -> Raised:
        kind = next(c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins")
        return cls(type(exc).__name__, kind, gist(str(exc)), tuple(getattr(exc, "__notes__", ())))


def gist(message: str) -> str:
    """First sentence of the first line: the part of a message the spec pins down."""
    first_line = message.strip().split("\n", 1)[0]
    return first_line.split(". ", 1)[0].rstrip(".")


@dataclass(frozen=True)
class HistoryRow:
    """One checkpoint of a thread: its ``get_state_history`` snapshot and its saver tuple."""

    snapshot: Any  # StateSnapshot or None (checkpoint only listed by the saver)
    saved: Any  # CheckpointTuple or None (checkpoint only in the history)


class Trace:
    """The record of one scenario run against one flavour."""

    def __init__(self, fl: Flavour) -> None:
        self.fl = fl
        self.saver = fl.InMemorySaver()
        self.counts: Counter[str] = Counter()
        self.entries: list[tuple[str, Any]] = []
        self._calls = 0
        self._apps: dict[str, Any] = {}  # thread id -> last checkpointed graph that used it
        self._checkpointed: set[int] = set()

    # --- building -----------------------------------------------------------------------------

    def compile(self, builder: Any, *, checkpointer: bool = True, **kwargs: Any) -> Any:
        """``builder.compile`` with this trace's saver (``checkpointer=False``: no saver)."""
        app = builder.compile(checkpointer=self.saver if checkpointer else None, **kwargs)
        if checkpointer:
            self._checkpointed.add(id(app))
        return app

    def node(self, name: str, key: str = "log", fail_times: int = 0) -> Any:
        """A node that counts its runs and appends its name to ``key``; it raises
        ``ValueError('boom')`` on its first ``fail_times`` runs, after a short pause."""

        def run(state: dict) -> dict:
            self.counts[name] += 1
            if self.counts[name] <= fail_times:
                # Let parallel siblings finish first: LangGraph's sync runner cancels siblings that
                # have not *started* when a task fails, which would make the oracle timing-dependent.
                time.sleep(FAIL_AFTER_S)
                raise ValueError("boom")
            return {key: [name]}

        run.__name__ = name
        return run

    # --- recording ----------------------------------------------------------------------------

    def record(self, label: str, value: Any) -> None:
        self._calls += 1
        self.entries.append((f"{self._calls:02d} {label}", value))

    def call(self, label: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run ``fn`` and record its result or the exception it raised (then return ``None``),
        followed by ``NN ran``: how often each counter moved during the call, if any did."""
        before = Counter(self.counts)
        try:
            result = fn(*args, **kwargs)
        except Exception as exc:  # recording the failure *is* the point
            result = None
            self.record(label, Raised.of(exc))
        else:
            self.record(label, result)
        ran = {k: n - before[k] for k, n in sorted(self.counts.items()) if n != before[k]}
        if ran:
            self.entries.append((f"{self._calls:02d} ran", ran))
        return result

    def _use(self, app: Any, config: Any) -> None:
        tid = (config.get("configurable") or {}).get("thread_id") if isinstance(config, dict) else None
        if tid is not None and id(app) in self._checkpointed:
            self._apps.setdefault(str(tid), app)

    def invoke(self, app: Any, inp: Any, config: Any = None, label: str = "invoke", **kwargs: Any) -> Any:
        self._use(app, config)
        return self.call(label, app.invoke, inp, config, **kwargs)

    def stream(self, app: Any, inp: Any, config: Any, label: str = "stream", **kwargs: Any) -> Any:
        """The chunks ``app.stream`` yielded; if it raised, the exception is the last item."""
        self._use(app, config)

        def consume() -> list:
            chunks: list = []
            try:
                chunks.extend(app.stream(inp, config, **kwargs))
            except Exception as exc:  # recorded, compared like any result
                chunks.append(Raised.of(exc))
            return chunks

        return self.call(label, consume)

    def state(self, app: Any, config: Any, label: str = "get_state", **kwargs: Any) -> Any:
        self._use(app, config)
        return self.call(label, app.get_state, config, **kwargs)

    def update(self, app: Any, config: Any, values: Any, label: str = "update_state", **kwargs: Any) -> Any:
        self._use(app, config)
        return self.call(label, app.update_state, config, values, **kwargs)

    def history(self, app: Any, config: Any, label: str = "get_state_history", **kwargs: Any) -> Any:
        self._use(app, config)
        return self.call(label, lambda: list(app.get_state_history(config, **kwargs)))

    def checkpoint(self, app: Any, config: dict, **match: Any) -> dict:
        """Config of the oldest checkpoint of the thread whose snapshot fields equal ``match``
        (e.g. ``next=("b",)``, ``step=1`` matches metadata); raises if there is none."""
        for snap in reversed(list(app.get_state_history(config))):
            fields = {**(snap.metadata or {}), **snap._asdict()}
            if all(fields.get(k) == v for k, v in match.items()):
                return snap.config
        raise LookupError(f"no checkpoint with {match}")

    def adopt(self, app: Any, thread_ids: Any) -> None:
        """Trace threads a program ran by itself (the gallery's: ``app`` compiled with its own saver,
        which becomes this trace's), so :meth:`finish` appends their histories."""
        self.saver = app.checkpointer
        self._checkpointed.add(id(app))
        for tid in thread_ids:
            self._apps.setdefault(str(tid), app)

    # --- finishing ----------------------------------------------------------------------------

    def finish(self) -> dict[str, Any]:
        """Append counters and every touched thread's history, and return the normalised trace:
        ``history[<thread>]`` for the root graph, then ``history[<thread>|<namespace>]`` for each
        subgraph namespace the thread holds, oldest first."""
        raw: list[tuple[str, Any]] = [*self.entries, ("counters", dict(self.counts))]
        for tid, app in self._apps.items():
            raw.append((f"history[{tid}]", self._rows(app, thread(tid))))
            for namespace in self._subgraph_namespaces(tid):
                config = thread(tid, checkpoint_ns=namespace)
                raw.append((f"history[{tid}|{namespace}]", self._rows(app, config)))
        return Normaliser().trace(raw)

    def _subgraph_namespaces(self, tid: str) -> list[str]:
        """The thread's subgraph namespaces (a thread-only ``list`` returns every namespace), by
        node names, then by their first checkpoint: parallel subgraphs run on LangGraph's threads,
        so which one starts first is timing."""
        oldest: dict[str, str] = {}
        for saved in self.saver.list(thread(tid)):
            namespace, cid = saved.config["configurable"]["checkpoint_ns"], checkpoint_id(saved.config)
            if namespace:
                oldest[namespace] = min(cid, oldest.get(namespace, cid))

        def order(namespace: str) -> tuple[str, str]:
            return "|".join(part.split(":")[0] for part in namespace.split("|")), oldest[namespace]

        return sorted(oldest, key=order)

    def _rows(self, app: Any, config: dict) -> list[HistoryRow] | Raised:
        namespace = config["configurable"].get("checkpoint_ns", "")
        try:
            snapshots = list(app.get_state_history(config))[::-1]
            tuples = [
                saved
                for saved in self.saver.list(config)
                if saved.config["configurable"]["checkpoint_ns"] == namespace
            ][::-1]
        except Exception as exc:  # recorded, compared like any result
            return Raised.of(exc)
        by_id = {checkpoint_id(s.config): s for s in snapshots}
        saved = {checkpoint_id(t.config): t for t in tuples}
        rows = [HistoryRow(s, saved.get(cid)) for cid, s in by_id.items()]
        rows += [HistoryRow(None, t) for cid, t in saved.items() if cid not in by_id]
        return rows


DELTA_SNAPSHOTS = ("_DeltaSnapshot", "DeltaSnapshot")
"""A ``DeltaChannel``'s whole value as a checkpoint stores it (LangGraph's class, the lab's)."""

DELTA_COUNTERS = "counters_since_delta_snapshot"
"""LangGraph's metadata key counting a ``DeltaChannel``'s updates towards its next snapshot; the lab
keeps that counter on the live channel (docs/LANGGRAPH.md, "Where lab deliberately differs"): left out. When
each side snapshots is compared all the same: in the stored ``channel_values``."""


class Normaliser:
    """Turns recorded objects into JSON-able data with stable placeholders (see module doc)."""

    def __init__(self) -> None:
        self.labels: dict[str, str] = {NULL_TASK_ID: "<null>"}
        self._counts: Counter[str] = Counter()
        self._reading_back = False

    # --- placeholders -------------------------------------------------------------------------

    def label(self, raw: Any, prefix: str) -> Any:
        """Placeholder of an id; a new id gets ``<prefix><n>``."""
        if raw is None:
            return None
        raw = str(raw)
        if raw not in self.labels:
            self.labels[raw] = f"{prefix}{self._counts[prefix]}"
            self._counts[prefix] += 1
        return self.labels[raw]

    def _register_tasks(self, obj: Any) -> None:
        """Name every task id after its node and the checkpoint whose snapshot lists it (also in
        a subgraph's snapshot nested in a task's ``state``)."""
        if is_snapshot(obj):
            ck = self.label(checkpoint_id(obj.config), "C")
            for task in obj.tasks:
                if str(task.id) not in self.labels:  # Send tasks share a name: work, work#2, ...
                    self._counts[f"{task.name}@{ck}"] += 1
                    k = self._counts[f"{task.name}@{ck}"]
                    self.labels[str(task.id)] = f"{task.name}{f'#{k}' if k > 1 else ''}@{ck}"
                self._register_tasks(task.state)
        elif isinstance(obj, HistoryRow):
            self._register_tasks(obj.snapshot)
        elif isinstance(obj, (list, tuple)) and not _fields(obj):
            for item in obj:
                self._register_tasks(item)

    def text(self, s: str) -> str:
        for raw in sorted(self.labels, key=len, reverse=True):
            if len(raw) >= 8 and raw in s:
                s = s.replace(raw, self.labels[raw])
        return _UUID_RE.sub(lambda m: self.label(m.group(0), "U"), s)

    # --- whole trace --------------------------------------------------------------------------

    def trace(self, raw: list[tuple[str, Any]]) -> dict[str, Any]:
        histories = [value for key, value in raw if key.startswith("history[")]
        for rows in histories:  # C0, C1... follow history order, oldest first
            for row in rows if isinstance(rows, list) else ():
                self.label(checkpoint_id((row.snapshot or row.saved).config), "C")
        for rows in histories:
            self._register_tasks(rows)
        for _, value in raw:
            self._register_tasks(value)
        return {
            self.text(key): self.history(value) if key.startswith("history[") else self.value(value)
            for key, value in raw
        }

    # --- values -------------------------------------------------------------------------------

    def value(self, obj: Any, ck: str | None = None) -> Any:
        if obj is None or isinstance(obj, (bool, int, float)):
            return obj
        if isinstance(obj, str):
            return self.text(obj)
        if isinstance(obj, Raised):
            out = {"raised": obj.type, "kind": obj.kind, "message": self.text(obj.message)}
            return out | ({"notes": [self.text(n) for n in obj.notes]} if obj.notes else {})
        if isinstance(obj, BaseException):
            return self.value(Raised.of(obj))
        if is_snapshot(obj):
            return self.snapshot(obj)
        if is_task(obj):
            return self.task(obj, ck)
        if type(obj).__name__ == "Interrupt":  # (its response_schema shown where one was given)
            schema = getattr(obj, "response_schema", None)
            shown = {} if schema is None else {"response_schema": self.value(schema)}
            return {"interrupt": self.value(obj.value), "id": self.label(obj.id, "I"), **shown}
        if type(obj).__name__ == "Send":
            return {"send": obj.node, "arg": self.value(obj.arg)}
        if type(obj).__name__ == "Command":  # the fields a learner set, not the class's repr
            fields = {f: getattr(obj, f, None) for f in ("graph", "update", "resume", "goto")}
            return {"command": self.value({f: v for f, v in fields.items() if v not in (None, (), [])})}
        if type(obj).__name__ in DELTA_SNAPSHOTS:
            return {"<delta snapshot>": self.read_back(obj.value)}
        if is_message(obj):  # LangChain's or the lab's own class: compared as data, the class by name
            return {"message": type(obj).__name__, **self.mapping(obj.model_dump())}
        if isinstance(obj, dict):
            return self.mapping(obj)
        if isinstance(obj, (set, frozenset)):
            return {"<set>": sorted((self.value(v) for v in obj), key=json.dumps)}
        if isinstance(obj, tuple) and self._reading_back:
            return [self.value(v, ck) for v in obj]
        if isinstance(obj, tuple):  # a learner sees ("a",) and ["a"] apart: so must the comparison
            return {"<tuple>": [self.value(v, ck) for v in obj]}
        if isinstance(obj, list):
            return [self.value(v, ck) for v in obj]
        return f"<{type(obj).__name__}> {self.text(repr(obj))}"

    def read_back(self, obj: Any) -> Any:
        """A value the saver stored and gave back (state values, task results, saved channel values
        and writes): a tuple in it reads as a list, since LangGraph's serializer stores tuples as
        lists and lab's keeps them (a deliberate difference: docs/LANGGRAPH.md, "Serializer")."""
        was, self._reading_back = self._reading_back, True
        try:
            return self.value(obj)
        finally:
            self._reading_back = was

    def mapping(self, obj: dict) -> dict:
        out = {}
        for key, val in obj.items():
            if key == DELTA_COUNTERS:
                continue
            if key == "checkpoint_id":
                out[key] = self.label(val, "C")
            elif key == "parents" and isinstance(val, dict):
                out[key] = {self.text(ns): self.label(cid, "C") for ns, cid in val.items()}
            elif key == "__interrupt__" and isinstance(val, (list, tuple)):
                # parallel interrupts are listed in completion order (timing): compare them sorted
                in_order = sorted(val, key=lambda i: repr(getattr(i, "value", i)))
                out[key] = self.value(tuple(in_order) if isinstance(val, tuple) else in_order)
            else:
                out[self.text(str(key))] = self.value(val)
        return dict(sorted(out.items()))

    def task(self, task: Any, ck: str | None) -> dict:
        out = {"name": task.name}
        if self.labels.get(str(task.id), "").removeprefix(task.name).split("@")[-1] != ck:
            out["id"] = self.label(task.id, "T")  # a task id not born in this checkpoint
        out |= {
            "error": self.value(task.error),
            "interrupts": self.value(task.interrupts),
            "result": self.read_back(task.result),
            "state": self.value(task.state),
        }
        return out

    def snapshot(self, snap: Any) -> dict:
        ck = self.label(checkpoint_id(snap.config), "C")
        return {
            "checkpoint": ck,
            "config": self.value(snap.config),
            "parent_config": self.value(snap.parent_config),
            "metadata": self.value(snap.metadata),
            "created_at": _ts(snap.created_at),
            "next": self.value(snap.next),
            "values": self.read_back(snap.values),
            "tasks": [self.task(task, ck) for task in snap.tasks],
            "interrupts": self.value(snap.interrupts),
        }

    # --- history ------------------------------------------------------------------------------

    def history(self, rows: Any) -> Any:
        if not isinstance(rows, list):
            return self.value(rows)
        labels = [self.label(checkpoint_id((r.snapshot or r.saved).config), "C") for r in rows]
        raw_ids = sorted(checkpoint_id((r.snapshot or r.saved).config) for r in rows)
        by_raw_id = [self.labels[i] for i in raw_ids]
        return {
            "sorting raw ids gives history order": True if by_raw_id == labels else by_raw_id,
            "checkpoints": [self.row(row) for row in rows],
        }

    def row(self, row: HistoryRow) -> dict:
        out = self.snapshot(row.snapshot) if row.snapshot is not None else {}
        if row.saved is None:
            return out | {"saved": "<missing from saver.list>"}
        tup = row.saved
        ck = self.label(checkpoint_id(tup.config), "C")
        cp = dict(tup.checkpoint)
        cid = cp.pop("id", None)
        cp.pop("ts", None)
        saved: dict[str, Any] = {"id_shape": _id_shape(cid)}
        if row.snapshot is None:
            saved["checkpoint"] = ck
        for key in ("config", "parent_config", "metadata"):  # the saver's own, where they differ
            if row.snapshot is None or getattr(tup, key) != getattr(row.snapshot, key):
                saved[key] = self.value(getattr(tup, key))
        for key, val in sorted(cp.items()):
            if key == "channel_versions":
                saved[key] = {ch: _vint(v) for ch, v in sorted(val.items())}
            elif key == "versions_seen":
                saved[key] = {
                    node: {ch: _vint(v) for ch, v in sorted(seen.items())}
                    for node, seen in sorted(val.items())
                }
            elif key == "channel_values":
                saved[key] = self.read_back(val)
            else:
                saved[key] = self.value(val)
        saved["writes"] = [self.write(w, ck) for w in _canonical_writes(tup.pending_writes or ())]
        return out | {"saved": saved}

    def write(self, write: tuple, ck: str) -> list:
        task_id, channel, value = write
        who = self.label(task_id, "T")
        return [who.removesuffix(f"@{ck}"), channel, self.read_back(value)]


def _canonical_writes(writes: Any) -> list[tuple]:
    """Pending writes in saver order, except that one task's trigger writes (``branch:to:*``,
    ``join:*``) are sorted by channel: LangGraph emits them in set order, which varies with
    ``PYTHONHASHSEED``. Tasks are contiguous (the saver sorts by task path and id)."""

    def key(write: tuple) -> tuple:
        channel = str(write[1])
        is_trigger = channel.startswith(("branch:to:", "join:"))
        return (is_trigger, channel if is_trigger else "")

    groups: dict[Any, list[tuple]] = {}
    for write in writes:
        groups.setdefault(write[0], []).append(tuple(write))
    return [w for group in groups.values() for w in sorted(group, key=key)]


def _vint(version: Any) -> Any:
    """Integer part of a channel version (``"000…02.0.2406…"`` -> 2); ``""``/``None`` -> ``None``."""
    if version is None or version == "":
        return None
    if isinstance(version, (int, float)):
        return int(version)
    return int(str(version).split(".", 1)[0])


def _id_shape(cid: Any) -> str:
    """A checkpoint id's UUID version and 4th group (LangGraph: v6, ``0x8000 | step``)."""
    parts = str(cid).split("-")
    if len(parts) != 5 or len(parts[2]) != 4:
        return "<not a uuid>"
    return f"v{parts[2][0]}-{parts[3]}"


def _ts(value: Any) -> Any:
    if value is None:
        return None
    try:
        datetime.fromisoformat(str(value))
    except ValueError:
        return f"<bad timestamp {value!r}>"
    return "<ts>"


# --- rendering ------------------------------------------------------------------------------------


def render(trace: dict[str, Any]) -> list[str]:
    """The trace as indented lines, one fact per line where it fits, so a diff points at it."""
    return _lines(trace, 0)


def _lines(obj: Any, indent: int, prefix: str = "") -> list[str]:
    pad = " " * indent
    flat = json.dumps(obj, ensure_ascii=False)
    if len(pad) + len(prefix) + len(flat) <= WIDTH or not isinstance(obj, (dict, list)) or not obj:
        return [f"{pad}{prefix}{flat}"]
    head = [f"{pad}{prefix.rstrip()}"] if prefix else []
    items = [(f"{k}: ", v) for k, v in obj.items()] if isinstance(obj, dict) else [("- ", v) for v in obj]
    inner = indent + (2 if prefix else 0)
    return head + [line for p, v in items for line in _lines(v, inner, p)]
