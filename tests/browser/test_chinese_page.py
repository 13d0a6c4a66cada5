"""A Chinese page says everything in Chinese (issue 9, the "Language" bar): after a thread has run to
its interrupt, with the storage panel, the thread list, the ledger and the frames open, and a damaged
thread listed, no text a learner can see or hover is English, apart from what stays as it is on
purpose: node, channel, seam and field names, ids, code and LangGraph's API names.

One booted page, one pass over the DOM: every visible text node, every graph tooltip (SVG
``<title>``), and every ``title``, ``aria-label`` and ``placeholder`` attribute.
"""

from __future__ import annotations

import re

from lab_page import corrupt_checkpoints, open_lab, press, view, wait_until
from playwright.sync_api import expect

from lab.aml.cases import CASES, WATCHLIST
from site_build.static_pages import static_diagram

# Everything a learner reads: visible text (outside code), tooltips and labels; with where it is.
SHOWN_TEXTS = """
() => {
  const texts = [];
  const where = (element) => element.id || element.closest("[id]")?.id || element.tagName;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent.trim()) continue;
    if (parent.closest("code, pre, kbd, samp, script, style, [lang=en]")) continue;
    if (parent.closest("svg") ? parent.tagName === "title" : parent.checkVisibility()) {
      texts.push([where(parent), node.textContent.trim()]);
    }
  }
  for (const element of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (!element.checkVisibility() || element.closest("[lang=en]")) continue;
    for (const attr of ["title", "aria-label", "placeholder"]) {
      const value = element.getAttribute(attr);
      if (value?.trim()) texts.push([`${where(element)}@${attr}`, value.trim()]);
    }
  }
  return texts;
}
"""

NOT_WORDS = re.compile(r'"(?:[^"\\…]|\\.)*(?:"|…)|\b[0-9a-f]{4,}(?:-[0-9a-f]{4,})+\b')
"""State values shown as JSON (``"..."``: the graph's data, as written) and checkpoint and task ids."""
ENGLISH = re.compile(r"[A-Za-z]{4,}")
"""Four Latin letters in a row: English, unless the token is one of the names kept as they are."""

KEPT_AS_IS = {
    # the graph's node and channel names, LangGraph's special channels and metadata sources
    *(node["id"] for node in static_diagram()["nodes"]),
    *(key["key"] for key in static_diagram()["state"]),
    *["START", "END", "branch", "join", "versions_seen", "input", "loop", "null", "true", "false"],
    *["__resume__", "__interrupt__", "__error__", "__no_writes__"],
    # LangGraph's and the lab's names: the API, the key format, formats, a key on the keyboard
    *["LangGraph", "Python", "Pyodide", "interrupt", "thread", "task", "msgpack", "IndexedDB", "JSON"],
    "DeltaChannel",  # LangGraph's opt-in channel the storage bill compares with (a class name)
    *["Approve", "Reject", "Home"],  # the officer's buttons (named so in the status line), a key
    *["misplaced", "task-key", "fixed", "subgraph", "sync", "async", "exit"],  # variants and durability modes
    *["brief_officer", "sign"],  # the nodes of the subgraph variant's review subgraph
    # the cases' people and companies (names stay as they are)
    *(word for case in CASES.values() for word in ENGLISH.findall(case["customer"]["name"])),
    *(word for entry in WATCHLIST for word in ENGLISH.findall(entry["name"])),
}
"""What stays as it is on a Chinese page: names, code, ids (the issue's short allow-list)."""


def english_words(text: str) -> list[str]:
    """The tokens of ``text`` (outside JSON values and ids) that hold an English word."""
    tokens = re.findall(r"[\w'-]+", NOT_WORDS.sub(" ", text))
    return [
        token
        for token in tokens
        if ENGLISH.search(token) and token not in KEPT_AS_IS and token.strip("_") not in KEPT_AS_IS
    ]


def english_shown(page) -> list[tuple[str, str, list[str]]]:
    """Each text the page shows with English words in it: where, the text, the words."""
    return [
        (where, text, found) for where, text in page.evaluate(SHOWN_TEXTS) if (found := english_words(text))
    ]


def test_a_chinese_page_shows_no_english(page, site):
    open_lab(page, site, "lang=zh")
    page.get_by_role("combobox", name="案件").select_option("S-1002")
    press(page, "开始")
    damaged = view(page, "m.session.thread_id")
    press(page, "运行")
    page.get_by_role("radio", name=re.compile(r"^错位")).check()
    press(page, "开始")
    press(page, "运行")  # to human_review's interrupt
    expect(page.locator("#review")).to_be_visible()
    page.locator("#storage-summary").click()
    wait_until(page, lambda: page.locator("#storage-checkpoints").count() > 0, "the storage bill")
    page.locator("#checkpoints").get_by_role("button").first.click()  # a frame: its state and diff
    expect(page.locator("#inspector-view")).to_be_visible()
    english = english_shown(page)

    corrupt_checkpoints(page, damaged)  # the first thread no longer loads: listed as damaged
    press(page, "驳回")  # the review ends; the thread list and the storage bill are read again
    expect(page.locator("#damaged-threads")).to_be_visible()
    expect(page.locator("#damaged-threads")).to_contain_text("元数据无法加载：这些字节不是 msgpack 格式")
    english += english_shown(page)
    assert not english, "\n".join(f"{where}: {text!r} {found}" for where, text, found in english)
