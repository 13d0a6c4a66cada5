"""The lab's browser side: the code that runs inside Pyodide, in the page's Web Worker.

- :mod:`lab.browser.worker_api` is the worker's entry point: the commands the page can send and the
  events Python emits (the page <-> worker protocol itself is documented in ``static/protocol.mjs``).
- :mod:`lab.browser.idb` turns IndexedDB's requests and transactions into awaitable promises, following
  the rules Pyodide's event loop imposes.

These modules import ``js`` and ``pyodide``, so they only import inside Pyodide.
"""
