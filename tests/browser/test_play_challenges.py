"""The playground's challenges in the browser: a challenge opens its starting program with its goal,
"Check my code" runs the lab's checker in the worker (it crashes and resumes the learner's code in a
controller of its own) and says why the unchanged start misses the goal; the solution, pasted into
the editor, passes, and the picker marks the challenge solved. In Chinese, the goal, the reason and
the controls are Chinese, and "Show solution" shows a program that passes. A program whose node never
returns is stopped by Stop, and the check says it could not run."""

from pathlib import Path

from playwright.sync_api import Page, expect

from gallery.challenges import FOLDER
from tests.browser.test_play import open_play, type_program


def solution(challenge_id: str) -> str:
    return (Path(FOLDER) / f"{challenge_id}_solution.py").read_text()


def test_the_start_misses_the_goal_with_its_reason_and_the_pasted_solution_passes(page: Page, site: str):
    thrown: list[str] = []  # (typing in CodeMirror logs a CSP refusal of an inline style: not a throw)
    page.on("pageerror", lambda error: thrown.append(str(error)))
    open_play(page, f"{site}/play?challenge=business_key")
    expect(page.locator("#play-challenge-title")).to_have_text("A key that names the order")
    expect(page.locator(".cm-content")).to_contain_text("key = str(uuid.uuid4())")
    result = page.locator("#play-check-result")

    page.click("#play-check")
    expect(result).to_have_attribute("data-passed", "false", timeout=60_000)
    expect(result).to_contain_text("order A-1 was charged 2 times")
    expect(result).to_contain_text("the resume ran the node again with a new key")

    type_program(page, solution("business_key"))
    page.click("#play-check")
    expect(result).to_have_attribute("data-passed", "true", timeout=60_000)
    expect(result).to_contain_text("Passed: after the crash the node ran again and sent the same key")
    expect(page.locator("#play-challenge option[value='business_key']")).to_contain_text("✓ solved")
    assert page.locator("#play-instruments").get_attribute("data-runs") == "0"  # the check is not a Run
    assert thrown == []


def test_in_chinese_the_reason_is_chinese_and_show_solution_gives_a_program_that_passes(
    page: Page, site: str
) -> None:
    open_play(page, f"{site}/play?challenge=ask_before_buying&lang=zh")
    expect(page.locator("#play-challenge-title")).to_have_text("先问再买")
    expect(page.locator("#play-check")).to_have_text("检查我的代码")
    result = page.locator("#play-check-result")
    page.click("#play-check")
    expect(result).to_have_attribute("data-passed", "false", timeout=60_000)
    expect(result).to_contain_text("批准的购买扣费了 2 次")

    page.click("#play-solution")
    expect(page.locator("#play-solution-code")).to_contain_text("if approved:")
    page.click("#play-use-solution")
    expect(page.locator(".cm-content")).to_contain_text("if approved:")
    page.click("#play-check")
    expect(result).to_have_attribute("data-passed", "true", timeout=60_000)
    expect(result).to_contain_text("通过")
    expect(page.locator("#play-challenge-lesson")).to_have_attribute("href", "/learn/zh/interrupt/")


def test_stop_ends_a_check_stuck_in_a_node_that_never_returns(page: Page, site: str) -> None:
    open_play(page, f"{site}/play?challenge=email_once")
    start = (Path(FOLDER) / "email_once_start.py").read_text()
    endless = start.replace(
        "def publish(state: Report) -> dict:\n",
        "def publish(state: Report) -> dict:\n    while True:\n        pass\n",
    )
    assert endless != start
    type_program(page, endless)
    page.click("#play-check")
    expect(page.locator("#play-stop")).to_be_enabled(timeout=60_000)
    page.click("#play-stop")
    result = page.locator("#play-check-result")
    expect(result).to_have_attribute("data-passed", "false", timeout=60_000)
    expect(result).to_contain_text("The check could not run: Stop ended it")
    expect(page.locator("#play-check")).to_be_enabled()


def test_the_charge_in_a_task_passes_in_pyodide(page: Page, site: str) -> None:
    """Lesson 13's challenge: the start buys before interrupt() and pays twice; the solution's @task (run
    without threads in Pyodide) returns its saved result to the resumed node: one request, one charge."""
    open_play(page, f"{site}/play?challenge=charge_in_task")
    expect(page.locator("#play-challenge-title")).to_have_text("Wrap the charge in a task")
    result = page.locator("#play-check-result")
    page.click("#play-check")
    expect(result).to_have_attribute("data-passed", "false", timeout=60_000)
    expect(result).to_contain_text("the approved purchase was charged 2 times")

    page.click("#play-solution")
    page.click("#play-use-solution")
    expect(page.locator(".cm-content")).to_contain_text("@task")
    page.click("#play-check")
    expect(result).to_have_attribute("data-passed", "true", timeout=60_000)
    expect(result).to_contain_text("the task's saved result answered it: one request, one charge")
    expect(page.locator("#play-challenge-lesson")).to_have_attribute("href", "/learn/en/tasks/")
