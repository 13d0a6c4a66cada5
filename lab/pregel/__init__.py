"""The Pregel runtime: channels, tasks, the super-step loop and the compiled graph API.

Read in this order: ``channels`` (state cells) → ``nodes`` (what a node writes) → ``algo``
(the rules of one step) → ``task`` (``interrupt()`` bookkeeping) → ``loop`` (a run, top to
bottom; its tasks run in ``runner``, its saves go through ``save_queue``, its chunks through
``stream_output``, the lab watches it at its ``seams``) → ``graph``
(``invoke``, ``get_state``, ``update_state``) → ``subgraph`` (a graph run inside a node of another)
and ``sync_loop`` (the sync API over the async loop). ``node_builder`` builds a node by hand, for
LangGraph's low-level API: ``from langgraph.pregel import Pregel, NodeBuilder``. ``node_cache``
reuses a cached node's writes; ``deferred`` holds the triggers of a node added with ``defer=True``.
"""

from lab.pregel.graph import Pregel
from lab.pregel.node_builder import NodeBuilder
from lab.pregel.seams import Seam, SeamHook

__all__ = ["NodeBuilder", "Pregel", "Seam", "SeamHook"]
