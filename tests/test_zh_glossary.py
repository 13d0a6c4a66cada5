"""The Chinese texts keep one word per term (issue 27): narratives/zh/glossary.toml names it, and every
zh text - the lessons and pages (narratives/zh/), the UI catalogue (static/i18n/zh*.mjs), the
playground's challenges (gallery/challenges/challenges.toml) and its gallery's titles
(gallery/__init__.py) - uses it and none of the variants the glossary rejects."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = tomllib.loads((ROOT / "narratives" / "zh" / "glossary.toml").read_text())
ZH_TEXTS = sorted(
    [path for path in (ROOT / "narratives" / "zh").rglob("*") if path.suffix in (".toml", ".html")]
    + list((ROOT / "static" / "i18n").glob("zh*.mjs"))
    + [ROOT / "gallery" / "challenges" / "challenges.toml", ROOT / "gallery" / "__init__.py"]
)
ZH_TEXTS = [path for path in ZH_TEXTS if path.name != "glossary.toml"]


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
