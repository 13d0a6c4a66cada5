"""What ``lab`` leaves out of LangGraph's graph API is refused by name, and pydantic stays optional.

Everything ``lab`` does support is compared with LangGraph in ``tests/differential/scenarios_api.py``;
these are the deliberate differences, which have no LangGraph counterpart to compare with.
"""

from __future__ import annotations

import operator
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from typing import Annotated, TypedDict

import pytest

from lab.checkpoint.memory import InMemorySaver
from lab.config import get_config
from lab.func import entrypoint
from lab.graph import START, StateGraph
from lab.graph.schema import function_hints
from lab.graph.unsupported import NotSupportedError
from lab.types import StateUpdate

REPO = Path(__file__).resolve().parents[1]


class Log(TypedDict):
    log: Annotated[list, operator.add]


def one_node_graph(fn=lambda state: {"log": ["a"]}) -> StateGraph:
    return StateGraph(Log).add_node("a", fn).add_edge(START, "a")


def refused(feature: str) -> pytest.RaisesContext:
    return pytest.raises(NotSupportedError, match=rf"^lab does not support {feature}.*; see docs/LANGGRAPH")


def test_unknown_state_graph_options_are_refused_by_name():
    with refused(r"StateGraph\(config_schema=\.\.\.\)"):
        StateGraph(Log, config_schema=dict)


@pytest.mark.parametrize("option", ["retry_policy", "error_handler", "timeout"])
def test_node_options_lab_does_not_implement_are_refused_by_name(option):
    with refused(rf"add_node\({option}=\.\.\.\)"):
        StateGraph(Log).add_node("a", lambda state: {}, **{option: object()})


def test_compile_accepts_options_left_at_their_defaults():
    app = one_node_graph().compile(store=None, cache=None, debug=False, name="mine")
    assert app.invoke({"log": []}) == {"log": ["a"]}


def test_a_node_parameter_lab_cannot_fill_is_refused_by_name():
    namespace: dict = {}
    exec("def node(state, previous):\n    return {}", namespace)
    with refused("a node parameter named 'previous'"):
        StateGraph(Log).add_node("a", namespace["node"]).add_edge(START, "a").compile()


def test_bulk_update_state_refuses_task_ids_by_name():
    app = one_node_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    app.invoke({"log": []}, config)
    with refused(r"StateUpdate\(task_id=\.\.\.\)"):
        app.bulk_update_state(config, [[StateUpdate({"log": ["x"]}, "a", "some-task")]])
    assert app.get_state(config).values == {"log": ["a"]}, "a refused update writes nothing"


def test_json_schema_refuses_field_types_it_cannot_describe_by_name():
    class Odd(TypedDict):
        when: complex

    with refused("a JSON schema for the field type <class 'complex'>"):
        StateGraph(Odd).add_node("a", lambda s: {}).add_edge(START, "a").compile().get_input_jsonschema()


def test_drawing_to_an_image_is_refused_by_name_and_points_at_draw_mermaid():
    drawn = one_node_graph().compile().get_graph()
    with refused(r"draw_mermaid_png\(\).*print\(graph.get_graph\(\).draw_mermaid\(\)\)"):
        drawn.draw_mermaid_png()
    with refused(r"draw_ascii\(\)"):
        drawn.draw_ascii()
    with refused(r"draw_mermaid\(curve_style=\.\.\.\)"):
        drawn.draw_mermaid(curve_style="basis")
    assert drawn.draw_mermaid(with_styles=False) == "graph TD;\n\t__start__ --> a;\n\ta --> __end__;\n"


@pytest.mark.parametrize("method", ["astream_log", "astream_events", "with_retry"])
def test_compiled_graph_methods_lab_lacks_fail_by_name(method):
    app = one_node_graph().compile()
    with pytest.raises(AttributeError, match=rf"^lab does not support CompiledStateGraph\.{method}\(\)"):
        getattr(app, method)
    assert not hasattr(app, method), "hasattr() still answers False"
    with pytest.raises(AttributeError, match="'CompiledStateGraph' object has no attribute 'no_such'"):
        app.no_such  # noqa: B018


@pytest.mark.parametrize("method", ["astream_events", "with_retry"])
def test_entrypoint_methods_lab_lacks_fail_by_name(method):
    @entrypoint()
    def double(number: int) -> int:
        return number * 2

    with pytest.raises(AttributeError, match=rf"^lab does not support EntrypointGraph\.{method}\(\)"):
        getattr(double, method)
    assert double.invoke(2) == 4
    with pytest.raises(AttributeError, match="'EntrypointGraph' object has no attribute 'no_such'"):
        double.no_such  # noqa: B018


def test_get_config_outside_a_node_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="outside of a runnable context"):
        get_config()


def test_get_config_is_cleared_after_each_node():
    app = one_node_graph(lambda state: {"log": [get_config()["metadata"]["langgraph_node"]]}).compile()
    assert app.invoke({"log": []}) == {"log": ["a"]}
    with pytest.raises(RuntimeError):
        get_config()


def test_lab_builds_dataclass_graphs_without_pydantic():
    """``pydantic`` is made unimportable; a dataclass state still runs, is drawn and described."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["pydantic"] = None  # any import of pydantic now fails
        import dataclasses, operator
        from typing import Annotated
        from lab.graph import START, StateGraph

        @dataclasses.dataclass
        class State:
            x: int
            log: Annotated[list, operator.add] = dataclasses.field(default_factory=list)

        def bump(state: State) -> dict:
            return {"x": state.x + 1, "log": [type(state).__name__]}

        app = StateGraph(State).add_node("bump", bump).add_edge(START, "bump").compile()
        print(app.invoke({"x": 1}), app.get_input_jsonschema()["required"], len(app.get_graph().edges))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.split() == ["{'x':", "2,", "'log':", "['State']}", "['x']", "2"]


def test_a_functions_hints_are_evaluated_once_and_not_before_they_resolve():
    """A node's annotations are read at every compile, evaluated once per function (a bound method as
    its function); one that names what does not exist yet is read again once it does."""
    module = types.ModuleType("hints_probe")
    source = (
        "from __future__ import annotations\nclass Node:\n    def __call__(self, state: Later) -> int: ...\n"
    )
    exec(compile(source, "hints_probe", "exec"), module.__dict__)
    with pytest.raises(NameError):
        function_hints(module.Node().__call__)
    module.Later = dict
    first, second = module.Node(), module.Node()
    assert function_hints(first.__call__) is function_hints(second.__call__)
    assert function_hints(first.__call__) == {"state": dict, "return": int}


def test_piping_a_graph_without_langchain_core_is_refused_by_name(monkeypatch):
    """Where ``langchain_core`` is not installed (the browser), ``graph | other`` has no LangChain
    ``RunnableSequence`` to make: refused by name, not a bare ``TypeError``."""
    monkeypatch.setitem(sys.modules, "langchain_core.runnables", None)  # (its import now fails)
    with refused(r"composing a graph with \|"):
        one_node_graph().compile() | (lambda state: state)


@pytest.mark.parametrize("first", ["lab.pregel", "lab.channels", "lab.func", "lab.graph"])
def test_each_package_imports_first_in_a_fresh_interpreter(first):
    """``lab.graph`` imports ``lab.pregel``, so a module-level import of ``lab.graph``'s from
    ``lab.pregel`` would fail when ``lab.pregel`` is imported first (as ``from langgraph.channels.delta
    import DeltaChannel`` does under LangGraph's own tests)."""
    done = subprocess.run(
        [sys.executable, "-c", f"import {first}"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
