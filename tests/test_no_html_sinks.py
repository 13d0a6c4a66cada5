"""Markup never reaches HTML (issue 10, item 8), checked in the source: no page script hands a string
to an HTML parser, except the sinks listed here, each with why its string is trusted. Every name a
learner or a file can set (case, thread, branch, fork value, link) is drawn with ``textContent`` or
``setAttribute`` (``static/views/dom.mjs``); ``tests/browser/test_bad_input.py`` checks the page."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"

SINKS = re.compile(
    r"\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment"
    r"|\.srcdoc\b|setHTMLUnsafe|\beval\s*\(|new Function\s*\("
)
"""Every way a string becomes markup or code in a page."""

ALLOWED = {
    ("lesson/runner.mjs", "DOMParser"): "parses the lab's own next lesson page, fetched from this site",
}
"""(file under static/, sink): why the string it parses is the site's own, not a learner's."""


def sinks() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(STATIC.rglob("*.mjs")):
        name = path.relative_to(STATIC).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if code.lstrip().startswith("*"):  # a JSDoc line
                continue
            found += [
                (name, match.group().strip(" .(").split()[0], f"{name}:{number}")
                for match in SINKS.finditer(code)
            ]
    return found


def test_no_page_script_turns_a_string_into_markup() -> None:
    unexpected = [where for name, sink, where in sinks() if (name, sink) not in ALLOWED]
    assert unexpected == [], f"HTML sinks outside the allow-list: {unexpected}"


def test_the_allow_list_names_only_sinks_that_exist() -> None:
    assert {(name, sink) for name, sink, _ in sinks()} == set(ALLOWED)


def test_the_check_finds_a_sink() -> None:
    line = "element.innerHTML = thread_id;"
    assert [m.group() for m in SINKS.finditer(line)] == [".innerHTML"]
