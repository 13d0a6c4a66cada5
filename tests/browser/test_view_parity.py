"""The page cannot drift from Python: at several moments of the story, what the page shows (node
states, execution counts, the rows of the tasks a node called, the ledger's verdict, which buttons
are enabled, the number of frames, the branch tree, the status line) equals the controller's
``view()`` at that moment, read straight through the page's LabSession.
"""

from __future__ import annotations

import re

from lab_page import (
    arm_crash,
    button,
    controller,
    crash_and_reboot,
    open_lab,
    press,
    process_ready,
    settle,
    start,
    table_ids,
    view,
    wait_until,
)

BUTTONS = {"step": "Step", "run": "Run", "resume": "Resume", "approve": "Approve", "reject": "Reject"}


def shown(page) -> dict:
    """What the page shows, read from the DOM a learner sees."""
    return {
        "states": dict(
            page.eval_on_selector_all(
                "#graph g.node:not(.start):not(.end)",
                "(gs) => gs.map((g) => [g.dataset.node, g.dataset.state])",
            )
        ),
        "counts": dict(
            page.eval_on_selector_all(
                "#executions-table tbody tr[data-node]",
                "(rows) => rows.map((r) => [r.dataset.node, Number(r.querySelector('.count').textContent)])",
            )
        ),
        "tasks": page.eval_on_selector_all(
            "#executions-table tbody tr.task-call",
            "(rows) => rows.map((r) => [r.dataset.caller, r.dataset.task, r.dataset.taskId,"
            " r.dataset.state])",
        ),
        "double": page.locator("#double-charge").is_visible(),
        "flagged": page.locator("#ledger-table tbody tr.flagged").count(),
        "enabled": {name for name, label in BUTTONS.items() if button(page, label).is_enabled()},
        "frames": len(table_ids(page)),
        "branches": page.locator("#branch-list li").count(),
        "head": page.eval_on_selector_all(
            '#branch-list li[data-head="true"]', "(items) => items.map((li) => li.dataset.leaf)[0] ?? null"
        ),
        "status": page.inner_text("#status"),
    }


def python_says(view: dict) -> dict:
    """The same facts, from Python's view()."""
    nodes = [n for n in view["graph"]["nodes"] if n["kind"] == "node"]
    branches = view["tree"]["branches"]
    return {
        "states": {n["id"]: n["state"] for n in nodes},
        "counts": {n["id"]: n["counts"]["started"] for n in nodes} if view["session"] else {},
        "tasks": [
            [n["id"], call["name"], call["task_id"], call["state"]]
            for n in nodes
            for call in (view["task_calls"].get(n["id"], []) if view["session"] else [])
        ],
        "double": view["ledger"]["verdict"]["double"],
        "flagged": sum(1 for e in view["ledger"]["entries"] if e["flag"]),
        "enabled": {name for name in BUTTONS if view["actions"][name]["enabled"]},
        "frames": len(view["frames"]),
        "branches": len(branches),
        "head": next((b["leaf"] for b in branches if b["is_head"]), None),
        "status": view["status"]["message"]["text"],
    }


def assert_page_is_view(page, moment: str) -> dict:
    """Once the page settled, it shows exactly what view() says (the store may need a re-read)."""

    def agree():
        settle(page)
        view = controller(page, "view")
        return python_says(view) == shown(page) and view

    try:
        return wait_until(page, agree, f"the page to show view() {moment}")
    except AssertionError:
        raise AssertionError(
            f"{moment}: page {shown(page)} != view {python_says(controller(page, 'view'))}"
        ) from None


def test_the_page_shows_what_view_says_through_the_story(page, site):
    open_lab(page, site)
    assert_page_is_view(page, "before any case")
    start(page, variant="misplaced", durability="sync")
    assert_page_is_view(page, "after Start")
    press(page, "Step")
    press(page, "Step")
    assert assert_page_is_view(page, "paused in step 1")["status"]["phase"] == "paused"
    press(page, "Run")
    assert assert_page_is_view(page, "at the interrupt")["status"]["phase"] == "waiting"
    press(page, "Approve")
    done = assert_page_is_view(page, "after Approve: the export charged twice")
    assert done["ledger"]["verdict"]["double"] and done["status"]["phase"] == "done"

    # The learner picks the next run in the form; a refresh of the same thread's view (here: its
    # process is killed and a new one restores it) keeps the pick instead of the thread's own.
    page.get_by_role("combobox", name="Case", exact=True).select_option("S-1003")
    page.get_by_role("radio", name=re.compile(r"^fixed\b")).check()
    shown_by = view(page, "m.viewProcess")
    page.evaluate("() => window.lab.kill()")
    wait_until(
        page,
        lambda: view(page, "m.viewProcess") > shown_by and process_ready(page) and not view(page, "m.busy"),
        "the new process's view",
    )
    settle(page)
    assert page.get_by_role("combobox", name="Case", exact=True).input_value() == "S-1003"
    assert page.get_by_role("radio", name=re.compile(r"^fixed\b")).is_checked()
    assert view(page, "m.session.case_id") == "S-1001"

    start(page, variant="fixed", durability="async")
    arm_crash(page, "task_finish", "fetch_transactions")
    crash_and_reboot(page)
    crashed = assert_page_is_view(page, "after a crash and a new process")
    assert crashed["status"]["action"] == "resume" and "resume" in shown(page)["enabled"]
    press(page, "Resume")
    assert_page_is_view(page, "after Resume")
    press(page, "Approve")
    assert assert_page_is_view(page, "at the end")["status"]["phase"] == "done"

    first = controller(page, "view")["frames"][2]["checkpoint_id"]
    short = "-".join(first.split("-")[1:3])
    page.get_by_role("button", name=f"Show checkpoint {short}", exact=True).click()
    press(page, "Replay from here")
    replayed = assert_page_is_view(page, "after a replay from an old frame")
    assert len(replayed["tree"]["branches"]) == 2


def test_the_page_shows_the_tasks_a_node_called_as_view_says(page, site):
    """The ``task`` variant: human_review's task buy_export ran before the interrupt, is restored
    from the checkpoint on Approve; crashed inside it after the charge, it runs again on Resume."""
    open_lab(page, site)
    start(page, variant="task", durability="sync")
    press(page, "Run")
    asked = assert_page_is_view(page, "at the interrupt, the task ran")
    assert [c["state"] for c in asked["task_calls"]["human_review"]] == ["saved"]
    press(page, "Approve")
    approved = assert_page_is_view(page, "after Approve, the task restored")
    assert [c["state"] for c in approved["task_calls"]["human_review"]] == ["restored"]

    start(page, variant="task", durability="sync")
    arm_crash(page, "side_effect_done", "human_review")
    crash_and_reboot(page)
    crashed = assert_page_is_view(page, "after a crash inside the task")
    assert [c["state"] for c in crashed["task_calls"]["human_review"]] == ["crashed"]
    press(page, "Resume")
    rerun = assert_page_is_view(page, "after Resume, the task ran again")
    assert [c["state"] for c in rerun["task_calls"]["human_review"]] == ["rerun"]
