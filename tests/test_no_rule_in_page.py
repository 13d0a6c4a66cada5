"""No learner-visible rule in the page (issue 24), checked in the source: whether a control is enabled
is Python's verdict (``view().actions``, the seam catalogue's ``node_choice``, the branch tree's
``travel`` and ``scrub``, ``threads()``'s ``pick``: ``{"enabled", "reason"}``), and the page applies
a verdict in one place, ``showAction`` in static/views/actions.mjs. Any other line of a page script
that enables or disables a control is listed here with why it is the page's own state, not a rule of
the lab; a new one fails this test until it moves to Python or joins the list with its reason."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"

TOGGLES = re.compile(
    r"\.disabled\s*=(?!=)"  # el.disabled = ... (not a comparison)
    r"""|(?:set|remove|toggle)Attribute\(\s*["']disabled["']"""
    r"""|classList\.(?:add|remove|toggle)\(\s*["']disabled["']"""
    r"""|[{,]\s*disabled\s*:"""  # h("button", {disabled: ...})
    r"""|\{\s*enabled\s*:"""  # a verdict made up in the page: showAction(b, {enabled: ...})
)
"""Every way a page script turns a control on or off, draws it as off, or makes up a verdict."""

ALLOWED = {
    ("views/actions.mjs", "button.disabled = busy || !action?.enabled;"): (
        "showAction itself: the one place a Python verdict (and the page's own `busy`) reaches a control"
    ),
    ("views/threads.mjs", 'importLabel.classList.toggle("disabled", fileInput.disabled);'): (
        "draws Import's label as its file input is: the input's state is Python's verdict, set by showAction"
    ),
    ("views/crash.mjs", "const RANDOM_DISARMABLE = { enabled: true, reason: null };"): (
        "a crash at a random moment is armed in the page, not in Python (the page kills the worker at a "
        "random time of the next run): the page alone knows it is armed, so Disarm is on"
    ),
    ("play/instruments.mjs", "stop.disabled = !model.busy || crashing();"): (
        "Stop kills the worker while a command waits on it: the learner's node may loop forever, so the "
        "worker cannot answer and only the page knows a command is pending"
    ),
    ("play/run-buttons.mjs", "for (const button of BUTTONS) $(button).disabled = true;"): (
        "the playground's run buttons (Run, Step through, Drive it yourself, the script bar's) are off "
        "while a click of one loads the program or lets its script go on (no second load meanwhile)"
    ),
    ("play/run-buttons.mjs", "for (const button of BUTTONS) $(button).disabled = false;"): (
        "... and back on when that load (and its run or script) answers"
    ),
    ("play/challenges.mjs", "button.disabled = true;"): (
        "a challenge's Check my code is off while its own check is in flight (the check crashes and "
        "resumes the learner's program in the worker; no second check meanwhile)"
    ),
    ("play/challenges.mjs", "button.disabled = false;"): "... and back on when that check answers",
    ("lesson/runner.mjs", "for (const button of view.doButtons) button.disabled = true;"): (
        "a lesson step's Do buttons are off while the step's own command is in flight"
    ),
    (
        "lesson/runner.mjs",
        "if (!result.done) for (const button of view.doButtons) button.disabled = false;",
    ): ("... and back on when Python's lesson_check says the step is not done yet"),
    ("lesson/runner.mjs", "for (const button of view.doButtons) button.disabled = false;"): (
        "the step's action opens once its question is answered (the lesson's order: predict, then do)"
    ),
    ("lesson/runner.mjs", "choices[index].disabled = true;"): (
        "the predict question is the page's quiz, before any lab state: a wrong pick is struck out"
    ),
    ("lesson/runner.mjs", "for (const choice of choices) choice.disabled = true;"): (
        "... and the right pick closes the question"
    ),
    ("lesson/runner.mjs", "for (const choice of view.choices) choice.disabled = false;"): (
        "the question opens when its step is entered"
    ),
    ("lesson/quiz.mjs", "button.disabled = true;"): (
        "the recap quiz is a static page with no Python: a wrong pick is struck out"
    ),
    (
        "lesson/quiz.mjs",
        'for (const choice of question.querySelectorAll("[data-quiz-choice]")) choice.disabled = true;',
    ): ("... and the right pick closes the question"),
    ("lesson/room.mjs", "openButton.disabled = true;"): (
        "a class room's Open button is off while its own room creation is in flight (no second room)"
    ),
    ("lesson/room.mjs", "openButton.disabled = false;"): "... and back on when the room server answers",
    (
        "lesson/room.mjs",
        'for (const control of panel.querySelectorAll("button, select")) control.disabled = true;',
    ): ("a closed (or expired) class room's move and close controls: the room server has no room to act on"),
    ("lesson/room-thread.mjs", "button.disabled = true;"): (
        "a learner's 'Try this frame in my lab' is off while its own fork is in flight (no second at once)"
    ),
    ("lesson/room-thread.mjs", "button.disabled = false;"): "... and back on when the worker answers",
}
"""(file under static/, the line): why it is the page's own state, not a rule of the lab."""


def toggles() -> list[tuple[str, str, str]]:
    """Every line of a page script that turns a control on or off: (file, the line, file:number)."""
    found = []
    for path in sorted(STATIC.rglob("*.mjs")):
        name = path.relative_to(STATIC).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0].strip()
            if code.startswith(("*", "/*")):  # a JSDoc line
                continue
            if TOGGLES.search(code):
                found.append((name, code, f"{name}:{number}"))
    return found


def test_no_page_script_enables_a_control_by_its_own_rule() -> None:
    unexpected = [f"{where}: {code}" for name, code, where in toggles() if (name, code) not in ALLOWED]
    assert unexpected == [], "controls enabled outside showAction and the allow-list:\n" + "\n".join(
        unexpected
    )


def test_the_allow_list_names_only_lines_that_exist() -> None:
    assert {(name, code) for name, code, _ in toggles()} == set(ALLOWED)


def test_the_check_finds_every_way_to_toggle_a_control() -> None:
    lines = [
        "range.disabled = path.length < 2;",
        "first.disabled = prev.disabled = index <= 0;",
        'button.toggleAttribute("disabled", busy);',
        "el.setAttribute('disabled', '');",
        'label.classList.add("disabled");',
        'h("button", { disabled: !frame });',
        "showAction(open, { enabled: false, reason: null }, busy);",
    ]
    assert [bool(TOGGLES.search(line)) for line in lines] == [True] * len(lines)
    assert not TOGGLES.search("if (button && !button.disabled) button.click();")
    assert not TOGGLES.search("if (choices[index]?.disabled === false) return;")
