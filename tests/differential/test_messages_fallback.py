"""The message scenarios where ``langchain_core`` is not importable, as in the browser: ``lab.messages``
falls back to the lab's own classes (``lab.plain_messages``), and every trace must still equal
LangGraph's (with LangChain's classes), reprs and checkpoints included.

One child process runs them all, with ``sys.modules["langchain_core"] = None`` set before ``lab``
is imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .flavours import Flavour
from .scenarios import SCENARIOS, run_scenario
from .show import first_difference
from .test_differential import REPO
from .trace import render

MESSAGE_SCENARIOS = [name for name in SCENARIOS if name.startswith("messages_")]

CHILD = """
import json, sys
sys.modules["langchain_core"] = None
from lab import messages, plain_messages
assert not messages.USES_LANGCHAIN and messages.HumanMessage is plain_messages.HumanMessage
from tests.differential.show import trace_lines
print(json.dumps({name: trace_lines(name, "lab") for name in sys.argv[1:]}))
"""


@pytest.fixture(scope="module")
def traces_without_langchain() -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *MESSAGE_SCENARIOS],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_there_are_message_scenarios() -> None:
    assert len(MESSAGE_SCENARIOS) >= 8


@pytest.mark.parametrize("name", MESSAGE_SCENARIOS)
def test_the_labs_own_message_classes_give_langgraphs_trace(
    name: str, langgraph_flavour: Flavour, traces_without_langchain: dict[str, list[str]]
) -> None:
    expected, actual = render(run_scenario(name, langgraph_flavour)), traces_without_langchain[name]
    assert actual == expected, f"{name}: lab's own classes differ at {first_difference(expected, actual)}"
