/**
 * The page <-> worker protocol of Checkpoint Lab, written down in one place.
 *
 * The page (app.mjs, through LabClient in lab-client.mjs) and the Web Worker (worker.mjs) exchange
 * plain, JSON-compatible objects with postMessage. There are three kinds:
 *
 *   Request   page -> worker   {id, cmd, args}
 *   Response  worker -> page   {id, ok: true, result}  or  {id, ok: false, error: {type, message}}
 *   Event     worker -> page   {type, ...}   unsolicited; no id
 *
 * Commands are implemented in Python: the worker hands each request to
 * `lab.browser.worker_api.dispatch`, which looks `cmd` up in its `COMMANDS` dict. JavaScript never
 * re-implements what the runtime means; the page is a view over the events Python emits.
 *
 * Boot. While Python starts, the worker reports each stage of BOOT_STAGES, in order, with a
 * "start" and a "done" event (a failure ends boot with one "error" event instead of "done"):
 *   runtime   the Pyodide core: WebAssembly, the standard library
 *   packages  the wheels: msgpack and the lab
 *   lab       `import lab.browser.worker_api`
 *   restore   Python opens the IndexedDB database (or falls back to memory: a "warning" event)
 *   ready     requests are answered from now on ("done" only; `ms` is the whole boot)
 * Requests sent before "ready" wait for it; after a failed boot they are answered with a
 * BootError.
 *
 * Later issues add events here (e.g. "seam" when a run pauses between steps, "committed" when a
 * checkpoint is durable); each one gets its typedef below.
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
 * @property {object} [detail]    "done": what the stage found, e.g. restore -> {storage: StorageKind}
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

/** @typedef {BootEvent | WorkerErrorEvent} LabEvent */

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
