"""The development server: serve a built ``dist/`` on 127.0.0.1 the way Cloudflare Pages serves it.

``python build.py serve`` builds the site, then serves it with :func:`serve`; the browser tests serve it
with :func:`make_server`. It behaves like Pages where it matters: it applies ``dist/_headers`` itself
(matching rules merge), serves ``/embed`` from ``embed.html`` and redirects ``/embed.html`` there (Pages'
pretty URLs), answers unknown paths with ``404.html``, never serves ``_headers`` or ``_redirects``, and
sends the MIME types Pages sends. A platform concern, no LangGraph concept; only the standard library.
"""

from __future__ import annotations

import contextlib
import http.server
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

PAGES_DEFAULT_CACHE_CONTROL = "public, max-age=0, must-revalidate"  # Pages' default for a found file


@dataclass
class HeaderRule:
    """One rule of a ``_headers`` file: a URL pattern, the headers it sets and the ones it detaches."""

    pattern: str
    set: list[tuple[str, str]] = field(default_factory=list)
    detach: list[str] = field(default_factory=list)

    def matches(self, path: str) -> bool:
        """Pages' matching: ``*`` (a splat) matches anything, ``:name`` one path segment."""
        regex = "".join(
            ".*" if part == "*" else "[^/]+" if part.startswith(":") else re.escape(part)
            for part in re.split(r"(\*|:[A-Za-z]\w*)", self.pattern)
        )
        return re.fullmatch(regex, path) is not None


def parse_headers(text: str) -> list[HeaderRule]:
    """Parse ``_headers``: an unindented line starts a rule; indented ``Name: value`` or ``! Name`` lines
    belong to it; ``#`` starts a comment. Raises ValueError on anything else."""
    rules: list[HeaderRule] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            if not line.startswith("/"):
                raise ValueError(f"_headers line {number}: a rule must start with '/': {line!r}")
            rules.append(HeaderRule(line.strip()))
        elif not rules:
            raise ValueError(f"_headers line {number}: a header before any URL pattern")
        elif line.strip().startswith("!"):
            rules[-1].detach.append(line.strip()[1:].strip().lower())
        elif ":" in line:
            name, value = line.strip().split(":", 1)
            rules[-1].set.append((name.strip(), value.strip()))
        else:
            raise ValueError(f"_headers line {number}: expected 'Name: value' or '! Name': {line!r}")
    return rules


def headers_for(rules: list[HeaderRule], path: str) -> dict[str, str]:
    """The headers that apply to ``path``: every matching rule in order; repeats join with ", "."""
    merged: dict[str, tuple[str, str]] = {}  # lower-cased name -> (name as written, value)
    for rule in rules:
        if not rule.matches(path):
            continue
        for name in rule.detach:
            merged.pop(name, None)
        for name, value in rule.set:
            key = name.lower()
            merged[key] = (merged[key][0], f"{merged[key][1]}, {value}") if key in merged else (name, value)
    return dict(merged.values())


class PagesLikeHandler(http.server.SimpleHTTPRequestHandler):
    """Serve a built site the way Cloudflare Pages does (see the module docstring)."""

    # The types Pages sends (checked with `wrangler pages dev`).
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "application/javascript",
        ".js": "application/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/octet-stream",
        ".gz": "application/gzip",  # the wheels with their bytecode (.tar.gz), sent as is, never decoded
        ".zip": "application/zip",
        ".json": "application/json",
        ".css": "text/css; charset=utf-8",
        ".html": "text/html; charset=utf-8",
        ".svg": "image/svg+xml",
    }
    header_rules: list[HeaderRule] = []  # set by make_server
    quiet = False
    on_request: Callable[[str], None] | None = None  # set by make_server: told every path served

    def do_GET(self) -> None:  # noqa: N802 - the name http.server dispatches to
        self._serve(head=False)

    def do_HEAD(self) -> None:  # noqa: N802
        self._serve(head=True)

    def _serve(self, head: bool) -> None:
        raw_path = self.path.split("?", 1)[0].split("#", 1)[0]
        url_path = urllib.parse.unquote(raw_path)
        status, target = self.resolve(url_path)
        if self.on_request:
            self.on_request(url_path)
        headers = headers_for(self.header_rules, url_path)  # Pages applies them to every response
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if status == 308:
            self.send_header("Location", target + self.path[len(raw_path) :])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        file = Path(self.directory) / target.lstrip("/")
        if not any(name.lower() == "cache-control" for name in headers):
            self.send_header("Cache-Control", "no-store" if status == 404 else PAGES_DEFAULT_CACHE_CONTROL)
        self.send_header("Content-Type", self.guess_type(str(file)))
        self.send_header("Content-Length", str(file.stat().st_size))
        self.end_headers()
        if not head:
            # A browser may drop a download (a reload, a cancelled fetch); then there is no one to answer.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(file.read_bytes())

    def resolve(self, path: str) -> tuple[int, str]:
        """Map a URL path to ``(200|404, file)`` or ``(308, location)`` with Pages' pretty-URL rules."""
        root = Path(self.directory)

        def is_file(relative: str) -> bool:
            candidate = (root / relative.lstrip("/")).resolve()
            return candidate.is_relative_to(root.resolve()) and candidate.is_file()

        if path.rsplit("/", 1)[-1] in ("_headers", "_redirects"):
            return 404, "/404.html"  # Pages never serves its configuration files
        if path.endswith("/index.html"):
            return 308, path.removesuffix("index.html")
        if path.endswith(".html") and is_file(path):
            return 308, path.removesuffix(".html")
        if path.endswith("/"):
            if is_file(path + "index.html"):
                return 200, path + "index.html"
        elif is_file(path):
            return 200, path
        elif is_file(path + ".html"):
            return 200, path + ".html"
        elif is_file(path + "/index.html"):
            return 308, path + "/"
        return 404, "/404.html"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's signature
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    dist: Path, port: int = 0, quiet: bool = False, on_request: Callable[[str], None] | None = None
) -> http.server.ThreadingHTTPServer:
    """A server for ``dist`` on 127.0.0.1 (``port=0`` picks a free port); call ``serve_forever()``.

    ``on_request(path)`` is called for every request it answers (the tests count downloads with it).
    """
    settings = {
        "header_rules": parse_headers((dist / "_headers").read_text()),
        "quiet": quiet,
        "on_request": staticmethod(on_request) if on_request else None,
    }
    handler = type("Handler", (PagesLikeHandler,), settings)
    return http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), lambda *args: handler(*args, directory=str(dist))
    )


def serve(dist: Path, port: int) -> None:
    """Serve ``dist`` on http://127.0.0.1:<port>/ until Ctrl-C."""
    server = make_server(dist, port)
    print(f"serving the lab on http://127.0.0.1:{server.server_port}/  (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
