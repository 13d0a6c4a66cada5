"""An import shim that makes ``import langgraph...`` load ``lab``: LangGraph's own tests judge ``lab``.

Installed first on ``sys.meta_path``, :class:`LabFinder` answers every import of ``langgraph`` and
``langgraph.<anything>``, so the real package is never found, let alone run. A module named in
:data:`LAB_MODULES` becomes a proxy whose names are ``lab``'s own objects
(``langgraph.graph.StateGraph is lab.graph.StateGraph``); any other ``langgraph`` module, and any
name a mapped ``lab`` module does not define, is an *absent* stand-in: a class whose every use
(calling it, reading an attribute, subclassing it and instantiating the subclass, ``isinstance``,
subscripting, iterating) raises :class:`LabLacks`, an ``ImportError`` naming what is missing.

Importing a missing name succeeds and only using it fails, so one missing name costs the tests that
use it, not every test of the file that imports it at the top (as LangGraph's test files do).
:data:`RAISED` remembers each refusal, also those a library caught and re-raised as something else.
"""

import importlib
import importlib.abc
import importlib.machinery
import re
import sys
import types
from collections.abc import Sequence
from typing import Any, NoReturn

from lab.playground.langgraph_imports import LAB_MODULES as PLAYGROUND_MODULES

LAB_MODULES: dict[str, str] = {
    **{name: target for name, target in PLAYGROUND_MODULES.items() if target is not None},
    "langgraph.pregel": "lab.pregel",
    "langgraph.channels": "lab.pregel.channels",
    "langgraph.channels.base": "lab.pregel.channels",
    "langgraph.channels.binop": "lab.pregel.channels",
    "langgraph.channels.last_value": "lab.pregel.channels",
    "langgraph.channels.ephemeral_value": "lab.pregel.channels",
    "langgraph.channels.named_barrier_value": "lab.pregel.channels",
    "langgraph.channels.topic": "lab.pregel.channels",
    "langgraph.channels.delta": "lab.pregel.channels",
    "langgraph.channels.untracked_value": "lab.pregel.channels",
    "langgraph.checkpoint": "lab.checkpoint",
    "langgraph.checkpoint.base": "lab.checkpoint.base",
}
"""LangGraph's public module -> the ``lab`` module holding the same names (docs/LANGGRAPH.md, its table):
the playground's map (``lab.playground.langgraph_imports.LAB_MODULES``, what a learner's program may
import), and the modules LangGraph's own tests import besides (its channels, ``pregel``, the checkpoint
base classes)."""

ROOT = "langgraph"


ABSENT_REPR = re.compile(r"<absent (\w+)>|'(\w+)'")
"""How an absent stand-in shows in a message: its repr (short: libraries cut long values short) or
its quoted name (``pytest.raises`` names the class it refuses)."""

ABSENT_BY_NAME: dict[str, str] = {}
"""An absent stand-in's short name -> its dotted name, to read :data:`ABSENT_REPR` back."""

RAISED: list[str] = []
"""Every name a :class:`LabLacks` was raised for, in order, caught or not (a runner clears it per test)."""


class LabLacks(ImportError):
    """Raised on any use of something LangGraph has and ``lab`` does not (``missing``: its dotted name)."""

    def __init__(self, missing: str, detail: str = "") -> None:
        super().__init__(f"lab has no {missing}{detail}", name=missing)
        self.missing = missing
        RAISED.append(missing)


def _refuse(cls: "AbsentMeta", *_: Any, **__: Any) -> NoReturn:
    raise LabLacks(cls.missing)


class AbsentMeta(type):
    """The type of an absent name: the class itself is the stand-in, so subclassing it works and
    instantiating the subclass fails; every other use fails at once."""

    missing: str
    __call__ = _refuse
    __iter__ = _refuse
    __getitem__ = _refuse
    __instancecheck__ = _refuse
    __subclasscheck__ = _refuse

    def __repr__(cls) -> str:
        return f"<absent {cls.__name__}>"

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        raise LabLacks(cls.missing, f" (read .{name})")


def absent(missing: str) -> AbsentMeta:
    """A stand-in for ``missing`` (a dotted LangGraph name that ``lab`` lacks)."""
    name = missing.rpartition(".")[2]
    ABSENT_BY_NAME[name] = missing
    return AbsentMeta(name, (), {"missing": missing, "__module__": __name__})


def named_absent(message: str) -> str | None:
    """The dotted name of the first absent stand-in a message shows, if any."""
    for shown in ABSENT_REPR.finditer(message):
        if (name := shown.group(1) or shown.group(2)) in ABSENT_BY_NAME:
            return ABSENT_BY_NAME[name]
    return None


class ShimModule(types.ModuleType):
    """``langgraph.<name>`` under the shim: ``lab``'s module's names, or absent stand-ins."""

    def __init__(self, name: str, lab_module: types.ModuleType | None) -> None:
        super().__init__(name)
        self.__path__: list[str] = []
        self.__lab_module__ = lab_module

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        lab_module = self.__lab_module__
        if lab_module is not None:
            try:
                return getattr(lab_module, attr)
            except (AttributeError, ValueError):  # a name lab refuses by name is absent here too
                pass
        stand_in = absent(f"{self.__name__}.{attr}")
        setattr(self, attr, stand_in)
        return stand_in


def lab_module_for(name: str) -> types.ModuleType | None:
    """The ``lab`` module standing for LangGraph's module ``name``, or None when ``lab`` has none."""
    target = LAB_MODULES.get(name)
    if target is None:
        return None
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as error:
        if error.name is not None and target.startswith(error.name):
            return None
        raise


class LabFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and loads every ``langgraph`` module as a :class:`ShimModule`."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != ROOT and not fullname.startswith(ROOT + "."):
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return ShimModule(spec.name, lab_module_for(spec.name))

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: a shim module's names are looked up on ``lab`` when read."""


def install() -> LabFinder:
    """Put the finder first on ``sys.meta_path``; refuses if any ``langgraph`` module is already loaded."""
    loaded = real_langgraph_modules()
    if loaded:
        raise RuntimeError(
            f"real LangGraph is already imported ({', '.join(loaded)}); install the shim first"
        )
    finder = LabFinder()
    sys.meta_path.insert(0, finder)
    return finder


def real_langgraph_modules() -> list[str]:
    """Names of loaded ``langgraph`` modules that are not the shim's (empty while the shim holds)."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if (name == ROOT or name.startswith(ROOT + ".")) and not isinstance(module, ShimModule)
    )
