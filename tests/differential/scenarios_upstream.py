"""Differential scenarios for what LangGraph's own tests showed lab doing differently (issues 34, 36).

Each pins one behaviour the upstream suite (``tests/upstream``) depends on: ``print_mode`` and
``debug=True`` print chunks as they come.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

from .scenarios import asker, build, scenario
from .scenarios_subgraphs import child
from .trace import Trace, thread


def printed(t: Trace, label: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Record ``fn``'s result and, as ``<label> printed``, the lines it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        t.call(label, fn, *args, **kwargs)
    t.record(f"{label} printed", out.getvalue().splitlines())


@scenario
def print_mode(t: Trace) -> None:
    """``print_mode`` prints the chunks of its modes (bold mode, a subgraph's namespace in yellow with
    ``subgraphs=True``) beside what the call returns; ``debug=True`` (of a call or of ``compile``)
    prints ``updates`` and ``values``, an interrupt's too."""
    sub = child(t)
    app = t.compile(build(t, "START>a a>sub sub>ask ask>END", sub=sub, ask=asker(t, "ask", "ok?")))
    cfg = thread()
    printed(
        t,
        "invoke(print_mode=[values, updates])",
        app.invoke,
        {"log": ["in"]},
        cfg,
        print_mode=["values", "updates"],
    )
    printed(t, "invoke(Command(resume), debug=True)", app.invoke, t.fl.Command(resume="yes"), cfg, debug=True)
    plain = build(t, "START>a a>sub sub>END", sub=sub)
    printed(
        t,
        "stream(updates, print_mode=values, subgraphs=True)",
        lambda: list(plain.compile().stream({"log": ["in"]}, print_mode="values", subgraphs=True)),
    )
    printed(
        t,
        "stream(values, print_mode=updates)",
        lambda: list(plain.compile().stream({"log": ["in"]}, stream_mode="values", print_mode="updates")),
    )
    printed(t, "compile(debug=True).invoke", plain.compile(debug=True).invoke, {"log": ["in"]})
