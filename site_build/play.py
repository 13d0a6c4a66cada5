"""The playground's build step: the code editor bundle and the gallery, into ``dist/play/``.

- ``play/editor.mjs``: CodeMirror 6 and its Python mode, bundled by esbuild into one ES module
  (``site_build/editor/entry.mjs`` is the entry; the CSP stays ``script-src 'self'``: nothing is
  loaded from a CDN). The npm packages are pinned exactly by ``site_build/editor/package-lock.json``
  (``npm ci`` checks each one's integrity hash), the bundler (esbuild) among them; the bundle is cached
  under ``.cache/editor-<hash>.mjs``, keyed by the lock file, the manifest and the entry, so later
  builds are fast and offline, as Pyodide's download is.
- ``play/gallery.json``: the gallery's programs and their titles in every language
  (:data:`gallery.GALLERY`), read by the page before Python boots;
- ``play/challenges.json``: the challenges' starting programs, solutions and words
  (:func:`gallery.challenges.challenge_listing`).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from site_build.cache import CACHE, cached, run

EDITOR_SOURCES = Path(__file__).resolve().parent / "editor"
EDITOR_INPUTS = ("package.json", "package-lock.json", "entry.mjs")
PLAY = "play"  # the folder of dist/ these files go to (static/play/ holds the page's own modules)
ESBUILD_OPTIONS = ("--bundle", "--format=esm", "--minify", "--target=es2022", "--legal-comments=eof")


def editor_bundle() -> Path:
    """The bundled editor, built once per set of inputs (``npm ci`` + esbuild in a scratch folder)."""
    digest = hashlib.sha256()
    for name in EDITOR_INPUTS:
        digest.update(name.encode() + b"\0" + (EDITOR_SOURCES / name).read_bytes())

    def bundle(tmp: Path) -> Path:
        for name in EDITOR_INPUTS:
            shutil.copyfile(EDITOR_SOURCES / name, tmp / name)
        # --ignore-scripts: esbuild's binary comes from its per-platform optional package, no script needed
        run(["npm", "ci", "--silent", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=tmp)
        run([str(tmp / "node_modules" / ".bin" / "esbuild"), "entry.mjs", *ESBUILD_OPTIONS,
             "--outfile=editor.mjs", "--log-level=warning"], cwd=tmp)  # fmt: skip
        return tmp / "editor.mjs"

    return cached(CACHE / f"editor-{digest.hexdigest()[:16]}.mjs", bundle)


def write_play_files(site: Path) -> None:
    """Add the editor bundle and the gallery to the site being built."""
    from gallery import gallery_listing
    from gallery.challenges import challenge_listing

    folder = site / PLAY
    folder.mkdir(exist_ok=True)
    shutil.copyfile(editor_bundle(), folder / "editor.mjs")
    for name, listing in (("gallery", gallery_listing()), ("challenges", challenge_listing())):
        text = json.dumps(listing, ensure_ascii=False, separators=(",", ":"))
        (folder / f"{name}.json").write_text(text, encoding="utf-8")


DIFFERENCES_HEADING = "Where `lab` deliberately differs:"


def lab_differences(page: Path) -> list[dict[str, str]]:
    """The list of where lab deliberately differs from LangGraph (``docs/LANGGRAPH.md``), as
    ``[{title, text}]`` (markup removed): the playground shows it, so "see what differs" stays on the site
    and never drifts from the docs."""
    lines = page.read_text(encoding="utf-8").splitlines()
    start = lines.index(DIFFERENCES_HEADING) + 1
    items: list[str] = []
    for line in lines[start:]:
        if line.startswith("- "):
            items.append(line[2:])
        elif line.startswith("  ") and items:
            items[-1] += " " + line.strip()
        else:
            break
    differences = []
    for item in items:
        title, _, text = item.removeprefix("**").partition("**")
        differences.append({"title": title.replace("`", ""), "text": text.strip().replace("`", "")})
    return differences
