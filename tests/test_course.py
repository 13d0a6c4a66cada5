"""The course for a class (narratives/course.py): every lesson has its minutes, handout code and
picture; the 45-minute path fits 45 minutes with the setup; the recap quiz has 5 to 8 questions,
the same in both languages, each answer one of its choices and each explanation hidden until the
page checks an answer; and every course page is rendered in both languages."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest

from lab.lessons import LESSONS, get_lesson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # build.py and narratives/ live at the repository root

from narratives.course import (  # noqa: E402
    COURSE,
    NO_RESULT,
    PATH_45,
    RECAP_AFTER,
    SETUP_MINUTES,
    comments,
    course_text,
    path_minutes,
    stated_result,
    without_results,
)
from site_build.learn import NARRATIVES, render_narratives  # noqa: E402
from site_build.templates import templates  # noqa: E402

LANGUAGES = ("en", "zh")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    render_narratives(site)
    return site


def test_every_lesson_has_its_place_in_the_course():
    assert set(COURSE) == {lesson.id for lesson in LESSONS}
    for lesson in LESSONS:
        place = COURSE[lesson.id]
        assert 3 <= place.minutes <= 12 and place.picture.strip(), lesson.id
        assert lesson.step(place.key_step).code, lesson.id


def test_the_45_minute_path_is_in_lesson_order_and_fits_with_the_setup():
    order = [lesson.id for lesson in LESSONS]
    assert list(PATH_45) == sorted(PATH_45, key=order.index) and RECAP_AFTER in PATH_45
    assert path_minutes() + SETUP_MINUTES <= 45


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_recap_quiz_has_five_to_eight_questions_with_answers_among_their_choices(lang):
    quiz = course_text(templates(NARRATIVES), lang)["quiz"]
    assert 5 <= len(quiz) <= 8
    for question in quiz:
        assert 0 <= question["answer"] < len(question["choices"]) and question["explain"]
        assert question["lesson"] in {
            lesson.id for lesson in LESSONS[: [x.id for x in LESSONS].index(RECAP_AFTER) + 1]
        }
    english = course_text(templates(NARRATIVES), "en")["quiz"]
    assert [(q["lesson"], q["answer"], len(q["choices"])) for q in quiz] == [
        (q["lesson"], q["answer"], len(q["choices"])) for q in english
    ]


def test_the_quiz_states_the_lessons_checked_facts(site):
    page = (site / "learn" / "en" / "recap" / "index.html").read_text()
    assert "26.50" in page and "screen_sanctions" in page  # lessons.interrupt.approve.charged, crash.resume


def test_no_explanation_shows_before_an_answer(site):
    for lang in LANGUAGES:
        page = (site / "learn" / lang / "recap" / "index.html").read_text()
        explanations = re.findall(r"<p class=\"quiz-explain\"([^>]*)>", page)
        assert len(explanations) >= 5 and all("hidden" in attributes for attributes in explanations)
        assert 'src="/lesson/quiz.mjs"' in page


def test_the_map_and_every_handout_exist_in_both_languages(site):
    for lang in LANGUAGES:
        course = (site / "learn" / lang / "course" / "index.html").read_text()
        index = (site / "learn" / lang / "index.html").read_text()
        assert f'href="/learn/{lang}/course/"' in index and f'href="/learn/{lang}/recap/"' in course
        for lesson in LESSONS:
            assert f'href="/learn/{lang}/{lesson.id}/handout/"' in course
            handout = (site / "learn" / lang / lesson.id / "handout" / "index.html").read_text()
            assert 'href="/lesson/handout.css"' in handout and f'data-handout="{lesson.id}"' in handout
            printed = without_results(lesson.step(COURSE[lesson.id].key_step).code)
            assert printed in html.unescape(handout)
            assert all(stated_result(comment) is NO_RESULT for _, comment in comments(printed).values())


def test_a_handout_prints_the_key_code_without_its_results():
    """A handout is linked from the course map, before the lesson: its code states no answer (the
    durability handout's ``# 0`` is recap question 6's)."""
    code = get_lesson("durability").step(COURSE["durability"].key_step).code
    assert code.endswith("# 0")
    assert without_results(code).endswith("# ?")
    pending = without_results(get_lesson("checkpoints").step("pending-writes").code)
    assert pending.endswith("saved  # ? its writes, pending on that checkpoint")
    assert without_results("x = 1  # the prose stays") == "x = 1  # the prose stays"
