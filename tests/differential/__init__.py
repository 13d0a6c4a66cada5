"""Differential tests: the same scenario code runs against real LangGraph and against ``lab``.

Each scenario (``scenarios.py``) builds and runs a graph with the names a *flavour* gives it
(``flavours.py``) and returns a normalised trace of what a learner sees (``trace.py``): invoke
results, exceptions, side-effect counters and the full checkpoint history with placeholders for
ids, timestamps and random version suffixes. ``test_differential.py`` asserts both traces are
equal line by line; ``python -m tests.differential.show <scenario> [langgraph|lab]`` prints one.
"""
