"""Every sentence Python says while the lessons run is in both catalogues, and in real Chinese.

The page shows Python's sentences by code (``say()`` in static/i18n.mjs), so a code missing from a
catalogue shows English on a Chinese page. ``test_view`` checks the codes the source names; this
test collects the messages Python actually said (each ``view()``, each refusal, the case picker)
while every lesson is walked on CPython, as the page's clicks drive it, and checks each one: its key
is in static/i18n/en.mjs and zh.mjs, the English entry says what Python's text says, and the Chinese
entry is Chinese (or only placeholders and punctuation: data shown as written).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from lab.lessons import LESSONS
from lab.lessons.play import moves_into
from tests.controller_lab import Lab
from tests.test_lessons import send

CJK = re.compile("[\u4e00-\u9fff]")
ENTRY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)":\s*"((?:[^"\\]|\\.)*)",?\s*$', re.MULTILINE)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, str]:
    """The catalogue module static/i18n/<lang>.mjs as a dict (one ``"key": "text",`` a line)."""
    text = Path(f"static/i18n/{lang}.mjs").read_text()
    return {json.loads(f'"{key}"'): json.loads(f'"{value}"') for key, value in ENTRY.findall(text)}


def is_chinese(text: str) -> bool:
    """Chinese characters, or no words at all: only placeholders and punctuation (data as written)."""
    return bool(CJK.search(text)) or not re.search("[A-Za-z]", PLACEHOLDER.sub("", text))


def messages_in(value: Any) -> list[dict[str, Any]]:
    """Every message (``{"code", "params", "text"}``) anywhere in ``value``, nested ones too."""
    if isinstance(value, dict):
        found = [value] if set(value) == {"code", "params", "text"} else []
        return found + [m for item in value.values() for m in messages_in(item)]
    if isinstance(value, list):
        return [m for item in value for m in messages_in(item)]
    return []


def filled(template: str, params: dict[str, Any]) -> str:
    """The English catalogue entry filled as the page fills it (a nested message by its text)."""

    def one(match: re.Match[str]) -> str:
        value = params.get(match[1], match[0])
        return value["text"] if isinstance(value, dict) else str(value)

    return PLACEHOLDER.sub(one, template)


async def said_while_walking_every_lesson() -> list[dict[str, Any]]:
    """The messages of the catalog, and of every view and refusal on the way through every lesson."""
    said: list[dict[str, Any]] = []
    for lesson in LESSONS:
        lab = Lab()
        said += messages_in(await lab.do("catalog"))
        for step_id, part in moves_into(lesson, lesson.steps[-1].id) + [(lesson.steps[-1].id, "action")]:
            if part == "action" and lesson.step(step_id).action is None:
                continue
            said += messages_in((await send(lab, lesson.id, step_id, part)).get("error"))
            said += messages_in(await lab.view())
        await lab.controller.terminate()
    return said


async def test_every_sentence_said_on_the_lessons_way_is_in_both_languages():
    en, zh = catalogue("en"), catalogue("zh")
    # ledger.explain.* is English for logs and tests: the page says the duplicate's causes instead
    said = [m for m in await said_while_walking_every_lesson() if not m["code"].startswith("ledger.explain.")]
    codes = {m["code"] for m in said}
    assert {
        "status.done",
        "case.outcome.filed",
        "case.S-1001.title",
        "thread.id_not_text",
        "case.purpose.sar",
        "case.narrative",
        "case.finding.structuring",
        "node.intake",
        "node.human_review.charges_first",
        "node.human_review.charges_after",
    } <= codes
    missing = sorted({code for code in codes if f"py.{code}" not in en or f"py.{code}" not in zh})
    assert not missing, f"Python says these codes, a catalogue lacks them: {missing}"
    for m in said:
        key = f"py.{m['code']}"
        assert filled(en[key], m["params"]) == m["text"], (key, en[key], m["text"])
        chinese = zh[key]
        assert is_chinese(chinese), (key, chinese)
        assert set(PLACEHOLDER.findall(chinese)) <= set(m["params"]), (key, chinese, m["params"])


def test_every_python_entry_of_the_chinese_catalogue_is_chinese():
    """No ``py.*`` entry was left in English: each has Chinese characters, or only placeholders."""
    zh = catalogue("zh")
    english = {key: text for key, text in zh.items() if key.startswith("py.") and not is_chinese(text)}
    assert not english, english
    assert set(zh) == set(catalogue("en"))
