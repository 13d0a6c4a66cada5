"""The tools that run LangGraph's own tests against ``lab`` (``tests/upstream``): the import shim and the
rule that places a test inside or outside the honest ceiling.

The shim is tried in a fresh interpreter each time: this process imports the real LangGraph (the
differential suite's oracle), and the shim refuses to start where LangGraph is already loaded.
"""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.upstream.selection import Selector

UPSTREAM = Path(__file__).resolve().parent / "upstream"
REPO = UPSTREAM.parents[1]


def run_python(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter that can import ``lab`` and ``lab_shim``."""
    prelude = f"import sys; sys.path[:0] = [{str(UPSTREAM)!r}, {str(REPO)!r}]\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True, timeout=60
    )


def test_langgraph_names_are_labs_objects_and_real_langgraph_never_loads() -> None:
    result = run_python(
        """
        import importlib.util, operator, os, sys
        from typing import Annotated, TypedDict
        real_dir = list(importlib.util.find_spec("langgraph").submodule_search_locations)[0] + os.sep
        import lab_shim
        lab_shim.install()

        import lab.checkpoint.memory, lab.errors, lab.graph, lab.types
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.errors import GraphRecursionError
        from langgraph.graph import END, START, StateGraph
        from langgraph.types import Command

        assert StateGraph is lab.graph.StateGraph
        assert Command is lab.types.Command
        assert InMemorySaver is lab.checkpoint.memory.InMemorySaver
        assert GraphRecursionError is lab.errors.GraphRecursionError

        class State(TypedDict):
            items: Annotated[list, operator.add]

        builder = StateGraph(State)
        builder.add_node("a", lambda state: {"items": ["a"]})
        builder.add_edge(START, "a")
        builder.add_edge("a", END)
        graph = builder.compile(checkpointer=InMemorySaver())
        assert graph.invoke({"items": []}, {"configurable": {"thread_id": "1"}}) == {"items": ["a"]}

        assert lab_shim.real_langgraph_modules() == []
        files = [getattr(m, "__file__", None) or "" for m in list(sys.modules.values())]
        assert not [f for f in files if f.startswith(real_dir)], real_dir
        print("ok")
        """
    )
    assert result.stdout.strip() == "ok", result.stderr


def test_what_lab_lacks_imports_and_fails_on_use_with_an_import_error() -> None:
    result = run_python(
        """
        import lab_shim
        lab_shim.install()
        from langgraph.checkpoint.sqlite import SqliteSaver
        from langgraph.graph import NoSuchName

        def refusal(action):
            try:
                action()
            except ImportError as error:
                return error.name
            return "no error"

        class Sub(NoSuchName):
            pass

        print(refusal(lambda: SqliteSaver(conn=None)))
        print(refusal(lambda: isinstance(1, NoSuchName)))
        print(refusal(Sub))
        print(refusal(lambda: SqliteSaver.put))
        print(lab_shim.named_absent(f"input_value={NoSuchName!r}"))
        """
    )
    assert result.stdout.split() == [
        "langgraph.checkpoint.sqlite.SqliteSaver",
        "langgraph.graph.NoSuchName",
        "langgraph.graph.NoSuchName",
        "langgraph.checkpoint.sqlite.SqliteSaver",
        "langgraph.graph.NoSuchName",
    ], result.stderr


def test_shim_refuses_to_install_over_a_loaded_langgraph() -> None:
    result = run_python(
        """
        import langgraph.graph
        import lab_shim
        lab_shim.install()
        """
    )
    assert result.returncode != 0
    assert "real LangGraph is already imported" in result.stderr


UPSTREAM_STYLE_TESTS = """
from langgraph.graph import StateGraph
from langgraph.graph.message import _messages_delta_reducer
from langgraph.pregel._loop import PregelLoop
from tests.helpers import public_helper, private_helper

def build():
    return StateGraph(dict)

def uses_private():
    return PregelLoop

def test_public():
    build().compile().get_graph().nodes
    public_helper()

def test_drawing_name():
    drawing = build().compile().get_graph(xray=True)
    assert drawing.edges

def test_private_name():
    StateGraph(dict, reducer=_messages_delta_reducer)

def test_private_through_a_helper():
    uses_private()

def test_private_through_a_helper_file():
    private_helper()

def test_builder_object():
    assert build().channels

def test_private_attribute():
    assert build().compile()._something

def test_patches_internals(mocker):
    mocker.patch("langgraph.pregel._loop.PregelLoop.put_writes")

def test_migrate_v1_checkpoints():
    build()
"""

PATCHED = "langgraph.pregel._loop.PregelLoop.put_writes"

HELPERS = """
from langgraph._internal._constants import ERROR

def public_helper():
    return 1

def private_helper():
    return ERROR
"""


def test_selection_keeps_public_api_tests_and_names_why_others_are_out(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "test_example.py").write_text(UPSTREAM_STYLE_TESTS)
    verdicts = {v.test: v.excluded for v in Selector(tmp_path).verdicts(tmp_path / "test_example.py")}
    assert verdicts == {
        "test_public": None,
        "test_drawing_name": None,
        "test_private_name": "imports private langgraph.graph.message._messages_delta_reducer",
        "test_private_through_a_helper": "imports private langgraph.pregel._loop.PregelLoop",
        "test_private_through_a_helper_file": "imports private langgraph._internal._constants.ERROR",
        "test_builder_object": "reads private builder object .channels",
        "test_private_attribute": "reads private attribute ._something",
        "test_patches_internals": f"patches LangGraph internals ({PATCHED})",
        "test_migrate_v1_checkpoints": "migrates an old checkpoint format",
    }


@pytest.mark.parametrize("origin", ["langgraph.checkpoint.serde.jsonplus.JsonPlusSerializer", "langgraph._x"])
def test_serializer_internals_and_underscore_modules_are_private(origin: str) -> None:
    from tests.upstream.selection import is_private_origin

    assert is_private_origin(origin)
    assert not is_private_origin("langgraph.graph.message.MessagesState")


def test_snapshots_are_read_under_the_name_langgraphs_own_run_gives_a_test() -> None:
    """LangGraph parametrizes its saver fixtures (the in-memory one's id is ``memory``) and records its
    snapshots under those names; the lab's saver fixtures are not parametrized, so the plugin names the
    snapshot as LangGraph's run would: fixture parameters in closure order, then the test's own."""
    result = run_python(
        """
        from types import SimpleNamespace as NS
        import lab_upstream_plugin as plugin

        def name(fixturenames, callspec_id=None, originalname="test_x"):
            callspec = NS(id=callspec_id) if callspec_id is not None else None
            node = NS(originalname=originalname, callspec=callspec,
                      name=originalname + (f"[{callspec_id}]" if callspec_id else ""))
            return plugin.langgraph_node_name(NS(fixturenames=fixturenames, node=node))

        print(name(["sync_checkpointer", "snapshot"]))
        print(name(["sync_checkpointer", "use_waiting_edge"], "False"))
        print(name(["async_checkpointer", "durability"], "exit"))
        print(name(["durability", "snapshot"], "sync"))
        """
    )
    assert result.stdout.split() == [
        "test_x[memory]",
        "test_x[memory-False]",
        "test_x[memory-exit]",
        "test_x[sync]",
    ], result.stderr
