"""The tools the browser tests fetch for themselves, pinned and cached under ``.cache/`` with the build's own
helpers (``run``, ``cached``); neither is part of the site:

- :func:`ensure_wrangler`: Cloudflare's ``wrangler``, whose ``pages dev`` serves ``dist/`` with Pages' own
  local runtime (``browser_harness.WranglerSite``);
- :func:`fetch_axe_core`: the ``axe-core`` accessibility checker that ``test_accessibility.py`` injects into
  the pages it checks.
"""

from __future__ import annotations

import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # build.py lives at the repository root, not in an installed package

from site_build.cache import CACHE, cached, run  # noqa: E402

WRANGLER_VERSION = "4.86.0"  # the newest wrangler that runs on Node 20
AXE_CORE_VERSION = "4.10.3"


def ensure_wrangler() -> Path:
    """Install ``wrangler@<WRANGLER_VERSION>`` under ``.cache/`` (once); return its executable."""
    prefix = CACHE / f"wrangler-{WRANGLER_VERSION}"
    executable = prefix / "node_modules" / ".bin" / "wrangler"
    if not executable.exists():
        prefix.mkdir(parents=True, exist_ok=True)
        run(
            ["npm", "install", "--silent", "--no-save", "--no-package-lock", "--no-audit", "--no-fund",
             "--prefix", str(prefix), f"wrangler@{WRANGLER_VERSION}"]
        )  # fmt: skip
    return executable


def fetch_axe_core() -> Path:
    """``axe.min.js`` from ``npm pack axe-core@<AXE_CORE_VERSION>`` (once); return the file."""

    def download(tmp: Path) -> Path:
        run(["npm", "pack", "--silent", f"axe-core@{AXE_CORE_VERSION}"], cwd=tmp)
        with tarfile.open(tmp / f"axe-core-{AXE_CORE_VERSION}.tgz") as tgz:
            (tmp / "axe.min.js").write_bytes(tgz.extractfile(tgz.getmember("package/axe.min.js")).read())
        return tmp / "axe.min.js"

    return cached(CACHE / f"axe-core-{AXE_CORE_VERSION}.min.js", download)
