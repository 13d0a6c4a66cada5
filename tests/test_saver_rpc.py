"""The worker's saver commands (``lab/browser/saver_rpc.py``) on CPython, over the in-memory saver: what
arrives as encoded text is run as the saver's own calls, and what goes back decodes to their results.
(In the browser the same commands drive the IndexedDB saver: ``tests/browser/saver_adapter.py``.)"""

from collections.abc import Iterator

import pytest

from lab.browser import saver_rpc
from lab.browser.saver_rpc import decode, encode
from lab.checkpoint import InMemorySaver

CONFIG = {"configurable": {"thread_id": "t-1", "checkpoint_ns": ""}}
AT_FIRST = {"configurable": {**CONFIG["configurable"], "checkpoint_id": "1f0-a"}}


def checkpoint(checkpoint_id: str, value: int) -> dict:
    return {
        "v": 1,
        "id": checkpoint_id,
        "ts": "2026-12-01T00:00:00+00:00",
        "channel_values": {"count": value},
        "channel_versions": {"count": f"{value:032}.0"},
        "versions_seen": {},
        "updated_channels": ["count"],
    }


@pytest.fixture
def saver() -> Iterator[InMemorySaver]:
    memory = InMemorySaver()
    saver_rpc._savers["rpc-test"] = memory
    yield memory
    saver_rpc._savers.pop("rpc-test", None)


async def test_saver_calls_runs_a_step_s_calls_in_turn_and_returns_each_result(saver):
    first, second = checkpoint("1f0-a", 1), checkpoint("1f0-b", 2)
    calls = [
        ["aput", [CONFIG, first, {"step": 0}, first["channel_versions"]], {}],
        ["aput_writes", [AT_FIRST, [("count", 2)], "task-1"], {}],
        ["aput", [AT_FIRST, second, {"step": 1}, second["channel_versions"]], {}],
        ["aget_tuple", [CONFIG], {}],
    ]
    answer = await saver_rpc.saver_calls({"database": "rpc-test", "calls": encode(calls)})
    first_config, nothing, second_config, latest = decode(answer["results"])
    assert first_config["configurable"]["checkpoint_id"] == "1f0-a"
    assert nothing is None
    assert second_config["configurable"]["checkpoint_id"] == "1f0-b"
    # each call saw the ones before it: the latest checkpoint is the second, its parent the first
    assert latest["checkpoint"]["id"] == "1f0-b" and latest["checkpoint"]["channel_values"] == {"count": 2}
    assert latest["parent_config"]["configurable"]["checkpoint_id"] == "1f0-a"
    assert saver.get_tuple(AT_FIRST).pending_writes == [("task-1", "count", 2)]
    assert answer["ms"] >= 0


async def test_saver_calls_refuses_a_method_it_does_not_run_before_running_any(saver):
    first = checkpoint("1f0-a", 1)
    calls = [["aput", [CONFIG, first, {}, first["channel_versions"]], {}], ["put", [CONFIG], {}]]
    with pytest.raises(ValueError, match="saver_call runs only .*not 'put'"):
        await saver_rpc.saver_calls({"database": "rpc-test", "calls": encode(calls)})
    assert saver.get_tuple(CONFIG) is None  # the aput before it did not run either


async def test_a_saver_command_on_a_database_not_opened_says_so():
    with pytest.raises(ValueError, match="'nowhere' is not open here: send saver_open first"):
        await saver_rpc.saver_calls({"database": "nowhere", "calls": encode([])})
