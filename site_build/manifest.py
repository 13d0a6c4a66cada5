"""``build-manifest.mjs``: the only place where the worker learns versions and wheel URLs, written from
``build-manifest.template.mjs`` (``${name}`` placeholders, filled in by :class:`string.Template`)."""

from __future__ import annotations

import json
from pathlib import Path
from string import Template

from site_build.pinned import PYODIDE_VERSION

TEMPLATE = Path(__file__).resolve().parent / "build-manifest.template.mjs"


def write_manifest(
    site: Path, build_id: str, boot_wheels: list[str], snapshot: str, on_import: dict[str, list[str]]
) -> None:
    """Write ``build-manifest.mjs``: the build's id, Pyodide's folder, the wheels the worker loads, the
    memory snapshot it restores, and (``on_import``) the wheels each package a program may import is
    loaded from, in order."""

    def urls(paths: list[str]) -> str:
        return "".join(f"  url({json.dumps(path)}),\n" for path in paths)

    pyodide_dir = f"./pyodide/{PYODIDE_VERSION}/"
    (site / "build-manifest.mjs").write_text(
        Template(TEMPLATE.read_text()).substitute(
            pyodide_dir=pyodide_dir,
            pyodide_dir_json=json.dumps(pyodide_dir),
            build_id=json.dumps(build_id),
            snapshot_json=json.dumps(snapshot),
            boot_wheels=urls(boot_wheels),
            loaded_on_import="".join(
                f"  {json.dumps(name)}: {{ bytes: {sum((site / path).stat().st_size for path in paths)}, "
                f"urls: [\n{urls(paths)}  ] }},\n"
                for name, paths in (on_import or {}).items()
            ),
        )
    )
