"""Caches of task results, as ``langgraph.cache``: ``memory.InMemoryCache`` (``lab.func``)."""
