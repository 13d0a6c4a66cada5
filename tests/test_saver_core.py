"""The saver written once (``lab.checkpoint.core``) over the in-memory storage: the behaviours of
LangGraph's ``InMemorySaver`` that the runtime relies on, plus the lab's own rules (thread id
limit, sync driving of the async implementation, blob clean-up on delete/prune)."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from lab.checkpoint import (
    ERROR,
    INTERRUPT,
    NO_WRITES,
    NULL_TASK_ID,
    RESUME,
    Checkpoint,
    CheckpointSaver,
    InMemorySaver,
    MemoryStorage,
    copy_checkpoint,
    empty_checkpoint,
    uuid6,
)
from lab.checkpoint import ids as checkpoint_ids
from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.ids import timestamp_text
from lab.checkpoint.serde import MAX_DEPTH, MsgpackSerializer
from lab.checkpoint.storage import CheckpointRow
from tests.hostile_records import registered

HOSTILE_EXTENSION = registered("os.system", "echo pwned")

# --- helpers ---------------------------------------------------------------------------------


def thread_config(thread_id: str = "t", checkpoint_ns: str | None = "", **extra: Any) -> dict[str, Any]:
    configurable = {"thread_id": thread_id, **extra}
    if checkpoint_ns is not None:
        configurable["checkpoint_ns"] = checkpoint_ns
    return {"configurable": configurable}


def make_checkpoint(step: int, values: dict[str, Any], versions: dict[str, Any]) -> Checkpoint:
    checkpoint = empty_checkpoint()
    checkpoint["id"] = uuid6(step)
    checkpoint["channel_values"] = values
    checkpoint["channel_versions"] = versions
    checkpoint["versions_seen"] = {"__input__": {}, "node": dict(versions)}
    checkpoint["updated_channels"] = sorted(versions)
    return checkpoint


class Chain:
    """Puts checkpoints the way the runtime does: each a child of the previous one, with
    versions from ``get_next_version`` and only changed channels in ``new_versions``."""

    def __init__(self, saver: CheckpointSaver, thread_id: str = "t", checkpoint_ns: str = "") -> None:
        self.saver = saver
        self.config = thread_config(thread_id, checkpoint_ns)
        self.versions: dict[str, Any] = {}
        self.values: dict[str, Any] = {}
        self.step = -1

    def put(self, changes: dict[str, Any], *, cleared: Sequence[str] = (), **metadata: Any) -> dict[str, Any]:
        version = self.saver.get_next_version(max(self.versions.values(), default=None), None)
        new_versions = {channel: version for channel in [*changes, *cleared]}
        self.values = {k: v for k, v in {**self.values, **changes}.items() if k not in cleared}
        self.versions = {**self.versions, **new_versions}
        checkpoint = make_checkpoint(self.step, dict(self.values), dict(self.versions))
        meta = {"source": "loop", "step": self.step, "parents": {}, **metadata}
        self.config = self.saver.put(self.config, checkpoint, meta, new_versions)
        self.step += 1
        return self.config


def blob_count(saver: InMemorySaver) -> int:
    return sum(len(blobs) for blobs in saver.storage._blobs.values())


# --- ids ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "group"), [(-1, "bfff"), (-2, "bffe"), (0, "8000"), (1, "8001"), (0x4000, "8000")]
)
def test_uuid6_puts_the_step_in_the_fourth_group(step: int, group: str) -> None:
    value = uuid6(step)
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}", value)
    assert value.split("-")[3] == group
    assert uuid.UUID(value).version == 6


def test_uuid6_is_strictly_increasing_within_a_tick() -> None:
    ids = [uuid6(0) for _ in range(20_000)]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)


def test_uuid6_time_is_now() -> None:
    before = time.time_ns() // 100
    value = uuid.UUID(uuid6(0)).int
    after = time.time_ns() // 100
    ticks = (value >> 80) << 12 | (value >> 64) & 0xFFF  # 100 ns since 1582-10-15
    assert before <= ticks - 0x01B21DD213814000 <= after  # the clock's time while the id was made


@pytest.mark.parametrize("start", [0x1F1EFCF0F67BFFE, 0x1F1EFCFFFFFFFFE, 0xFFE])
def test_uuid6_holds_its_timestamp_across_the_kept_time_prefix(
    start: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ids made in consecutive ticks, the time's upper 48 bits changing between two of them (the text of
    those bits is kept from the previous id while they do not change)."""
    ticks = iter(range(start, start + 4))
    monkeypatch.setattr(checkpoint_ids, "_next_timestamp", lambda: next(ticks))
    for expected in range(start, start + 4):
        value = uuid.UUID(uuid6(5)).int
        assert (value >> 80) << 12 | (value >> 64) & 0xFFF == expected
        assert (value >> 76) & 0xF == 6 and (value >> 48) & 0xFFFF == 0x8005


NEW_YEAR_2026 = 1_767_225_600_000_000_000
"""2026-01-01T00:00:00 UTC, in nanoseconds since 1970."""


@pytest.mark.parametrize("nanoseconds", [NEW_YEAR_2026, NEW_YEAR_2026 + 999, NEW_YEAR_2026 + 59_123_456_789])
def test_timestamp_text_is_what_isoformat_writes(nanoseconds: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Including a whole second, where isoformat leaves the fraction out; twice, so the second
    time reads the text kept for that second."""
    expected = (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=nanoseconds // 1000)).isoformat()
    monkeypatch.setattr(time, "time_ns", lambda: nanoseconds)
    assert timestamp_text() == timestamp_text() == expected


# --- versions -----------------------------------------------------------------------------------


def test_get_next_version_format_and_integer_part() -> None:
    saver = InMemorySaver()
    first = saver.get_next_version(None, None)
    assert re.fullmatch(r"0{31}1\..{16,}", first)
    second = saver.get_next_version(first, None)
    assert second.startswith(f"{2:032}.") and second > first
    assert saver.get_next_version(41, None).startswith(f"{42:032}.")
    assert saver.get_next_version(f"{9:032}.0.5", None) > f"{9:032}.0.5"
    assert saver.get_next_version(first, None) != second  # the random tail differs


def test_get_next_version_of_an_older_version_after_newer_ones() -> None:
    """The version made last is remembered (no parse); any other, older or from another saver, is parsed."""
    saver, other = InMemorySaver(), InMemorySaver()
    first = saver.get_next_version(None, None)
    second = saver.get_next_version(first, None)
    elsewhere = other.get_next_version(f"{6:032}.0.5", None)
    assert saver.get_next_version(second, None).startswith(f"{3:032}.")
    assert saver.get_next_version(first, None).startswith(f"{2:032}.")
    assert saver.get_next_version(elsewhere, None).startswith(f"{8:032}.")
    assert saver.get_next_version("0", None).startswith(f"{1:032}.")
    with pytest.raises(ValueError):
        saver.get_next_version("", None)


@pytest.mark.parametrize("tail", [0.6504408871261921, 0.5, 0.1, 1.5e-05, 3e-17, 0.0])
def test_a_versions_random_tail_is_written_as_langgraph_writes_it(
    tail: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LangGraph's ``InMemorySaver`` formats the tail with ``:016``; the lab writes it another way
    (faster), which must give the same text, short and exponent forms included."""
    monkeypatch.setattr("lab.checkpoint.core.random.random", lambda: tail)
    assert InMemorySaver().get_next_version(6, None) == f"{7:032}.{tail:016}"


# --- put / get_tuple ---------------------------------------------------------------------------


def test_put_returns_the_three_key_config_and_parent_comes_from_the_config() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    first = chain.put({"x": 1})
    assert first == {
        "configurable": {
            "thread_id": "t",
            "checkpoint_ns": "",
            "checkpoint_id": first["configurable"]["checkpoint_id"],
        }
    }
    second = chain.put({"x": 2})
    saved = saver.get_tuple(second)
    assert saved.config == second
    assert saved.parent_config == first
    assert saver.get_tuple(first).parent_config is None


def test_get_tuple_without_id_is_the_newest_in_the_namespace() -> None:
    saver = InMemorySaver()
    root = Chain(saver)
    root.put({"x": 1})
    newest = root.put({"x": 2})
    Chain(saver, checkpoint_ns="sub:1").put({"y": 1})  # newer, but another namespace
    assert saver.get_tuple({"configurable": {"thread_id": "t"}}).config == newest
    assert saver.get_tuple(thread_config()).checkpoint["channel_values"] == {"x": 2}
    assert saver.get_tuple(thread_config("t", "sub:1")).checkpoint["channel_values"] == {"y": 1}


def test_missing_thread_or_id_gives_none() -> None:
    saver = InMemorySaver()
    Chain(saver).put({"x": 1})
    assert saver.get_tuple(thread_config("other")) is None
    assert saver.get_tuple(thread_config(checkpoint_id=uuid6(0))) is None
    assert saver.get_tuple({"configurable": {"thread_id": 7}}) is None  # like LangGraph: no coercion
    assert saver.get(thread_config("other")) is None


def test_values_rebuild_from_blobs_of_different_steps() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    first = chain.put({"a": [1], "b": {"k": "v"}})
    second = chain.put({"a": [1, 2]})  # b unchanged: no new blob for it
    assert blob_count(saver) == 3
    assert saver.get_tuple(first).checkpoint["channel_values"] == {"a": [1], "b": {"k": "v"}}
    assert saver.get_tuple(second).checkpoint["channel_values"] == {"a": [1, 2], "b": {"k": "v"}}


def test_a_version_without_value_is_stored_as_empty_and_hides_older_values() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    chain.put({"branch:to:a": None, "x": 1})
    cleared = chain.put({"x": 2}, cleared=["branch:to:a"])
    stored = saver.storage._blobs["t"]
    assert ("empty", b"") in stored.values()
    saved = saver.get_tuple(cleared).checkpoint
    assert saved["channel_values"] == {"x": 2}
    assert "branch:to:a" in saved["channel_versions"]


def test_checkpoint_fields_and_extra_keys_roundtrip() -> None:
    saver = InMemorySaver()
    checkpoint = make_checkpoint(0, {"s": {"p", "q"}, "t": (1, 2)}, {"s": 1, "t": 2})
    checkpoint["pending_sends"] = []  # an old-format key: kept as is
    saver.put(thread_config(), checkpoint, {"source": "input", "step": -1, "parents": {}}, {"s": 1, "t": 2})
    loaded = saver.get(thread_config())
    assert loaded == {**checkpoint, "channel_values": {"s": {"p", "q"}, "t": [1, 2]}}  # a tuple: as LangGraph
    assert type(loaded["channel_values"]["s"]) is set
    assert list(loaded)[-1] == "channel_values"


def test_put_stores_a_snapshot_not_a_reference() -> None:
    saver = InMemorySaver()
    values = {"join": {"p"}}
    checkpoint = make_checkpoint(0, values, {"join": "1"})
    saver.put(thread_config(), checkpoint, {}, {"join": "1"})
    values["join"].add("q2")  # the runtime mutates the channel after put (Surprise 17)
    checkpoint["versions_seen"]["node"]["join"] = "2"
    loaded = saver.get(thread_config())
    assert loaded["channel_values"] == {"join": {"p"}}
    assert loaded["versions_seen"]["node"] == {"join": "1"}


def put_fork(saver: CheckpointSaver, version_after: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """n=1 at the fork point, then n=4 on the original branch and n=100 on a fork of it."""
    fork_point = saver.put(thread_config(), make_checkpoint(0, {"n": 1}, {"n": 1}), {}, {"n": 1})
    original = None
    for n in (4, 100):
        version = version_after(1)
        checkpoint = make_checkpoint(1, {"n": n}, {"n": version})
        config = saver.put(fork_point, checkpoint, {}, {"n": version})
        original = original or config
    return original, config


def test_string_versions_keep_fork_blobs_apart() -> None:
    saver = InMemorySaver()
    original, fork = put_fork(saver, lambda current: saver.get_next_version(current, None))
    assert saver.get(original)["channel_values"] == {"n": 4}
    assert saver.get(fork)["channel_values"] == {"n": 100}


def test_int_versions_let_a_fork_overwrite_history() -> None:
    """Why get_next_version has a random tail: LangGraph's default int+1 corrupts forks (p22)."""
    saver = InMemorySaver()
    original, _ = put_fork(saver, lambda current: current + 1)
    assert saver.get(original)["channel_values"] == {"n": 100}


def test_put_requires_checkpoint_ns() -> None:
    saver = InMemorySaver()
    with pytest.raises(KeyError, match="checkpoint_ns"):
        saver.put(thread_config(checkpoint_ns=None), make_checkpoint(0, {}, {}), {}, {})


# --- metadata ---------------------------------------------------------------------------------


def test_put_copies_scalar_config_keys_into_metadata() -> None:
    saver = InMemorySaver()
    config = {
        "configurable": {
            "thread_id": "t",
            "checkpoint_ns": "",
            "checkpoint_map": {"": "x"},
            "user_id": "u-1",
            "attempt": 2,
            "ratio": 0.5,
            "flag": True,
            "nested": {"no": "dicts"},
            "langgraph_step": 3,
            "langgraph_anything": "x",
            "__pregel_secret": 1,
            "step": 99,  # already in metadata: metadata wins
        },
        "metadata": {"tenant": "ac\x00me", "tags": ["no", "lists"]},
    }
    saver.put(config, make_checkpoint(0, {}, {}), {"source": "loop", "step": 0, "parents": {}}, {})
    metadata = saver.get_tuple(thread_config()).metadata
    assert metadata == {
        "source": "loop",
        "step": 0,
        "parents": {},
        "tenant": "acme",
        "user_id": "u-1",
        "attempt": 2,
        "ratio": 0.5,
        "flag": True,
    }


# --- thread ids -------------------------------------------------------------------------------


def test_long_thread_ids_are_rejected_with_the_reason() -> None:
    saver = InMemorySaver()
    saver.put(thread_config("x" * 255), make_checkpoint(0, {}, {}), {}, {})
    with pytest.raises(ValueError) as refused:
        saver.put(thread_config("x" * 256), make_checkpoint(0, {}, {}), {}, {})
    assert str(refused.value) == (
        "thread_id is 256 characters long; the lab accepts at most 255 (a limit of the lab's own: "
        "LangGraph's InMemorySaver and PostgresSaver, whose thread_id columns are TEXT, accept longer ids)."
    )
    with pytest.raises(ValueError, match="Postgres"):
        saver.put_writes(thread_config("x" * 300, checkpoint_id=uuid6(0)), [("a", 1)], "task")
    with pytest.raises(ValueError, match="Postgres"):
        saver.copy_thread("x" * 255, "y" * 256)
    with pytest.raises(TypeError, match="must be a str"):
        saver.put(thread_config(7), make_checkpoint(0, {}, {}), {}, {})  # type: ignore[arg-type]


def test_empty_thread_id_is_a_thread() -> None:
    saver = InMemorySaver()
    Chain(saver, thread_id="").put({"x": 1})
    assert saver.get_tuple(thread_config("")).checkpoint["channel_values"] == {"x": 1}


# --- pending writes ---------------------------------------------------------------------------


def test_writes_are_idempotent_but_special_slots_are_overwritten() -> None:
    saver = InMemorySaver()
    config = Chain(saver).put({"x": 1})
    saver.put_writes(config, [("ch", "first"), (INTERRUPT, "i1")], "task")
    saver.put_writes(config, [("ch", "second"), (INTERRUPT, "i2"), ("other", 3)], "task")
    assert saver.get_tuple(config).pending_writes == [
        ("task", INTERRUPT, "i2"),
        ("task", "ch", "first"),
        ("task", "other", 3),
    ]


def test_special_writes_use_fixed_negative_slots() -> None:
    saver = InMemorySaver()
    config = Chain(saver).put({"x": 1})
    saver.put_writes(config, [(ERROR, "ValueError('boom')"), (RESUME, ["a"]), (NO_WRITES, None)], "task")
    rows = saver.storage._writes["t"][("", config["configurable"]["checkpoint_id"])]
    assert sorted(rows) == [("task", -4), ("task", -1), ("task", 2)]
    assert saver.get_tuple(config).pending_writes == [
        ("task", RESUME, ["a"]),
        ("task", ERROR, "ValueError('boom')"),
        ("task", NO_WRITES, None),
    ]


def test_pending_writes_are_sorted_by_task_path_then_task_id_then_idx() -> None:
    saver = InMemorySaver()
    config = Chain(saver).put({"x": 1})
    saver.put_writes(config, [("log", "zulu")], "task-a", "~__pregel_pull, zulu")
    saver.put_writes(config, [("log", "alpha"), ("x", 1)], "task-z", "~__pregel_pull, alpha")
    saver.put_writes(config, [(RESUME, "yes")], NULL_TASK_ID)
    assert saver.get_tuple(config).pending_writes == [
        (NULL_TASK_ID, RESUME, "yes"),
        ("task-z", "log", "alpha"),
        ("task-z", "x", 1),
        ("task-a", "log", "zulu"),
    ]


def test_writes_belong_to_one_checkpoint_and_namespace() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    first = chain.put({"x": 1})
    saver.put_writes(first, [("x", 2)], "task")
    second = chain.put({"x": 2})
    same_id_in_sub = {"configurable": {**first["configurable"], "checkpoint_ns": "sub:1"}}
    saver.put_writes(same_id_in_sub, [("y", 9)], "task")
    assert saver.get_tuple(first).pending_writes == [("task", "x", 2)]
    assert saver.get_tuple(second).pending_writes == []


# --- list ---------------------------------------------------------------------------------------


def test_list_is_newest_first_across_namespaces_unless_one_is_given() -> None:
    saver = InMemorySaver()
    root = Chain(saver)
    sub = Chain(saver, checkpoint_ns="sub:1")
    ids = [root.put({"x": 1}), sub.put({"y": 1}), root.put({"x": 2})]
    ids = [config["configurable"]["checkpoint_id"] for config in ids]
    listed = [saved.checkpoint["id"] for saved in saver.list({"configurable": {"thread_id": "t"}})]
    assert listed == ids[::-1]
    assert [saved.checkpoint["id"] for saved in saver.list(thread_config())] == [ids[2], ids[0]]


def test_list_filter_before_limit() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    configs = [chain.put({"x": i}, source="input" if i % 2 == 0 else "loop", user="u") for i in range(5)]
    ids = [config["configurable"]["checkpoint_id"] for config in configs]

    def listed(**kwargs: Any) -> list[str]:
        return [saved.checkpoint["id"] for saved in saver.list(thread_config(), **kwargs)]

    assert listed(filter={"source": "input"}) == [ids[4], ids[2], ids[0]]
    assert listed(filter={"source": "input", "step": 1}) == [ids[2]]
    assert listed(filter={"user": "nobody"}) == []
    assert listed(before=configs[3]) == [ids[2], ids[1], ids[0]]
    assert listed(limit=2) == [ids[4], ids[3]]
    assert listed(before=configs[3], limit=1) == [ids[2]]
    assert listed(filter={"source": "loop"}, limit=1) == [ids[3]]
    assert listed(limit=0) == []
    assert [saved.checkpoint["id"] for saved in saver.list(configs[1])] == [ids[1]]


def test_list_without_config_covers_all_threads() -> None:
    saver = InMemorySaver()
    a = Chain(saver, "a").put({"x": 1})
    b = Chain(saver, "b").put({"x": 2})
    assert [saved.config for saved in saver.list(None)] == [b, a]


def test_listed_tuples_carry_values_writes_and_parents() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    first = chain.put({"x": 1})
    saver.put_writes(first, [("x", 2)], "task")
    second = chain.put({"x": 2})
    newest, oldest = saver.list(thread_config())
    assert newest.checkpoint["channel_values"] == {"x": 2} and newest.parent_config == first
    assert oldest.pending_writes == [("task", "x", 2)] and oldest.parent_config is None
    assert newest.config == second


# --- deleting, copying, pruning ---------------------------------------------------------------


def test_delete_thread_removes_everything_of_that_thread_only() -> None:
    saver = InMemorySaver()
    config = Chain(saver, "a").put({"x": 1})
    saver.put_writes(config, [("x", 2)], "task")
    Chain(saver, "a", "sub:1").put({"y": 1})
    kept = Chain(saver, "b").put({"x": 3})
    saver.delete_thread("a")
    saver.delete_thread("never-existed")
    assert list(saver.list({"configurable": {"thread_id": "a"}})) == []
    assert saver.storage._blobs.get("a") is None and saver.storage._writes.get("a") is None
    assert saver.get_tuple(kept).checkpoint["channel_values"] == {"x": 3}


def test_delete_for_runs_keeps_blobs_still_used_by_other_checkpoints() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    first = chain.put({"a": "from run 1", "b": 1}, run_id="r1")
    saver.put_writes(first, [("b", 2)], "task")
    second = chain.put({"b": 2}, run_id="r2")  # still uses a's blob written by run 1
    Chain(saver, "t", "sub:1").put({"c": 1}, run_id="r1")
    saver.delete_for_runs(["r1"])
    saver.delete_for_runs([])
    assert [saved.config for saved in saver.list({"configurable": {"thread_id": "t"}})] == [second]
    assert saver.get_tuple(second).checkpoint["channel_values"] == {"a": "from run 1", "b": 2}
    assert blob_count(saver) == 2  # b@1 and c@1 are gone
    assert saver.storage._writes["t"] == {}


def test_prune_keep_latest_per_namespace_and_collects_unused_blobs() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    chain.put({"a": 1, "b": 1})
    chain.put({"b": 2})
    latest = chain.put({"b": 3})
    saver.put_writes(latest, [("b", 4)], "task")
    sub_latest = Chain(saver, "t", "sub:1").put({"c": 1})
    other = Chain(saver, "other").put({"x": 1})
    Chain(saver, "other").put({"x": 2})
    saver.prune(["t"])
    assert [saved.config for saved in saver.list({"configurable": {"thread_id": "t"}})] == [
        sub_latest,
        latest,
    ]
    saved = saver.get_tuple(latest)
    assert saved.checkpoint["channel_values"] == {"a": 1, "b": 3}
    assert saved.pending_writes == [("task", "b", 4)]
    assert len(saver.storage._blobs["t"]) == 3  # a@1, b@3, c@1
    assert saver.get_tuple(other) is not None
    saver.prune(["t", "other"], strategy="delete")
    assert list(saver.list(None)) == []


def test_prune_rejects_unknown_strategies() -> None:
    with pytest.raises(ValueError, match="'newest'"):
        InMemorySaver().prune(["t"], strategy="newest")


def test_copy_thread_copies_checkpoints_values_and_writes_independently() -> None:
    saver = InMemorySaver()
    chain = Chain(saver, "src")
    chain.put({"x": 1})
    head = chain.put({"x": 2}, run_id="r")
    saver.put_writes(head, [(INTERRUPT, ["why?"])], "task")
    Chain(saver, "src", "sub:1").put({"y": 1})
    saver.copy_thread("src", "dst")
    saver.delete_thread("src")
    copied = list(saver.list({"configurable": {"thread_id": "dst"}}))
    assert [saved.config["configurable"]["thread_id"] for saved in copied] == ["dst"] * 3
    newest_root = saver.get_tuple(thread_config("dst"))
    assert newest_root.checkpoint["id"] == head["configurable"]["checkpoint_id"]
    assert newest_root.checkpoint["channel_values"] == {"x": 2}
    assert newest_root.metadata["run_id"] == "r"
    assert newest_root.pending_writes == [("task", INTERRUPT, ["why?"])]
    assert newest_root.parent_config["configurable"]["thread_id"] == "dst"
    saver.copy_thread("missing", "dst2")
    assert list(saver.list({"configurable": {"thread_id": "dst2"}})) == []


# --- sync vs async ---------------------------------------------------------------------------


async def test_async_api_matches_sync_api() -> None:
    saver = InMemorySaver()
    config = await saver.aput(
        thread_config(), make_checkpoint(0, {"x": 1}, {"x": "1"}), {"step": 0}, {"x": "1"}
    )
    await saver.aput_writes(config, [("x", 2)], "task", "path")
    assert await saver.aget_tuple(config) == saver.get_tuple(config)
    assert (await saver.aget(config))["channel_values"] == {"x": 1}
    assert [saved async for saved in saver.alist(None, filter={"step": 0})] == list(saver.list(None))
    await saver.acopy_thread("t", "u")
    await saver.aprune(["u"], strategy="delete")
    await saver.adelete_for_runs(["nothing"])
    await saver.adelete_thread("t")
    assert list(saver.list(None)) == []


class SlowStorage(MemoryStorage):
    """A storage that really awaits (like IndexedDB) but wrongly claims to support sync."""

    async def checkpoint(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str | None
    ) -> CheckpointRow | None:
        await asyncio.sleep(0)
        return await super().checkpoint(thread_id, checkpoint_ns, checkpoint_id)


class AsyncOnlyStorage(SlowStorage):
    supports_sync = False


async def test_async_only_storage_refuses_sync_calls_clearly() -> None:
    saver = CheckpointSaver(AsyncOnlyStorage())
    config = await saver.aput(thread_config(), make_checkpoint(0, {"x": 1}, {"x": "1"}), {}, {"x": "1"})
    assert (await saver.aget_tuple(config)).checkpoint["channel_values"] == {"x": 1}
    with pytest.raises(RuntimeError, match="only has an async API: use aput"):
        saver.get_tuple(config)
    with pytest.raises(RuntimeError, match="async API"):
        list(saver.list(None))


def test_a_storage_that_suspends_during_a_sync_call_is_reported() -> None:
    saver = CheckpointSaver(SlowStorage())
    config = saver.put(thread_config(), make_checkpoint(0, {}, {}), {}, {})  # put never suspends
    with pytest.raises(RuntimeError, match="suspended during a sync call"):
        saver.get_tuple(config)


# --- helpers for the runtime ------------------------------------------------------------------


def test_empty_checkpoint_and_copy_checkpoint() -> None:
    checkpoint = empty_checkpoint()
    assert checkpoint["v"] == 4 and checkpoint["id"].split("-")[3] == "bffe"
    assert checkpoint["ts"].endswith("+00:00")
    assert checkpoint["updated_channels"] is None
    checkpoint["versions_seen"]["a"] = {"x": "1"}
    copy = copy_checkpoint(checkpoint)
    copy["versions_seen"]["a"]["x"] = "2"
    copy["channel_versions"]["x"] = "2"
    assert checkpoint["versions_seen"]["a"] == {"x": "1"} and checkpoint["channel_versions"] == {}
    assert copy_checkpoint(copy) == copy


def test_storage_rows_hold_only_plain_data() -> None:
    saver = InMemorySaver()
    config = Chain(saver).put({"x": {"deep": (1, 2)}})
    saver.put_writes(config, [("x", {3})], "task")
    row = saver.storage._checkpoints["t"][""][config["configurable"]["checkpoint_id"]]
    assert {type(value) for value in row.values()} <= {str, type(None), tuple}
    assert all(isinstance(value[1], bytes) for value in (row["checkpoint"], row["metadata"]))
    for value_type, payload in saver.storage._blobs["t"].values():
        assert isinstance(value_type, str) and isinstance(payload, bytes)


# --- corrupt records and values that cannot be saved ---------------------------------------------


def corrupted_thread(part: str, stored: Any) -> tuple[InMemorySaver, dict[str, Any], str]:
    """A saver with threads "bad" (whose ``part`` record now holds ``stored``) and "good"."""
    saver = InMemorySaver()
    Chain(saver, "good").put({"x": 1})
    config = Chain(saver, "bad").put({"x": 1})
    saver.put_writes(config, [("x", 2)], "task-1")
    checkpoint_id = config["configurable"]["checkpoint_id"]
    storage = saver.storage
    if part == "blob":
        (blob_key,) = storage._blobs["bad"]
        storage._blobs["bad"][blob_key] = stored
    elif part == "write":
        (slots,) = storage._writes["bad"].values()
        slots["task-1", 0] = {**slots["task-1", 0], "value": stored}
    else:
        row = storage._checkpoints["bad"][""][checkpoint_id]
        storage._checkpoints["bad"][""][checkpoint_id] = {**row, part: stored}
    return saver, config, checkpoint_id


def typed(value: Any) -> tuple[str, bytes]:
    return MsgpackSerializer().dumps_typed(value)


@pytest.mark.parametrize(
    ("part", "stored", "named", "problem"),
    [
        ("blob", ("msgpack", b"\xc1"), "channel 'x' (version", "not msgpack"),
        ("blob", ("msgpack", HOSTILE_EXTENSION), "channel 'x' (version", "'os.system' is not registered"),
        ("write", ("msgpack", b"\x92\x01"), "the write to 'x' of task 'task-1'", "truncated"),
        ("checkpoint", typed([1, 2]), "the checkpoint", "it is a list, not a dict"),
        (
            "checkpoint",
            typed({"id": "c", "channel_versions": [], "versions_seen": {}}),
            "the checkpoint",
            "'channel_versions'",
        ),
        (
            "checkpoint",
            typed({"id": "c", "channel_versions": {"x": [1]}, "versions_seen": {}}),
            "the checkpoint",
            "want a name and a version",
        ),
        (
            "checkpoint",
            typed({"id": "c", "channel_versions": {}, "versions_seen": {"n": 1}}),
            "the checkpoint",
            "versions_seen['n']",
        ),
        ("metadata", typed("step 1"), "the metadata", "it is a str, not a dict"),
        ("metadata", ("pickle", b"cos\nsystem\n."), "the metadata", "serialized as 'pickle'"),
        ("metadata", "not a pair", "the metadata", "(type, bytes) pair"),
    ],
)
def test_a_corrupt_record_names_thread_checkpoint_and_part(
    part: str, stored: Any, named: str, problem: str
) -> None:
    saver, config, checkpoint_id = corrupted_thread(part, stored)
    for read in (lambda: saver.get_tuple(config), lambda: list(saver.list(thread_config("bad")))):
        with pytest.raises(CorruptRecordError) as failure:
            read()
        message = str(failure.value)
        assert f"thread 'bad', checkpoint {checkpoint_id!r}, {named}" in message
        assert problem in message
    good = saver.get_tuple(thread_config("good"))  # every other thread is still usable
    assert good is not None and good.checkpoint["channel_values"] == {"x": 1}


def test_a_value_too_deep_to_load_is_not_saved_and_the_error_names_its_key() -> None:
    saver = InMemorySaver()
    chain = Chain(saver)
    chain.put({"x": 1})
    deep: Any = None
    for _ in range(MAX_DEPTH + 1):
        deep = (deep,)
    with pytest.raises(
        UnsavableValueError, match=r"cannot save channel 'deep': it nests containers more than"
    ):
        chain.put({"deep": deep})
    with pytest.raises(UnsavableValueError, match=r"cannot save the write to 'deep' of task 'task-1'"):
        saver.put_writes(chain.config, [("deep", deep)], "task-1")
    saved = saver.get_tuple(thread_config())
    assert saved is not None and saved.checkpoint["channel_values"] == {"x": 1}
    assert saved.pending_writes == []


def test_invoke_refuses_a_state_nested_300_deep_and_the_thread_stays_readable() -> None:
    """Before: invoke saved it, and get_state then crashed CPython (C msgpack recursed 300 deep)."""
    from typing import TypedDict

    from lab.graph import END, START, StateGraph

    class State(TypedDict):
        x: Any

    def nest(_: State) -> dict[str, Any]:
        value: Any = None
        for _ in range(300):
            value = (value,)
        return {"x": value}

    graph = StateGraph(State)
    graph.add_node("nest", nest)
    graph.add_edge(START, "nest")
    graph.add_edge("nest", END)
    app = graph.compile(checkpointer=InMemorySaver())
    config = thread_config("deep")
    with pytest.raises(UnsavableValueError, match="cannot save the write to 'x' of task"):
        app.invoke({"x": 1}, config)
    state = app.get_state(config)
    assert state.values == {"x": 1} and state.next == ("nest",)
