"""Checkpoint Lab: a small, readable Pregel runtime that behaves like LangGraph 1.2.

The package mirrors LangGraph's public names so that learner code runs after swapping
``langgraph`` for ``lab`` in its imports:

- ``lab.graph``: ``StateGraph``, ``START``, ``END`` (the graph builder, its state schemas,
  ``get_graph().draw_mermaid()`` and JSON schemas);
- ``lab.types``: ``interrupt``, ``Command``, ``Interrupt``, ``Send``, ``Overwrite``,
  ``StateUpdate``, ``StateSnapshot``;
- ``lab.config``: ``get_config()``; ``lab.runtime``: ``Runtime``, ``get_runtime()``;
- ``lab.errors``: the exceptions a learner can meet;
- ``lab.checkpoint``: the saver contract, the in-memory saver and (in the browser) IndexedDB;
- ``lab.pregel``: the super-step loop itself, meant to be read top to bottom.
"""

__version__ = "0.1.0"
