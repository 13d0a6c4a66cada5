"""What the serializer dumps, it loads: a property checked over random values of every shape the
runtime writes into a checkpoint (channel values, pending writes, a ``Command`` given as input),
so a thread whose checkpoint was saved can always be read again (issue 23, item 6)."""

from __future__ import annotations

import dataclasses
import random
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from lab.checkpoint.delta import DELTA_SENTINEL, DeltaSnapshot
from lab.checkpoint.serde import MsgpackSerializer, register_type
from lab.types import Command, Interrupt, Overwrite, Send

serde = MsgpackSerializer()


@dataclasses.dataclass
class StateObject:
    """A dataclass state, registered as ``StateGraph`` registers one."""

    x: int
    log: list


register_type(StateObject, name=f"{__name__}.StateObject")


class Values:
    """Random values, nested at most ``depth`` containers deep."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def leaf(self) -> Any:
        rng = self.rng
        return rng.choice(
            [
                lambda: None,
                lambda: rng.random() < 0.5,
                lambda: rng.randint(-(2**63), 2**64 - 1),
                lambda: rng.randint(-40, 200),
                lambda: rng.uniform(-1e9, 1e9),
                lambda: "".join(rng.choice("aé中 \n\\\"'") for _ in range(rng.randint(0, 40))),
                lambda: bytes(rng.randrange(256) for _ in range(rng.randint(0, 9))),
                lambda: datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=rng.randint(-12, 12)))),
                lambda: datetime(2026, 5, 6, 7, 8, 9, rng.randint(0, 999999)),
                lambda: uuid.UUID(int=rng.getrandbits(128)),
                lambda: DELTA_SENTINEL,
            ]
        )()

    def key(self) -> Any:
        return self.rng.choice([lambda: f"k{self.rng.randint(0, 9)}", lambda: self.rng.randint(-5, 5)])()

    def value(self, depth: int) -> Any:
        """Any value a state, a write or an input may hold."""
        if depth == 0 or self.rng.random() < 0.3:
            return self.leaf()
        inner = depth - 1
        rng = self.rng
        return rng.choice(
            [
                lambda: [self.value(inner) for _ in range(rng.randint(0, 4))],
                lambda: tuple(self.value(inner) for _ in range(rng.randint(0, 4))),
                lambda: {self.key(): self.value(inner) for _ in range(rng.randint(0, 4))},
                lambda: {(self.key(), self.key()): self.value(inner)},
                lambda: {self.key() for _ in range(rng.randint(0, 4))},
                lambda: frozenset(self.key() for _ in range(rng.randint(0, 4))),
                lambda: StateObject(rng.randint(0, 9), [self.value(inner)]),
                lambda: DeltaSnapshot(self.value(inner)),
                lambda: Overwrite(self.value(inner)),
                lambda: Send(f"node{rng.randint(0, 3)}", self.value(inner)),
                lambda: [Interrupt(self.value(inner), uuid.UUID(int=rng.getrandbits(128)).hex)],
                lambda: self.command(inner),
            ]
        )()

    def goto(self, depth: int) -> Any:
        """Every shape ``Command(goto=...)`` takes: a node, a ``Send``, a list or tuple of both."""
        one = lambda: self.rng.choice([lambda: "a", lambda: Send("b", self.value(depth))])()  # noqa: E731
        return self.rng.choice(
            [one, lambda: [one() for _ in range(self.rng.randint(0, 3))], lambda: (one(), one()), lambda: ()]
        )()

    def update(self, depth: int) -> Any:
        """Every shape ``Command(update=...)`` takes: a dict, ``(key, value)`` pairs, a state
        object, a whole value (a list for ``StateGraph(Annotated[list, add])``), nothing."""
        return self.rng.choice(
            [
                lambda: None,
                lambda: {self.key(): self.value(depth)},
                lambda: [("log", self.value(depth)), ("x", 1)],
                lambda: StateObject(1, [self.value(depth)]),
                lambda: [self.value(depth)],
            ]
        )()

    def command(self, depth: int) -> Command:
        return Command(resume=self.value(depth), update=self.update(depth), goto=self.goto(depth))


def loads_back(value: Any) -> Any:
    """``value`` saved and loaded (a tuple loads as a list, as in LangGraph: both are msgpack arrays);
    what it loads, saved and loaded again, is equal to itself."""
    loaded = serde.loads_typed(serde.dumps_typed(value))
    assert serde.loads_typed(serde.dumps_typed(loaded)) == loaded
    return loaded


def without_tuples(value: Any) -> bool:
    """Whether no tuple is left in a loaded value outside dict keys and sets (those stay tuples)."""
    if isinstance(value, tuple):
        return False
    if isinstance(value, dict):
        return all(map(without_tuples, value.values()))
    if isinstance(value, list):
        return all(map(without_tuples, value))
    if dataclasses.is_dataclass(value):
        return all(without_tuples(getattr(value, field.name)) for field in dataclasses.fields(value))
    return True


@pytest.mark.parametrize("seed", range(20))
def test_what_is_dumped_loads_back_equal(seed: int) -> None:
    values = Values(seed)
    for _ in range(100):
        value = values.value(depth=5)
        loaded = loads_back(value)
        assert without_tuples(loaded), loaded
        if without_tuples(value):
            assert loaded == value


def test_the_shapes_that_were_refused_on_load_load() -> None:
    """Saved, then refused on load before (so a thread's history could not be read any more). Tuples
    load as lists, as in LangGraph: ``goto``'s default ``()`` too, and ``(key, value)`` pairs."""
    for value in (Command(goto=Send("work", {"item": 1})), Command(goto=[Send("work", 1), "a"])):
        assert loads_back(value) == value
    for value, loaded in (
        (Command(update=["a whole value"]), Command(update=["a whole value"], goto=[])),
        (Command(update=[("log", ["pair"])]), Command(update=[["log", ["pair"]]], goto=[])),
        (Command(update=StateObject(1, [])), Command(update=StateObject(1, []), goto=[])),
    ):
        assert loads_back(value) == loaded


def test_a_loaded_command_keeps_a_goto_of_the_wrong_type_out() -> None:
    """Loading still checks the fields it can: ``goto`` names nodes or holds sends."""
    data = serde.dumps_typed(Command(goto=3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="its goto must be str or Send or list or tuple"):
        serde.loads_typed(data)
