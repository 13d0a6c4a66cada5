"""No lesson gives an answer before the vote (issue 38): a step's title is in the step list before the
step is taken, a lesson's title and summary are on the lesson list and on every step page, so none
of them may state what a step asks the learner to predict.

Three checks, in both languages: a title or summary does not say what tells the correct choice from
the wrong ones (its own words: "every" in "4: every one from intake's on", "一个" in a Chinese
"一个"); a step's title does not say its numeric answer in words ("Approve, once" for 1 SAR); and
none says the fact a step's ``why`` reveals, for the steps whose answer is that fact rather than a
choice's words (:data:`REVEALS`, written from each ``why``: "restored", "copies").
"""

from __future__ import annotations

import re

import jinja2
import pytest

from lab.lessons import LESSONS
from lab.lessons.model import Lesson, Step, predict_answer
from narratives.pages import rendered_prose

LANGUAGES = ("en", "zh")
STOPWORDS = {"a", "an", "the", "of", "to", "in", "on", "at", "is", "it", "its", "and", "or", "be", "by"}
STOPWORDS |= {"as", "for", "with", "that", "this", "what", "which", "how", "many", "does", "do", "not", "no"}
STOPWORDS |= {"yes", "their", "there", "are", "was", "were", "will", "can"}
NUMBER_WORDS = {
    "en": {0: ("none", "nothing", "zero"), 1: ("once", "one"), 2: ("twice", "two", "both")},
    "zh": {0: ("没有", "零"), 1: ("一次", "一个", "一份"), 2: ("两次", "两个", "两份", "两者")},
}
REVEALS: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {
    # (lesson, step): what its why reveals, as words (English stems) a title or summary must not say
    ("crash", "resume"): {"en": ("restor",), "zh": ("还原",)},
    ("crash", "ledger"): {"en": ("paid once", "once"), "zh": ("只付了一次",)},
    ("interrupt", "approve"): {
        "en": ("starts over", "first line", "twice"),
        "zh": ("从头", "第一行", "两次"),
    },
    ("idempotency", "resume"): {"en": ("key at work", "receipt", "recogni"), "zh": ("起作用", "收据")},
    ("replay-fork", "replay"): {"en": ("again",), "zh": ("重新运行",)},
    ("secrets", "replay"): {"en": ("cop",), "zh": ("复制",)},
    ("secrets", "address"): {"en": ("anyone", "opens it"), "zh": ("谁就能", "任何人")},
    ("storage", "continue"): {"en": ("resum", "finish"), "zh": ("恢复", "结束")},
    ("subgraphs", "resume"): {"en": ("starts over", "again"), "zh": ("从头", "重新运行")},
    ("subgraphs", "kept"): {"en": ("continu",), "zh": ("继续",)},
    ("tasks", "approve"): {"en": ("once", "saved result", "restor"), "zh": ("一次", "收据", "还原")},
    ("tasks", "resume"): {"en": ("again", "no saved"), "zh": ("再次", "没有保存")},
    ("tasks", "saved-resume"): {"en": ("came back", "saved result"), "zh": ("取了回来", "取回")},
    ("tasks", "exit-rerun"): {"en": ("lost", "everything"), "zh": ("丢失", "全部")},
}


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", " ", text).lower()


def stem(word: str) -> str:
    for suffix, instead in (("ies", "y"), ("ied", "y"), ("ing", ""), ("es", ""), ("ed", ""), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + instead
    return word


def terms(text: str, lang: str) -> set[str]:
    """English: word stems without stop words; Chinese: the pairs of Chinese characters."""
    if lang == "zh":
        text = plain(text)
        pairs = (text[i : i + 2] for i in range(len(text) - 1))
        return {pair for pair in pairs if re.fullmatch("[\u4e00-\u9fff]{2}", pair)}
    return {stem(w) for w in re.findall(r"[a-z_]+|\d+(?:\.\d+)?", plain(text)) if w not in STOPWORDS}


def predicted(lesson: Lesson) -> list[Step]:
    return [step for step in lesson.steps if step.predict is not None]


def choice_words(step: Step, prose: dict, lang: str) -> set[str]:
    """What tells the correct choice from the wrong ones: its terms that no wrong choice has, and that
    the step's body and question (read before the vote anyway) do not say."""
    text = prose["steps"][step.id]
    choices = text["choices"]
    right = list(step.predict.choices).index(predict_answer(step))
    seen = [text["body"], text["question"]] + [choice for i, choice in enumerate(choices) if i != right]
    return terms(choices[right], lang) - set().union(*(terms(said, lang) for said in seen))


def says(text: str, words: set[str] | tuple[str, ...], lang: str) -> list[str]:
    """The ones of ``words`` that ``text`` says (a term, or a phrase or stem it contains)."""
    found = terms(text, lang)
    return sorted(w for w in words if w in found or (len(w) > 2 and w in plain(text)))


def spoilers(lesson: Lesson, lang: str) -> list[str]:
    prose = rendered_prose(jinja2.Environment(), lang, lesson)
    said = []
    for step in predicted(lesson):
        title = prose["steps"][step.id]["title"]
        answer = predict_answer(step)
        words = choice_words(step, prose, lang) | set(REVEALS.get((lesson.id, step.id), {}).get(lang, ()))
        if isinstance(answer, int) and not isinstance(answer, bool):
            numbers = NUMBER_WORDS[lang].get(answer, ())
            said += [
                f"step {step.id}'s title {title!r} says {n!r}" for n in numbers if n in terms(title, lang)
            ]
        said += [f"step {step.id}'s title {title!r} says {w!r}" for w in says(title, words, lang)]
        for part in ("title", "summary"):
            found = says(prose[part], words, lang)
            said += [f"the lesson's {part} says {w!r}, {step.id}'s answer" for w in found]
    return said


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_no_title_or_summary_states_an_answer_before_the_vote(lesson: Lesson, lang: str) -> None:
    assert not spoilers(lesson, lang), spoilers(lesson, lang)


def test_every_step_that_reveals_a_fact_is_a_step_that_asks():
    asks = {(lesson.id, step.id) for lesson in LESSONS for step in predicted(lesson)}
    assert set(REVEALS) <= asks
    assert all(set(words) == set(LANGUAGES) for words in REVEALS.values())
