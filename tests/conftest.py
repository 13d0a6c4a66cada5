"""Shared fixtures: ``lab``, a lab controller on CPython (``tests/controller_lab.py``)."""

pytest_plugins = ["tests.controller_lab"]
