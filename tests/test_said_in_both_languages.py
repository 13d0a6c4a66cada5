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

import msgpack
import pytest

from lab.checkpoint import InMemorySaver, empty_checkpoint
from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.records import place_name, record_place
from lab.checkpoint.serde import MAX_DEPTH, MsgpackSerializer
from lab.controller.record_texts import corrupt_record_message, damage, problem_message
from lab.controller.thread_file import ThreadFileError, read_thread_file
from lab.controller.validation import BadInputError, check_fork_size
from lab.lessons import LESSONS
from lab.lessons.play import moves_into
from tests.controller_lab import Lab
from tests.hostile_records import MALFORMED, FloatWithABadFloat
from tests.test_lessons import send

CJK = re.compile("[\u4e00-\u9fff]")
ENTRY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)":\s*"((?:[^"\\]|\\.)*)",?\s*$', re.MULTILINE)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue_text(lang: str) -> str:
    """The catalogue of ``lang``: static/i18n/<lang>.mjs and the parts it joins (<lang>-*.mjs)."""
    parts = [Path(f"static/i18n/{lang}.mjs"), *sorted(Path("static/i18n").glob(f"{lang}-*.mjs"))]
    return "\n".join(part.read_text() for part in parts)


def catalogue(lang: str) -> dict[str, str]:
    """The catalogue of ``lang`` as a dict (one ``"key": "text",`` a line)."""
    text = catalogue_text(lang)
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
    # ledger.explain.* is English for logs and tests: the page says the duplicate's causes instead
    said = [m for m in await said_while_walking_every_lesson() if not m["code"].startswith("ledger.explain.")]
    codes = {m["code"] for m in said}
    assert {
        "status.done_with",
        "case.outcome.filed",
        "case.S-1001.title",
        "thread.id_too_long",
        "case.purpose.sar",
        "case.narrative",
        "case.finding.structuring",
        "node.intake",
        "node.human_review.charges_first",
        "node.human_review.charges_after",
        "node.human_review.charges_after.subgraph",
    } <= codes
    assert_said_in_both_languages(said)


def assert_said_in_both_languages(said: list[dict[str, Any]]) -> None:
    """Each message's code is in both catalogues, the English entry filled is Python's text, and the
    Chinese entry is Chinese, with no placeholder Python did not give."""
    en, zh = catalogue("en"), catalogue("zh")
    codes = {m["code"] for m in said}
    missing = sorted({code for code in codes if f"py.{code}" not in en or f"py.{code}" not in zh})
    assert not missing, f"Python says these codes, a catalogue lacks them: {missing}"
    for m in said:
        key = f"py.{m['code']}"
        assert filled(en[key], m["params"]) == m["text"], (key, en[key], m["text"])
        chinese = zh[key]
        assert is_chinese(chinese), (key, chinese)
        assert set(PLACEHOLDER.findall(chinese)) <= set(m["params"]), (key, chinese, m["params"])


def nested_extensions(depth: int) -> bytes:
    """A typed value (msgpack extension 1) inside another, ``depth`` deep."""
    data = msgpack.packb([])
    for _ in range(depth):
        data = msgpack.packb(msgpack.ExtType(1, data))
    return data


SPOILED = {
    "not_msgpack": b"\xc1",
    "truncated": b"\x92\x01",
    "extra_data": b"\x01\x02",
    "not_utf8": b"\xa1\xff",
    "too_deep": b"\x91" * 3000 + b"\x01",
    "unknown_extension": b"\xd4\x63\x00",
    "typed_too_deep": nested_extensions(MAX_DEPTH + 10),
    "uuid_size": b"\xc7\x03\x05abc",  # a UUID of 3 bytes
    "does_not_decode": b"\xc7\x09\x04yesterday",  # a datetime that is not ISO-8601 text
}
"""Stored bytes the serializer refuses, by the problem code its error carries."""

PLACES = [
    record_place(("t-1", "", "1f0"), "checkpoint"),
    record_place(("t-1", "", "1f0"), "metadata"),
    record_place(("t-1", "", "1f0"), "write", channel="review", task="a1b2"),
    record_place(("t-1", "", "1f0"), "channel", channel="log"),
    record_place(("t-1", "sub:1", "1f0"), "channel_version", channel="log", version="00002.1"),
    None,  # an IndexedDB record without its key fields: named as the saver could
]


def refused_file(data: bytes) -> dict[str, Any]:
    """What the lab says when it refuses ``data`` as a thread file."""
    with pytest.raises(ThreadFileError) as refused:
        read_thread_file(data)
    return refused.value.say


def spoiled(data: bytes) -> CorruptRecordError:
    with pytest.raises(CorruptRecordError) as refused:
        MsgpackSerializer().loads_typed(("msgpack", data))
    return refused.value


def test_a_damaged_record_is_said_in_both_languages_with_its_names_as_data():
    """The damaged-thread notice and a refused thread file say the saver's detail by code: every
    problem the serializer has a code for, every part of a record, the names left as they are."""
    said = []
    for code, data in SPOILED.items():
        error = spoiled(data)
        assert error.code == code, (code, str(error))
        for place in PLACES:
            located = (
                error.at("blobs record ['t-1']") if place is None else error.at(place_name(place), place)
            )
            shown = corrupt_record_message(located)
            assert shown["text"] == str(located)  # the English is the saver's, word for word
            said += messages_in(damage("t-1", located))
    assert_said_in_both_languages(said)
    truncated = messages_in(refused_file(SPOILED["truncated"]))
    assert [m["code"] for m in truncated] == ["file.unreadable", "record.problem.truncated"]
    assert_said_in_both_languages(truncated)


def test_every_problem_the_serializer_refuses_by_is_said_by_code_in_both_languages():
    """Every hostile record (tests/hostile_records.py) and every value msgpack cannot pack (an integer
    beyond 64 bits, any other packing failure) is refused by a code both catalogues say: none reaches
    a Chinese page as English only (the fallback ``record.problem`` says Python's English as written)."""
    said = []
    for _, value, _ in MALFORMED:
        with pytest.raises(CorruptRecordError) as refused:
            MsgpackSerializer().loads_typed(value)
        said.append(problem_message(refused.value))
    for value in (2**64, -(2**63) - 1, FloatWithABadFloat(1.0)):
        with pytest.raises(UnsavableValueError) as unsavable:
            MsgpackSerializer().dumps_typed({"value": value})
        said.append(problem_message(unsavable.value))
    codes = {m["code"] for m in said}
    assert "record.problem" not in codes
    assert {"record.problem.int_beyond_64_bits", "record.problem.does_not_pack"} <= codes
    assert_said_in_both_languages(said)


class RefusingSerializer(MsgpackSerializer):
    """A custom serializer that saves like ours but raises its own error on every load."""

    def loads_typed(self, data: Any) -> Any:
        raise RuntimeError("the key vault is locked")


def test_a_custom_serializers_own_error_is_said_by_code_in_both_languages():
    """A saver built with a learner's serializer that raises on load: the one ``CorruptRecordError``,
    coded ``serializer_raised``, naming the record and keeping the serializer's words as data."""
    saver = InMemorySaver(serde=RefusingSerializer())
    config = {"configurable": {"thread_id": "vault", "checkpoint_ns": ""}}
    checkpoint = {**empty_checkpoint(), "channel_values": {"x": 1}, "channel_versions": {"x": 1}}
    saver.put(config, checkpoint, {"source": "input", "step": -1, "parents": {}}, {"x": 1})
    with pytest.raises(CorruptRecordError) as refused:
        saver.get_tuple(config)
    assert refused.value.code == "serializer_raised"
    assert "thread 'vault'" in str(refused.value)
    said = problem_message(refused.value)
    assert said["code"] == "record.problem.serializer_raised"
    assert said["params"] == {"error": "RuntimeError", "detail": "the key vault is locked"}
    assert_said_in_both_languages([said])


def test_every_python_entry_of_the_chinese_catalogue_is_chinese():
    """No ``py.*`` entry was left in English: each has Chinese characters, or only placeholders."""
    zh = catalogue("zh")
    english = {key: text for key, text in zh.items() if key.startswith("py.") and not is_chinese(text)}
    assert not english, english
    assert set(zh) == set(catalogue("en"))


def test_a_fork_too_deep_to_load_back_is_refused_with_the_serializers_code_in_both_languages():
    """A fork nested deeper than loading allows is refused before it is saved, the problem by code."""
    deep: Any = []
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(BadInputError) as refused:
        check_fork_size({"findings": deep})
    said = messages_in(refused.value.say)
    assert [m["code"] for m in said] == ["input.fork_unsavable", "record.problem.too_deep_to_load_back"]
    assert_said_in_both_languages(said)
