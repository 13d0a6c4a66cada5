"""``python SCRIPT ARGS...`` and ``python -m MODULE ARGS...`` without paying the same imports each time: a
server that has imported a few modules once forks a process per run, which runs the script as
``__main__`` as ``python`` would (``sys.argv``, ``sys.path[0]``, its stdin, stdout and stderr, its exit
code, the interpreter's own shutdown), then ends. A run prints what a fresh ``python`` prints as long as
the modules imported in advance are ones the script imports itself (LangGraph's for a program run on
LangGraph, lab's for one run on lab): importing a module a second time gives the one already imported.

    python [-S] tests/forked_python.py MODULE...

imports the MODULEs and then serves: each line it reads on stdin is a JSON request ``{"argv": [...],
"module": bool, "stdin": PATH, "stdout": PATH, "stderr": PATH}`` (``argv[0]`` the script, or the module
with ``"module": true``), for which it forks, and it prints ``EXIT <code>`` once that process has ended.
:class:`ForkedPython` starts a server and runs requests through it. A forked process that hangs is ended
by an alarm after ``GUARD_S``; a server serves one run at a time.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import runpy
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

GUARD_S = 600
"""Seconds a forked process may live: far above any run's time, a guard against a hang (not a speed
check); it ends with ``-14`` (SIGALRM)."""


@dataclass(frozen=True)
class Ran:
    """How one run ended and what it wrote."""

    returncode: int
    stdout: str
    stderr: str


def _redirect(fd: int, path: str, flags: int) -> None:
    opened = os.open(path, flags)
    os.dup2(opened, fd)
    os.close(opened)


def run_as_main(request: dict[str, Any]) -> NoReturn:
    """The forked process: become ``python ARGV...`` and end as it ends (never returns)."""
    signal.alarm(GUARD_S)
    _redirect(0, request["stdin"], os.O_RDONLY)
    _redirect(1, request["stdout"], os.O_WRONLY | os.O_TRUNC)
    _redirect(2, request["stderr"], os.O_WRONLY | os.O_TRUNC)
    argv = request["argv"]
    sys.argv = list(argv)
    code = 0
    try:
        if request["module"]:
            sys.path[0] = os.getcwd()
            runpy.run_module(argv[0], run_name="__main__", alter_sys=True)
        else:
            sys.path[0] = str(Path(argv[0]).resolve().parent)
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as leaving:
        raise SystemExit(leaving.code) from None  # the interpreter's own exit: its code, atexit, threads
    except BaseException:  # noqa: BLE001 - printed as an uncaught exception is, exit code 1
        sys.excepthook(*sys.exc_info())
        code = 1
    raise SystemExit(code)


def serve_forks(child: Callable[[dict[str, Any]], NoReturn]) -> None:
    """For each JSON request read on stdin, fork a process that runs ``child(request)`` (which ends it),
    one at a time, and print ``EXIT <code>`` once it has ended (``-9``: killed)."""
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            child(json.loads(line))
        _, status = os.waitpid(pid, 0)
        print(f"EXIT {os.waitstatus_to_exitcode(status)}", flush=True)


def serve(preload: list[str]) -> None:
    """Import ``preload``, say ``READY``, then run each request as ``__main__`` in a fork of its own."""
    for name in preload:
        importlib.import_module(name)
    if threading.active_count() != 1:  # a fork copies only the forking thread
        raise RuntimeError(f"importing {preload} started threads: {threading.enumerate()}")
    print("READY", flush=True)
    serve_forks(run_as_main)


class ForkedPython:
    """A server (``python FLAGS tests/forked_python.py PRELOAD...`` with ``env`` in ``cwd``: no need for
    this repository on the path) and its runs; it ends when this process exits."""

    def __init__(self, flags: list[str], preload: list[str], env: dict[str, str], cwd: Path) -> None:
        command = [sys.executable, *flags, __file__, *preload]
        self.cwd = cwd
        self.server = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=cwd
        )
        atexit.register(self.close)
        if (said := self._said()) != "READY":
            raise RuntimeError(f"{command} did not start: {said!r}")

    def _said(self) -> str:
        assert self.server.stdout is not None
        return self.server.stdout.readline().strip()

    def run(self, argv: list[str], module: bool = False, given: str = "") -> Ran:
        """``python ARGV...`` (``python -m ARGV...`` with ``module``), ``given`` as its stdin."""
        assert self.server.stdin is not None
        with tempfile.TemporaryDirectory(prefix="forked-python-") as folder:
            files = {name: Path(folder) / name for name in ("stdin", "stdout", "stderr")}
            files["stdin"].write_text(given, encoding="utf-8")
            files["stdout"].touch()
            files["stderr"].touch()
            request = {"argv": argv, "module": module} | {name: str(path) for name, path in files.items()}
            self.server.stdin.write(json.dumps(request) + "\n")
            self.server.stdin.flush()
            said = self._said()
            if not said.startswith("EXIT "):
                raise RuntimeError(f"the server of {argv} ended: {said!r}")
            read = {name: files[name].read_text(encoding="utf-8") for name in ("stdout", "stderr")}
        return Ran(int(said.removeprefix("EXIT ")), **read)

    def close(self) -> None:
        if self.server.poll() is None:
            assert self.server.stdin is not None
            self.server.stdin.close()
            self.server.wait()


if __name__ == "__main__":
    sys.path[0] = os.getcwd()  # the preloads are found where the runs find them, not beside this file
    serve(sys.argv[1:])
