"""The site's build steps, one module per part of ``dist/`` (``build.py`` lists them in order), over
``cache.py`` (where the repository and its download cache are), which imports none of them."""
