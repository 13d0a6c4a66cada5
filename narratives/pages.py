"""The lesson pages: lesson data (``lab.lessons``) and prose (``narratives/<lang>/lessons/``) rendered
to static HTML that reads before Python boots.

Each lesson's prose is one TOML file per language (``<lesson id>.toml``): ``title``, ``summary``,
``takeaway`` (and an optional ``table``), and per step ``title``, ``body``, ``why``, ``do`` (when the
step asks for an action) and ``question``, ``choices``, ``hint`` (when it asks for a prediction).
Every text is a jinja2 template whose numbers come from the lesson's expected facts
(``facts.<step>.<fact>``, ``lessons.<lesson>.<step>.<fact>``), the values ``tests/test_lessons.py``
checks against the runtime: a page never states an answer the lab did not give. ``_page.toml``
holds the page's own words.

Pages: ``/learn/<lang>/`` (the lesson list, from ``index.html``), ``/learn/<lang>/<lesson>/`` (the
lesson at a glance) and ``/learn/<lang>/<lesson>/<step>/`` (one step). What the lesson runner reads
is written once, not into every page: each lesson's data in ``/learn/data/<lesson>.json`` (it is the
same in every language) and each language's page words in ``/learn/<lang>/words.json``; a step page
names both files (``data-lesson-file``, ``data-words-file``), and the service worker keeps them
offline like every other file of the build.
"""

from __future__ import annotations

import functools
import json
import re
import tomllib
from pathlib import Path
from typing import Any

from lab.lessons import LESSONS, get_lesson
from lab.lessons.model import Lesson
from lab.lessons.play import lesson_data

HERE = Path(__file__).resolve().parent


def page_words(lang: str) -> dict[str, str]:
    """The page's own words in ``lang``."""
    return tomllib.loads((HERE / lang / "lessons" / "_page.toml").read_text())


def prose(lang: str, lesson: Lesson) -> dict[str, Any]:
    """A lesson's prose in ``lang``, as written (templates not rendered yet)."""
    return tomllib.loads((HERE / lang / "lessons" / f"{lesson.id}.toml").read_text())


def expected_facts() -> dict[str, dict[str, dict[str, Any]]]:
    """``lesson id → step id → expected facts``: the numbers a text may state."""
    return {lesson.id: {step.id: step.expects for step in lesson.steps} for lesson in LESSONS}


def render_text(env: Any, text: Any, facts: dict[str, Any], lessons: dict[str, Any]) -> Any:
    """One text (or list of texts) with its facts filled in; text without ``{`` is taken as is."""
    if isinstance(text, list):
        return [render_text(env, item, facts, lessons) for item in text]
    if isinstance(text, dict):
        return {key: render_text(env, value, facts, lessons) for key, value in text.items()}
    return env.from_string(text).render(facts=facts, lessons=lessons) if "{" in text else text


def rendered_prose(env: Any, lang: str, lesson: Lesson) -> dict[str, Any]:
    """A lesson's prose in ``lang``, its facts filled in (once per build: ``env`` is new per build)."""
    return _rendered_prose(env, lang, lesson.id)


@functools.cache
def _rendered_prose(env: Any, lang: str, lesson_id: str) -> dict[str, Any]:
    lessons = expected_facts()
    return render_text(env, prose(lang, get_lesson(lesson_id)), lessons[lesson_id], lessons)


def lesson_list(env: Any, lang: str) -> list[dict[str, Any]]:
    """What the lesson list shows: id, title, summary, step count (and the rest of the prose)."""
    return [
        {**rendered_prose(env, lang, lesson), "id": lesson.id, "step_count": len(lesson.steps)}
        for lesson in LESSONS
    ]


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe inside ``<script type="application/json">``."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


def index_context(env: Any, lang: str) -> dict[str, Any]:
    """What ``narratives/<lang>/index.html`` (the lesson list) is rendered with."""
    return {"lessons": lesson_list(env, lang), "words": page_words(lang), "path": ""}


def lesson_file(lesson: Lesson) -> str:
    """Where a lesson's data is served (one file for every language and step)."""
    return f"learn/data/{lesson.id}.json"


def words_file(lang: str) -> str:
    """Where the page words of ``lang`` are served (one file for every lesson page of the language)."""
    return f"learn/{lang}/words.json"


PREFORMATTED = re.compile(r"(<pre\b.*?</pre>)", re.S)
INDENTATION = re.compile(r"\n[ \t]+")


def without_indentation(html: str) -> str:
    """``html`` with every line's indentation removed, except inside ``<pre>`` (a lesson's code keeps
    its own): the browser shows the page the same, and each of the ~100 lesson pages is smaller."""
    parts = PREFORMATTED.split(html)  # odd items are the <pre> elements, kept as they are
    return "".join(part if index % 2 else INDENTATION.sub("\n", part) for index, part in enumerate(parts))


def write(site: Path, path: str, html: str) -> None:
    """A lesson page, served at ``/<path>/``."""
    target = site / path / "index.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(without_indentation(html))


def write_json(site: Path, path: str, value: Any) -> None:
    """``value`` as compact JSON in the file ``path`` of the site."""
    target = site / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def write_lesson_files(site: Path, languages: list[str], seeds: dict[str, dict[str, str]]) -> None:
    """The files the lesson runner fetches: every lesson's data (each step with the path of its seed in
    ``seeds``, ``{lesson: {step: path}}``, where it has one: site_build/lesson_seeds.py) and each
    language's page words."""
    for lesson in LESSONS:
        data = lesson_data(lesson)
        for step in data["steps"]:
            step["seed"] = seeds.get(lesson.id, {}).get(step["id"])
        write_json(site, lesson_file(lesson), data)
    for lang in languages:
        write_json(site, words_file(lang), page_words(lang))


def next_lesson(env: Any, lang: str, number: int) -> dict[str, Any]:
    """The lesson after lesson ``number`` (1-based) and its title, for the last step's "Next" link."""
    if number >= len(LESSONS):
        return {"next_lesson": None, "next_title": ""}
    following = LESSONS[number]
    return {"next_lesson": following, "next_title": rendered_prose(env, lang, following)["title"]}


def render_lesson_pages(env: Any, site: Path, lang: str, languages: list[str]) -> None:
    """Every lesson page of ``lang``: the lesson at a glance, then one page per step."""
    words = page_words(lang)
    for number, lesson in enumerate(LESSONS, start=1):
        text = rendered_prose(env, lang, lesson)
        common = {"lang": lang, "languages": languages, "words": words}
        common |= {"lesson": lesson, "number": number, "text": text}
        common |= {"lesson_file": f"/{lesson_file(lesson)}", "words_file": f"/{words_file(lang)}"}
        common |= next_lesson(env, lang, number)
        overview = env.get_template("_lesson.html").render(**common, path=f"{lesson.id}/")
        write(site, f"learn/{lang}/{lesson.id}", overview)
        for index, step in enumerate(lesson.steps):
            step_text = text["steps"][step.id]
            page = env.get_template("_lesson_step.html").render(
                **common, step=step, index=index, step_text=step_text, path=f"{lesson.id}/{step.id}/"
            )
            write(site, f"learn/{lang}/{lesson.id}/{step.id}", page)


def embed_lessons() -> str:
    """The lessons ``/embed?lesson=<id>`` can start, as JSON for the embed page: id, first step, step
    count and title in every language."""
    languages = sorted(p.name for p in HERE.iterdir() if p.is_dir() and not p.name.startswith("_"))
    return script_json(
        [
            {
                "id": lesson.id,
                "first": lesson.steps[0].id,
                "steps": len(lesson.steps),
                "titles": {lang: prose(lang, lesson)["title"] for lang in languages},
            }
            for lesson in LESSONS
        ]
    )
