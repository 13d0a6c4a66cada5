"""The playground's challenges: goal levels on the learner's own code (Learn Git Branching's levels).

Site content, like the gallery: each challenge is a starting program (``<id>_start.py``) that misses
the goal, a solution (``<id>_solution.py``) that reaches it, both plain LangGraph programs, and its
words in English and 简体中文 (``challenges.toml``: title, goal, hint; the lesson it belongs to). The
goal itself is checked in the browser by ``lab.playground.challenges``, which crashes and resumes
the learner's code; ``tests/test_challenges.py`` runs each start and solution on real LangGraph
too. The page reads :func:`challenge_listing` as ``/play/challenges.json``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

__all__ = ["FOLDER", "challenge_listing"]

FOLDER = Path(__file__).resolve().parent
LANGS = ("en", "zh")


def challenge_listing() -> list[dict[str, object]]:
    """``[{id, lesson, title: {en, zh}, goal, hint, start, solution}]``, in the order of the file."""
    data = tomllib.loads((FOLDER / "challenges.toml").read_text(encoding="utf-8"))
    listing = []
    for entry in data["challenge"]:
        words = {field: {lang: entry[lang][field] for lang in LANGS} for field in ("title", "goal", "hint")}
        listing.append(
            {
                "id": entry["id"],
                "lesson": entry["lesson"],
                **words,
                "start": (FOLDER / f"{entry['id']}_start.py").read_text(encoding="utf-8"),
                "solution": (FOLDER / f"{entry['id']}_solution.py").read_text(encoding="utf-8"),
            }
        )
    return listing
