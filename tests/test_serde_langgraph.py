"""Tuples in checkpoints, byte for byte as LangGraph's ``JsonPlusSerializer`` (msgpack mode) writes
them: an array, read back as a list (a tuple dict key as a tuple). Each side reads the other's bytes
and gets what the other gets; the lab's records from before (a tuple as extension code 3) still load."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from lab.checkpoint.serde import MsgpackSerializer

LANGGRAPH = JsonPlusSerializer()
LAB = [MsgpackSerializer(pure_python=False), MsgpackSerializer(pure_python=True)]

TUPLES: list[tuple[Any, Any]] = [  # (value, what it loads as on both sides)
    (("a", 1), ["a", 1]),
    ((), []),
    ({"k": ("a", (1, None))}, {"k": ["a", [1, None]]}),
    ([("a",), [(1, 2.5)]], [["a"], [[1, 2.5]]]),
    ({("k", 2): ("v",)}, {("k", 2): ["v"]}),
    ({("a", (1, ("b",))): {"in": (b"x",)}}, {("a", (1, ("b",))): {"in": [b"x"]}}),
    ({"x": {(1, 2): [(3,)]}, "y": ("é", -1)}, {"x": {(1, 2): [[3]]}, "y": ["é", -1]}),
]


@pytest.mark.parametrize("lab", LAB, ids=["C", "pure"])
@pytest.mark.parametrize(("value", "loaded"), TUPLES, ids=[repr(value) for value, _ in TUPLES])
def test_a_tuple_is_written_and_read_as_in_langgraph(lab: MsgpackSerializer, value: Any, loaded: Any) -> None:
    written = lab.dumps_typed(value)
    assert written == LANGGRAPH.dumps_typed(value)
    assert lab.loads_typed(written) == loaded
    assert LANGGRAPH.loads_typed(written) == loaded
    assert lab.loads_typed(LANGGRAPH.dumps_typed(value)) == loaded
    assert lab.dumps_typed(loaded) == written  # a list writes what the tuple wrote


def test_a_tuple_key_keeps_its_type_on_both_sides() -> None:
    for serde in (LANGGRAPH, *LAB):
        (key,) = serde.loads_typed(LAB[0].dumps_typed({("a", (1,)): 0}))
        assert type(key) is tuple and type(key[1]) is tuple


def test_sets_keep_their_types_on_both_sides() -> None:
    """Both keep sets and frozensets (each by its own extension code: ``lab.interop`` converts)."""
    value = {"s": {1, "a"}, "f": frozenset({2}), "in": [{3}]}
    for serde in (LANGGRAPH, *LAB):
        loaded = serde.loads_typed(serde.dumps_typed(value))
        assert loaded == value
        assert (type(loaded["s"]), type(loaded["f"])) == (set, frozenset)


def test_a_record_the_lab_wrote_before_still_loads() -> None:
    """Before, the lab wrote a tuple as extension code 3: such a thread still opens, its tuple a tuple."""
    old = msgpack.packb({"pair": msgpack.ExtType(3, msgpack.packb(["a", [1]]))})
    for lab in LAB:
        assert lab.loads_typed(("msgpack", old)) == {"pair": ("a", [1])}
