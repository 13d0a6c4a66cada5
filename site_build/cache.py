"""The bottom of the build: where the repository and its download cache are, how a build step runs a
command, and how it caches what it made. Every other module of ``site_build`` may import this one; it
imports none of them.

What a build downloads or compiles is cached under ``.cache/``, keyed by its pinned inputs (a version,
a hash of the sources), so a second build is fast and works offline.
"""

from __future__ import annotations

import logging
import os
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache"

log = logging.getLogger("build")


class BuildError(Exception):
    """A build step failed; the message says what to do about it."""


def run(command: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    """Run a command; on failure raise a BuildError that shows the command and its output."""
    try:
        done = subprocess.run(
            command, cwd=cwd, env=env and {**os.environ, **env}, capture_output=True, text=True
        )
    except FileNotFoundError as error:
        raise BuildError(f"`{command[0]}` is not installed, and the build needs it: {error}") from None
    if done.returncode != 0:
        raise BuildError(
            f"`{' '.join(command)}` failed with exit code {done.returncode}:\n{done.stdout}{done.stderr}"
        )


def cached(path: Path, make: Callable[[Path], Path]) -> Path:
    """Return ``path`` if it exists, else call ``make(tmp_dir) -> file`` and move the file there.

    The result only appears in the cache once it is complete, so an interrupted build never leaves
    half a download behind. Each call logs which it did (``reused <entry>`` at DEBUG, ``made <entry>``
    at INFO, the entry relative to ``.cache/``): the command line shows what a build had to download
    or compile, and a test can see that a rebuild with nothing changed made nothing again.
    """
    entry = path.relative_to(CACHE).as_posix()
    if path.exists():
        log.debug("reused %s", entry)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        os.replace(make(Path(tmp)), path)
    log.info("made %s", entry)
    return path
