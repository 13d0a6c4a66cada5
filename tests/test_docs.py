"""The README is a door (what it is, a screenshot, the two commands, where to go next), and the pages it
opens onto are there: every relative link of ``README.md`` and ``docs/*.md`` names a file that exists
(and, with a ``#``, a heading of it), and /play's list of differences is read from ``docs/LANGGRAPH.md``."""

from __future__ import annotations

import re
from pathlib import Path

from site_build.play import lab_differences
from site_build.static_pages import DIFFERENCES

ROOT = Path(__file__).resolve().parents[1]
DOORS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "RESULTS.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(page.read_text()):
        if "://" in target:
            continue
        path, _, fragment = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif fragment and linked.suffix == ".md":
            headings = {anchor(h) for h in re.findall(r"^#+ (.*)$", linked.read_text(), re.M)}
            if fragment not in headings:
                broken.append(f"{target}: no such heading")
    return broken


def test_the_readme_is_a_door_of_at_most_150_lines_with_both_commands():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    assert "pip install jinja2 && python build.py serve\n" in readme and "bash .ci/run\n" in readme
    assert "](docs/ARCHITECTURE.md)" in readme and "](docs/LANGGRAPH.md)" in readme


def test_every_relative_link_of_the_docs_names_a_file_and_heading_that_exist():
    assert {page: broken_links(page) for page in DOORS} == {page: [] for page in DOORS}


def test_the_anchor_is_githubs():
    assert anchor("Threads across the border: `python -m lab.interop`") == (
        "threads-across-the-border-python--m-labinterop"
    )


def test_play_lists_the_differences_of_docs_langgraph():
    titles = [difference["title"] for difference in lab_differences(DIFFERENCES)]
    assert DIFFERENCES == ROOT / "docs" / "LANGGRAPH.md"
    expected = ["DeltaChannel's bookkeeping.", "Async at the core.", "Tasks without threads.", "Seams."]
    assert titles[:4] == expected
