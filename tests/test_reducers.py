"""A reducer's ``(a, b)`` signature is checked when the graph is built, as LangGraph checks it; the
lab remembers the count per reducer (graphs are compiled again for every process), which must not
change what is accepted or refused."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

import langgraph.graph
import pytest

import lab.graph


def three_arguments(a: list, b: list, c: list) -> list:
    return a + b + c


class Concatenate:
    """A callable reducer that cannot be hashed (it defines ``__eq__`` only)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Concatenate)

    def __call__(self, a: list, b: list) -> list:
        return a + b


def state_with(reducer) -> type:
    return TypedDict("State", {"log": Annotated[list, reducer]})


@pytest.mark.parametrize("module", [lab.graph, langgraph.graph], ids=["lab", "langgraph"])
def test_a_reducer_without_two_positional_parameters_is_refused(module):
    for _ in range(2):  # refused again when its count is already remembered
        with pytest.raises(ValueError, match=r"^Invalid reducer signature\. Expected \(a, b\) -> c\. Got"):
            module.StateGraph(state_with(three_arguments))


@pytest.mark.parametrize("reducer", [Concatenate(), operator.add], ids=["unhashable", "operator.add"])
@pytest.mark.parametrize("module", [lab.graph, langgraph.graph], ids=["lab", "langgraph"])
def test_a_two_argument_reducer_folds_every_write(module, reducer):
    graph = module.StateGraph(state_with(reducer))
    graph.add_node("a", lambda state: {"log": ["a"]})
    graph.add_node("b", lambda state: {"log": ["b"]})
    graph.add_edge(module.START, "a").add_edge("a", "b")
    assert graph.compile().invoke({"log": ["start"]}) == {"log": ["start", "a", "b"]}
