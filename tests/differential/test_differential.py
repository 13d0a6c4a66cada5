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
from .scenarios import SCENARIOS, run_scenario
from .show import first_difference
from .trace import render

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
