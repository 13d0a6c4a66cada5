"""Build steps of the site that live outside ``build.py``: one module per part of ``dist/``."""
