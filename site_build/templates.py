"""The jinja2 environment the site's pages are rendered with (``static/*.html`` and ``narratives/``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def templates(folder: Path) -> Any:
    """A jinja2 environment for the templates in ``folder``: HTML-escaped, failing on undefined names."""
    import jinja2  # the build's only third-party dependency; imported late, so `build.py --help` needs none

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
