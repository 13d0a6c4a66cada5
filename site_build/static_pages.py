"""The site's own pages: ``static/*.html`` rendered with jinja2 into the site's root.

The lab and embed pages share the partial ``_lab.html``, and it and the playground the panels of
``_lab_parts.html``. Files whose name starts with ``_`` are partials: included by pages, never copied
on their own. The pages carry the AML graph's diagram, drawn now by the lab's own code, so it shows
while Python boots.
"""

from __future__ import annotations

import json
from pathlib import Path

from site_build.cache import ROOT
from site_build.play import lab_differences
from site_build.templates import templates

STATIC = ROOT / "static"
DIFFERENCES = ROOT / "docs" / "LANGGRAPH.md"
"""Where the list of lab's deliberate differences from LangGraph lives (``/play`` shows it)."""


def static_diagram() -> dict:
    """The AML graph's diagram, computed now with the lab's own drawing code (``describe_graph`` over
    ``lab.graph.drawing``): the page shows it while Python boots (a list without JavaScript, the SVG of
    ``static/views/graph.mjs`` with it), and the live diagram replaces it once Python is ready."""
    # lab imports msgpack: imported once the build has made msgpack importable (pinned.py)
    from lab.aml.graph import VARIANTS, build_graph, describe_graph
    from lab.aml.texts import with_node_summaries
    from lab.world import MemoryWorld

    return with_node_summaries(describe_graph(build_graph(MemoryWorld(), VARIANTS[0])))


def render_static_pages(site: Path, pip_wheel: str) -> None:
    """Render ``static/*.html`` into ``site``; ``pip_wheel`` is the ``lab`` wheel for ``pip install``
    (``_lab.html`` names it), relative to the site root."""
    from narratives.pages import embed_lessons  # narratives import lab: see static_diagram

    env = templates(STATIC)
    diagram = static_diagram()
    for page in sorted(STATIC.glob("*.html")):
        if not page.name.startswith("_"):
            (site / page.name).write_text(
                env.get_template(page.name).render(
                    static_graph=diagram,
                    static_graph_json=json.dumps(diagram),
                    embed_lessons=embed_lessons(),  # what /embed?lesson=<id> may open
                    lab_differences=lab_differences(DIFFERENCES),  # /play's "see what differs"
                    pip_wheel=pip_wheel.removeprefix("."),
                )
            )
