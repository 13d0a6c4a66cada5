"""Lesson 12 (subgraphs) in Chromium, in both languages, clicked as a learner clicks (as
``lesson_walk.py`` walks every lesson): the subgraph variant runs on the lab's IndexedDB saver,
its review subgraph awaited from an ``async def`` node, and no step raises an error in the page. The
checkpoint table beside the lesson groups its rows by namespace, from ``view()["namespaces"]``: the
root's rows first (they select a frame), then the review's, under a header naming its namespace; a
thread without a subgraph shows no group header."""

import re

import pytest
from lesson_walk import FAST, TIMEOUT_MS, assert_in_language, take_step, words
from playwright.sync_api import expect

from lab.lessons import get_lesson

LESSON = get_lesson("subgraphs")


def namespace_groups(page) -> dict:
    """The checkpoint table's groups beside the lesson: their header texts and the review's rows."""
    frames = page.locator("[data-lab-frames]")
    return {
        "heads": frames.locator("tr.ns-head th"),
        "review_rows": frames.locator(
            'tbody.ns-group[data-checkpoint-ns^="human_review:"] tr[data-checkpoint-id]'
        ),
        "root_rows": frames.locator('tbody[data-checkpoint-ns=""] tr[data-checkpoint-id]'),
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lesson_12_completes_and_the_table_shows_the_subgraphs_namespace(page, site, lang):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    first = LESSON.steps[0].id
    page.goto(f"{site}/learn/{lang}/{LESSON.id}/{first}/{FAST}")
    groups = namespace_groups(page)
    for index, step in enumerate(LESSON.steps):
        take_step(page, lang, LESSON.id, step.id)
        assert_in_language(page, lang)
        if step.id == first:  # waiting at sign: the root's 6 checkpoints, the review's 3
            expect(groups["heads"]).to_have_count(2)
            expect(groups["root_rows"]).to_have_count(6)
            expect(groups["review_rows"]).to_have_count(3)
            expect(groups["review_rows"].last).to_have_attribute("data-step", "1")
            expect(groups["heads"].last).to_contain_text(re.compile(r"human_review:[0-9a-f-]{36}"))
            expect(groups["review_rows"].locator("button")).to_have_count(0)  # shown, not selectable
        if step.id == "resume":  # the review continued in the same namespace: one more checkpoint
            expect(groups["review_rows"]).to_have_count(4)
            expect(groups["review_rows"].first).to_have_attribute("data-source", "input")
            review = page.locator('[data-lab-graph] [data-node="human_review"] .count')
            expect(review).to_have_text("×2")  # the parent's node, entered twice
        if index + 1 < len(LESSON.steps):
            page.get_by_role("link", name=words(lang)["next"], exact=True).click()
            expect(page).to_have_url(re.compile(f"/learn/{lang}/{LESSON.id}/{LESSON.steps[index + 1].id}/"))
    progress = page.locator(f'ol.lesson-steps [data-step-progress="{LESSON.id}/{LESSON.steps[-1].id}"]')
    expect(progress).to_have_text(f"✓ {words(lang)['lesson_done']}", timeout=TIMEOUT_MS)
    assert errors == []


def test_a_thread_without_subgraphs_has_no_namespace_groups(page, site):
    """Lesson 9 runs the fixed variant: one namespace, so the table is as it always was."""
    page.goto(f"{site}/learn/en/secrets/to-review/{FAST}")
    take_step(page, "en", "secrets", "to-review")
    frames = page.locator("[data-lab-frames]")
    expect(frames.locator('tbody[data-checkpoint-ns=""] tr[data-checkpoint-id]')).to_have_count(6)
    expect(frames.locator("tr.ns-head")).to_have_count(0)
    expect(frames.locator("tbody.ns-group")).to_have_count(0)
