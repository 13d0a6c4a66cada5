"""The lesson pages' own words (narratives/<lang>/lessons/_page.toml): when a step is not done yet,
the runner says what is missing in a sentence of the page's language, one per fact a step can check,
never the fact's code name and value ("Not yet: double_causes = [...]")."""

from __future__ import annotations

import pytest

from lab.lessons import LESSONS
from lab.lessons.facts import FACTS
from narratives.pages import page_words


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_fact_a_step_checks_has_a_sentence_for_not_yet(lang: str) -> None:
    not_yet = page_words(lang)["not_yet"]
    checked = {name for lesson in LESSONS for step in lesson.steps for name in step.expects}
    assert checked <= set(FACTS)
    assert set(not_yet) == set(FACTS), set(FACTS) ^ set(not_yet)
    assert not [sentence for sentence in not_yet.values() if "_" in sentence or "=" in sentence]  # no code


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reset_and_presenter_words_are_there(lang: str) -> None:
    words = page_words(lang)
    assert words["reset_progress"] and words["progress_reset"]
    assert words["reset_progress"] != words["progress_reset"]
