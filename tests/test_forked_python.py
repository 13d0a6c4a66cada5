"""``tests/forked_python.py`` runs a script as a fresh ``python`` runs it: the same output, exit code and
``__main__``, its own stdin, the interpreter's shutdown (atexit, threads joined), for ``python SCRIPT``
and ``python -m MODULE`` alike; and a run leaves nothing behind for the next (each is a fork)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.forked_python import ForkedPython, Ran

SCRIPT = """\
import atexit, json, sys, threading, time
import xml.dom.minidom  # not imported by the server: the next run must not find it
print(json.dumps({"name": __name__, "argv": sys.argv[1:], "path0": sys.path[0], "given": sys.stdin.read(),
                  "seen_before": "seen" in sys.modules}))
sys.modules["seen"] = sys
atexit.register(lambda: print("atexit ran"))
threading.Thread(target=lambda: (time.sleep(0.05), print("thread joined"))).start()
print("to stderr", file=sys.stderr)
what = sys.argv[1]
if what == "raise":
    raise ValueError("bad")
if what == "exit":
    sys.exit(3)
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("forked")
    (folder / "script.py").write_text(SCRIPT, encoding="utf-8")
    (folder / "runnable").mkdir()
    (folder / "runnable" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "runnable" / "__main__.py").write_text(SCRIPT, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def server(folder: Path) -> ForkedPython:
    return ForkedPython([], ["json"], {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}, folder)


def fresh(folder: Path, argv: list[str], given: str) -> Ran:
    env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, *argv], input=given, capture_output=True, text=True, env=env, cwd=folder
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def seen(ran: Ran) -> tuple[int, str]:
    return ran.returncode, ran.stdout


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


@pytest.mark.parametrize("what", ["ok", "exit", "raise"])
def test_a_forked_run_is_a_fresh_pythons_run(folder: Path, server: ForkedPython, what: str) -> None:
    script = str(folder / "script.py")
    for _ in range(2):  # the second run does not see what the first imported
        ran = server.run([script, what], given="typed\n")
        assert seen(ran) == seen(fresh(folder, [script, what], "typed\n"))
    assert ran.stdout.splitlines()[-2:] == ["thread joined", "atexit ran"]
    assert ran.returncode == {"ok": 0, "exit": 3, "raise": 1}[what]
    if what == "raise":
        assert (
            last_line(ran.stderr) == "ValueError: bad" == last_line(fresh(folder, [script, what], "").stderr)
        )


def test_a_forked_module_run_is_python_dash_m(folder: Path, server: ForkedPython) -> None:
    ran = server.run(["runnable", "ok"], module=True)
    assert seen(ran) == seen(fresh(folder, ["-m", "runnable", "ok"], ""))
    assert '"name": "__main__"' in ran.stdout and f'"path0": "{folder}"' in ran.stdout
