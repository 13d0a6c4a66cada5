"""The lab page, driven as a learner drives it: buttons by role and name, keyboard shortcuts, the
language switch. Each test checks what the page shows against what IndexedDB holds (read with plain
JavaScript in the page) and against what the runtime did (the controller's ``executions``).

Crashes are real: the page terminates the Python worker at the armed seam and a new one boots over
the same IndexedDB. One Chromium per module (conftest); every test gets a fresh profile.
"""

from __future__ import annotations

import json
import re

import pytest
from browser_harness import wait_for_boot, wait_until_ready
from lab_page import (
    arm_crash,
    assert_counts_are_true,
    assert_table_is_storage,
    button,
    controller,
    corrupt_checkpoints,
    crash_and_reboot,
    idb_checkpoint_ids,
    idb_checkpoints,
    idb_ledger,
    idb_writes,
    key,
    open_lab,
    press,
    process_ready,
    shown_resume,
    start,
    table_ids,
    table_rows,
    view,
    wait_until,
)
from playwright.sync_api import expect


@pytest.fixture(autouse=True)
def no_page_errors(page):
    """No uncaught exception in the page, and no error logged by the page's own scripts (a test that
    expects one takes it out of the list this fixture yields)."""
    problems = []
    page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text} ({m.location})"))
    yield problems
    assert problems == [], problems


WAITING = "human_review called interrupt() and waits for an answer: Press Approve or Reject."
ACTIONS = ["Start", "Step", "Run", "Resume", "Approve", "Reject", "Arm crash", "Disarm", "First", "Previous",
           "Next", "Last", "Replay from here", "Fork", "Reset lab", "Keyboard shortcuts"]  # fmt: skip


def test_step_through_a_full_run(page, site):
    open_lab(page, site)
    expect(page.locator("#thread-facts")).to_have_text("No thread yet — pick a case and press Start.")
    for name in ACTIONS:  # every action: a visible button with an accessible name and a shortcut
        action = button(page, name)
        expect(action).to_be_visible()
        assert action.get_attribute("aria-keyshortcuts"), name
    page.locator("#status").click()
    page.keyboard.press("?")
    shortcuts = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(shortcuts).to_be_visible()
    expect(shortcuts).to_contain_text("Replay from here")
    page.keyboard.press("Escape")
    expect(shortcuts).to_be_hidden()

    thread = start(page, variant="fixed", durability="sync")
    assert table_ids(page) == [] and idb_checkpoint_ids(page, thread) == []

    counts = []
    while not button(page, "Step").is_disabled():
        press(page, "Step")
        # Rows appear one per super-step, and only for checkpoints IndexedDB holds.
        counts.append(len(assert_table_is_storage(page, thread)))
        if view(page, "m.status.phase") == "paused":
            assert page.locator("#status").inner_text().startswith("Paused before step")
    assert counts == [1, 2, 3, 4, 5, 6, 6], counts  # input, one per step; the interrupt saves writes only
    expect(page.locator("#status")).to_have_text(WAITING)
    expect(page.locator('#graph [data-node="human_review"]')).to_have_attribute("data-state", "interrupted")
    expect(page.locator("#review")).to_contain_text("File a SAR for S-1001?")
    assert button(page, "Approve").is_enabled() and button(page, "Run").is_disabled()

    key(page, "a")  # Approve, by its shortcut
    expect(page.locator("#status")).to_have_text("The thread reached END: SAR sar_0001 filed")
    ids = assert_table_is_storage(page, thread)
    rows = table_rows(page)
    assert [r["step"] for r in rows] == ["-1", "0", "1", "2", "3", "4", "5", "6"]
    assert rows[0]["source"] == "input" and rows[-1]["next"] == "(end)"
    assert rows[2]["next"] == "fetch_transactions, screen_sanctions"
    parents = {r["checkpoint_id"]: r["parent_checkpoint_id"] for r in idb_checkpoints(page, thread)}
    assert all(parents[child] == parent for parent, child in zip(ids, ids[1:], strict=False))
    assert button(page, "Step").is_disabled() and button(page, "Run").is_disabled()  # the case is finished
    counts = assert_counts_are_true(page)
    assert counts == {"intake": 1, "fetch_transactions": 1, "screen_sanctions": 1, "classify_typology": 1,
                      "draft_sar": 1, "human_review": 2, "file_sar": 1, "close_case": 0}  # fmt: skip


def test_crash_inside_screen_sanctions_restores_fetch_and_reruns_screen(page, site):
    open_lab(page, site)
    thread = start(page, variant="misplaced", durability="sync")
    page.locator('#crash-seams input[data-seam="put"]').check()  # a seam of the whole step: no node to pick
    node_picker = page.get_by_role("combobox", name="Of node")
    expect(node_picker).to_be_disabled()
    expect(node_picker).to_have_attribute("title", "The seam put belongs to no node; arm it without one")
    arm_crash(page, "task_finish", "screen_sanctions")
    expect(node_picker).to_be_enabled()
    # The siblings run in parallel: the crash waits for fetch_transactions' saved writes (no race).
    after = ["put_writes", "fetch_transactions"]
    armed = controller(page, "arm_crash", {"seam": "task_finish", "node": "screen_sanctions", "after": after})
    assert armed["armed"]["after"] == after
    crash = crash_and_reboot(page)
    assert crash["seam"] == "task_finish" and crash["node"] == "screen_sanctions"
    expect(page.locator("#crash-report")).to_contain_text("killed at task_finish of screen_sanctions")
    expect(page.locator("#crash-report")).to_contain_text("IndexedDB kept 3 checkpoint(s)")
    expect(page.locator('#graph [data-node="screen_sanctions"]')).to_have_attribute("data-state", "crashed")

    # What storage kept: the step's checkpoint, and fetch_transactions' writes (saved before the crash).
    ids = assert_table_is_storage(page, thread)
    assert len(ids) == crash["kept"] == 3
    fan_out = next(r for r in table_rows(page) if r["next"] == "fetch_transactions, screen_sanctions")
    assert (
        fan_out["writers"] == ["fetch_transactions"]
        and "fetch_transactions → transactions" in fan_out["writes"]
    )
    saved = {w["channel"] for w in idb_writes(page, thread, fan_out["id"])}
    assert "transactions" in saved and "sanctions" not in saved

    press(page, "Resume")
    expect(page.locator("#status")).to_have_text(WAITING)
    assert shown_resume(page)["fetch_transactions"] == "restored from pending writes"
    assert shown_resume(page)["screen_sanctions"] == "re-run"
    expect(page.locator("#resume-summary")).to_contain_text(
        "restored from pending writes: fetch_transactions; re-run: screen_sanctions"
    )
    counts = assert_counts_are_true(page)
    assert counts["fetch_transactions"] == 1 and counts["screen_sanctions"] == 2
    charges = [r for r in idb_ledger(page) if r["node"] == "fetch_transactions"]
    assert len(charges) == 1  # the paid query was not bought again
    assert_table_is_storage(page, thread)


def test_crash_between_a_side_effect_and_its_saved_writes_reruns_the_node(page, site):
    open_lab(page, site)
    thread = start(page, variant="misplaced", durability="sync")
    arm_crash(page, "task_finish", "fetch_transactions")
    crash_and_reboot(page)
    # The charge happened (the ledger lives outside the worker), its writes never reached storage.
    assert [r["node"] for r in idb_ledger(page)] == ["fetch_transactions"]
    fan_out = next(r for r in table_rows(page) if r["next"] == "fetch_transactions, screen_sanctions")
    assert not [w for w in idb_writes(page, thread, fan_out["id"]) if w["channel"] == "transactions"]

    press(page, "Resume")
    assert shown_resume(page)["fetch_transactions"] == "re-run"
    counts = assert_counts_are_true(page)
    assert counts["fetch_transactions"] == 2
    queries = [r for r in idb_ledger(page) if r["node"] == "fetch_transactions"]
    assert len(queries) == 2 and len({q["task_id"] for q in queries}) == 1  # the same task paid twice
    flagged = page.locator('#ledger-table tbody tr[data-node="fetch_transactions"]')
    expect(flagged).to_have_count(2)
    expect(flagged.nth(1)).to_contain_text("charged ×2")
    assert_table_is_storage(page, thread)


def test_misplaced_variant_charges_twice_after_approval(page, site):
    open_lab(page, site)
    start(page, variant="misplaced", durability="sync")
    press(page, "Run")
    expect(page.locator("#review")).to_contain_text("was already bought before this question was asked")
    press(page, "Approve")
    alert = page.locator("#double-charge")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("charged ×2")
    expect(alert).to_contain_text("human_review")
    exports = page.locator('#ledger-table tbody tr[data-node="human_review"]')
    expect(exports).to_have_count(2)
    for row in range(2):
        expect(exports.nth(row)).to_contain_text("charged ×2")
    stored = [r for r in idb_ledger(page) if r["node"] == "human_review"]
    assert (
        len(stored) == 2
        and not any(r["replayed"] for r in stored)
        and stored[0]["task_id"] == stored[1]["task_id"]
    )
    expect(page.locator("#ledger-totals")).to_contain_text("3 charge(s), 1 filing(s), 26.50 USD")
    counts = assert_counts_are_true(page)
    assert counts["human_review"] == 2


def test_fixed_variant_charges_once(page, site):
    open_lab(page, site)
    start(page, variant="fixed", durability="sync")
    press(page, "Run")
    expect(page.locator("#review")).to_contain_text("the export is bought only after approval")
    press(page, "Approve")
    expect(page.locator("#status")).to_contain_text("SAR sar_0001 filed")
    assert page.locator("#double-charge").is_hidden()
    expect(page.locator("#ledger-table tbody tr.flagged")).to_have_count(0)
    stored = idb_ledger(page)
    assert [(r["node"], r["kind"]) for r in stored] == [
        ("fetch_transactions", "charge"),
        ("human_review", "charge"),
        ("file_sar", "sar"),
    ]
    assert all(r["idempotency_key"] for r in stored)
    expect(page.locator("#ledger-totals")).to_contain_text("2 charge(s), 1 filing(s), 14.50 USD")
    counts = assert_counts_are_true(page)
    assert counts["human_review"] == 2  # it still ran twice (interrupt, then answer); it paid once


def test_task_variant_charges_once_and_shows_its_task_restored(page, site):
    """LangGraph's remedy: the export bought in a @task before interrupt(). The executions panel shows
    the task as its own row under human_review: it ran before the question, and on Approve (the node
    runs again from its first line) it is restored from the checkpoint instead of charging again."""
    open_lab(page, site)
    start(page, variant="task", durability="sync")
    press(page, "Run")
    task = page.locator('#executions-table tr.task-call[data-caller="human_review"]')
    expect(task).to_have_count(1)
    expect(task).to_have_attribute("data-task", "buy_export")
    expect(task).to_contain_text("↳ buy_export")
    expect(task.locator(".verdict")).to_have_text("ran")
    expect(task).to_contain_text("its result is saved with checkpoint")
    ran_as = task.get_attribute("data-task-id")
    press(page, "Approve")
    expect(page.locator("#status")).to_contain_text("SAR sar_0001 filed")
    expect(task.locator(".verdict")).to_have_text("restored from the checkpoint")
    expect(task).to_contain_text("so it did not run again")
    assert task.get_attribute("data-task-id") == ran_as  # the same call: its saved result came back
    exports = [r for r in idb_ledger(page) if r["node"] == "human_review"]
    assert len(exports) == 1 and exports[0]["idempotency_key"] is None  # no key: the task alone saved it
    expect(page.locator("#ledger-table tbody tr.flagged")).to_have_count(0)
    assert assert_counts_are_true(page)["human_review"] == 2  # the node ran twice; its task once


FIRST_FRAME = "This is the branch's first saved checkpoint: nothing before it"


def test_time_travel_to_an_early_frame_and_replay(page, site):
    open_lab(page, site)
    thread = start(page, variant="fixed", durability="sync")
    press(page, "Run")
    press(page, "Approve")
    before = assert_table_is_storage(page, thread)

    scrubber = page.get_by_role("slider", name="Frame")
    expect(scrubber).to_have_attribute("aria-valuetext", re.compile(r"^Frame 8 of 8"))
    button(page, "First").click()
    expect(scrubber).to_have_attribute("aria-valuetext", re.compile(r"^Frame 1 of 8: the input · step -1$"))
    for name in ("First", "Previous"):  # Python's verdict on the first frame (its tree's `travel`), with why
        expect(button(page, name)).to_be_disabled()
        expect(button(page, name)).to_have_attribute("title", FIRST_FRAME)
    for _ in range(3):
        button(page, "Next").click()
    button(page, "Previous").click()
    button(page, "Next").click()
    expect(scrubber).to_have_attribute(
        "aria-valuetext", re.compile(r"^Frame 4 of 8: after fetch_transactions, screen_sanctions · step 2$")
    )
    frame = before[3]
    expect(page.locator("#inspector")).to_have_attribute("data-checkpoint-id", frame)
    expect(page.locator("#inspect-next")).to_have_text("classify_typology")
    diff = page.locator("#frame-diff")
    expect(diff).to_contain_text("transactions +")  # fetch_transactions' result appeared in this frame
    expect(diff).to_contain_text("sanctions +")
    assert json.loads(page.inner_text("#inspect-state"))["sanctions"]["hit"] is False
    assert f"frame={frame}" in page.url and f"thread={thread}" in page.url

    press(page, "Replay from here")
    expect(page.locator("#status")).to_have_text(WAITING)
    after = assert_table_is_storage(page, thread)
    assert after[: len(before)] == before and len(after) == len(before) + 3  # fork, classify, draft; old kept
    fork_row = next(r for r in table_rows(page) if r["source"] == "fork")
    assert {c["checkpoint_id"]: c["parent_checkpoint_id"] for c in idb_checkpoints(page, thread)}[
        fork_row["id"]
    ] == frame
    expect(page.locator("#branch-list li")).to_have_count(2)
    expect(page.locator('#branch-list li[data-head="true"] button')).to_have_attribute("aria-pressed", "true")
    counts = assert_counts_are_true(page)
    assert counts["classify_typology"] == 2 and counts["fetch_transactions"] == 1


def test_fork_with_an_edited_state_makes_two_branches(page, site):
    open_lab(page, site)
    thread = start(page, variant="fixed", durability="sync")
    press(page, "Run")
    ids = assert_table_is_storage(page, thread)
    classified = next(r for r in table_rows(page) if r["next"] == "draft_sar")
    short = "-".join(classified["id"].split("-")[1:3])
    page.get_by_role("button", name=f"Show checkpoint {short}", exact=True).click()
    expect(page.locator("#inspector")).to_have_attribute("data-checkpoint-id", classified["id"])

    editor = page.get_by_label("State values to write (JSON object)")
    editor.fill('{"typology": "none",}')
    button(page, "Fork").click()
    error = page.locator("#fork-error")
    expect(error).to_contain_text("This is not valid JSON (line 1, column")
    expect(editor).to_have_attribute("aria-invalid", "true")
    editor.fill('["typology"]')
    button(page, "Fork").click()
    expect(error).to_have_text("The values must be a JSON object ({…}) of state keys.")
    editor.fill('{"colour": "red"}')  # valid JSON, refused by Python: a plain sentence, no traceback
    press(page, "Fork")
    expect(page.locator("#error-line")).to_contain_text("Unknown state key(s) ['colour']")
    assert "Traceback" not in page.inner_text("body")
    assert idb_checkpoint_ids(page, thread) == ids  # nothing was written

    editor.fill('{"typology": "none"}')
    page.get_by_label("As node").select_option("classify_typology")
    press(page, "Fork")
    expect(page.locator("#status")).to_have_text("Next: close_case. Press Run to continue.")
    branches = page.locator("#branch-list li")
    expect(branches).to_have_count(2)
    head = page.locator('#branch-list li[data-head="true"]')
    expect(head).to_contain_text("head")
    expect(head).to_contain_text(f"forked at {short}")
    update = [c for c in idb_checkpoints(page, thread) if c["checkpoint_id"] not in ids]
    assert len(update) == 1 and update[0]["parent_checkpoint_id"] == classified["id"]
    expect(page.locator("#frame-diff")).to_contain_text('typology "structuring" → "none"')

    press(page, "Run")
    expect(page.locator("#status")).to_contain_text("Closed: no suspicious typology")
    # One click switches the view to the other branch: the scrubber walks its frames.
    page.locator('#branch-list li[data-head="false"] button').click()
    scrubber = page.get_by_role("slider", name="Frame")
    expect(scrubber).to_have_attribute(
        "aria-valuetext", re.compile(r"^Frame 6 of 6: after draft_sar · step 4$")
    )
    expect(page.locator("#inspect-next")).to_have_text("human_review")
    assert "branch=" in page.url
    counts = assert_counts_are_true(page)
    assert counts["close_case"] == 1 and counts["draft_sar"] == 1
    assert_table_is_storage(page, thread)


def test_reload_mid_thread_and_continue(page, site):
    open_lab(page, site)
    thread = start(page, variant="misplaced", durability="sync")
    for _ in range(3):
        key(page, "s")  # Step, by its shortcut
    ids = assert_table_is_storage(page, thread)
    assert len(ids) == 3
    charged = idb_ledger(page)

    page.reload()
    wait_until(page, lambda: view(page, "m.session && m.frames.length === 3"), "the thread to come back")
    assert f"thread={thread}" in page.url
    expect(page.locator("#status")).to_have_text(
        "The process died outside any seam (a reload, a closed tab or a random kill) in step 2; "
        "3 checkpoint(s) survived. Press Resume."
    )  # the paused run died with the page
    assert table_ids(page) == ids == idb_checkpoint_ids(page, thread)
    assert idb_ledger(page) == charged
    assert_counts_are_true(page)

    press(page, "Resume")
    expect(page.locator("#status")).to_have_text(WAITING)
    ids = assert_table_is_storage(page, thread)
    assert len(ids) == 6
    counts = assert_counts_are_true(page)
    assert counts["intake"] == 1 and counts["fetch_transactions"] == 1  # nothing ran twice

    # The view itself comes back from the URL: the frame (and branch) in view.
    button(page, "First").click()
    button(page, "Next").click()
    expect(page.locator("#inspector")).to_have_attribute("data-checkpoint-id", ids[1])
    wait_until(page, lambda: f"frame={ids[1]}" in page.url, "the frame in the URL")
    page.reload()
    wait_until(
        page,
        lambda: view(page, "m.detail && m.detail.frame.checkpoint_id") == ids[1],
        "the frame from the URL",
    )
    expect(page.get_by_role("slider", name="Frame")).to_have_attribute(
        "aria-valuetext", re.compile(r"^Frame 2 of 6")
    )
    assert_counts_are_true(page)


def test_exit_durability_loses_the_intermediate_frames_after_a_crash(page, site):
    open_lab(page, site)
    thread = start(page, variant="misplaced", durability="exit")
    arm_crash(page, "task_start", "classify_typology")
    crash = crash_and_reboot(page)
    assert crash["kept"] == 0 and idb_checkpoint_ids(page, thread) == []
    assert table_ids(page) == []
    expect(page.locator("#checkpoints")).to_contain_text(
        "with durability “exit” a run saves only when it ends"
    )
    expect(page.locator("#crash-report")).to_contain_text("IndexedDB kept 0 checkpoint(s)")
    assert button(page, "Resume").is_disabled()
    assert [r["node"] for r in idb_ledger(page)] == ["fetch_transactions"]  # the money is gone anyway

    press(page, "Run")  # nothing to resume: the case starts over, and pays again
    expect(page.locator("#status")).to_have_text(WAITING)
    ids = assert_table_is_storage(page, thread)
    assert len(ids) == 1  # exit: one checkpoint, at the end of the run
    counts = assert_counts_are_true(page)
    assert counts["fetch_transactions"] == 2 and counts["classify_typology"] == 1  # it died as it started

    # The same crash under "sync" keeps every checkpoint up to the crash.
    thread = start(page, variant="misplaced", durability="sync")
    arm_crash(page, "task_start", "classify_typology")
    assert crash_and_reboot(page)["kept"] == 4 == len(assert_table_is_storage(page, thread))
    assert_counts_are_true(page)


def test_reset_asks_first_then_clears_storage(page, site):
    open_lab(page, site)
    thread = start(page, variant="misplaced", durability="sync")
    press(page, "Run")
    key(page, "x")  # Reject, by its shortcut: the case closes, no SAR is filed
    expect(page.locator("#status")).to_have_text(
        "The thread reached END: Closed: the officer rejected the SAR"
    )
    assert [r["kind"] for r in idb_ledger(page)] == [
        "charge",
        "charge",
        "charge",
    ]  # misplaced: paid twice anyway
    assert idb_checkpoint_ids(page, thread)
    counts = assert_counts_are_true(page)
    assert counts["close_case"] == 1 and counts["file_sar"] == 0

    button(page, "Reset lab").click()
    dialog = page.get_by_role("dialog", name="Reset the lab?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert idb_checkpoint_ids(page, thread)

    button(page, "Reset lab").click()
    before = int(page.evaluate("() => document.body.dataset.commandsDone"))
    dialog.get_by_role("button", name="Reset everything").click()
    wait_until(
        page, lambda: int(page.evaluate("() => document.body.dataset.commandsDone")) > before, "the reset"
    )
    expect(page.locator("#thread-facts")).to_have_text("No thread yet — pick a case and press Start.")
    expect(page.locator("#checkpoints")).to_contain_text("No thread yet")
    assert idb_checkpoint_ids(page, thread) == [] and idb_ledger(page) == []
    assert controller(page, "restore")["session"] is None


def test_language_switch_and_one_catalogue(page, site):
    open_lab(page, site, "lang=zh")
    assert page.evaluate("() => document.documentElement.lang") == "zh-CN"
    expect(button(page, "单步")).to_be_visible()
    expect(page.locator("#thread-facts")).to_have_text("还没有线程——选择一个案件并按“开始”。")
    page.get_by_role("combobox", name="语言").select_option("en")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    expect(button(page, "Step")).to_be_visible()
    assert "lang=en" in page.url
    page.evaluate("() => document.activeElement.blur()")  # shortcuts are off while a <select> has focus
    page.keyboard.press("l")  # the language shortcut
    expect(button(page, "重置实验室")).to_be_visible()
    assert "lang=zh" in page.url

    # The lab works in Chinese: start a case and run it, by the Chinese names.
    page.get_by_role("combobox", name="案件").select_option("S-1002")
    page.get_by_role("radio", name=re.compile(r"^已修复")).check()
    press(page, "开始")
    thread = view(page, "m.session.thread_id")
    press(page, "运行")
    expect(page.locator("#status")).to_have_text(
        "human_review 调用了 interrupt()，正在等待答复：按 Approve（批准）或 Reject（驳回）。"
    )
    assert_table_is_storage(page, thread)
    # Case data and Python's sentences in Chinese too (names, ids and code stay as they are).
    expect(page.locator("#case-select option[value=S-1002]")).to_have_text("S-1002 · 向受制裁交易对手的电汇")
    expect(page.locator("#case-info")).to_contain_text("电汇的交易对手与观察名单上的条目相似。")
    expect(page.locator("#review .question")).to_have_text("是否为 S-1002 提交 SAR？")
    expect(page.locator("#review")).to_contain_text("与观察名单匹配：Borealis Vektor Trading FZE")
    english = re.compile(r"[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){2}")  # three Latin words: an English phrase
    lines = page.locator("#activity-log li").all_inner_texts()
    assert lines and not [line for line in lines if english.search(line)], lines

    # One catalogue: every key in both languages, and nothing the page asked for is missing.
    catalogue = page.evaluate(
        "async () => { const m = await import('/i18n.mjs'); return"
        " {en: Object.keys(m.MESSAGES.en), zh: Object.keys(m.MESSAGES.zh), missing: [...m.missingKeys]}; }"
    )
    assert set(catalogue["en"]) == set(catalogue["zh"]), set(catalogue["en"]) ^ set(catalogue["zh"])
    assert catalogue["missing"] == [], catalogue["missing"]
    page.reload()
    wait_until(page, lambda: view(page, "m.session && m.frames.length > 0"), "the thread after a reload")
    assert page.evaluate("() => document.documentElement.lang") == "zh-CN"  # kept in the URL
    assert_counts_are_true(page)


def test_a_link_opens_an_earlier_saved_thread_at_its_frame(page, site):
    open_lab(page, site)
    first = start(page, variant="fixed", durability="sync")
    press(page, "Run")
    expect(page.locator("#status")).to_have_text(WAITING)
    first_ids = assert_table_is_storage(page, first)
    early = first_ids[1]
    second = start(page, case="S-1003", variant="misplaced", durability="async")
    assert second != first and table_ids(page) == []

    open_lab(page, site, f"thread={first}&frame={early}")  # a link to A while the lab's thread is B
    wait_until(
        page,
        lambda: (
            view(page, "m.session && m.session.thread_id") == first
            and view(page, "m.detail && m.detail.frame.checkpoint_id") == early
            and not view(page, "m.busy")
        ),
        "the linked thread and frame",
    )
    expect(page.locator("#inspector")).to_have_attribute("data-checkpoint-id", early)
    expect(page.locator(f'#checkpoint-table tbody tr[data-checkpoint-id="{early}"]')).to_have_attribute(
        "aria-current", "true"
    )
    expect(page.get_by_role("slider", name="Frame")).to_have_attribute(
        "aria-valuetext", re.compile(rf"^Frame 2 of {len(first_ids)}")
    )
    assert_table_is_storage(page, first)
    expect(page.locator("#link-notice")).to_be_hidden()
    assert f"thread={first}" in page.url and f"frame={early}" in page.url

    # The picker lists both saved threads, newest first, and says which one is open.
    picker = page.get_by_role("combobox", name="Saved threads")
    expect(picker).to_have_value(first)
    options = picker.locator("option")
    expect(options).to_have_count(2)
    assert [options.nth(i).get_attribute("value") for i in range(2)] == [second, first]
    listed = f"{first} · S-1001 · fixed · sync · {len(first_ids)} checkpoint(s)"
    expect(options.nth(1)).to_contain_text(listed)
    expect(options.nth(1)).to_contain_text("(current)")
    expect(button(page, "Open thread")).to_be_disabled()  # it is open already
    assert_counts_are_true(page)

    # Back to B with the keyboard: choose it in the picker, then the Open thread shortcut.
    picker.focus()
    picker.select_option(second)
    key(page, "o")
    wait_until(page, lambda: view(page, "m.session.thread_id") == second, "thread B to be open")
    expect(page.locator("#status")).to_have_text(
        f"Thread {second} is open: Press Run (or Step, one super-step at a time)."
    )
    assert table_ids(page) == [] and f"thread={second}" in page.url
    expect(page.locator("#thread-facts")).to_contain_text(f"Thread {second} · case S-1003")
    assert controller(page, "threads")["current"] == second


def test_a_thread_that_no_longer_loads_is_named_and_dropped_and_the_others_work(page, site, no_page_errors):
    open_lab(page, site)
    good = start(page, variant="fixed", durability="sync")
    press(page, "Run")
    thread = start(page, variant="fixed", durability="sync")
    press(page, "Run")
    assert assert_table_is_storage(page, thread)
    assert corrupt_checkpoints(page, thread) > 0  # straight in IndexedDB, from page script

    page.reload()
    assert wait_for_boot(page) == "ready"  # the lab boots without the damaged thread
    wait_until(page, lambda: process_ready(page), "the lab's process to be ready")
    expect(page.locator("#thread-facts")).to_have_text("No thread yet — pick a case and press Start.")
    damaged = page.locator("#damaged-threads")
    expect(damaged).to_be_visible()
    expect(damaged.get_by_role("heading")).to_have_text("Damaged threads")
    detail = damaged.locator("li p").text_content()
    named = f"Thread {thread} cannot be read: thread {thread!r}, checkpoint "  # the record that does not load
    assert detail.startswith(named) and "does not load" in detail and "Traceback" not in detail, detail
    assert "the other threads are not affected" in detail

    # Every other thread still works: open it and finish its case.
    picker = page.get_by_role("combobox", name="Saved threads")
    picker.select_option(good)
    press(page, "Open thread")
    assert view(page, "m.session.thread_id") == good and assert_table_is_storage(page, good)
    press(page, "Approve")
    expect(page.locator("#status")).to_contain_text("The thread reached END")

    press(page, "Drop thread")  # deletes the damaged thread's rows, nothing else
    expect(damaged).to_be_hidden()
    expect(page.locator("#thread-note")).to_have_text(
        f"Dropped thread {thread}: its checkpoints and journal are deleted."
    )
    assert idb_checkpoint_ids(page, thread) == [] and idb_checkpoint_ids(page, good)
    assert [t["thread_id"] for t in controller(page, "threads")["threads"]] == [good]
    assert idb_ledger(page)  # money spent stays spent

    # A lab whose own session record no longer loads cannot boot: it says so and offers the way back.
    page.evaluate(BREAK_SESSION)
    page.reload()
    assert wait_for_boot(page) == "error"
    expect(page.locator("#boot-error-message")).to_have_text("Saved threads could not be restored.")
    assert "Traceback" not in page.locator("#boot-error-detail").text_content()
    expected = [p for p in no_page_errors if p.startswith('console: boot failed in stage "restore"')]
    assert len(expected) == 1, no_page_errors
    no_page_errors.remove(expected[0])
    wipe = button(page, "Delete the lab's saved data")
    wipe.click()
    dialog = page.get_by_role("dialog", name="Delete the lab's saved data?")
    expect(dialog).to_be_visible()
    with page.expect_navigation():
        dialog.get_by_role("button", name="Delete and reload").click()
    wait_until_ready(page)
    wait_until(page, lambda: process_ready(page), "the lab's process to be ready")
    listed = controller(page, "threads")
    assert (listed["current"], listed["threads"], listed["pick"]["enabled"]) == (None, [], False)
    expect(page.locator("#thread-select")).to_be_disabled()  # threads()'s verdict: nothing to choose
    assert idb_checkpoint_ids(page, good) == [] and idb_ledger(page) == []


# The lab's own session record ("lab" store, key "session") overwritten with something not a session.
BREAK_SESSION = """
async () => {
  const settle = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await settle(indexedDB.open("checkpoint-lab-threads"));
  const tx = db.transaction(["lab"], "readwrite");
  tx.objectStore("lab").put("not a session", "session");
  await new Promise((resolve) => { tx.oncomplete = resolve; });
  db.close();
}
"""
