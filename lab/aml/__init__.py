"""The AML case investigation the lab runs: seeded cases (``cases``) and the graph (``graph``).

``build_graph(world, variant)`` compiles it (``VARIANT_INFO`` says what each variant does);
``describe_graph(compiled)`` is the diagram as plain data. The graph's side effects go through the
lab's outside world (``lab.aml.world.AmlWorld`` over ``lab.world``), which lives outside Python.
"""

from lab.aml.cases import CASES, REPORTING_THRESHOLD, WATCHLIST, case_summaries, get_case
from lab.aml.graph import (
    DEFAULT_DELAY,
    VARIANT_INFO,
    VARIANTS,
    CallSite,
    CaseState,
    RunContext,
    Variant,
    VariantInfo,
    build_graph,
    business_operation,
    describe_graph,
    use_run_context,
)

PRELOADED = False
"""Left out of the Python memory snapshot every page restores (``lab/preload.py``): only the lab page's
worker, which names this graph (``lab.aml.lab_page``), imports it; ``/play``'s never does."""

__all__ = [
    "CASES",
    "DEFAULT_DELAY",
    "REPORTING_THRESHOLD",
    "VARIANTS",
    "VARIANT_INFO",
    "WATCHLIST",
    "CallSite",
    "CaseState",
    "RunContext",
    "Variant",
    "VariantInfo",
    "build_graph",
    "business_operation",
    "case_summaries",
    "describe_graph",
    "get_case",
    "use_run_context",
]
