"""The course: ``narratives/<lang>/*.html`` (jinja2 templates) rendered to ``/learn/<lang>/``, the
lessons to ``/learn/<lang>/<lesson>/<step>/`` (``narratives/pages.py``) and the course pages
(``narratives/course.py``), with the JSON files the lesson runner fetches (each lesson's data, each
language's words, and the steps' seeds: ``lesson_seeds.py``). Files whose name starts with ``_`` are
shared templates, not pages.
"""

from __future__ import annotations

from pathlib import Path

from site_build.cache import ROOT
from site_build.lesson_seeds import write_seed_files
from site_build.templates import templates

NARRATIVES = ROOT / "narratives"


def render_narratives(site: Path) -> None:
    """Render every language's pages, lessons and course pages into ``site/learn/``."""
    # narratives import lab, and lab msgpack: imported once the build has made msgpack importable (pinned.py)
    from narratives.course import render_course_pages
    from narratives.pages import index_context, render_lesson_pages, without_indentation, write_lesson_files

    env = templates(NARRATIVES)
    languages = sorted(p.name for p in NARRATIVES.iterdir() if p.is_dir() and not p.name.startswith("_"))
    for lang in languages:
        for page in sorted((NARRATIVES / lang).glob("*.html")):
            context = index_context(env, lang)
            html = env.get_template(f"{lang}/{page.name}").render(lang=lang, languages=languages, **context)
            target = site / "learn" / lang / page.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(without_indentation(html))
        render_lesson_pages(env, site, lang, languages)
        render_course_pages(env, site, lang, languages)
    write_lesson_files(site, languages, write_seed_files(site))
