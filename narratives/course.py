"""The course for a class, rendered at build time beside the lessons (``narratives/pages.py``): a
course map with minutes per lesson and a 45-minute path (``/learn/<lang>/course/``), a recap quiz
after lesson 8 (``/learn/<lang>/recap/``: answers checked in the page by ``static/lesson/quiz.mjs``,
each explanation shown only after an answer), and a printable one-page handout per lesson
(``/learn/<lang>/<lesson>/handout/``: the takeaway, the lesson's key LangGraph code and its key
picture, in ``static/lesson/handout.css``'s A4 print layout). A handout is linked from the course map,
before the lesson is taken: its code says no result (``# 0`` is printed ``# ?``), the lesson does.

What is the same in every language (minutes, the path, which step's code a handout prints, the
pictures: code, not prose) is here; the words and the quiz are ``narratives/<lang>/course.toml``,
jinja2 texts whose numbers come from the lessons' checked facts, as the lessons' own prose.
"""

from __future__ import annotations

import ast
import io
import tokenize
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab.lessons import LESSONS, get_lesson
from narratives.pages import expected_facts, page_words, render_text, rendered_prose, write


@dataclass(frozen=True)
class CourseLesson:
    """One lesson in a class: how long it takes, the step whose code its handout prints, its picture."""

    minutes: int
    key_step: str
    picture: str


COURSE: dict[str, CourseLesson] = {
    "checkpoints": CourseLesson(
        7,
        "pending-writes",
        "-1 input ─▶ 0 loop ─▶ 1 loop ─▶ 2 loop ─▶ …\n"
        "   │           │         │ intake   │ fetch + screen (one super-step)\n"
        "   └ a checkpoint at every super-step boundary, never inside one",
    ),
    "threads": CourseLesson(
        8,
        "numeric-id",
        'thread_id "case-1" ─▶ ckpt ─▶ ckpt ─▶ ckpt (waits)\n'
        'thread_id "case-2" ─▶ ckpt ─▶ ckpt ─▶ ckpt (done)\n'
        'thread_id 42 == "42": one saver key, the id\'s text',
    ),
    "crash": CourseLesson(
        6,
        "resume",
        "step 2: fetch_transactions ✓ (write saved)   screen_sanctions ✗ (crash)\n"
        "resume: fetch_transactions ← its pending write   screen_sanctions ↻ runs again",
    ),
    "interrupt": CourseLesson(
        7,
        "fixed",
        "human_review: buy export ─▶ interrupt() ⏸\n"
        "resume:       buy export AGAIN ─▶ interrupt() returns the answer\n"
        "fix:          interrupt() first ─▶ then buy, once",
    ),
    "idempotency": CourseLesson(
        10,
        "business-key-rerun",
        "key = thread:task id    → a lost checkpoint means a new task id: charged again\n"
        "key = case:operation    → every re-run sends the same key: one receipt",
    ),
    "replay-fork": CourseLesson(
        8,
        "replay",
        "… ─▶ A ─▶ B (review) ─▶ C ─▶ D\n"
        "           └▶ B' (source=fork) ─▶ C' ─▶ D'   replay: nodes after B run again\n"
        "           └▶ U  (source=update)             update_state: values, no node run",
    ),
    "edit-past": CourseLesson(
        8,
        "as-node",
        "update_state(cfg, {log: [x]}, as_node=n)\n"
        "  log (Annotated[list, add]) ─▶ appends    findings (plain) ─▶ replaced\n"
        "  next = the nodes after n, and any node whose trigger is still unconsumed",
    ),
    "durability": CourseLesson(
        9,
        "exit-crash",
        "sync : save ─▶ step ─▶ save ─▶ step ✗   keeps every finished step\n"
        "async: step ─▶ (save…) step ✗           may lose the newest\n"
        "exit : step ─▶ step ─▶ step ✗           keeps nothing of the run",
    ),
    "secrets": CourseLesson(
        6,
        "input-key",
        "state ─▶ every checkpoint ─▶ every replay copy ─▶ every export / backup\n"
        "input ─▶ __start__ of the input checkpoint (even keys outside the schema)\n"
        "thread_id = an address: no owner check",
    ),
    "storage": CourseLesson(
        7,
        "deltas",
        "default:      [a] [a b] [a b c] [a b c d]   the whole list at each change\n"
        "DeltaChannel: ·   ·     ·       ·           sentinels; rebuilt from writes\n"
        "prune / delete_thread: what your saver implements",
    ),
    "one-writer": CourseLesson(
        7,
        "approve",
        "tab A ─▶ resume ─▶ file SAR ─┐\n"
        "tab B ─▶ resume ─▶ file SAR ─┴▶ one thread_id, two branches, two SARs\n"
        "fix: one lock (or queue) per thread_id at the entry point",
    ),
    "subgraphs": CourseLesson(
        7,
        "look-inside",
        'checkpoint_ns ""                 ─▶ … ─▶ ckpt (next: human_review) ⏸\n'
        'checkpoint_ns "human_review:<id>" ─▶ input ─▶ brief_officer ─▶ sign ⏸\n'
        "resume: human_review ↻ from its first line; the subgraph continues at sign",
    ),
    "tasks": CourseLesson(
        8,
        "to-review",
        "human_review ↻ from its first line ─▶ buy_export(...).result() ◀─ the task's saved write\n"
        "crash after the charge, before that write is saved ─▶ the task runs again\n"
        "sync / async: the write lands as the task returns    exit: only when the run stops",
    ),
}
"""Every lesson's place in a class: ``tests/test_course.py`` checks each lesson has one."""

RECAP_AFTER = "durability"
"""The recap quiz comes after this lesson (lesson 8)."""

PATH_45 = ("checkpoints", "crash", "interrupt", "replay-fork", "durability")
"""The 45-minute class: these lessons in this order, then the recap; the rest are homework."""

RECAP_MINUTES = 5
SETUP_MINUTES = 3
"""Opening the lab and booting Python on the projector, before the first lesson."""

HERE = Path(__file__).resolve().parent
NO_RESULT = object()


def stated_result(comment: str) -> Any:
    """The literal a lesson code's comment starts with (``('intake',): prose`` → ``('intake',)``): the
    result the line states (tests/test_lessons_langgraph.py checks it on LangGraph), else NO_RESULT."""
    return stated(comment)[0]


def stated(comment: str) -> tuple[Any, str]:
    """``(result, the rest of the comment)``; ``(NO_RESULT, comment)`` when it states none."""
    for end in range(len(comment), 0, -1):
        if end < len(comment) and comment[end] not in ": ":
            continue
        try:
            return ast.literal_eval(comment[:end]), comment[end:].lstrip(": ")
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
    return NO_RESULT, comment


def comments(code: str) -> dict[int, tuple[int, str]]:
    """Each line's comment: ``line → (column of its #, the text without #)``."""
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return {
        tok.start[0]: (tok.start[1], tok.string[1:].strip()) for tok in tokens if tok.type == tokenize.COMMENT
    }


def without_results(code: str) -> str:
    """``code`` as a handout prints it: a comment that states a result says ``?`` instead."""
    lines = code.split("\n")
    for number, (column, comment) in comments(code).items():
        result, rest = stated(comment)
        if result is not NO_RESULT:
            lines[number - 1] = lines[number - 1][:column] + "# ?" + (f" {rest}" if rest else "")
    return "\n".join(lines)


def course_text(env: Any, lang: str) -> dict[str, Any]:
    """``narratives/<lang>/course.toml`` with the lessons' checked facts filled in."""
    text = tomllib.loads((HERE / lang / "course.toml").read_text())
    quiz = text.pop("quiz")
    lessons = expected_facts()
    rendered = render_text(env, text, {}, lessons)
    rendered["quiz"] = [
        {
            **render_text(env, {k: v for k, v in item.items() if k != "answer"}, {}, lessons),
            "answer": item["answer"],
        }
        for item in quiz
    ]
    return rendered


def path_minutes() -> int:
    return sum(COURSE[lesson_id].minutes for lesson_id in PATH_45) + RECAP_MINUTES


def course_map(env: Any, lang: str) -> list[dict[str, Any]]:
    """Each lesson with its number, title, minutes, place on the 45-minute path (or none) and handout."""
    return [
        {
            "id": lesson.id,
            "number": number,
            "title": rendered_prose(env, lang, lesson)["title"],
            "minutes": COURSE[lesson.id].minutes,
            "on_path": PATH_45.index(lesson.id) + 1 if lesson.id in PATH_45 else None,
            "recap_after": lesson.id == RECAP_AFTER,
        }
        for number, lesson in enumerate(LESSONS, start=1)
    ]


def render_course_pages(env: Any, site: Path, lang: str, languages: list[str]) -> None:
    """The course map, the recap quiz, and every lesson's handout, in ``lang``."""
    words = page_words(lang)
    text = course_text(env, lang)
    common = {"lang": lang, "languages": languages, "words": words, "course": text}
    lessons = course_map(env, lang)
    page = env.get_template("_course.html").render(
        **common, lessons=lessons, minutes=path_minutes(), recap_minutes=RECAP_MINUTES, path="course/"
    )
    write(site, f"learn/{lang}/course", page)
    write(site, f"learn/{lang}/recap", env.get_template("_recap.html").render(**common, path="recap/"))
    for entry in lessons:
        lesson = get_lesson(entry["id"])
        place = COURSE[lesson.id]
        handout = env.get_template("_handout.html").render(
            **common,
            lesson=lesson,
            number=entry["number"],
            text=rendered_prose(env, lang, lesson),
            minutes=place.minutes,
            code=without_results(lesson.step(place.key_step).code),
            picture=place.picture,
            path=f"{lesson.id}/handout/",
        )
        write(site, f"learn/{lang}/{lesson.id}/handout", handout)
