"""The AML case investigation the lab runs: seeded cases (``cases``) and the graph (``graph``).

``build_graph(world, variant)`` compiles it; ``describe_graph(compiled)`` is the diagram as plain
data. The graph's side effects go through an :class:`ExternalWorld` that lives outside Python.
"""

from lab.aml.cases import CASES, REPORTING_THRESHOLD, WATCHLIST, case_summaries, get_case
from lab.aml.graph import (
    DEFAULT_DELAY,
    VARIANTS,
    CallSite,
    CaseState,
    ChargeReceipt,
    ExternalWorld,
    FilingReceipt,
    RunContext,
    Variant,
    build_graph,
    describe_graph,
    use_run_context,
)

__all__ = [
    "CASES",
    "DEFAULT_DELAY",
    "REPORTING_THRESHOLD",
    "VARIANTS",
    "WATCHLIST",
    "CallSite",
    "CaseState",
    "ChargeReceipt",
    "ExternalWorld",
    "FilingReceipt",
    "RunContext",
    "Variant",
    "build_graph",
    "case_summaries",
    "describe_graph",
    "get_case",
    "use_run_context",
]
