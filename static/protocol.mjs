/**
 * The page <-> worker protocol of Checkpoint Lab, written down in one place.
 *
 * The page (through LabClient in lab-client.mjs, which LabSession in lab-session.mjs uses) and the
 * Web Worker (worker.mjs) exchange plain, JSON-compatible objects with postMessage. Three kinds:
 *
 *   Request   page -> worker   {id, cmd, args}
 *   Response  worker -> page   {id, ok: true, result}  or  {id, ok: false, error: {type, message}}
 *   Event     worker -> page   {type, ...}   unsolicited; no id
 *
 * Commands are implemented in Python: the worker hands each request to
 * `lab.browser.worker_api.dispatch`, which looks `cmd` up in its `COMMANDS` dict. JavaScript never
 * re-implements what the runtime means; the page is a store over `view()`, re-read when an event arrives.
 *
 * Boot. While Python starts, the worker reports each stage of BOOT_STAGES, in order, with a
 * "start" and a "done" event (a failure ends boot with one "error" event instead of "done"):
 *   runtime   the Pyodide core: WebAssembly, the standard library - or this build's memory snapshot
 *             (pyodide-boot.mjs); `detail.snapshot` says "restored", "shipped" or "failed: <why>"
 *   packages  the wheels: msgpack and the lab
 *   lab       `import lab.browser.worker_api`
 *   restore   Python opens the IndexedDB database (or falls back to memory: a "warning" event; the
 *             page then keeps the records, and answers Python's "records" calls during this stage)
 *   ready     requests are answered from now on ("done" only; `ms` is the whole boot)
 * Requests sent before "ready" wait for it; after a failed boot they are answered with a
 * BootError.
 *
 * The lab. The restore stage also opens the lab (lab/browser/lab_rpc.py): the database of its
 * threads ("checkpoint-lab-threads": checkpoints and the controller's journal) and, when the page
 * names a graph (the worker's name: the Python module LabSession's `graph` says, lab-client.mjs),
 * one LabController over it and the session its journal remembers (the stage's `detail.lab`). A
 * worker whose page names none (/play) has no controller until the page loads a program
 * (play_load). From then on:
 *
 *   page -> worker   {cmd: "lab", args: {name, args}}   a controller command (ControllerCommands,
 *                                                       controller-protocol.mjs)
 *   worker -> page   controller events                  {type, seq, thread_id, ...} (ControllerEvent)
 *   worker -> page   {type: "world", call, op, args}     a call to the external world: the page's
 *   page -> worker   {cmd: "world_reply", args: {call, ok, result | error}}   ledger answers it
 *
 * Without IndexedDB the checkpoints and the journal are kept by the page too (page-records.mjs), so
 * that a crash does not take them along:
 *
 *   worker -> page   {type: "records", call, op, args}   read or write records (RecordsEvent)
 *   page -> worker   {cmd: "records_reply", args: {call, ok, result | error}}
 *
 * (`call`, not `id`: a message with a numeric `id` is a Response.) The external world - the
 * services a graph calls (lab.world) - is the page's ledger (ledger.mjs), kept in its own database
 * ("checkpoint-lab-ledger") because it must outlive the worker the lab kills.
 *
 * The page does not speak this protocol by hand: LabSession (lab-session.mjs) does, and adds its
 * own events about the ledger and the Python process (SessionEvent). On a `crash_point` event it
 * terminates the worker for real, switches to a new one (a warm spare if it has one) and sends it
 * `restore`.
 */

/** The boot stages, in the order they run. */
export const BOOT_STAGES = Object.freeze(["runtime", "packages", "lab", "restore", "ready"]);

/** @typedef {"runtime" | "packages" | "lab" | "restore" | "ready"} BootStage */

/**
 * @typedef {object} Request
 * @property {number} id        chosen by the page, unique per worker
 * @property {CommandName} cmd
 * @property {object} args      the command's arguments (see Commands)
 */

/**
 * @typedef {object} ErrorInfo
 * @property {string} type      an exception class name, e.g. "ValueError", "UnknownCommand", "BootError"
 * @property {string} message   one human-readable line, never a traceback
 */

/**
 * @typedef {{id: number, ok: true, result: object} | {id: number, ok: false, error: ErrorInfo}} Response
 */

/**
 * The commands and their arguments -> results (lab/browser/worker_api.py implements them).
 * @typedef {object} Commands
 * @property {{args: {}, result: {pong: true, python: string, pyodide: string}}} ping
 * @property {{args: {}, result: {python: string, pyodide: string, storage: StorageKind,
 *            stores: string[], modules_loaded: number, lab_modules: string[]}}} stats
 * @property {{args: {key: string}, result: {key: string, value: any}}} meta_get
 * @property {{args: {key: string, value: any}, result: {key: string, durable: boolean}}} meta_set
 * @property {{args: {name: import("./controller-protocol.mjs").ControllerCommandName, args?: object},
 *            result: import("./controller-protocol.mjs").ControllerAnswer}} lab
 *   a controller command: `dispatch(name, args)` of lab/controller/controller.py
 * @property {{args: {call: number, ok: boolean, result?: any, error?: ErrorInfo},
 *            result: {accepted: boolean}}} world_reply
 *   the page's answer to a WorldEvent (accepted: false when no call waits for it any more)
 * @property {{args: {call: number, ok: boolean, result?: any, error?: ErrorInfo},
 *            result: {accepted: boolean}}} records_reply
 *   the page's answer to a RecordsEvent
 * @property {{args: {}, result: LabInfo}} lab_info
 * @property {{args: {delay: number}, result: LabInfo}} lab_configure
 *   rebuild the controller with nodes that work `delay` seconds (0-10); only before the first `lab`
 * (saver_open / saver_call(s) / saver_close drive the IndexedDB saver, or with `room` a class room's saver,
 * from tests: lab/browser/saver_rpc.py; room_frames / room_fork read a class room's shared thread and fork
 * a frame of it into this lab's saver: lab/browser/room_rpc.py, static/lesson/room-thread.mjs; room_publish
 * copies the presenter's thread into the room: lab/browser/room_publish.py, static/lesson/room-publish.mjs)
 */

/**
 * Who answers and where it stores: one per worker.
 * @typedef {object} LabInfo
 * @property {{id: string, started_at: number}} process   a new id for every Python process
 * @property {StorageKind} storage
 * @property {string | null} database   "checkpoint-lab-threads", or null in memory
 * @property {Array<{thread_id: string, case_id: string, variant: string, durability: string,
 *            started_at: number}>} threads   every session saved (until a reset), newest first
 * @property {number} delay              seconds each node works
 */


/** @typedef {keyof Commands} CommandName */


/** @typedef {"indexeddb" | "memory"} StorageKind */

/**
 * A boot progress event.
 * @typedef {object} BootEvent
 * @property {"boot"} type
 * @property {BootStage} stage
 * @property {"start" | "done" | "warning" | "error"} state
 * @property {number} at          ms since the worker started
 * @property {number} [ms]        "done": how long the stage took ("ready": the whole boot)
 * @property {object} [detail]    "done": what the stage found, e.g. restore -> {storage: StorageKind,
 *                                ..., lab: LabInfo & {session: import("./controller-protocol.mjs").Session | null}}
 * @property {string} [message]   "warning": a sentence for the learner
 * @property {ErrorInfo} [error]  "error": why boot stopped
 */

/**
 * The page's own event when the worker itself fails (its script did not load, or it crashed);
 * LabClient emits it, the worker never sends it.
 * @typedef {object} WorkerErrorEvent
 * @property {"worker-error"} type
 * @property {ErrorInfo} error
 */

/**
 * What the controller emits (lab/controller/controller.py, "Events"); every one also carries
 * `seq` (1, 2, ... per process) and `thread_id`:
 *   session {session}                          reset {threads_deleted}
 *   run_started {run, kind, durability, until, variant}   kind: input | continue | resume | answer | replay
 *   seam {run, seam, step, checkpoint_id, node, task_id, detail}   every seam a run passes
 *   checkpoint {run, frame: Frame}             a put committed (run: null for a fork)
 *   writes {run, checkpoint_id, node, task_id, writes: [[node, channel, value], ...]}   committed
 *   interrupt {run, node, task_id, interrupts: [{id, value}], ...}
 *   error {scope: "task" | "run", run, error: ErrorInfo, ...}
 *   paused {run, step, checkpoint_id, next}
 *   crash_point {run, seam, node, step, checkpoint_id}   the last event of a process
 *   run_finished {run, status, ...}            with the run command's RunOutcome
 *   (Frame, RunOutcome and the other controller types: controller-protocol.mjs)
 * @typedef {{type: string, seq: number, thread_id: string | null} & object} ControllerEvent
 */

/**
 * A call of Python's PageWorld to the external world; answer it with `world_reply` (LabSession
 * does, from its ledger).
 * @typedef {object} WorldEvent
 * @property {"world"} type
 * @property {number} call     matches the reply
 * @property {"entries" | "record" | "clear"} op
 * @property {object} args     record: the row Python decided (lab.world.decider: executed or
 *                             replayed, numbered `seq`), which the ledger stores (a taken seq fails
 *                             with "ConstraintError": decided over stale rows); entries, clear: {}
 */

/**
 * A call of Python's PageRecords (lab/browser/page_records.py) to the records the page keeps for a
 * worker without IndexedDB; LabSession answers it from its PageRecords (page-records.mjs) with
 * `records_reply`, for any live process (a spare reads them as it boots).
 * @typedef {object} RecordsEvent
 * @property {"records"} type
 * @property {number} call
 * @property {"read" | "write"} op
 * @property {object} args     read: {store, keys} or {store, prefix}; write: {changes}
 */

/**
 * Another tab opened the lab's database at a newer version (an updated lab): the worker's connection
 * has closed itself so the upgrade can go on (lab/browser/idb.py), and the page asks for a reload.
 * @typedef {{type: "storage", change: "versionchange", database: string}} StorageEvent
 */

/**
 * A package a program imports (pydantic) is loading from the site, or has loaded (worker.mjs): the
 * playground says so while the program waits for it.
 * @typedef {{type: "package", name: string, bytes: number, state: "loading" | "loaded"}} PackageEvent
 */

/**
 * @typedef {BootEvent | WorkerErrorEvent | ControllerEvent | WorldEvent | RecordsEvent | StorageEvent
 *   | PackageEvent} LabEvent
 */

/**
 * Where a process died: at an armed seam (the controller's crash_point), or killed by the page
 * at a moment of its choosing (LabSession.kill: the seam fields are null).
 * @typedef {object} CrashInfo
 * @property {"seam" | "kill"} cause
 * @property {number | null} run
 * @property {string | null} seam
 * @property {string | null} node
 * @property {number | null} step
 * @property {string | null} checkpoint_id
 */

/**
 * LabSession's events about its Python process (`worker`: 1, 2, ... in the session):
 *   booting     {worker, reason, warm}   a process takes over; warm: it had booted in advance
 *   ready       ProcessReadyEvent        booted and restored: commands are answered
 *   crashed     {worker, crash: CrashInfo}   the worker was terminated
 *   failed      {worker, error: ErrorInfo}   it did not boot (LabSession.retry() boots another)
 *   spare-ready {worker}                 the next process has booted in advance
 * reason: "start" | "seam" (a crash_point) | "kill" | "retry".
 * @typedef {{type: "process", state: "booting" | "crashed" | "failed" | "spare-ready", worker: number}
 *   & object} ProcessEvent
 */

/**
 * @typedef {object} ProcessReadyEvent
 * @property {"process"} type
 * @property {"ready"} state
 * @property {number} worker
 * @property {"start" | "seam" | "kill" | "retry"} reason
 * @property {boolean} warm        it was a spare that had finished booting
 * @property {string | null} snapshot  how its Python started: "restored" (the memory snapshot this
 *   browser stored), "shipped" (the build's), or "failed: <why>" (it booted the normal way)
 * @property {number} ms           from the session's start (or the crash) to ready
 * @property {StorageKind} storage
 * @property {{id: string, started_at: number}} process   the Python process's own id
 * @property {{session: import("./controller-protocol.mjs").Session | null,
 *            state?: import("./controller-protocol.mjs").ThreadState}} restored   the controller's restore
 */

/**
 * The ledger changed (ledger.mjs, LedgerChange): a request was recorded - `entry` the raw row as
 * stored - or the ledger was cleared, or its connection closed for another tab's upgrade.
 * @typedef {{type: "ledger"} & import("./ledger.mjs").LedgerChange} LedgerEvent
 */

/**
 * The offline copy of the site is complete (offline.mjs, sw.mjs): sent once, after the first process
 * is ready, when a service worker controls the page. `cached` files were there already, `added` were
 * stored now, `failed` could not be (the network dropped); or `error` if the service worker failed.
 * @typedef {{type: "offline", build?: string, cached?: number, added?: number, failed?: string[],
 *            error?: ErrorInfo}} OfflineEvent
 */

/**
 * The memory snapshot, after the first process is ready (snapshot-worker.mjs): "present" (this
 * build's snapshot was stored), "made" (`source` "shipped": the build's, stored inflated; "booted": made
 * by a second boot, where this visit did not download the build's; `bytes`, `ms`), or "failed".
 * Spares wait for it, then restore from it.
 * @typedef {{type: "snapshot", snapshot: "present" | "made" | "failed", source?: "shipped" | "booted",
 *            bytes?: number, ms?: number, error?: ErrorInfo}} SnapshotEvent
 */

/**
 * Everything LabSession.onEvent delivers: the worker's events (each with `worker` added; a spare's
 * stay private until it takes over; RecordsEvents are served, never delivered), the ledger's, the
 * process's, the offline copy's and the snapshot's.
 * @typedef {(LabEvent & {worker: number}) | LedgerEvent | ProcessEvent | ProcessReadyEvent | OfflineEvent
 *            | SnapshotEvent} SessionEvent
 */

/**
 * @param {any} message a message from the worker
 * @returns {message is Response} whether it answers a request (else it is an event)
 */
export function isResponse(message) {
  return typeof message.id === "number";
}

/**
 * Turn anything thrown into an ErrorInfo: its class name and the first line of its message.
 * Pyodide's PythonError carries the whole traceback in `message`; the learner sees only the last
 * line (the exception itself), and the console keeps the rest.
 * @param {any} error
 * @returns {ErrorInfo}
 */
export function errorInfo(error) {
  if (error?.type && typeof error.message === "string") {
    const lines = error.message.trim().split("\n");
    return { type: String(error.type), message: lines[lines.length - 1] };
  }
  const message = String(error?.message ?? error ?? "unknown error").trim().split("\n")[0];
  return { type: String(error?.name ?? "Error"), message };
}
