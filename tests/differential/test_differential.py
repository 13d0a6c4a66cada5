"""One test per scenario: LangGraph's normalised trace must equal lab's, line by line.

On failure pytest shows the first differing line (``-vv`` for the whole diff); to see a full
trace run ``python -m tests.differential.show <scenario> [langgraph|lab|diff]``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .flavours import Flavour
from .scenarios import EXPECTED_ABORTS, SCENARIOS, ScenarioError, build, run_scenario
from .show import first_difference
from .trace import Normaliser, Trace, render, thread

REPO = Path(__file__).resolve().parents[2]


def check_scenario(name: str, langgraph_flavour: Flavour, lab_flavour: Flavour) -> None:
    expected = render(run_scenario(name, langgraph_flavour))
    actual = render(run_scenario(name, lab_flavour))
    assert actual == expected, f"{name}: lab differs from langgraph at {first_difference(expected, actual)}"


def _make_test(name: str):
    def test(langgraph_flavour: Flavour, lab_flavour: Flavour) -> None:
        check_scenario(name, langgraph_flavour, lab_flavour)

    test.__name__ = test.__qualname__ = f"test_{name}"
    test.__doc__ = SCENARIOS[name].__doc__
    return test


# test_linear, test_fanout_edges, ... : one named test per registered scenario.
globals().update({f"test_{name}": _make_test(name) for name in SCENARIOS})


@pytest.fixture(scope="module")
def oracle_elsewhere() -> dict[str, list[str]]:
    """Every scenario's LangGraph trace computed in another process with another hash seed."""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    cmd = [sys.executable, "-m", "tests.differential.show", "all", "langgraph", "--json"]
    out = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_oracle_is_deterministic(name: str, langgraph_flavour: Flavour, oracle_elsewhere: dict) -> None:
    """LangGraph's trace must not depend on the process, hash seed or timing, or the comparison
    with lab would be flaky."""
    here = render(run_scenario(name, langgraph_flavour))
    assert here == oracle_elsewhere[name], (
        f"{name}: LangGraph's own trace varies at {first_difference(oracle_elsewhere[name], here)}"
    )


# -- the comparison itself must see what a learner sees ------------------------------------------------


def test_a_tuple_and_a_list_are_told_apart() -> None:
    assert Normaliser().value(("a", ["b"])) == {"<tuple>": ["a", ["b"]]}
    assert Normaliser().value(["a", ("b",)]) == ["a", {"<tuple>": ["b"]}]


def test_snapshot_configs_are_compared_in_full(langgraph_flavour: Flavour) -> None:
    """Every key of ``config`` / ``parent_config`` is kept, only checkpoint ids become ``C<n>``:
    a snapshot that lost ``checkpoint_ns`` reads differently."""
    t = Trace(langgraph_flavour)
    app = t.compile(build(t, "START>a a>END"))
    app.invoke({"log": []}, thread())
    snapshot = app.get_state(thread())
    normalised = Normaliser().snapshot(snapshot)
    assert normalised["config"] == {
        "configurable": {"thread_id": "t1", "checkpoint_ns": "", "checkpoint_id": "C0"}
    }
    assert normalised["parent_config"] == {
        "configurable": {"thread_id": "t1", "checkpoint_ns": "", "checkpoint_id": "C1"}
    }
    without_ns = {
        "configurable": {k: v for k, v in snapshot.config["configurable"].items() if k != "checkpoint_ns"}
    }
    assert Normaliser().snapshot(snapshot._replace(config=without_ns))["config"] != normalised["config"]


def raise_key_error(t: Trace) -> None:
    t.invoke(t.compile(build(t, "START>a a>END")), {"log": []}, thread())
    raise KeyError("thread_id")


def test_langgraph_may_abort_a_scenario_only_where_it_is_declared(
    langgraph_flavour: Flavour, lab_flavour: Flavour, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(SCENARIOS, "aborting", raise_key_error)
    with pytest.raises(ScenarioError, match=r"aborting: LangGraph aborted the scenario with KeyError"):
        run_scenario("aborting", langgraph_flavour)
    monkeypatch.setitem(EXPECTED_ABORTS, "aborting", "ValueError")
    with pytest.raises(ScenarioError, match=r"declared aborts='ValueError', but LangGraph raised KeyError"):
        run_scenario("aborting", langgraph_flavour)
    monkeypatch.setitem(EXPECTED_ABORTS, "aborting", "KeyError")
    aborted = {"raised": "KeyError", "kind": "KeyError", "message": "'thread_id'"}
    assert run_scenario("aborting", langgraph_flavour)["02 ABORTED"] == aborted
    assert run_scenario("aborting", lab_flavour)["02 ABORTED"] == aborted  # compared like any result
    monkeypatch.setitem(SCENARIOS, "aborting", lambda t: None)
    with pytest.raises(ScenarioError, match=r"declared aborts='KeyError', but LangGraph finished it"):
        run_scenario("aborting", langgraph_flavour)
