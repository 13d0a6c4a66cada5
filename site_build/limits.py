"""Cloudflare Pages' limits (cloudflare-docs: pages/platform/limits): the finished folder is checked
against them before it replaces ``dist/``."""

from __future__ import annotations

from pathlib import Path

from site_build.cache import BuildError

PAGES_MAX_FILE_BYTES = 25 * 1024 * 1024
PAGES_MAX_FILES = 20_000


def check_pages_limits(site: Path) -> None:
    """Fail with a clear message if the folder breaks a Cloudflare Pages limit (file size, file count)."""
    files = [p for p in site.rglob("*") if p.is_file()]
    too_big = [(p, p.stat().st_size) for p in files if p.stat().st_size > PAGES_MAX_FILE_BYTES]
    problems = [
        f"{p.relative_to(site)} is {size / 2**20:.1f} MiB; Cloudflare Pages serves files up to "
        f"{PAGES_MAX_FILE_BYTES / 2**20:.0f} MiB"
        for p, size in too_big
    ]
    if len(files) > PAGES_MAX_FILES:
        problems.append(
            f"the site has {len(files)} files; Cloudflare Pages (Free plan) deploys at most {PAGES_MAX_FILES}"
        )
    if problems:
        raise BuildError("the site breaks Cloudflare Pages' limits:\n  - " + "\n  - ".join(problems))
