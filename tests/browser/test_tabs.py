"""Two tabs of the lab in one browser: one writer per thread (Web Locks), readers that keep up, Take
over, ledger rows that never collide, and a schema upgrade in another tab (issue 10, item 5).

Two pages in ONE browser context share IndexedDB, Web Locks and BroadcastChannel, as two tabs of
one profile do. The tabs boot once for the whole module (a class-scoped pair of pages) and the
story goes on in order: each test starts where the one before left the tabs.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lab_page import (
    LEDGER_DB,
    THREADS_DB,
    arm_crash,
    button,
    crash_and_reboot,
    idb_checkpoints,
    idb_ledger,
    open_lab,
    press,
    process_ready,
    start,
    view,
    wait_until,
)
from playwright.sync_api import Page, expect

LOCK_PREFIX = "checkpoint-lab-thread:"  # thread-writer.mjs
# Another holder steals the thread's lock the moment the next run starts (the tab's own queue gets
# it back when window.releaseThief() is called).
STEAL_WHEN_A_RUN_STARTS = """(name) => {
  const stop = lab.onEvent((event) => {
    if (event.type !== "run_started") return;
    stop();
    const hold = () => new Promise((release) => (window.releaseThief = release));
    navigator.locks.request(name, { steal: true }, hold);
  });
}"""
READ_ONLY = "reason.writer_elsewhere"
READ_ONLY_TEXT = "Another tab is writing this thread, so this tab is read-only: press Take over to write here"
WRITING = ("step", "run", "resume", "approve", "reject", "replay", "fork", "checkout", "reset")


def phase(page: Page) -> str:
    return view(page, "m.status && m.status.phase")


def frame_ids(page: Page) -> list[str]:
    return view(page, "m.frames.map((f) => f.checkpoint_id)")


def wait_for_phase(page: Page, wanted: str) -> None:
    wait_until(page, lambda: phase(page) == wanted and not view(page, "m.busy"), f"phase {wanted!r}")


def errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on("console", lambda m: m.type == "error" and errors.append(f"console: {m.text}"))
    return errors


class Tabs:
    """Tab A and tab B of one browser profile, and what each logged as an error."""

    def __init__(self, a: Page, b: Page) -> None:
        self.a, self.b = a, b
        self.errors = {"a": errors_of(a), "b": errors_of(b)}
        self.thread = ""  # the thread both tabs show first


@pytest.fixture(scope="class")
def tabs(browser, warm_profile) -> Iterator[Tabs]:
    with warm_profile.context(browser.browser_type) as context:
        yield Tabs(context.pages[0], context.new_page())


class TestTwoTabs:
    def test_the_second_tab_on_a_thread_is_read_only_and_cannot_write(self, tabs: Tabs, site):
        open_lab(tabs.a, site)
        tabs.thread = start(tabs.a, variant="fixed", durability="sync")
        wait_for_phase(tabs.a, "new")
        open_lab(tabs.b, site, f"thread={tabs.thread}")
        wait_for_phase(tabs.b, "read_only")
        assert view(tabs.b, "m.session.thread_id") == tabs.thread
        reasons = view(
            tabs.b, "Object.fromEntries(Object.entries(m.actions).map(([k, a]) => [k, a.reason?.code]))"
        )
        assert {name: reasons[name] for name in WRITING} == dict.fromkeys(WRITING, READ_ONLY)
        expect(tabs.b.locator("#status")).to_contain_text(f"Another tab is writing thread {tabs.thread}")
        for name in ("Step", "Run", "Resume"):
            expect(button(tabs.b, name)).to_be_disabled()
            expect(button(tabs.b, name)).to_have_attribute("title", READ_ONLY_TEXT)
        expect(button(tabs.b, "Take over")).to_be_visible()
        expect(button(tabs.a, "Take over")).to_be_hidden()
        # A command sent anyway is refused, with the same reason.
        refused = tabs.b.evaluate("() => lab.command('run').then(() => null, (error) => error.message)")
        assert refused == READ_ONLY_TEXT
        assert idb_checkpoints(tabs.a, tabs.thread) == []  # nothing was written
        assert phase(tabs.a) == "new"  # the writer is unaffected

    def test_the_reader_shows_the_writers_new_frames(self, tabs: Tabs):
        press(tabs.a, "Step")
        press(tabs.a, "Step")
        written = frame_ids(tabs.a)
        assert len(written) >= 2
        wait_until(tabs.b, lambda: frame_ids(tabs.b) == frame_ids(tabs.a), "B to show A's frames")
        assert phase(tabs.b) == "read_only"

    def test_take_over_moves_the_writer_and_continues_from_the_last_checkpoint(self, tabs: Tabs):
        before = [r["checkpoint_id"] for r in idb_checkpoints(tabs.a, tabs.thread)]
        tabs.b.get_by_role("button", name="Take over", exact=True).click()
        wait_until(tabs.b, lambda: phase(tabs.b) not in ("read_only", None), "B to become the writer")
        wait_for_phase(tabs.a, "read_only")
        expect(tabs.a.locator("#link-notice")).to_have_text(
            f"Another tab took over thread {tabs.thread}: this tab is read-only now."
        )
        expect(button(tabs.a, "Run")).to_be_disabled()
        press(tabs.b, "Run")
        wait_for_phase(tabs.b, "waiting")
        saved = idb_checkpoints(tabs.b, tabs.thread)
        new = [r for r in saved if r["checkpoint_id"] not in before]
        assert new and new[0]["parent_checkpoint_id"] == before[-1]  # B went on from A's last checkpoint
        wait_until(tabs.a, lambda: frame_ids(tabs.a) == frame_ids(tabs.b), "A to show B's frames")
        assert view(tabs.b, "m.frames.at(-1).values.case_id") == "S-1001"

    def test_two_tabs_running_two_threads_at_once_never_collide_in_the_ledger(self, tabs: Tabs):
        other = start(tabs.a, case="S-1002", variant="misplaced", durability="sync")  # A writes a new thread
        wait_for_phase(tabs.a, "new")
        wait_until(tabs.a, lambda: not view(tabs.a, "m.actions.run.reason"), "A to write its new thread")
        before = len(idb_ledger(tabs.a))
        button(tabs.b, "Approve").click()  # B: human_review again (the fixed variant), then the SAR
        button(tabs.a, "Run").click()  # A at the same time: fetch_transactions pays, then the review
        wait_for_phase(tabs.b, "done")
        wait_for_phase(tabs.a, "waiting")
        press(tabs.a, "Approve")  # the misplaced variant buys the export twice
        wait_for_phase(tabs.a, "done")
        rows = idb_ledger(tabs.a)
        assert [row["seq"] for row in rows] == list(range(1, len(rows) + 1)) and len(rows) > before
        executed = [(row["kind"], row["id"]) for row in rows if not row["replayed"]]
        assert len(executed) == len(set(executed))  # no receipt given twice
        assert {row["thread_id"] for row in rows} == {tabs.thread, other}
        for page in (tabs.a, tabs.b):
            expect(page.locator("#error-line")).to_be_hidden()
        wait_until(tabs.b, lambda: view(tabs.b, "m.ledger.entries.length") == len(rows), "B's ledger")
        assert view(tabs.b, "m.ledger.verdict.double")  # A's misplaced thread paid twice, B's fixed one not
        assert view(tabs.b, "m.ledger.duplicates.map((d) => d.thread_id)") == [other]

    def test_a_crash_in_the_writer_tab_keeps_the_lock_in_that_tab(self, tabs: Tabs):
        other = view(tabs.a, "m.session.thread_id")
        start(tabs.a, case="S-1001", variant="fixed", durability="sync")
        arm_crash(tabs.a, "step_end")
        crashed = crash_and_reboot(tabs.a, "Run")
        assert crashed["seam"] == "step_end"
        assert phase(tabs.a) == "crashed"  # not "busy elsewhere": the spare holds this tab's lock
        press(tabs.a, "Resume")
        wait_for_phase(tabs.a, "waiting")
        assert other != view(tabs.a, "m.session.thread_id")

    def test_a_run_whose_lock_is_stolen_dies_with_its_process(self, tabs: Tabs):
        thread = view(tabs.a, "m.session.thread_id")
        crashes = view(tabs.a, "m.crashes")
        tabs.a.evaluate(STEAL_WHEN_A_RUN_STARTS, LOCK_PREFIX + thread)
        button(tabs.a, "Approve").click()  # the answer run starts, and its lock is stolen at once
        wait_until(
            tabs.a,
            lambda: (
                view(tabs.a, "m.crashes") > crashes and process_ready(tabs.a) and phase(tabs.a) == "read_only"
            ),
            "the run's process to be killed and the tab to be read-only",
        )
        expect(tabs.a.locator("#link-notice")).to_contain_text(f"Another tab took over thread {thread}")
        tabs.a.evaluate("() => window.releaseThief()")  # the lock comes back to the tab's queue
        wait_until(tabs.a, lambda: phase(tabs.a).startswith("crashed"), "the dead run to be written down")
        assert view(tabs.a, "m.activity.some((a) => a.kind === 'crash' && a.message.params.seam === 'kill')")
        press(tabs.a, "Resume" if view(tabs.a, "m.status.action") == "resume" else "Approve")
        wait_for_phase(tabs.a, "done")

    def test_a_closed_tab_hands_its_thread_to_the_reader(self, tabs: Tabs):
        thread = view(tabs.a, "m.session.thread_id")
        tabs.b.get_by_role("combobox", name="Saved threads").select_option(thread)
        press(tabs.b, "Open thread")
        wait_for_phase(tabs.b, "read_only")
        tabs.a.close()  # the browser releases the closed tab's locks
        wait_for_phase(tabs.b, "done")
        assert not view(tabs.b, "m.actions.replay.reason")  # B writes it now

    def test_an_upgrade_in_another_tab_closes_the_connections_and_asks_for_a_reload(self, tabs: Tabs):
        upgraded = tabs.b.evaluate(
            """async (names) => Promise.all(names.map((name) => new Promise((resolve, reject) => {
                 const probe = indexedDB.open(name);
                 probe.onsuccess = () => {
                   const version = probe.result.version;
                   probe.result.close();
                   const request = indexedDB.open(name, version + 1);   // what a newer lab would do
                   request.onblocked = () => reject(new Error(`${name}: blocked by an open connection`));
                   request.onsuccess = () => { request.result.close(); resolve(version + 1); };
                   request.onerror = () => reject(request.error);
                 };
               })))""",
            [THREADS_DB, LEDGER_DB],
        )
        assert upgraded == [2, 2]
        expect(tabs.b.locator("#link-notice")).to_have_text(
            "The lab was updated in another tab: reload this page to go on."
        )
        refused = tabs.b.evaluate("() => lab.command('state').then(() => null, (error) => error.message)")
        assert refused == "The lab was updated in another tab: reload this page to go on"
        assert tabs.errors == {"a": [], "b": []}
