"""Flavour fixtures: LangGraph is the oracle, ``lab`` the runtime under test (imported lazily)."""

from __future__ import annotations

import pytest

from .flavours import Flavour, load_flavour


@pytest.fixture(scope="session")
def langgraph_flavour() -> Flavour:
    return load_flavour("langgraph")


@pytest.fixture(scope="session")
def lab_flavour() -> Flavour:
    return load_flavour("lab")
