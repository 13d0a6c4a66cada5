"""The IndexedDB saver in Chromium: LangGraph's conformance suite, durability across a reload, and its
clear errors for corrupt records and a full quota.

All tests share one page (one Pyodide boot); each uses IndexedDB databases of its own. The conformance
suite runs in CPython and reaches the saver in the page's worker through ``saver_adapter.RemoteSaver``.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest
from browser_harness import wait_until_ready
from langgraph.checkpoint.conformance import checkpointer_test, validate
from playwright.sync_api import Page
from saver_adapter import LabCommandError, PageBridge, RemoteSaver, call_saver, request

from lab.checkpoint.base import empty_checkpoint
from lab.checkpoint.serde import MsgpackSerializer
from tests.conformance_report import assert_full_conformance

# Plain JavaScript in the page, not the worker nor Python: what is really in a database.
READ_DATABASE_FROM_JS = """
async ([name, thread]) => {
  const settle = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await settle(indexedDB.open(name));
  try {
    const tx = db.transaction(["checkpoints", "blobs", "writes"]);
    const all = (store) => settle(tx.objectStore(store).getAll(IDBKeyRange.bound([thread], [thread, []])));
    const plain = (record) => JSON.parse(JSON.stringify(record, (key, value) =>
      value instanceof Uint8Array ? Array.from(value) : value));
    const checkpoints = tx.objectStore("checkpoints");
    return {
      version: db.version,
      stores: Array.from(db.objectStoreNames),
      keyPaths: Object.fromEntries(Array.from(db.objectStoreNames, (s) => [s, tx.objectStore(s).keyPath])),
      indexes: Array.from(checkpoints.indexNames, (i) => [i, checkpoints.index(i).keyPath]),
      checkpoints: (await all("checkpoints")).map(plain),
      blobs: (await all("blobs")).map(plain),
      writes: (await all("writes")).map(plain),
    };
  } finally {
    db.close();
  }
}
"""

# Stores a record as someone else might have: straight into a store, bypassing the saver.
PUT_RECORD_FROM_JS = """
async ([name, store, record]) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const tx = db.transaction(store, "readwrite");
    if (Array.isArray(record.value?.bytes)) record.value.bytes = Uint8Array.from(record.value.bytes);
    tx.objectStore(store).put(record);
    await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onabort = () => reject(tx.error); });
  } finally {
    db.close();
  }
}
"""


@pytest.fixture(scope="module")
def lab_page(browser, warm_profile, site) -> Iterator[Page]:
    """One booted lab page for every test of this module (a copy of the warm profile: nothing saved)."""
    with warm_profile.context(browser.browser_type) as context:
        page = context.pages[0]
        page.goto(site + "/")
        wait_until_ready(page)
        yield page


@contextlib.contextmanager
def saver_database(page: Page, label: str) -> Iterator[str]:
    """A fresh saver database, opened in the worker, deleted afterwards."""
    name = f"{label}-{uuid.uuid4().hex[:8]}"
    request(page, "saver_open", {"database": name})
    try:
        yield name
    finally:
        request(page, "saver_close", {"database": name, "delete": True})


def a_checkpoint(values: dict, versions: dict) -> dict:
    checkpoint = empty_checkpoint()
    checkpoint["channel_values"] = values
    checkpoint["channel_versions"] = versions
    return checkpoint


def test_conformance_in_chromium(lab_page, capsys: pytest.CaptureFixture[str]) -> None:
    bridge = PageBridge(lab_page)
    opened: list[str] = []

    @checkpointer_test(name="lab IndexedDBSaver in Chromium")
    async def indexeddb_saver():
        name = f"conformance-{len(opened)}-{uuid.uuid4().hex[:8]}"  # a fresh database per capability
        opened.append(name)
        await bridge.arequest("saver_open", {"database": name})
        yield RemoteSaver(bridge, name)
        await bridge.arequest("saver_close", {"database": name, "delete": True})

    report = bridge.run(validate(indexeddb_saver))

    note = f"  {bridge.calls} calls page -> worker -> IndexedDBSaver, {len(opened)} databases\n"
    assert_full_conformance(report, capsys, note)
    assert len(opened) == 8


def load(value: dict) -> object:
    """A ``{type, bytes}`` value of a record read by JavaScript, loaded with the lab's serializer."""
    return MsgpackSerializer().loads_typed((value["type"], bytes(value["bytes"])))


def test_checkpoint_is_in_indexeddb_after_reload(lab_page) -> None:
    thread = f"reload-{uuid.uuid4().hex[:8]}"
    config = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
    values = {"topic": "durability", "seen": {"a", "b"}, "pair": (1, b"\x00\xff")}
    versions = {"topic": 1, "seen": 1, "pair": 1}
    # read back as LangGraph's serializer reads it: a tuple is a msgpack array, so a list
    values_read = {**values, "pair": [1, b"\x00\xff"]}
    with saver_database(lab_page, "reload") as database:
        checkpoint = a_checkpoint(values, versions)
        metadata = {"source": "input", "step": -1}
        saved = call_saver(lab_page, database, "aput", config, checkpoint, metadata, versions)
        writes = [("topic", "next"), ("__error__", "boom")]
        call_saver(lab_page, database, "aput_writes", saved, writes, "task-1")

        lab_page.reload()  # a new worker, a new Python: only IndexedDB remembers
        wait_until_ready(lab_page)

        found = lab_page.evaluate(READ_DATABASE_FROM_JS, [database, thread])
        assert found["version"] == 1
        assert found["stores"] == ["blobs", "checkpoints", "writes"]
        assert found["keyPaths"] == {
            "blobs": ["thread_id", "checkpoint_ns", "channel", "version"],
            "checkpoints": ["thread_id", "checkpoint_ns", "checkpoint_id"],
            "writes": ["thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"],
        }
        assert found["indexes"] == [["by_thread", ["thread_id", "checkpoint_id"]]]

        [record] = found["checkpoints"]
        assert (record["thread_id"], record["checkpoint_ns"], record["checkpoint_id"]) == (
            thread,
            "",
            checkpoint["id"],
        )
        assert record["parent_checkpoint_id"] is None
        stored = load(record["checkpoint"])
        assert stored["id"] == checkpoint["id"] and stored["channel_versions"] == versions
        assert "channel_values" not in stored  # the values are blobs
        assert load(record["metadata"]) == metadata
        assert {blob["channel"]: load(blob["value"]) for blob in found["blobs"]} == values_read
        stored_writes = {(w["task_id"], w["idx"], w["channel"]): load(w["value"]) for w in found["writes"]}
        assert stored_writes == {("task-1", 0, "topic"): "next", ("task-1", -1, "__error__"): "boom"}

        # And the saver, in the new worker, reads back what it wrote before the reload.
        request(lab_page, "saver_open", {"database": database})
        loaded = call_saver(lab_page, database, "aget_tuple", config)
        assert loaded.checkpoint["channel_values"] == values_read
        assert loaded.pending_writes == [("task-1", "__error__", "boom"), ("task-1", "topic", "next")]


def test_corrupt_record_gives_a_clear_error_naming_it(lab_page) -> None:
    thread = "corrupt"
    config = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
    with saver_database(lab_page, "corrupt") as database:
        checkpoint = a_checkpoint({"a": 1}, {"a": 1})
        checkpoint_id = checkpoint["id"]
        call_saver(lab_page, database, "aput", config, checkpoint, {}, {"a": 1})
        blob = {"thread_id": thread, "checkpoint_ns": "", "channel": "a", "version": 1}

        def store_blob_value(value: dict) -> None:
            lab_page.evaluate(PUT_RECORD_FROM_JS, [database, "blobs", {**blob, "value": value}])

        store_blob_value({"type": "msgpack", "bytes": [0xC1]})  # not msgpack: 0xc1 is never used
        with pytest.raises(LabCommandError) as failure:
            call_saver(lab_page, database, "aget_tuple", config)
        assert failure.value.type == "CorruptRecordError"
        assert (
            f"thread 'corrupt', checkpoint {checkpoint_id!r}, channel 'a' (version 1)"
            in failure.value.message
        )
        assert "does not load: the bytes are not msgpack" in failure.value.message

        store_blob_value({"type": "msgpack", "bytes": "x"})  # a record of the wrong shape: text, not bytes
        with pytest.raises(LabCommandError) as failure:
            call_saver(lab_page, database, "aget_tuple", config)
        assert failure.value.type == "CorruptRecordError"
        assert (
            "blobs record ['corrupt', '', 'a', 1] does not load: the record is malformed"
            in failure.value.message
        )

        assert request(lab_page, "ping", {})["pong"]  # the worker is still answering


def test_a_record_refused_midway_stores_nothing_of_the_call(lab_page) -> None:
    # One aput is one transaction whose records are all requested by one forEach: the checkpoint and the
    # blob of "a" are fine, the blob of "b" has a key IndexedDB refuses (no version), so nothing is stored.
    config = {"configurable": {"thread_id": "refused", "checkpoint_ns": ""}}
    with saver_database(lab_page, "refused") as database:
        checkpoint = a_checkpoint({"a": 1, "b": 2}, {"a": 1, "b": None})
        with pytest.raises(LabCommandError) as failure:
            call_saver(lab_page, database, "aput", config, checkpoint, {}, {"a": 1, "b": None})
        assert failure.value.type == "IndexedDBError"
        assert failure.value.message.startswith(
            f"IndexedDB refused checkpoint {checkpoint['id']} of thread 'refused': DataError"
        )
        stored = lab_page.evaluate(READ_DATABASE_FROM_JS, [database, "refused"])
        assert (stored["checkpoints"], stored["blobs"]) == ([], [])
        assert call_saver(lab_page, database, "aget_tuple", config) is None
        assert request(lab_page, "ping", {})["pong"]  # the worker is still answering


def test_full_quota_gives_a_clear_error_and_stores_nothing(browser, site) -> None:
    # A context of its own: Chromium caches how much space a site has left once it has written, so a
    # smaller quota only shows in a context that has not written yet.
    context = browser.new_context()
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Storage.overrideQuotaForOrigin", {"origin": site, "quotaSize": 1_000_000})
        page.goto(site + "/")
        wait_until_ready(page)
        config = {"configurable": {"thread_id": "big", "checkpoint_ns": ""}}
        with saver_database(page, "quota") as database:
            big = a_checkpoint({"payload": os.urandom(3_000_000)}, {"payload": 1})  # random: no compression
            with pytest.raises(LabCommandError) as failure:
                call_saver(page, database, "aput", config, big, {}, {"payload": 1})
            assert failure.value.type == "StorageFullError"
            assert "storage for this site is full" in failure.value.message
            assert f"checkpoint {big['id']} of thread 'big' was not saved" in failure.value.message
            assert call_saver(page, database, "aget_tuple", config) is None  # all or nothing

            cdp.send("Storage.overrideQuotaForOrigin", {"origin": site})  # back to the browser's quota
            small = a_checkpoint({"payload": b"ok"}, {"payload": 1})
            call_saver(page, database, "aput", config, small, {}, {"payload": 1})
            assert call_saver(page, database, "aget_tuple", config).checkpoint["id"] == small["id"]
    finally:
        context.close()
