"""Run a program of this folder on lab as the playground resolves its imports (``langgraph`` answered by
lab); ``--browser``: with ``langchain_core`` and ``pydantic`` unimportable, as in the browser, so that
``langchain_core.tools``/``.messages``/``.language_models.fake_chat_models`` are lab's twins."""

from __future__ import annotations

import sys
import types
from pathlib import Path

ABSENT = ("langchain_core", "pydantic", "pydantic_core", "langsmith")


def hide_packages() -> None:
    """Make :data:`ABSENT` unimportable (before lab is imported) and tell the resolver they are not
    installed."""
    for package in ABSENT:
        sys.modules[package] = None  # type: ignore[assignment]
    from lab.playground import langgraph_imports

    installed = langgraph_imports.installed
    langgraph_imports.installed = lambda package: package not in ABSENT and installed(package)


def main(path: str, browser: bool) -> None:
    if browser:
        hide_packages()
    from lab.playground import langgraph_resolves_to_lab

    module = types.ModuleType("prebuilt_program")
    sys.modules[module.__name__] = module
    code = compile(Path(path).read_text(), path, "exec")
    with langgraph_resolves_to_lab():
        exec(code, vars(module))
    if browser:
        from lab import chat_models, messages, tools

        assert not (messages.USES_LANGCHAIN or tools.USES_LANGCHAIN or chat_models.USES_LANGCHAIN)
        assert not any(name.startswith(("langchain_core.", "pydantic.")) for name in sys.modules)


if __name__ == "__main__":
    main(sys.argv[1], "--browser" in sys.argv[2:])
