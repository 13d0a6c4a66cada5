"""Bad input in the page (issue 10, items 6, 7 and 8): each refusal shown in the learner's language,
nothing else lost; a thread handed from one browser to another as a file; markup in any name shown
as text, never as HTML.

The rules are Python's (``tests/test_validation.py``, ``tests/test_thread_commands.py``); these tests
check what the page shows. Several catalogue entries share one booted page: a reload is a boot.
"""

from __future__ import annotations

import json
import random
import re
import string

import msgpack
import pytest
from browser_harness import BOOT_TIMEOUT_S, wait_until_ready
from lab_page import (
    THREADS_DB,
    controller,
    idb_checkpoint_ids,
    idb_rows,
    open_lab,
    press,
    process_ready,
    start,
    view,
    wait_until,
)
from playwright.sync_api import expect
from test_embed import embedder  # noqa: F401  (the cross-site page that frames the lab)

from lab.checkpoint.serde import MsgpackSerializer
from lab.controller.thread_file import FORMAT, MAX_FILE_BYTES, VERSION

MARKUP = "<img src=x onerror=window.__xss=1>"
SERDE = MsgpackSerializer()
CRAFTED = msgpack.packb({"format": FORMAT, "version": VERSION, "x": msgpack.ExtType(42, b"?")})
"""A file that names a type the serializer does not know: refused, nothing executed."""
WAITING = "human_review called interrupt() and waits for an answer: Press Approve or Reject."


@pytest.fixture(autouse=True)
def no_page_errors(page):
    """No uncaught exception in the page, and no error logged by the page's own scripts."""
    problems = []
    page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text} ({m.location})"))
    yield problems
    assert problems == [], problems


def assert_no_markup_reached_html(page) -> None:
    """Markup from any name never became an element, and its handler never ran."""
    assert page.evaluate("() => window.__xss") is None
    assert page.evaluate("() => document.querySelectorAll('img[src=\"x\"], [onerror]').length") == 0


def notice(page) -> str:
    """The link's notice: Python's ``link`` command answers it after the boot, which may take longer
    than ``expect``'s 5 s on a loaded machine."""
    expect(page.locator("#link-notice")).to_be_visible(timeout=BOOT_TIMEOUT_S * 1000)
    return page.locator("#link-notice").text_content()


def error_line(page) -> str:
    expect(page.locator("#error-line")).to_be_visible()
    return page.locator("#error-line").text_content()


def fork(page, values: str) -> None:
    page.locator("#fork-values").fill(values)
    press(page, "Fork")


def test_bad_input_is_refused_in_words_and_changes_nothing(page, site):
    # A 20,000-character thread id in the link: refused, never echoed whole, nothing overflows.
    open_lab(page, site, "thread=" + "a" * 20_000)
    said = notice(page)
    assert "The link's thread id has 20,000 characters; a thread id has at most 64" in said, said
    assert len(said) < 300
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate(
        "(n) => n.scrollWidth <= n.clientWidth", page.locator("#link-notice").element_handle()
    )

    thread = start(page, variant="misplaced", durability="sync")
    page.locator("#status").click()
    page.keyboard.press("a")  # Approve with nothing waiting: the shortcut says why, in Python's words
    said = error_line(page)
    assert "Approve" in said and "Nothing is waiting for an answer" in said, said
    press(page, "Run")
    expect(page.locator("#status")).to_have_text(WAITING)
    stored = idb_checkpoint_ids(page, thread)

    # A fork value of the wrong type, then one too big: named, translated, nothing stored.
    fork(page, '{"customer": "not an object"}')
    wrong = "State key 'customer' holds an object; the fork gives it str \"'not an object'\""
    assert wrong in error_line(page)
    expect(page.locator("#fork-error")).to_contain_text("State key 'customer' holds an object")
    page.locator("#status").click()
    page.keyboard.press("l")  # 简体中文: the same refusal, from the catalogue
    expect(page.locator("#error-line")).to_contain_text("状态键 'customer' 应为an object")
    page.keyboard.press("l")
    fork(page, json.dumps({"alert": "x" * 70_000}))
    assert "a fork may take at most 64 KB" in error_line(page)
    assert idb_checkpoint_ids(page, thread) == stored

    # Markup in fork values: stored, and shown as text.
    fork(page, json.dumps({"alert": MARKUP, "typology": MARKUP}))
    assert len(idb_checkpoint_ids(page, thread)) == len(stored) + 1
    expect(page.locator("#inspector")).to_contain_text(MARKUP)
    assert_no_markup_reached_html(page)

    # Frames in the link that this thread does not have: explained, the lab stays on its head.
    frames = len(idb_checkpoint_ids(page, thread))
    open_lab(page, site, f"thread={thread}&frame=999")
    assert f"The link asks for frame 999, but this thread has frames 0 to {frames - 1}" in notice(page)
    open_lab(page, site, f"thread={thread}&frame=-1&branch={MARKUP}&case={MARKUP}")
    said = notice(page)  # ("abc" is refused by the same rule: tests/test_thread_commands.py)
    assert "The link's frame '-1' is not a frame number" in said
    assert f"The link's branch '{MARKUP}' is not a checkpoint of this thread" in said
    open_lab(page, site, "thread=" + MARKUP)
    assert f"The link's thread id '{MARKUP}' may hold only letters" in notice(page)
    assert view(page, "m.session.thread_id") == thread  # the lab stayed on its thread
    assert_no_markup_reached_html(page)


def exported_file(page) -> tuple[str, bytes]:
    with page.expect_download() as download:
        press(page, "Export thread")
    path = download.value.path()
    return download.value.suggested_filename, open(path, "rb").read()


def import_file(page, name: str, data: bytes) -> None:
    before = int(page.evaluate("() => document.body.dataset.commandsDone ?? '0'"))
    page.locator("#thread-file").set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": data}
    )
    wait_until(
        page,
        lambda: int(page.evaluate("() => document.body.dataset.commandsDone ?? '0'")) > before
        and not view(page, "m.busy"),
        f"the import of {name}",
    )  # fmt: skip


def tampered(data: bytes, change) -> bytes:
    document = SERDE.loads_typed(("msgpack", data))
    return SERDE.dumps_typed(change(document))[1]


def with_thread_id(document: dict, thread_id: str) -> dict:
    rows = {
        kind: [{**row, "thread_id": thread_id} for row in document[kind]]
        for kind in ("checkpoints", "blobs", "writes")
    }
    ledger = [{**entry, "thread_id": thread_id} for entry in document["ledger"]]
    return {**document, **rows, "ledger": ledger, "thread_id": thread_id}


def same_thread(page) -> dict:
    """What a learner sees of the open thread: its frames, ledger and executions (Python's view)."""
    frames = controller(page, "frames")["frames"]
    return {
        "frames": [(f["checkpoint_id"], f["step"], f["values"]) for f in frames],
        "ledger": [
            (r["purpose"], r["amount_cents"], r["idempotency_key"])
            for r in controller(page, "ledger")["entries"]
        ],
        "executions": controller(page, "executions")["nodes"],
    }


def test_a_thread_file_opens_the_same_thread_in_a_fresh_browser_and_bad_files_store_nothing(
    page, browser, warm_profile, site
):
    open_lab(page, site)
    thread = start(page, variant="misplaced", durability="sync")
    press(page, "Run")
    expect(page.locator("#status")).to_have_text(WAITING)
    prepared = same_thread(page)
    name, data = exported_file(page)
    assert name == f"{thread}.cklab" and len(data) > 1000
    expect(page.locator("#thread-note")).to_contain_text(f"Exported {thread}.cklab")

    # The learner's browser: another profile, its IndexedDB empty.
    with warm_profile.context(browser.browser_type) as learner:
        learner_page = learner.pages[0]
        open_lab(learner_page, site)
        rejected = {
            "truncated.cklab": (data[: len(data) // 2], "This is not a readable thread file"),
            "newer.cklab": (
                tampered(data, lambda d: {**d, "version": VERSION + 1}),
                "comes from a newer lab",
            ),
            "crafted.cklab": (CRAFTED, "unknown msgpack extension type 42"),
            "notours.cklab": (b"PK\x03\x04 not a thread file", "This is not a readable thread file"),
            "huge.cklab": (b"\0" * (MAX_FILE_BYTES + 1), "a thread file may have at most 16 MB"),
            "other.cklab": (
                SERDE.dumps_typed({"format": "zip"})[1],
                "This is not a thread file of Checkpoint Lab",
            ),
        }
        for file_name, (content, reason) in rejected.items():
            import_file(learner_page, file_name, content)
            assert reason in error_line(learner_page), (file_name, error_line(learner_page))
            assert (
                controller(learner_page, "threads")["threads"] == []
                and idb_rows(learner_page, THREADS_DB, "checkpoints") == []
            )

        import_file(learner_page, name, data)
        wait_until(
            learner_page,
            lambda: view(learner_page, "m.session && m.session.thread_id") == thread,
            "the imported thread",
        )
        expect(learner_page.locator("#thread-note")).to_contain_text(f"Imported thread {thread}")
        expect(learner_page.locator("#status")).to_have_text(WAITING)
        assert same_thread(learner_page) == prepared
        import_file(learner_page, name, data)
        assert "already exists here" in error_line(learner_page)

        # The same file with markup for its thread id: imported, shown as text.
        import_file(learner_page, "markup.cklab", tampered(data, lambda d: with_thread_id(d, MARKUP)))
        wait_until(
            learner_page,
            lambda: view(learner_page, "m.session && m.session.thread_id") == MARKUP,
            "the markup thread",
        )
        expect(learner_page.locator("#thread-facts")).to_contain_text(MARKUP)
        expect(
            learner_page.get_by_role("combobox", name="Saved threads").locator("option").first
        ).to_contain_text(MARKUP)
        press(learner_page, "Approve")
        assert_no_markup_reached_html(learner_page)


FORK = """([checkpoint_id, alert]) => window.lab.command("fork", {checkpoint_id, values: {alert}})
  .then(() => null, (error) => error.type)"""


def test_a_full_storage_keeps_the_thread_at_its_last_good_checkpoint(browser, site):
    # No service worker (its offline copy would fill the small quota first) and a quota set before
    # the site writes anything (Chromium caches how much space a site has left once it has written).
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        context.new_cdp_session(page).send(
            "Storage.overrideQuotaForOrigin", {"origin": site, "quotaSize": 600_000}
        )
        open_lab(page, site)
        thread = start(page, variant="fixed", durability="sync")
        press(page, "Run")
        expect(page.locator("#status")).to_have_text(WAITING)
        head = idb_checkpoint_ids(page, thread)[-1]
        for _ in range(40):  # 60 KB forks of random letters until the browser refuses one
            good = idb_checkpoint_ids(page, thread)
            if page.evaluate(FORK, [head, "".join(random.choices(string.ascii_letters, k=60_000))]):
                break
        else:
            raise AssertionError("40 forks of 60 KB fitted into a 600 KB quota")
        assert idb_checkpoint_ids(page, thread) == good  # the refused write stored nothing

        fork(page, json.dumps({"alert": "".join(random.choices(string.ascii_letters, k=60_000))}))
        said = error_line(page)
        assert "storage for this site is full, so nothing of this change was saved" in said, said
        assert "the thread stays at its last saved checkpoint" in said
        assert idb_checkpoint_ids(page, thread) == good

        page.reload()
        wait_until_ready(page)
        wait_until(page, lambda: process_ready(page), "the lab's process to be ready")
        wait_until(
            page, lambda: view(page, "m.session && m.frames.length") == len(good), "the thread after a reload"
        )
        assert [f["checkpoint_id"] for f in controller(page, "frames")["frames"]] == good
    finally:
        context.close()


def test_without_indexeddb_the_lab_runs_in_memory_and_says_so(page, embedder, no_page_errors):  # noqa: F811
    # A cross-site frame: the browser refuses IndexedDB there (test_embed.py), as some private modes do.
    page.goto(embedder)
    lab = page.frame(url=re.compile(r"/embed$"))
    wait_until_ready(page, frame=lab)
    notice = lab.locator("#storage-notice")
    expect(notice).to_contain_text(
        "Storage unavailable: checkpoints live in memory only and vanish on reload."
    )
    outcome = lab.evaluate(
        """async () => {
             await lab.command("start", {case_id: "S-1001", variant: "fixed", durability: "sync"});
             return lab.command("run");
           }"""
    )
    assert outcome["status"] == "interrupted"  # the whole case runs, in memory
    assert lab.evaluate("() => lab.request('lab_info')")["storage"] == "memory"
    assert len(lab.evaluate("() => lab.command('frames')")["frames"]) > 3
    no_page_errors[:] = [p for p in no_page_errors if "frame-ancestors" not in p]  # the framed full page
