"""The lesson prose: both languages say the same steps with the same keys, every number a page states
is one of the lesson's checked facts, and the pages render as static HTML with language switches that
keep the page."""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from lab.lessons import LESSONS
from lab.lessons.play import lesson_data

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # build.py and narratives/ live at the repository root

from narratives.pages import page_words, prose  # noqa: E402
from site_build.learn import render_narratives  # noqa: E402

LANGUAGES = ("en", "zh")


def shape(value: Any) -> Any:
    """The keys of a text tree, with list lengths: what must match across languages."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return len(value)
    return str


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_both_languages_have_the_same_lesson_steps_and_keys(lesson):
    english, chinese = (prose(lang, lesson) for lang in LANGUAGES)
    assert shape(english) == shape(chinese)
    assert list(english["steps"]) == lesson.step_ids()
    for step in lesson.steps:
        text = english["steps"][step.id]
        assert {"title", "body", "why"} <= set(text), step.id
        assert ("do" in text) == (step.action is not None), step.id
        assert {"question", "choices", "hint"} <= set(text) if step.predict else "question" not in text
        if step.predict:
            assert len(text["choices"]) == len(step.predict.choices), step.id


def test_both_languages_have_the_same_page_words():
    assert shape(page_words("en")) == shape(page_words("zh"))
    assert sorted(p.name for p in (ROOT / "narratives").iterdir() if p.is_dir() and p.name in LANGUAGES) == [
        "en",
        "zh",
    ]


def test_a_fact_from_outside_the_project_names_its_source():
    for lang in LANGUAGES:
        for lesson in LESSONS:
            text = str(prose(lang, lesson))
            if "Stripe" in text:
                assert "docs.stripe.com" in text and "24" in text, (lang, lesson.id)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    render_narratives(site)
    return site


def test_every_step_has_a_page_in_each_language(site):
    for lang in LANGUAGES:
        index = (site / "learn" / lang / "index.html").read_text()
        for lesson in LESSONS:
            assert f'data-lesson-progress="{lesson.id}" data-steps="{len(lesson.steps)}"' in index
            for step in lesson.steps:
                page = (site / "learn" / lang / lesson.id / step.id / "index.html").read_text()
                assert f'<html lang="{lang}">' in page and f'data-step="{step.id}"' in page
                other = "zh" if lang == "en" else "en"
                assert f'href="/learn/{other}/{lesson.id}/{step.id}/" lang="{other}"' in page


def test_the_numbers_on_a_page_are_the_checked_facts(site):
    """Lesson 4, step "approve": the page reveals 26.50, the value test_lessons checks against the runtime."""
    lesson = next(lesson for lesson in LESSONS if lesson.id == "interrupt")
    charged = lesson.step("approve").expects["charged"]
    for lang in LANGUAGES:
        page = (site / "learn" / lang / "interrupt" / "approve" / "index.html").read_text()
        why = re.search(r'<details class="why" data-why hidden>(.*?)</details>', page, re.S).group(1)
        assert charged in why and charged == "26.50"
        # the page knows which choice is right, from the same data, in the lesson's file it names
        data = json.loads((site / named_file(page, "lesson")).read_text())
        assert next(step for step in data["steps"] if step["id"] == "approve")["predict"]["answer"] == 1


def named_file(page: str, kind: str) -> str:
    """The site-relative path of the JSON file a step page names in ``data-<kind>-file``."""
    return re.search(rf'data-{kind}-file="/([^"]+)"', page).group(1)


def test_a_step_page_names_its_lessons_data_and_words_instead_of_inlining_them(site):
    """Every step of a lesson reads the same two files: its lesson's data (the same in every language)
    and its language's words; no page repeats them inline."""
    for lang in LANGUAGES:
        for lesson in LESSONS:
            for step in lesson.steps:
                page = (site / "learn" / lang / lesson.id / step.id / "index.html").read_text()
                assert "application/json" not in page
                assert named_file(page, "lesson") == f"learn/data/{lesson.id}.json"
                assert named_file(page, "words") == f"learn/{lang}/words.json"
        words = json.loads((site / "learn" / lang / "words.json").read_text())
        assert words == page_words(lang)
    for lesson in LESSONS:
        data = json.loads((site / "learn" / "data" / f"{lesson.id}.json").read_text())
        seeds = [step.pop("seed") for step in data["steps"]]  # deep links (site_build/lesson_seeds.py)
        assert data == lesson_data(lesson)
        assert seeds[0] is None and any(seeds)
        assert all((site / seed.lstrip("/")).is_file() for seed in seeds if seed)
    index_and_overviews = [site / "learn" / lang / "index.html" for lang in LANGUAGES]
    index_and_overviews += [
        site / "learn" / lang / lesson.id / "index.html" for lang in LANGUAGES for lesson in LESSONS
    ]
    for path in index_and_overviews:
        page = path.read_text()
        assert "application/json" not in page
        assert f'data-done-word="{page_words(path.relative_to(site).parts[1])["lesson_done"]}"' in page


class Outline(HTMLParser):
    """The parts of a page a reader meets first: the text of ``<title>`` and ``<h1>``, any tag inside
    them, and every ``id`` (an id used twice breaks the page's scripts, which look data up by id)."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.text: dict[str, str] = {"title": "", "h1": ""}
        self.nested: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.open:
            self.nested.append(f"<{tag}> inside <{self.open[-1]}>")
        if tag in self.text:
            self.open.append(tag)
        self.ids += [value for name, value in attrs if name == "id" and value]

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1] == tag:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open:
            self.text[self.open[-1]] += data


def test_every_page_has_a_plain_title_and_heading_and_unique_ids(site):
    pages = sorted((site / "learn").rglob("*.html"))
    assert len(pages) > 2 * len(LESSONS)
    for path in pages:
        outline = Outline()
        outline.feed(path.read_text())
        assert outline.nested == [], path
        assert outline.text["title"].strip() and outline.text["h1"].strip(), path
        assert len(outline.ids) == len(set(outline.ids)), (path, sorted(outline.ids))
