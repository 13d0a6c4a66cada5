/**
 * LabClient: the page's handle on the lab's Web Worker. It starts the worker, turns requests into
 * promises (matching responses by id) and passes events on to listeners. The messages are
 * documented in protocol.mjs.
 */
import { isResponse } from "./protocol.mjs";

/** @typedef {import("./protocol.mjs").Commands} Commands */
/** @typedef {import("./protocol.mjs").ErrorInfo} ErrorInfo */
/** @typedef {import("./protocol.mjs").LabEvent} LabEvent */

/** A failed request: `type` and `message` come from the worker's error response; `say`, when
 * Python gave one, is the message as a code for the page's catalogues (i18n.mjs `say()`). */
export class LabError extends Error {
  /** @param {ErrorInfo & {say?: object}} error */
  constructor({ type, message, say = null }) {
    super(message);
    this.name = "LabError";
    this.type = type;
    this.say = say;
  }
}

export class LabClient {
  /** @type {Promise<Worker | null>} the worker, once started (null if terminated before it started) */
  #worker;
  /** @type {Worker | null} the same worker, for terminating it synchronously */
  #started = null;
  #terminated = false;
  #nextId = 1;
  /** @type {Map<number, {resolve: (result: any) => void, reject: (error: LabError) => void}>} */
  #pending = new Map();
  /** @type {Set<(event: LabEvent) => void>} */
  #listeners = new Set();

  /**
   * Start a new worker; it begins to boot as soon as `whenCanStart` resolves (at once by default).
   * Requests sent before then wait for it.
   * @param {Promise<unknown>} [whenCanStart]
   * @param {string | null} [graph] the Python module of the graph its lab opens (null: none), given
   *   as the worker's name (worker.mjs)
   */
  constructor(whenCanStart = Promise.resolve(), graph = null) {
    this.#worker = whenCanStart.then(() => (this.#terminated ? null : this.#start(graph ?? "")));
  }

  /** @param {string} graph */
  #start(graph) {
    performance.mark("lab:worker-start");
    const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module", name: graph });
    worker.addEventListener("message", ({ data }) => {
      if (isResponse(data)) this.#settle(data);
      else this.#emit(data);
    });
    // Fired when the worker's module graph fails to load, or an error escapes it.
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      const message = event.message || "the worker's script could not be loaded";
      this.#emit({ type: "worker-error", error: { type: "WorkerError", message } });
    });
    this.#started = worker;
    return worker;
  }

  /**
   * Send a command to Python and wait for its result.
   * @template {keyof Commands} C
   * @param {C} cmd
   * @param {Commands[C]["args"]} [args]
   * @returns {Promise<Commands[C]["result"]>} rejects with a LabError
   */
  request(cmd, args = {}) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.then((worker) => worker?.postMessage({ id, cmd, args }));
    });
  }

  /**
   * Listen to the worker's events.
   * @param {(event: LabEvent) => void} listener
   * @returns {() => void} call it to stop listening
   */
  onEvent(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stop the worker; pending requests fail with a "Terminated" LabError. */
  terminate() {
    this.#terminated = true;
    this.#started?.terminate(); // at once: a crash kills the process where it stands
    for (const { reject } of this.#pending.values()) {
      reject(new LabError({ type: "Terminated", message: "the lab's worker was stopped" }));
    }
    this.#pending.clear();
    this.#listeners.clear();
  }

  /** @param {import("./protocol.mjs").Response} response */
  #settle(response) {
    const waiting = this.#pending.get(response.id);
    if (!waiting) return;
    this.#pending.delete(response.id);
    if (response.ok) waiting.resolve(response.result);
    else waiting.reject(new LabError(response.error));
  }

  /** @param {LabEvent} event */
  #emit(event) {
    for (const listener of this.#listeners) listener(event);
  }
}
