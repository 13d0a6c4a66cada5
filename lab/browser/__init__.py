"""The lab's browser side: the code that runs inside Pyodide, in the page's Web Worker.

- :mod:`lab.browser.worker_api` is the worker's entry point: the commands the page can send and the
  events Python emits (the page <-> worker protocol itself is documented in ``static/protocol.mjs``).
- :mod:`lab.browser.lab_rpc` puts the lab controller (:mod:`lab.controller`) behind those commands,
  over the graph the page names (a module of ``lab``, imported by that name: none on ``/play``, whose
  program :mod:`lab.browser.play_rpc` loads) and the IndexedDB saver (:mod:`lab.checkpoint.indexeddb`),
  or in the page's memory when IndexedDB is missing: :mod:`lab.browser.page_storage` and
  :mod:`lab.browser.page_journal` keep the saver's and the journal's records in the page
  (:mod:`lab.browser.page_records`), which outlives a killed worker.
- :mod:`lab.browser.page_world` is the outside world (the paid API, the SAR registry) as the page answers it;
  it and the page's records are reached by the round trips of :mod:`lab.browser.page_calls`.
- :mod:`lab.browser.idb_journal` keeps what must outlive a killed process: sessions and seam records.
- :mod:`lab.browser.saver_rpc` exposes the saver call by call, for the conformance tests.
- :mod:`lab.browser.room_records` keeps the saver's records in a class room's D1 database; the teacher's
  lab publishes its thread there (:mod:`lab.browser.room_publish`) and a learner's lab lists and forks
  it (:mod:`lab.browser.room_rpc`).
- :mod:`lab.browser.idb` turns IndexedDB's requests and transactions into awaitable promises, following
  the rules Pyodide's event loop imposes.

The modules that touch ``js`` and ``pyodide`` import only inside Pyodide; the ``page_*`` modules are pure
Python (the page is reached through an ``emit`` function), so CPython tests them.
"""
