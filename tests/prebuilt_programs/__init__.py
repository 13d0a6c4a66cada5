"""Programs that use ``langgraph.prebuilt``, LangChain's ``@tool`` and its fake chat models, written as a
learner writes them; ``tests/test_prebuilt.py`` runs each on real LangGraph and on lab (with LangChain's
classes, and with the browser's twins) and compares what they print."""
