"""LangGraph's low-level API in the lab: ``NodeBuilder`` nodes in a hand-built ``Pregel``.

What it computes, streams and checkpoints is compared with real LangGraph in
``tests/differential/scenarios_pregel.py``; here, what the lab refuses and how it runs an async chain.
"""

import asyncio
import operator
import sys

import pytest

from lab.checkpoint.memory import InMemorySaver
from lab.graph.unsupported import NotSupportedError
from lab.playground.langgraph_imports import langgraph_resolves_to_lab
from lab.pregel import NodeBuilder, Pregel
from lab.pregel.channels import BinaryOperatorAggregate, LastValue, Topic


def adder() -> Pregel:
    node = NodeBuilder().subscribe_only("a").do(lambda x: x + 1).write_to("b")
    return Pregel(
        nodes={"add": node},
        channels={"a": LastValue(int), "b": LastValue(int)},
        input_channels="a",
        output_channels="b",
    )


def test_a_pregel_argument_the_lab_lacks_is_refused_by_name() -> None:
    with pytest.raises(NotSupportedError, match=r"Pregel\(store=\.\.\.\)"):
        Pregel(nodes={}, channels={}, input_channels="a", output_channels="b", store=object())


def test_a_node_policy_the_lab_lacks_is_refused_by_name() -> None:
    with pytest.raises(NotSupportedError, match=r"NodeBuilder\(\)\.add_retry_policies\(\)"):
        NodeBuilder().subscribe_only("a").add_retry_policies()


def test_a_node_subscribes_to_one_channel_or_to_several_not_both() -> None:
    with pytest.raises(ValueError, match="already subscribed"):
        NodeBuilder().subscribe_to("a").subscribe_only("b")
    with pytest.raises(ValueError, match="subscribed to a single channel"):
        NodeBuilder().subscribe_only("a").subscribe_to("b")


def test_a_pregel_without_output_channels_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="needs output_channels="):
        Pregel(nodes={}, channels={"a": LastValue(int)}, input_channels="a")


def test_a_node_that_is_not_built_with_node_builder_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="'add' must be built with NodeBuilder, got function"):
        Pregel(
            nodes={"add": lambda x: x},
            channels={"a": LastValue(int)},
            input_channels="a",
            output_channels="a",
        )


def test_a_chain_with_an_async_step_runs_each_step_on_the_last_result() -> None:
    async def double(x: int) -> int:
        await asyncio.sleep(0)
        return x * 2

    node = NodeBuilder().subscribe_only("a").do(lambda x: x + 1).do(double).do(lambda x: f"{x}").write_to("b")
    channels = {"a": LastValue(int), "b": LastValue(str)}
    app = Pregel(nodes={"n": node}, channels=channels, input_channels="a", output_channels=["a", "b"])
    assert asyncio.run(app.ainvoke(3)) == {"a": 3, "b": "8"}


def test_a_topic_collects_the_step_and_a_reducer_keeps_adding_on_the_thread() -> None:
    publish = NodeBuilder().subscribe_only("a").write_to("topic", topic=lambda x: [x, x])
    count = NodeBuilder().subscribe_only("topic").do(len).write_to("total")
    app = Pregel(
        nodes={"publish": publish, "count": count},
        channels={
            "a": LastValue(int),
            "topic": Topic(int),
            "total": BinaryOperatorAggregate(int, operator.add),
        },
        input_channels="a",
        output_channels="total",
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t"}}
    assert app.invoke(7, config) == 3
    assert app.invoke(7, config) == 6
    assert app.get_state(config).values == {"a": 7, "total": 6}


def test_the_playground_resolves_langgraphs_low_level_imports_to_the_lab() -> None:
    with langgraph_resolves_to_lab():
        from langgraph.channels import LastValue as Resolved
        from langgraph.pregel import NodeBuilder as ResolvedBuilder

    assert Resolved is LastValue and ResolvedBuilder is NodeBuilder


def test_the_lone_step_is_called_as_given() -> None:
    assert adder().invoke(1) == 2


def test_a_schema_without_pydantic_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pydantic", None)  # (as in the browser before a program imports it)
    with pytest.raises(NotSupportedError, match="LangGraphInput .* without pydantic installed"):
        adder().input_schema  # noqa: B018
