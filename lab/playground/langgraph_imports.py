"""``langgraph.*`` imports that resolve to ``lab``: how a learner's LangGraph program runs unchanged.

The README's promise is "swap ``langgraph`` for ``lab`` in the imports"; the playground makes the
swap itself. While :func:`langgraph_resolves_to_lab` is active, a meta-path finder answers every
``langgraph`` import: a module the lab mirrors (the table :data:`LAB_MODULES`) gets a thin module
named after LangGraph's that holds the lab module's names (so ``from langgraph.graph import
StateGraph`` gives ``lab.graph.StateGraph`` itself); any other ``langgraph`` module is refused by
name, and so is a client of the network or of an LLM (:data:`NETWORK_MODULES`). Where
``langchain_core`` is not installed (the browser), ``langchain_core.messages`` and
``langchain_core.runnables`` (and ``.tools``, ``.language_models.fake_chat_models``: the lab's
pure-Python twins) are answered by ``lab`` the same way, and ``typing_extensions`` by ``typing``
(:data:`STAND_INS`). A network client imported by a library rather than by the program
(``langchain_core`` imports ``langsmith`` on CPython) is not refused: :data:`LIBRARIES`. Nothing of
``lab`` is changed, and on exit ``sys.modules`` is as it was (but for network modules a library
imported meanwhile, which stay): in CPython tests, where real LangGraph is the oracle, its modules
are put back untouched.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from lab.graph.unsupported import refused_names
from lab.playground.problems import TEXTS

__all__ = [
    "LAB_MODULES",
    "NETWORK_MODULES",
    "NeedsNetworkError",
    "NotInLabError",
    "langgraph_resolves_to_lab",
]

LAB_MODULES: dict[str, str | None] = {
    "langgraph": None,
    "langgraph.graph": "lab.graph",
    "langgraph.graph.state": "lab.graph.state",
    "langgraph.graph.message": "lab.graph.message",
    "langgraph.types": "lab.types",
    "langgraph.errors": "lab.errors",
    "langgraph.config": "lab.config",
    "langgraph.runtime": "lab.runtime",
    "langgraph.constants": "lab.pregel.nodes",
    "langgraph.pregel": "lab.pregel",
    "langgraph.channels": "lab.channels",
    "langgraph.channels.untracked_value": "lab.channels.untracked_value",
    "langgraph.checkpoint": None,
    "langgraph.checkpoint.memory": "lab.checkpoint.memory",
    "langgraph.prebuilt": "lab.prebuilt",
    "langgraph.prebuilt.tool_node": "lab.prebuilt",
    "langgraph.prebuilt.chat_agent_executor": "lab.prebuilt",
    "langgraph.func": "lab.func",
    "langgraph.cache": "lab.cache",
    "langgraph.cache.base": "lab.cache.base",
    "langgraph.cache.memory": "lab.cache.memory",
    "langgraph.store": "lab.store",
    "langgraph.store.base": "lab.store.base",
    "langgraph.store.memory": "lab.store.memory",
}
"""LangGraph's module -> the lab module that holds its names (``None``: a package, only a folder).
A lab module that does not exist yet (``lab.graph.message`` before ``MessagesState``) counts as
missing, so its import is refused by name like any other."""


STAND_INS: dict[str, str | None] = {
    "langchain_core": None,
    "langchain_core.messages": "lab.messages",
    "langchain_core.messages.utils": "lab.messages",
    "langchain_core.runnables": "lab.runnables",
    "langchain_core.tools": "lab.tools",
    "langchain_core.language_models": "lab.chat_models",
    "langchain_core.language_models.fake_chat_models": "lab.chat_models",
    "typing_extensions": "typing",
}
"""Modules a LangGraph program imports besides ``langgraph`` that lab stands in for *only where they
are not installed* (the browser): ``from langchain_core.messages import HumanMessage`` gives
``lab.messages``' classes there, ``from langchain_core.runnables import RunnableConfig`` the type of
``lab.runnables``, and ``from typing_extensions import TypedDict`` (LangGraph's docs import it so) the
standard library's ``typing``, whose names it backports. A name the real module has and lab's lacks
is refused by name (``from langchain_core.messages import trim_messages``: a ``NotSupportedError``), and
so is a module of ``langchain_core`` lab does not stand in for (:class:`NotInLabError`). Where a package
is installed, it is imported itself (and ``lab.messages`` gives its classes too)."""


NETWORK_MODULES = frozenset(
    {"requests", "httpx", "aiohttp", "urllib3", "openai", "anthropic", "langchain", "langchain_openai",
     "langchain_anthropic", "langchain_community", "langsmith"}
)  # fmt: skip
"""Clients of the network or of an LLM: refused by name even where installed (a CPython test), since a
program in the page has no network to reach (the CSP's ``connect-src 'self'``) and no LLM."""


LIBRARIES = frozenset({"langchain_core"}) | NETWORK_MODULES
"""Packages whose own imports of :data:`NETWORK_MODULES` are let through: ``langchain_core`` (where it
is installed, it imports ``langsmith``, which imports ``requests``...). Only a program's own import
of a network client is refused."""


class NotInLabError(ModuleNotFoundError):
    """A ``langgraph`` module the lab does not re-implement (``langgraph.checkpoint.sqlite``, say), or a
    module of ``langchain_core`` it does not stand in for; the message lists those of the same package it
    has."""

    def __init__(self, module: str) -> None:
        package = module.split(".")[0]
        self.mirrored = ", ".join(
            name
            for name, target in {**LAB_MODULES, **STAND_INS}.items()
            if target and name.split(".")[0] == package and _exists(target)
        )
        super().__init__(TEXTS["not_in_lab"].format(module=module, mirrored=self.mirrored), name=module)


class NeedsNetworkError(ModuleNotFoundError):
    """A module of :data:`NETWORK_MODULES`, imported by a program in the playground."""

    def __init__(self, module: str) -> None:
        super().__init__(TEXTS["network_module"].format(module=module), name=module)


def _exists(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _is_langgraph(name: str) -> bool:
    return name == "langgraph" or name.startswith("langgraph.")


def _stood_in(name: str) -> bool:
    """``langchain_core(.messages)`` where it is not installed: lab answers it."""
    return name in STAND_INS and not installed(name.split(".")[0])


def installed(package: str) -> bool:
    """Whether ``package`` is on ``sys.path`` (asked of the path finder: this finder never answers)."""
    return importlib.machinery.PathFinder.find_spec(package) is not None


def _answered_here(name: str) -> bool:
    """Imports the finder answers, whatever ``sys.modules`` held before (it is put back on exit)."""
    return _is_langgraph(name) or name.split(".")[0] in NETWORK_MODULES or _stood_in(name)


def _importer() -> str:
    """The module whose import asked for the module being found: the first frame outside the import
    machinery (``importlib``'s own, ``import_module`` included)."""
    frame = sys._getframe(1)
    while frame is not None and (
        frame.f_code.co_filename.startswith("<frozen importlib")
        or frame.f_globals.get("__name__") in ("importlib", __name__)
    ):
        frame = frame.f_back
    return frame.f_globals.get("__name__", "") if frame is not None else ""


def _is_package(name: str) -> bool:
    return {**LAB_MODULES, **STAND_INS}.get(name, "") is None or any(
        other.startswith(name + ".") for other in (*LAB_MODULES, *STAND_INS)
    )


class _LabAsLangGraph(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``langgraph.*`` and loads each as a facade over its lab module."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] in NETWORK_MODULES:
            if _importer().split(".")[0] in LIBRARIES:
                return None  # the path finder loads it for the library
            raise NeedsNetworkError(fullname.split(".")[0])
        if _stood_in(fullname):
            return importlib.util.spec_from_loader(fullname, self, is_package=_is_package(fullname))
        if fullname.startswith("langchain_core.") and _stood_in("langchain_core"):
            raise NotInLabError(fullname)  # a part of LangChain the browser has no twin of
        if not _is_langgraph(fullname):
            return None
        if fullname not in LAB_MODULES or (LAB_MODULES[fullname] and not _exists(LAB_MODULES[fullname])):
            raise NotInLabError(fullname)
        return importlib.util.spec_from_loader(fullname, self, is_package=_is_package(fullname))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return types.ModuleType(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        target = {**LAB_MODULES, **STAND_INS}[module.__name__]
        if target is None:
            module.__doc__ = f"{module.__name__}, answered by lab (a package: only its modules hold names)"
            return
        lab_module = importlib.import_module(target)
        names = {name: value for name, value in vars(lab_module).items() if not name.startswith("__")}
        vars(module).update(names, __doc__=f"{module.__name__}, answered by {target}")
        if hasattr(lab_module, "__all__"):
            module.__all__ = list(lab_module.__all__)
        if module.__name__ in STAND_INS:  # a twin: what LangChain's module has beyond it is refused by name
            module.__getattr__ = refused_names(module.__name__)  # type: ignore[method-assign]
        elif hasattr(lab_module, "__getattr__"):  # the names lab refuses by name (``lab.prebuilt``'s)
            module.__getattr__ = lab_module.__getattr__  # type: ignore[method-assign]


@contextmanager
def langgraph_resolves_to_lab() -> Iterator[None]:
    """While active, ``import langgraph...`` gives lab's modules; ``sys.modules`` is restored on exit."""
    saved = {name: sys.modules.pop(name) for name in list(sys.modules) if _answered_here(name)}
    finder = _LabAsLangGraph()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [name for name in sys.modules if _is_langgraph(name) or _stood_in(name)]:
            del sys.modules[name]
        sys.modules.update(saved)
