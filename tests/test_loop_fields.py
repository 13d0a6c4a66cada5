"""The super-step loop keeps its fields where a reader finds them (issues 24 and 35): every attribute of
``SuperStepLoop`` and of its two parts (``SaveQueue``, ``StreamOutput``) is declared in the class body and
set in ``__init__``, so no method creates one and nothing needs a ``getattr(self, ..., default)`` guard;
and the loop's fields come in groups that say when they move: none of those under "fixed" is assigned
after ``__init__``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PREGEL = Path(__file__).resolve().parents[1] / "lab" / "pregel"
CLASSES = {"SuperStepLoop": "loop.py", "SaveQueue": "save_queue.py", "StreamOutput": "stream_output.py"}


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


def assigned_after_init(cls: ast.ClassDef) -> dict[str, str]:
    """``{field: a method other than __init__ that assigns it}``."""
    methods = [n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    return {attr: m.name for m in methods if m.name != "__init__" for attr in assigned_attributes(m)}


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


def field_groups() -> dict[str, list[str]]:
    """The loop's fields by the ``# -- heading --`` comment they are declared under."""
    source = (PREGEL / CLASSES["SuperStepLoop"]).read_text().splitlines()
    groups: dict[str, list[str]] = {}
    heading = ""
    cls = class_def("SuperStepLoop")
    fields = declared(cls)
    names = {n.target.id for n in fields}
    for line in source[cls.lineno : fields[-1].lineno]:
        if line.strip().startswith("# --"):
            heading = line.strip(" #-")
            groups[heading] = []
        elif heading and line.strip().split(":")[0] in names:
            groups[heading].append(line.strip().split(":")[0])
    return groups


def test_the_loops_fields_come_in_groups_that_say_when_they_move() -> None:
    groups = field_groups()
    assert sum(len(fields) for fields in groups.values()) == len(declared(class_def("SuperStepLoop")))
    assert all("(" in heading for heading in groups), "each group says when it moves, in brackets"
    fixed = {
        field
        for heading, fields in groups.items()
        if "fixed for the whole run" in heading
        for field in fields
    }
    assert fixed, "no group of fixed fields?"
    moved = assigned_after_init(class_def("SuperStepLoop"))
    fixed_but_moved = {field: method for field, method in moved.items() if field in fixed}
    assert fixed_but_moved == {}


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
