/**
 * One Python process of the lab: a Web Worker running Pyodide and the lab controller, from boot to
 * termination (the process switchboard, process-switchboard.mjs, owns them, kills them on a crash and
 * swaps in a spare), and the throwaway worker that stores the build's memory snapshot.
 */
import { LabClient, LabError } from "./lab-client.mjs";

/** @typedef {import("./protocol.mjs").CrashInfo} CrashInfo */
/** @typedef {import("./protocol.mjs").ErrorInfo} ErrorInfo */

/** One Python process: a lab worker, from boot to termination. */
export class PythonProcess {
  /** false once the session has terminated its worker */
  alive = true;
  /** @type {CrashInfo | null} why it was killed, if it crashed (close() and retry() kill without a crash) */
  crash = null;
  /** whether it finished booting (Python started, the lab opened, configured) */
  booted = false;
  /** @type {string | null} how Python started: "restored" from the memory snapshot, "none", "failed: ..." */
  snapshot = null;

  /**
   * Start a worker; it boots at once.
   * @param {number} number the session's count of processes: 1, 2, ...
   * @param {{graph: string | null, delay: number | null}} opens what its lab opens: the Python module
   *   of the graph (null: none) and the seconds each node works (null: the graph's default)
   * @param {(process: PythonProcess, event: object) => void} onEvent
   * @param {Promise<unknown>} whenCanStart the worker starts once this resolves
   */
  constructor(number, { graph, delay }, onEvent, whenCanStart) {
    this.number = number;
    this.client = new LabClient(whenCanStart, graph);
    /** @type {Promise<object>} resolves to `lab_info` once booted; rejects if boot fails */
    this.whenBooted = new Promise((resolve, reject) => {
      this.client.onEvent((event) => {
        if (event.type === "worker-error") reject(new LabError(event.error)); // the worker never started
        if (event.type === "boot" && event.stage === "runtime" && event.detail) this.snapshot = event.detail.snapshot;
        if (event.type === "boot") performance.mark(`lab:worker-${number}:${event.stage}:${event.state}`);
        onEvent(this, event);
      });
      this.#boot(delay).then(resolve, reject);
    });
    this.whenBooted.then(() => (this.booted = true), () => {}); // a spare may fail unobserved
  }

  async #boot(delay) {
    const info = await this.client.request("lab_info"); // answered once the worker has booted
    return delay === null ? info : this.client.request("lab_configure", { delay });
  }

  /**
   * Terminate the worker: the process dies where it stands.
   * @param {CrashInfo | null} [crash]
   */
  kill(crash = null) {
    this.alive = false;
    this.crash = crash;
    this.client.terminate();
  }
}

/**
 * Store this build's memory snapshot in a throwaway worker (snapshot-worker.mjs), unless it is stored:
 * the shipped one if this visit downloaded it (`shipped`), else one the worker makes.
 * @param {{shipped?: boolean}} [options]
 * @returns {Promise<{snapshot: "present" | "made" | "failed", error?: ErrorInfo}>} never rejects
 */
export function makeSnapshotInWorker({ shipped = false } = {}) {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url), { type: "module" });
    worker.postMessage({ shipped });
    const finish = (outcome) => {
      worker.terminate();
      resolve(outcome);
    };
    worker.addEventListener("message", ({ data }) => finish(data));
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      finish({ snapshot: "failed", error: { type: "WorkerError", message: event.message || "did not start" } });
    });
  });
}
