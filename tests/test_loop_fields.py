"""The super-step loop keeps its fields where a reader finds them (issue 24): every attribute of
``SuperStepLoop`` is declared in the class body and set in ``__init__``, so no method creates one
and nothing needs a ``getattr(self, ..., default)`` guard."""

from __future__ import annotations

import ast
from pathlib import Path

LOOP = Path(__file__).resolve().parents[1] / "lab" / "pregel" / "loop.py"


def loop_class() -> ast.ClassDef:
    tree = ast.parse(LOOP.read_text())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "SuperStepLoop")


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


def test_every_loop_field_is_declared_in_the_class_body_and_set_in_init() -> None:
    cls = loop_class()
    declared = {
        n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    methods = [n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    in_init = next(assigned_attributes(m) for m in methods if m.name == "__init__")
    elsewhere = {attr: m.name for m in methods if m.name != "__init__" for attr in assigned_attributes(m)}
    assert {attr: name for attr, name in elsewhere.items() if attr not in in_init} == {}
    assert (in_init | set(elsewhere)) - declared == set()
    assert declared - in_init == set()


def test_the_loop_reads_its_own_fields_without_getattr_guards() -> None:
    guards = [
        node.lineno
        for node in ast.walk(loop_class())
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and node.args
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "self"
    ]
    assert guards == []
