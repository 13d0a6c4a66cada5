"""Threads across the border, in the page (issue 26): "Export for LangGraph" downloads the thread file
and shows three commands; this test runs exactly the text the dialog shows, in a fresh virtual
environment on CPython, and the thread goes on in real LangGraph. And the way back: a thread made by
real LangGraph, written out by ``python -m lab.interop from-langgraph``, opens through the page's
Import thread like any thread file, with LangGraph's frames, and the lab finishes it.

The virtual environment sees this machine's packages (``--system-site-packages``: LangGraph is
installed as the test oracle), so the shown ``pip install`` resolves the ``[interop]`` extra without
a network and installs the lab's wheel from the site under test; ``lab`` then comes from that wheel,
not from this checkout (the commands run in a folder outside it).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import venv
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lab_page import arm_crash, controller, crash_and_reboot, open_lab, press, settle, start, view, wait_until
from playwright.sync_api import expect
from test_accessibility import serious_violations
from test_bad_input import import_file

from lab.aml.graph import OUTCOMES
from lab.aml.on_langgraph import aml_graph
from lab.world import MemoryWorld

REPO = Path(__file__).resolve().parents[2]
CASE, VARIANT = "S-1001", "fixed"
STEPS = ("install", "store", "resume")


def shown_commands(page) -> dict[str, str]:
    return {step: page.locator(f"#langgraph-{step}").inner_text() for step in STEPS}


def export_for_langgraph(page, folder: Path, label: str = "Export for LangGraph") -> str:
    """Press Export for LangGraph; save the download in ``folder`` under its name; return the name."""
    with page.expect_download() as download:
        press(page, label)
    name = download.value.suggested_filename
    download.value.save_as(folder / name)
    expect(page.locator("#langgraph-dialog")).to_be_visible()
    return name


def run_shown(command: str, venv_dir: Path, folder: Path) -> str:
    """Run a shown command as a learner's shell would, with the virtual environment active."""
    env = {"PATH": f"{venv_dir / 'bin'}:/usr/bin:/bin", "HOME": str(folder), "VIRTUAL_ENV": str(venv_dir)}
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def test_export_for_langgraph_shows_three_commands_that_continue_the_thread(page, site, tmp_path):
    open_lab(page, site)
    thread = start(page, CASE, VARIANT, "sync")
    arm_crash(page, "task_finish", "screen_sanctions")  # fetch_transactions saved its writes
    crash_and_reboot(page)
    frames = controller(page, "frames")["frames"]
    folder = tmp_path / "learner"
    folder.mkdir()

    name = export_for_langgraph(page, folder)
    commands = shown_commands(page)
    assert name in commands["store"] and f'"{thread}"' in commands["resume"]
    assert commands["install"].startswith(f'pip install "checkpoint-lab[interop] @ {site}/python/')
    assert serious_violations(page) == []

    # Keyboard: Escape closes the dialog and the focus goes back to the button that opened it.
    page.keyboard.press("Escape")
    expect(page.locator("#langgraph-dialog")).to_be_hidden()
    expect(page.locator("#action-export_langgraph")).to_be_focused()

    # Copy puts exactly the shown text on the clipboard.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    export_for_langgraph(page, folder)
    page.locator("#langgraph-dialog [data-copy='langgraph-resume']").click()
    expect(page.locator("#langgraph-copied")).to_have_text("Copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == commands["resume"]
    page.get_by_role("button", name="Close", exact=True).click()
    expect(page.locator("#action-export_langgraph")).to_be_focused()

    # The same dialog in Chinese: the words change, the commands do not.
    page.get_by_role("combobox", name="Language").select_option("zh")
    export_for_langgraph(page, folder, "导出到 LangGraph")
    expect(page.locator("#langgraph-title")).to_have_text("在真正的 LangGraph 中继续这个线程")
    assert shown_commands(page) == commands
    page.keyboard.press("Escape")

    venv_dir = tmp_path / "venv"
    venv.create(venv_dir, system_site_packages=True, with_pip=True)
    run_shown(commands["install"], venv_dir, folder)
    run_shown(commands["store"], venv_dir, folder)
    import_lab = [str(venv_dir / "bin" / "python"), "-c", "import lab; print(lab.__file__)"]
    assert str(venv_dir) in subprocess.run(import_lab, cwd=folder, capture_output=True, text=True).stdout
    assert_langgraph_history(folder / "checkpoints.db", thread, frames)

    # Run once: the crashed run goes on to the review's interrupt. Twice: Approve, the SAR is filed.
    first = run_shown(commands["resume"], venv_dir, folder)
    assert "Interrupt(value=" in first and "next: ('human_review',)" not in first
    second = run_shown(commands["resume"], venv_dir, folder)
    assert "next: ('human_review',)" in second
    assert OUTCOMES["filed"].format(sar="sar_0001") in second


def assert_langgraph_history(database: Path, thread: str, frames: list[dict]) -> None:
    """Real LangGraph's ``get_state_history`` of the stored thread has the page's frames."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    with SqliteSaver.from_conn_string(str(database)) as saver:
        stored = list(saver.list({"configurable": {"thread_id": thread}}))
    assert sorted(s.checkpoint["id"] for s in stored) == sorted(f["checkpoint_id"] for f in frames)
    assert sorted(s.metadata["step"] for s in stored) == sorted(f["step"] for f in frames)


# -- the way back: a thread made by real LangGraph opens in the page --------------------------------------


def langgraph_thread_at_the_review(database: Path, thread: str) -> list[tuple[str, int, tuple[str, ...]]]:
    """Real LangGraph runs the AML case to the review over a ``SqliteSaver``; returns its history,
    oldest first: (checkpoint id, step, next)."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async def run() -> list[tuple[str, int, tuple[str, ...]]]:
        config = {"configurable": {"thread_id": thread}}
        async with AsyncSqliteSaver.from_conn_string(str(database)) as saver:
            with aml_graph(VARIANT, saver, thread, world=MemoryWorld()) as graph:
                stopped = await graph.ainvoke({"case_id": CASE, "log": [], "charges": []}, config)
                assert "__interrupt__" in stopped
                history = [s async for s in graph.aget_state_history(config)]
        oldest_first = history[::-1]
        return [(s.config["configurable"]["checkpoint_id"], s.metadata["step"], s.next) for s in oldest_first]

    with ThreadPoolExecutor(1) as thread_of_its_own:  # Playwright's sync API holds this thread's loop
        return thread_of_its_own.submit(asyncio.run, run()).result()


def test_a_file_from_langgraph_imports_like_any_thread_file_and_the_lab_finishes_it(page, site, tmp_path):
    database, thread = tmp_path / "service.sqlite", "made-by-langgraph"
    history = langgraph_thread_at_the_review(database, thread)
    made = subprocess.run(
        [sys.executable, "-m", "lab.interop", "from-langgraph", "--sqlite", str(database), "--thread", thread,
         "--case", CASE, "--variant", VARIANT, "--durability", "sync"],
        cwd=REPO, capture_output=True, check=True,
    )  # fmt: skip

    open_lab(page, site)
    import_file(page, f"{thread}.cklab", made.stdout)
    imported = f"Imported thread {thread}: {len(history)} checkpoint(s)"
    expect(page.locator("#thread-note")).to_contain_text(imported)
    assert view(page, "m.session.thread_id") == thread
    frames = controller(page, "frames")["frames"]
    assert [(f["checkpoint_id"], f["step"], tuple(f["next"])) for f in frames] == history
    rows = page.locator("#checkpoint-table tbody tr")
    expect(rows).to_have_count(len(history))

    press(page, "Approve")
    wait_until(page, lambda: view(page, "m.status.phase") == "done", "the imported thread to finish")
    settle(page)
    values = controller(page, "state")["values"]
    assert values["outcome"] == OUTCOMES["filed"].format(sar=values["sar"]["sar_id"])
    assert len(controller(page, "frames")["frames"]) > len(history)
