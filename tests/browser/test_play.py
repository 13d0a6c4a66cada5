"""The playground page, /play: the editor (CodeMirror, bundled at build time, under the site's CSP) loads
with line numbers, the gallery opens a program, a shared link reproduces the program and runs nothing
until Run is pressed, and the page speaks Chinese with ``?lang=zh``. The page boots no Python yet (its
instruments are connected later), so each test gets an empty profile."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.no_python

PROGRAM = "from langgraph.graph import StateGraph\n\n# shared: 你好\nx = 1\n"


def open_play(page: Page, url: str) -> list[str]:
    """Open ``url`` and wait for the page to be ready; returns the console's errors as they come."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    expect(page.locator("body[data-ready='true']")).to_be_attached()
    return errors


def type_program(page: Page, text: str) -> None:
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)


def test_the_editor_loads_with_line_numbers_and_python_highlighting(page: Page, site: str) -> None:
    errors = open_play(page, f"{site}/play")
    expect(page.locator("#play-editor[data-state='ready'] .cm-editor")).to_be_visible()
    expect(page.locator(".cm-lineNumbers .cm-gutterElement", has_text="12")).to_be_visible()
    expect(page.locator(".cm-content")).to_contain_text("from langgraph.graph import START, MessagesState")
    # CodeMirror's own styles arrived under style-src 'self' (constructed style sheets in the editor's
    # shadow root), and the tokens are coloured by the page's variables
    assert page.locator(".cm-editor").evaluate("e => getComputedStyle(e).display") == "flex"
    keyword = page.locator(".cm-line span", has_text="def").first
    assert keyword.evaluate("e => getComputedStyle(e).color") != page.locator(".cm-content").evaluate(
        "e => getComputedStyle(e).color"
    )
    assert errors == []


def test_escape_then_tab_leaves_the_editor(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    page.locator(".cm-content").click()
    page.keyboard.press("Tab")  # indents: the editor keeps the focus
    in_editor = "document.activeElement.shadowRoot?.activeElement?.classList.contains('cm-content') ?? false"
    assert page.evaluate(in_editor)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert not page.evaluate(in_editor)


def test_the_gallery_opens_a_program(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    page.select_option("#play-gallery", "fan_out_failing_branch")
    expect(page.locator(".cm-content")).to_contain_text("def stock(state: Report) -> dict:")
    expect(page.locator("#play-gallery-about")).to_contain_text("pending writes")


def test_a_shared_link_reproduces_the_program_and_runs_nothing(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    type_program(page, PROGRAM)
    page.click("#play-share")
    link = page.locator("#play-share-link")
    expect(link).to_be_visible()
    shared = link.input_value()
    assert "#program=" in shared

    requests: list[str] = []
    other = page.context.new_page()
    other.on("request", lambda request: requests.append(request.url))
    open_play(other, shared)
    expect(other.locator("#play-origin")).to_contain_text("nothing runs until you press Run")
    lines = [text.replace("\n", "") for text in other.locator(".cm-line").all_inner_texts()]  # "" is a <br>
    assert lines == PROGRAM.split("\n")
    instruments = other.locator("#play-instruments")
    expect(instruments).to_have_attribute("data-runs", "0")
    assert instruments.get_attribute("data-asked") is None  # the worker was asked nothing
    assert not [url for url in requests if "worker" in url or "/pyodide/" in url or "/wheels/" in url]

    other.click("#play-run")
    expect(instruments).to_have_attribute("data-asked", "1")
    expect(other.locator("#play-run-status")).to_contain_text("not connected")


def test_a_program_too_long_for_a_link_is_refused_with_its_size(page: Page, site: str) -> None:
    open_play(page, f"{site}/play")
    noise = page.evaluate("Array.from({length: 30000}, () => Math.random().toString(36)[2]).join('')")
    type_program(page, f"x = '{noise}'\n")
    page.click("#play-share")
    expect(page.locator("#play-share-status")).to_contain_text("too long to share by link")
    expect(page.locator("#play-share-link")).to_be_hidden()


def test_a_damaged_link_says_so(page: Page, site: str) -> None:
    open_play(page, f"{site}/play#program=not-deflate-at-all")
    expect(page.locator("#play-origin")).to_contain_text("could not be read")


def test_the_page_speaks_chinese_with_lang_zh(page: Page, site: str) -> None:
    open_play(page, f"{site}/play?lang=zh")
    expect(page.locator("h1")).to_have_text("练习场：运行你自己的图")
    expect(page.locator("#play-gallery option[value='five_minutes']")).to_have_text("五分钟：对话记忆")
    expect(page.locator("#play-run")).to_have_text("运行")
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
