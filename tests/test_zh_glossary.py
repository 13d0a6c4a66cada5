"""The Chinese texts keep one word per term (issue 27): narratives/zh/glossary.toml names it, and every
zh text - the lessons and pages (narratives/zh/), the UI catalogue (static/i18n/zh*.mjs), the
playground's challenges (gallery/challenges/challenges.toml) and its gallery's titles
(gallery/__init__.py) - uses it and none of the variants the glossary rejects. A term the glossary
gives an ``english`` word (saver, interrupt) is never left in English in Chinese prose: code
(``<code>``, ``interrupt()``, class names such as ``InMemorySaver``), placeholders and markup aside."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = tomllib.loads((ROOT / "narratives" / "zh" / "glossary.toml").read_text())
ZH_TEXTS = sorted(
    [path for path in (ROOT / "narratives" / "zh").rglob("*") if path.suffix in (".toml", ".html")]
    + list((ROOT / "static" / "i18n").glob("zh*.mjs"))
    + [ROOT / "gallery" / "challenges" / "challenges.toml", ROOT / "gallery" / "__init__.py"]
)
ZH_TEXTS = [path for path in ZH_TEXTS if path.name != "glossary.toml"]
CJK = re.compile("[\u4e00-\u9fff]")
NOT_PROSE = re.compile(
    r"<code>.*?</code>|<pre\b.*?</pre>|\{\{.*?\}\}|\{%.*?%\}|\{\w+\}|<[^>]+>|\w+\(\)|\S*[/=]\S*", re.S
)
"""What is not prose in a text: code, jinja2 and ``{placeholder}``, markup, a call, a path or link."""
ZH_ENTRY = re.compile(r'"zh":\s*"((?:[^"\\]|\\.)*)"')
CATALOGUE_ENTRY = re.compile(r'^\s*"(?:[^"\\]|\\.)*":\s*"((?:[^"\\]|\\.)*)",?\s*$', re.MULTILINE)


def strings(value: Any) -> list[str]:
    """Every string in a parsed TOML value."""
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return [value] if isinstance(value, str) else []


def chinese_prose(path: Path) -> list[str]:
    """The Chinese sentences of a zh text (a string or catalogue entry with Chinese in it), without
    what is not prose in them."""
    text = path.read_text()
    if path.suffix == ".toml":
        sentences = strings(tomllib.loads(text))
    elif path.suffix == ".mjs":
        sentences = CATALOGUE_ENTRY.findall(text)
    elif path.suffix == ".py":
        sentences = ZH_ENTRY.findall(text)
    else:
        sentences = [text]
    return [NOT_PROSE.sub(" ", sentence) for sentence in sentences if CJK.search(sentence)]


def english_left(term: str, texts: dict[str, list[str]]) -> list[str]:
    """Where Chinese prose says the glossary's ``term`` in English (its lower-case word, whole)."""
    word = re.compile(rf"\b{re.escape(GLOSSARY[term]['english'])}s?\b")
    return [
        f"{name}: …{m.string[max(0, m.start() - 20) : m.end() + 20]}…"
        for name, prose in texts.items()
        for sentence in prose
        for m in word.finditer(sentence)
    ]


def test_the_glossary_covers_the_terms_that_drifted() -> None:
    drifted = {"super-step", "case", "Resume", "restored", "reject", "charge", "case-pack export"}
    assert drifted | {"Next", "next", "pending writes"} <= set(GLOSSARY)
    assert len(ZH_TEXTS) >= 10, "the lessons and the UI catalogue are both read"


@pytest.mark.parametrize("term", sorted(GLOSSARY))
def test_each_term_has_one_chinese_word(term: str) -> None:
    entry = GLOSSARY[term]
    texts = {path.relative_to(ROOT).as_posix(): path.read_text() for path in ZH_TEXTS}
    assert any(entry["zh"] in text for text in texts.values()), f"{term}: {entry['zh']} is used nowhere"
    found = [
        f"{name}: {variant!r} (use {entry['zh']!r})"
        for name, text in texts.items()
        for variant in entry["not"]
        if variant in text
    ]
    assert not found, f"{term} drifts: " + "; ".join(found)


@pytest.mark.parametrize("term", sorted(term for term in GLOSSARY if "english" in GLOSSARY[term]))
def test_no_term_is_left_in_english_in_chinese_prose(term: str) -> None:
    texts = {path.relative_to(ROOT).as_posix(): chinese_prose(path) for path in ZH_TEXTS}
    left = english_left(term, texts)
    assert not left, f"{term} left in English (use {GLOSSARY[term]['zh']!r}): " + "; ".join(left)


def test_english_left_in_chinese_prose_is_found_and_code_is_not() -> None:
    said = "它用父图的 saver 存检查点，停在 interrupt 处；<code>saver</code>、InMemorySaver、interrupt() 不算"
    prose = [NOT_PROSE.sub(" ", said)]
    assert len(english_left("saver", {"x": prose})) == 1
    assert len(english_left("interrupt", {"x": prose})) == 1
    code_only = [
        NOT_PROSE.sub(" ", "<code>saver.prune</code>、InMemorySaver、interrupt() 与 {interrupt} 是代码")
    ]
    assert english_left("saver", {"x": code_only}) == english_left("interrupt", {"x": code_only}) == []
