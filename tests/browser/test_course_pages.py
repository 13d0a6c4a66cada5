"""The course pages in Chromium: every lesson's handout prints on one A4 page (Chromium's own
print-to-PDF, its pages counted), and the recap quiz checks answers in the page, showing an
explanation only once its question is answered right."""

from __future__ import annotations

import re

import pytest

from lab.lessons import LESSONS

LANGUAGES = ("en", "zh")


def pdf_pages(pdf: bytes) -> int:
    """Pages of a PDF Chromium printed: its page objects (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_handout_prints_on_one_a4_page(browser, site, lang):
    page = browser.new_page()
    try:
        for lesson in LESSONS:
            page.goto(f"{site}/learn/{lang}/{lesson.id}/handout/")
            assert page.locator(f'[data-handout="{lesson.id}"] pre code').is_visible()
            pages = pdf_pages(page.pdf(format="A4", prefer_css_page_size=True))
            assert pages == 1, f"{lang}/{lesson.id}/handout prints on {pages} pages"
    finally:
        page.close()


def test_a_pdf_of_two_pages_counts_two(browser, site):
    """The counter itself: a page made taller than one A4 sheet prints on more than one."""
    page = browser.new_page()
    try:
        page.goto(f"{site}/learn/en/checkpoints/handout/")
        page.evaluate("document.querySelector('.handout').style.paddingTop = '400mm'")
        assert pdf_pages(page.pdf(format="A4")) >= 2
    finally:
        page.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_quiz_checks_answers_and_explains_only_after_the_right_one(browser, site, lang):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{site}/learn/{lang}/recap/")
        questions = page.locator("[data-quiz-question]")
        count = questions.count()
        assert 5 <= count <= 8
        for index in range(count):
            question = questions.nth(index)
            answer = int(question.get_attribute("data-answer"))
            choices = question.locator("[data-quiz-choice]")
            explain = question.locator("[data-quiz-explain]")
            assert explain.is_hidden()
            wrong = (answer + 1) % choices.count()
            choices.nth(wrong).click()
            assert choices.nth(wrong).get_attribute("data-picked") == "wrong" and explain.is_hidden()
            choices.nth(answer).click()
            assert choices.nth(answer).get_attribute("data-picked") == "right" and explain.is_visible()
        score = page.locator("[data-quiz-score]")
        assert score.is_visible() and re.search(rf"\b0\b.*\b{count}\b|\b{count}\b.*\b0\b", score.inner_text())
        assert not errors
    finally:
        page.close()
