"""The typed msgpack serializer (LangGraph's ``SerializerProtocol``): allow-listed round trips,
clear errors for anything else, and identical bytes from msgpack's pure-Python fallback."""

from __future__ import annotations

import enum
import os
import subprocess
import sys
import uuid
from collections import OrderedDict, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, NamedTuple

import msgpack
import pytest

from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.serde import MAX_DEPTH, MsgpackSerializer, register_type
from tests import hostile_records
from tests.hostile_records import MALFORMED, FloatWithABadFloat

serde = MsgpackSerializer()


def roundtrip(value: Any) -> Any:
    return serde.loads_typed(serde.dumps_typed(value))


@dataclass(frozen=True)
class Point:
    x: int
    y: Any


class Envelope:
    """Not a dataclass: registered with explicit fields."""

    def __init__(self, to: str, body: Any) -> None:
        self.to = to
        self.body = body

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Envelope) and (self.to, self.body) == (other.to, other.body)


register_type(Point, name="tests.Point")
register_type(Envelope, name="tests.Envelope", fields=("to", "body"))


def test_none_is_the_null_type() -> None:
    assert serde.dumps_typed(None) == ("null", b"")
    assert serde.loads_typed(("null", b"")) is None


@pytest.mark.parametrize(
    "value",
    [
        0,
        -(2**63),
        2**64 - 1,
        1.5,
        True,
        "",
        "héllo",
        b"\x00raw",
        [],
        [1, "a", None, [2.5]],
        {"x": 1, "nested": {"list": [None, False]}},
        {1: "int key", "s": "str key"},
    ],
)
def test_json_like_values_and_bytes_roundtrip(value: Any) -> None:
    kind, payload = serde.dumps_typed(value)
    assert kind == "msgpack"
    assert isinstance(payload, bytes)
    loaded = serde.loads_typed((kind, payload))
    assert loaded == value
    assert type(loaded) is type(value)


def test_sets_keep_their_types_and_tuples_come_back_lists_as_in_langgraph() -> None:
    """LangGraph's ``JsonPlusSerializer`` writes a tuple as a msgpack array, so it loads a list; a
    tuple dict key loads a tuple (an array key), and so do a set's tuples (LangGraph cannot load those)."""
    value = {
        "join": {"p", "q2"},
        "frozen": frozenset({1, 2}),
        "pair": (1, ("a", None)),
        (1, (2, 3)): "tuple key",
        "in_list": [set(), ()],
        "pairs": {(1, 2), ("a", (3,))},
    }
    loaded = roundtrip(value)
    assert loaded == {
        "join": {"p", "q2"},
        "frozen": frozenset({1, 2}),
        "pair": [1, ["a", None]],
        (1, (2, 3)): "tuple key",
        "in_list": [set(), []],
        "pairs": {(1, 2), ("a", (3,))},
    }
    assert type(loaded["join"]) is set
    assert type(loaded["frozen"]) is frozenset
    assert type(loaded["pair"]) is list and type(loaded["pair"][1]) is list


def test_datetime_keeps_its_utc_offset() -> None:
    aware = datetime(2026, 11, 29, 19, 12, 29, 351919, tzinfo=timezone(timedelta(hours=-5)))
    assert roundtrip(aware) == aware
    assert roundtrip(aware).utcoffset() == timedelta(hours=-5)
    assert roundtrip(datetime(2026, 1, 1, tzinfo=UTC)).tzinfo is not None


def test_uuid_roundtrips_as_uuid() -> None:
    value = uuid.uuid4()
    assert roundtrip(value) == value
    assert isinstance(roundtrip(value), uuid.UUID)


def test_registered_types_roundtrip_by_fields() -> None:
    value = [Point(1, {"tag": [1, 2]}), Envelope("b", Point(2, None))]
    assert roundtrip(value) == value


def test_lab_types_register_interrupt_and_send() -> None:
    from lab.types import Interrupt, Send

    value = {"interrupts": [Interrupt({"q": "ok?"}, "a" * 32)], "tasks": [Send("w", {"x": 1})]}
    assert roundtrip(value) == value


def test_an_interrupt_keeps_its_response_schema_and_loads_as_stored_before_it_had_one() -> None:
    from lab.types import Interrupt

    asked = Interrupt("ok?", "a" * 32, response_schema={"type": "boolean"})
    assert roundtrip(asked) == asked and roundtrip(asked).response_schema == {"type": "boolean"}
    older = msgpack.packb(msgpack.ExtType(6, msgpack.packb(["Interrupt", "ok?", "a" * 32])))
    assert serde.loads_typed(("msgpack", older)) == Interrupt("ok?", "a" * 32)
    too_few = msgpack.packb(msgpack.ExtType(6, msgpack.packb(["Interrupt", "ok?"])))
    with pytest.raises(ValueError, match="has 1 values"):
        serde.loads_typed(("msgpack", too_few))


def test_subclasses_of_native_types_are_stored_as_the_base_type() -> None:
    class Color(enum.IntEnum):
        RED = 1

    class Mood(enum.StrEnum):
        HAPPY = "happy"

    class Pair(NamedTuple):
        a: int
        b: int

    counts: defaultdict[str, int] = defaultdict(int, a=1)
    loaded = roundtrip([counts, OrderedDict(b=2), Color.RED, Mood.HAPPY, Pair(1, 2)])
    assert loaded == [{"a": 1}, {"b": 2}, 1, "happy", [1, 2]]  # a tuple: an array, as LangGraph writes it
    assert [type(item) for item in loaded] == [dict, dict, int, str, list]


def test_non_dataclass_needs_explicit_fields() -> None:
    with pytest.raises(TypeError, match="not a dataclass"):
        register_type(Envelope)


def test_unknown_types_are_rejected_when_saving() -> None:
    class Secret:
        pass

    with pytest.raises(UnsavableValueError, match=r"cannot save .*Secret.* is not a type checkpoints hold"):
        serde.dumps_typed({"x": [Secret()]})
    with pytest.raises(TypeError, match="ValueError"):
        serde.dumps_typed(ValueError("boom"))  # the runtime stores repr(exc) instead


def test_unknown_extension_code_is_rejected_when_loading() -> None:
    payload = msgpack.packb(msgpack.ExtType(42, b"whatever"))
    with pytest.raises(ValueError, match="unknown msgpack extension type 42"):
        serde.loads_typed(("msgpack", payload))


def test_unregistered_name_is_rejected_without_running_code() -> None:
    payload = msgpack.packb(msgpack.ExtType(6, msgpack.packb(["os.system", "echo pwned"])))
    with pytest.raises(ValueError, match="'os.system' is not registered"):
        serde.loads_typed(("msgpack", payload))


def test_field_count_mismatch_is_rejected() -> None:
    payload = msgpack.packb(msgpack.ExtType(6, msgpack.packb(["tests.Point", 1])))
    with pytest.raises(ValueError, match="has 1 values"):
        serde.loads_typed(("msgpack", payload))


@pytest.mark.parametrize("kind", ["pickle", "empty", "json"])
def test_unknown_serialization_types_are_rejected(kind: str) -> None:
    with pytest.raises(ValueError, match=repr(kind)):
        serde.loads_typed((kind, b""))


def test_pure_python_msgpack_gives_the_same_bytes() -> None:
    """The browser may get msgpack's pure-Python fallback: it must load what the C extension
    wrote and write the same bytes."""
    script = """
import sys, uuid, msgpack
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from msgpack import fallback
assert msgpack.Packer is fallback.Packer, "fallback not in use"
from tests.hostile_records import MALFORMED, FloatWithABadFloat
from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.serde import MAX_DEPTH, MsgpackSerializer, register_type

@dataclass(frozen=True)
class Point:
    x: int
    y: Any

register_type(Point, name="tests.Point")
value = [{"s": {3}, "f": frozenset({"a"}), "t": (1, (2,)), "b": b"x", "n": None},
         datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc), uuid.UUID(int=7), Point(1, (2, "y"))]
serde = MsgpackSerializer()
data = serde.dumps_typed(value)
assert serde.dumps_typed(serde.loads_typed(data)) == data  # (its tuples load as lists: the same bytes)
sys.stdout.write(data[1].hex())
"""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "MSGPACK_PUREPYTHON": "1", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

    value = [
        {"s": {3}, "f": frozenset({"a"}), "t": (1, (2,)), "b": b"x", "n": None},
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        uuid.UUID(int=7),
        Point(1, (2, "y")),
    ]
    assert serde.dumps_typed(value)[1].hex() == done.stdout


# --- hostile and malformed records ------------------------------------------------------------


@pytest.mark.parametrize(("name", "value", "words"), MALFORMED, ids=[entry[0] for entry in MALFORMED])
def test_a_malformed_value_gives_one_error_saying_what_is_wrong(name: str, value: Any, words: str) -> None:
    with pytest.raises(CorruptRecordError) as failure:
        serde.loads_typed(value)
    assert words in str(failure.value)
    assert failure.value.code, "the page says a problem by its code: without one it stays English"
    assert failure.value.said.format(**failure.value.params) == failure.value.problem


@pytest.mark.parametrize("pure_python", [False, True], ids=["C msgpack", "pure-Python msgpack"])
def test_no_malformed_value_crashes_either_msgpack(pure_python: bool) -> None:
    """Run in a child process: a segfault (C msgpack recursing through 200 nested extension values)
    would kill pytest itself. The pure-Python fallback is what the browser ships."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("MSGPACK_PUREPYTHON", None)
    if pure_python:
        env["MSGPACK_PUREPYTHON"] = "1"
    used = "is" if pure_python else "is not"
    script = (
        f"import msgpack, msgpack.fallback as f, runpy; assert msgpack.Unpacker {used} f.Unpacker; "
        "runpy.run_path('tests/hostile_records.py', run_name='__main__')"
    )
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == [f"{name}: ok" for name, _, _ in MALFORMED]


def nested(kind: Any, depth: int, inner: Any = None) -> Any:
    value: Any = inner
    for _ in range(depth):
        value = kind([value])
    return value


def as_loaded(value: Any) -> Any:
    """A value as it loads: tuples outside sets and keys come back lists, as in LangGraph."""
    return [as_loaded(item) for item in value] if isinstance(value, list | tuple) else value


BOTH_PACKERS = pytest.mark.parametrize(
    "packing", [MsgpackSerializer(pure_python=False), MsgpackSerializer(pure_python=True)], ids=["C", "pure"]
)
"""msgpack's C packer with the lab's depth walk beside it, and the pure-Python packer that checks
depth in its own walk (the browser's): both refuse the same values."""


@BOTH_PACKERS
@pytest.mark.parametrize(
    "kind",
    [list, tuple, frozenset, lambda items: {"k": items[0]}, lambda items: Point(0, items[0])],
    ids=["list", "tuple", "frozenset", "dict", "registered type"],
)
def test_saving_refuses_what_loading_would_refuse(kind: Any, packing: MsgpackSerializer) -> None:
    fine = nested(kind, MAX_DEPTH)
    assert serde.loads_typed(packing.dumps_typed(fine)) == as_loaded(fine)
    for too_deep in (nested(kind, MAX_DEPTH + 1), nested(kind, MAX_DEPTH, inner=())):  # () is empty
        with pytest.raises(UnsavableValueError, match=f"more than {MAX_DEPTH} deep"):
            packing.dumps_typed(too_deep)


@BOTH_PACKERS
def test_saving_refuses_a_uuid_in_as_many_typed_values_as_loading_refuses(packing: MsgpackSerializer) -> None:
    """A UUID is no container, but it is a typed value: loading refuses the 51st inside 50 others."""
    stored = hostile_records.ext(hostile_records.UUID, uuid.UUID(int=1).bytes)
    for _ in range(MAX_DEPTH):  # a tuple of one item: an array of one
        stored = hostile_records.ext(hostile_records.TUPLE, b"\x91" + stored)
    with pytest.raises(CorruptRecordError, match=f"nested more than {MAX_DEPTH} deep"):
        serde.loads_typed(("msgpack", stored))
    with pytest.raises(UnsavableValueError, match=f"more than {MAX_DEPTH} deep"):
        packing.dumps_typed(nested(frozenset, MAX_DEPTH, inner=uuid.UUID(int=1)))
    for kind, depth in ((frozenset, MAX_DEPTH - 1), (list, MAX_DEPTH), (tuple, MAX_DEPTH)):
        fine = nested(kind, depth, inner=uuid.UUID(int=1))
        assert serde.loads_typed(packing.dumps_typed(fine)) == as_loaded(fine)


@BOTH_PACKERS
def test_deeper_than_msgpacks_own_limit_is_too_deep_too(packing: MsgpackSerializer) -> None:
    with pytest.raises(UnsavableValueError, match=f"more than {MAX_DEPTH} deep"):
        packing.dumps_typed(nested(list, 600))


@BOTH_PACKERS
def test_depth_counts_registered_types_and_dict_keys(packing: MsgpackSerializer) -> None:
    with pytest.raises(UnsavableValueError, match=r"at \['x'\]\['y'\]\[0\]"):
        packing.dumps_typed({"x": Point(0, nested(list, MAX_DEPTH - 1))})
    with pytest.raises(UnsavableValueError, match="more than"):
        packing.dumps_typed({nested(tuple, MAX_DEPTH): 1})


@pytest.mark.parametrize("big", [2**64, -(2**63) - 1, 2**70], ids=["2**64", "-2**63 - 1", "2**70"])
def test_an_int_beyond_64_bits_is_refused_clearly_by_code(big: int) -> None:
    with pytest.raises(
        UnsavableValueError, match="cannot save this value: it holds an integer beyond 64 bits"
    ) as no:
        serde.dumps_typed({"big": [big]})
    assert no.value.code == "int_beyond_64_bits"
    assert isinstance(no.value.__cause__, OverflowError)
    assert serde.loads_typed(serde.dumps_typed([2**64 - 1, -(2**63)])) == [
        2**64 - 1,
        -(2**63),
    ]  # the edges fit


def test_any_other_packing_failure_is_refused_by_code_with_msgpacks_words_as_data() -> None:
    with pytest.raises(UnsavableValueError) as no:
        serde.dumps_typed({"v": FloatWithABadFloat(1.0)})
    assert no.value.code == "does_not_pack"
    assert no.value.params["error"] == "TypeError"
    assert "__float__ returned non-float" in no.value.params["detail"]
    assert (
        str(no.value)
        == f"cannot save this value: msgpack cannot pack it (TypeError: {no.value.params['detail']})"
    )


def test_register_type_refuses_field_types_of_unknown_fields() -> None:
    with pytest.raises(TypeError, match=r"\['nope'\]"):
        register_type(Point, name="tests.Point", field_types={"nope": (int,)})
