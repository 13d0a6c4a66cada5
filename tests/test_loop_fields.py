"""The super-step loop keeps its fields where a reader finds them (issues 24 and 35): every attribute of
``SuperStepLoop`` and of its parts (``StepRunner``, ``SaveQueue``, ``StreamOutput``) is declared in the
class body and set in ``__init__``, so no method creates one and nothing needs a ``getattr(self, ...,
default)`` guard; and the fields of the loop and of its runner come in groups that say when they move:
none of those under "fixed" is assigned after ``__init__``, and those the loop's ``load`` and ``first``
settle are assigned by nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PREGEL = Path(__file__).resolve().parents[1] / "lab" / "pregel"
CLASSES = {
    "SuperStepLoop": "loop.py",
    "StepRunner": "runner.py",
    "SaveQueue": "save_queue.py",
    "StreamOutput": "stream_output.py",
}
GROUPED = ("SuperStepLoop", "StepRunner")
"""The classes whose fields come in groups, each under a ``# -- heading (when it moves) --`` comment."""


def class_def(name: str) -> ast.ClassDef:
    tree = ast.parse((PREGEL / CLASSES[name]).read_text())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def assigned_attributes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The ``self.<name>`` a method assigns."""
    return {
        node.attr
        for node in ast.walk(function)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


def declared(cls: ast.ClassDef) -> list[ast.AnnAssign]:
    return [n for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]


def methods(cls: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def assigned_after_init(cls: ast.ClassDef) -> dict[str, str]:
    """``{field: a method other than __init__ that assigns it}``."""
    return {attr: m.name for m in methods(cls) if m.name != "__init__" for attr in assigned_attributes(m)}


def assigners(cls: ast.ClassDef) -> dict[str, set[str]]:
    """``{field: every method other than __init__ that assigns it}``."""
    found: dict[str, set[str]] = {}
    for method in methods(cls):
        if method.name != "__init__":
            for attr in assigned_attributes(method):
                found.setdefault(attr, set()).add(method.name)
    return found


def callers(cls: ast.ClassDef) -> dict[str, set[str]]:
    """``{method: the methods that call it as self.<method>(...)}``."""
    found: dict[str, set[str]] = {}
    for method in methods(cls):
        for node in ast.walk(method):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "self"
            ):
                found.setdefault(node.func.attr, set()).add(method.name)
    return found


def only_reached_from(named: set[str], cls: ast.ClassDef) -> set[str]:
    """``named`` and the methods that only they call (directly or through each other)."""
    called_by = callers(cls)
    within = set(named)
    grown = True
    while grown:
        grown = False
        for method in methods(cls):
            by = called_by.get(method.name, set())
            if method.name not in within and by and by <= within:
                within.add(method.name)
                grown = True
    return within


@pytest.mark.parametrize("name", CLASSES)
def test_every_field_is_declared_in_the_class_body_and_set_in_init(name: str) -> None:
    cls = class_def(name)
    fields = {n.target.id for n in declared(cls)}
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    in_init = assigned_attributes(init)
    elsewhere = assigned_after_init(cls)
    assert {attr: method for attr, method in elsewhere.items() if attr not in in_init} == {}
    assert (in_init | set(elsewhere)) - fields == set()
    assert fields - in_init == set()


def field_groups(name: str) -> dict[str, list[str]]:
    """The class's fields by the ``# -- heading --`` comment they are declared under."""
    source = (PREGEL / CLASSES[name]).read_text().splitlines()
    groups: dict[str, list[str]] = {}
    heading = ""
    cls = class_def(name)
    fields = declared(cls)
    names = {n.target.id for n in fields}
    for line in source[cls.lineno : fields[-1].lineno]:
        if line.strip().startswith("# --"):
            heading = line.strip(" #-")
            groups[heading] = []
        elif heading and line.strip().split(":")[0] in names:
            groups[heading].append(line.strip().split(":")[0])
    return groups


@pytest.mark.parametrize("name", GROUPED)
def test_the_fields_come_in_groups_that_say_when_they_move(name: str) -> None:
    groups = field_groups(name)
    assert sum(len(fields) for fields in groups.values()) == len(declared(class_def(name)))
    assert all("(" in heading for heading in groups), "each group says when it moves, in brackets"
    fixed = {
        field
        for heading, fields in groups.items()
        if "fixed for the whole run" in heading
        for field in fields
    }
    assert fixed, "no group of fixed fields?"
    moved = assigned_after_init(class_def(name))
    fixed_but_moved = {field: method for field, method in moved.items() if field in fixed}
    assert fixed_but_moved == {}


def test_what_load_and_first_settle_moves_nowhere_else() -> None:
    """A field under "settled by ``load`` and ``first``" is assigned only by them and by the methods
    only they call (a field a later step moves belongs under "where the run is")."""
    cls = class_def("SuperStepLoop")
    settled = next(
        fields for heading, fields in field_groups("SuperStepLoop").items() if "settled by" in heading
    )
    allowed = only_reached_from({"load", "first"}, cls)
    assert allowed >= {"load", "load_saved", "first"}, allowed
    elsewhere = {
        field: sorted(by - allowed)
        for field, by in assigners(cls).items()
        if field in settled and by - allowed
    }
    assert settled and elsewhere == {}


def test_the_loop_reads_its_own_fields_without_getattr_guards() -> None:
    guards = [
        node.lineno
        for name in CLASSES
        for node in ast.walk(class_def(name))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and node.args
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "self"
    ]
    assert guards == []
