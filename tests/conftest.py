"""Shared fixtures: ``lab``, a lab controller on CPython (``tests/controller_lab.py``); ``soak``, a marker."""

pytest_plugins = ["tests.controller_lab"]


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "soak: a long CPU-bound soak; CI runs it in a process of its own, niced, beside the other tests",
    )
