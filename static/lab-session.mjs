/**
 * LabSession: the one object the lab's page uses. It owns the Python process (a Web Worker running
 * Pyodide and the lab controller), the page's ledger, and the crashes.
 *
 *   const session = new LabSession({graph: "lab.aml.lab_page"}); // boots a worker at once
 *   session.onEvent((event) => draw(event));     // controller, boot, world, ledger, process events
 *   await session.ready;                         // {type: "process", state: "ready", restored, ...}
 *   await session.command("start", {case_id: "S-1001", variant: "misplaced"});
 *   await session.command("run");                // {status: "interrupted", ...}
 *
 * Crashes are real. When the controller reaches an armed seam it emits `crash_point` and freezes;
 * the session then terminates the worker (`worker.terminate()`: the Python process is gone, with
 * whatever it had not saved), switches to a new worker - a warm spare booted in advance, unless
 * `{spare: false}` - and sends it the controller's `restore`, so the page shows the thread as
 * IndexedDB has it. `kill()` does the same at any moment, unasked. A run command that was waiting
 * when its process died resolves with `{status: "crashed", crash_point}`. The switching itself is the
 * process switchboard's (process-switchboard.mjs); the session tells it how a new process restores.
 *
 * The external world is the page's: the graph's calls to its services arrive as
 * `world` events, which the session answers from its Ledger (ledger.mjs). Everything a reload
 * needs is in IndexedDB (checkpoints and journal: "checkpoint-lab-threads"; the ledger:
 * "checkpoint-lab-ledger"), so a new page's session restores the thread and its ledger as they were.
 *
 * Without IndexedDB (a cross-site iframe, some private modes) the worker's checkpoints and journal are
 * kept here instead, in `records` (page-records.mjs: `records` events, answered for any live process),
 * so a crash still finds the thread; a reload does not.
 *
 * One writer per thread across tabs: the page holds the thread's Web Lock (thread-writer.mjs) and
 * says who writes with `setWriter(thread, "here" | "elsewhere")`; a process that takes over after a
 * crash is told before it restores that thread, so the lock stays with the tab.
 *
 * The events and commands are documented in protocol.mjs.
 */
import { afterFirstBoot } from "./after-first-boot.mjs";
import { LabError } from "./lab-client.mjs";
import { deleteLabDatabases } from "./lab-databases.mjs";
import { Ledger } from "./ledger.mjs";
import { clearOfflineCopy, controlled } from "./offline.mjs";
import { PageRecords } from "./page-records.mjs";
import { serveRecords, serveWorld } from "./process-calls.mjs";
import { ProcessSwitchboard } from "./process-switchboard.mjs";

export { LabError };

/** @typedef {import("./protocol.mjs").SessionEvent} SessionEvent */
/** @typedef {import("./protocol.mjs").ProcessReadyEvent} ProcessReadyEvent */
/** @typedef {import("./python-process.mjs").PythonProcess} PythonProcess */
/** @typedef {import("./process-switchboard.mjs").ControllerCall} ControllerCall */

export class LabSession {
  /** @type {Ledger} the external world's ledger: read its rows with entries(), watch onChange */
  ledger;
  /** the checkpoints and journal of a worker without IndexedDB: kept here, they outlive its crash */
  records = new PageRecords();
  /** @type {Set<(event: SessionEvent) => void>} */
  #listeners = new Set();
  /** @type {ProcessSwitchboard} the active process, its warm spare, and the switch on a crash */
  #processes;
  /** @type {{thread: string, writer: "here" | "elsewhere"} | null} who writes this tab's thread (setWriter) */
  #writer = null;
  #oneWriter;
  /** @type {Promise<{snapshotNow: () => Promise<object>}>} the background work, once the first process is ready */
  #background;
  /** @type {((request: (cmd: string, args?: object) => Promise<any>) => Promise<object>) | null} */
  #prepare;

  /**
   * @param {object} [options]
   * @param {boolean} [options.spare] keep a second worker booted, so a crash swaps it in (default true)
   * @param {string | null} [options.graph] the Python module of the graph each process's lab opens,
   *   a module of `lab` that defines PROFILE (the lab page's: "lab.aml.lab_page"); null (the default):
   *   none, until `prepare` loads a program (the playground)
   * @param {number | null} [options.delay] seconds each node works; null: the graph's default
   * @param {Ledger} [options.ledger] the external world's ledger (default: the "checkpoint-lab-ledger" one)
   * @param {boolean} [options.offline] keep an offline copy of the site with its service worker (default true)
   * @param {boolean} [options.snapshot] make a memory snapshot after the first boot, so spares and
   *   later visits restore Python from it (default true)
   * @param {boolean} [options.oneWriter] the page keeps one writer per thread across tabs and says
   *   who writes with setWriter (thread-writer.mjs); until it has, a process only reads (default false)
   * @param {(request: (cmd: string, args?: object) => Promise<any>) => Promise<object>} [options.prepare]
   *   what a new process is told before it restores, through its platform commands (the playground
   *   loads the learner's program: play_load); resolves with arguments added to its `restore`, or
   *   null when the process has no graph to restore (no program is loaded yet)
   */
  constructor({
    spare = true, graph = null, delay = null, ledger = new Ledger(), offline = true, snapshot = true, oneWriter = false,
    prepare = null,
  } = {}) {
    this.#oneWriter = oneWriter;
    this.#prepare = prepare;
    let startBackground;
    this.#background = new Promise((resolve) => (startBackground = resolve));
    performance.mark("lab:session");
    /** the first worker waits for the service worker, so Pyodide is cached once */
    const whenControlled = offline
      ? controlled().finally(() => performance.mark("lab:controlled"))
      : Promise.resolve(false);
    this.ledger = ledger;
    ledger.onChange((change) => this.#emit({ type: "ledger", ...change }));
    this.#processes = new ProcessSwitchboard({
      spare,
      graph,
      delay,
      whenCanStart: whenControlled,
      restore: (call, request) => this.#restore(call, request),
      serve: (process, event) => this.#serve(process, event),
      started: (ready) => startBackground(this.#afterFirstBoot(whenControlled, snapshot, ready.snapshot)),
      emit: (event) => this.#emit(event),
    });
  }

  /**
   * Resolves with the latest "ready" process event once the current process is ready (booted and
   * restored); after a crash, with the replacement's. Rejects if that process failed to boot.
   * @returns {Promise<ProcessReadyEvent>}
   */
  get ready() {
    return this.#processes.whenReady();
  }

  /**
   * Where the session is: its process, its spare, what the last ready event said.
   * @returns {{state: string, worker: number, spare: "none" | "booting" | "ready",
   *            ready: ProcessReadyEvent | null}}
   */
  get status() {
    return this.#processes.status;
  }

  /**
   * Run a controller command (see protocol.mjs, ControllerCommands) once the process is ready.
   * @param {string} name e.g. "start", "step", "run", "answer", "frames", "arm_crash"
   * @param {object} [args] the command's keyword arguments
   * @returns {Promise<any>} the command's result; a run command interrupted by a crash resolves with
   *   `{status: "crashed", crash_point}`
   * @throws {LabError} `type` and `message` (and `notes`) from the controller, or type "Crashed" when
   *   the process died under any other command
   */
  command(name, args = {}) {
    return this.#processes.command(name, args);
  }

  /**
   * Send a platform command that is not the controller's (protocol.mjs, Commands: "ping", "stats",
   * "lab_info", ...) to the current process once it is ready.
   * @param {string} cmd @param {object} [args]
   * @returns {Promise<any>} its result; rejects with a LabError
   */
  request(cmd, args = {}) {
    return this.#processes.request(cmd, args);
  }

  /**
   * Listen to everything the lab says (SessionEvent in protocol.mjs).
   * @param {(event: SessionEvent) => void} listener
   * @returns {() => void} call it to stop listening
   */
  onEvent(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Kill the Python process now, wherever it is (a crash "at a random moment"), and bring up the next.
   * @returns {Promise<ProcessReadyEvent>} the replacement's ready event
   */
  kill() {
    return this.#processes.kill();
  }

  /**
   * Start over with an empty lab: every thread's checkpoints, the journal and - through the
   * controller's external world - the ledger are deleted, and so are the offline copy of the site
   * and the memory snapshots (the next visit caches them again). Ask the learner first.
   * @returns {Promise<{threads_deleted: number}>}
   */
  async reset() {
    const result = await this.command("reset");
    await clearOfflineCopy();
    return result;
  }

  // -- one writer per thread (thread-writer.mjs holds the tab's Web Lock) ------------------------------

  /**
   * Tell Python who writes `thread`, the thread this tab shows: this tab ("here", it holds the
   * thread's lock) or another ("elsewhere": Python's view() turns read-only). A process that comes
   * up later (after a crash) is told before it restores, and restores this thread.
   * @param {string} thread @param {"here" | "elsewhere"} writer
   * @returns {Promise<{writer: string}>} rejects if a run is live and the lock was lost (kill() then)
   */
  setWriter(thread, writer) {
    this.#writer = { thread, writer };
    return this.command("set_writer", { writer });
  }

  /**
   * Make the memory snapshot now, once the first process is ready, instead of when the lab has been
   * quiet for a moment (after-first-boot.mjs). For tests: how soon a loaded machine is quiet is not
   * theirs to wait for. The snapshot is still made once per session.
   * @returns {Promise<{type: "snapshot", snapshot: "present" | "made" | "failed"}>} its `snapshot`
   *   event (protocol.mjs), once stored or failed
   */
  async snapshotNow() {
    return (await this.#background).snapshotNow();
  }

  /** Boot a fresh process after a failed boot (the Retry button). */
  retry() {
    return this.#processes.retry();
  }

  /**
   * The way back from anything, even records that no longer decode or a boot that fails: stop every
   * worker, close the ledger and delete the lab's IndexedDB databases. Reload the page afterwards; it
   * starts empty. (The controller's `reset` is the gentle way; this one needs no Python.)
   */
  async wipeStorage() {
    this.close();
    this.records.clear();
    await this.ledger.close();
    await Promise.all([deleteLabDatabases(), clearOfflineCopy()]);
  }

  /** Stop every worker; the session answers nothing after this. */
  close() {
    this.#processes.close();
    this.#listeners.clear();
  }

  // -- what a new process is told, and what the processes ask of the page ------------------------------

  /**
   * Bring the controller's session up in a process that takes over: restore the thread this tab shows,
   * only reading while the page keeps one writer per thread, then say who writes it (Python's
   * set_writer("here") then writes down a run that died).
   * @param {ControllerCall} call the new process's controller
   * @param {(cmd: string, args?: object) => Promise<any>} request its platform commands
   */
  async #restore(call, request) {
    const prepared = this.#prepare ? await this.#prepare(request) : {};
    if (prepared === null) return null; // no graph in this process yet: nothing to restore
    const restored = await call("restore", { ...this.#restoreArgs(), ...prepared });
    if (this.#writer) await call("set_writer", { writer: this.#writer.writer });
    return restored;
  }

  #restoreArgs() {
    if (this.#writer) return { observe_only: true, thread_id: this.#writer.thread };
    return this.#oneWriter ? { observe_only: true } : {};
  }

  /**
   * Answer what a process asks of the page: its checkpoint records (page-records.mjs) or a call to
   * the external world, from the ledger (process-calls.mjs).
   * @param {PythonProcess} process @param {{type: string, call: number, op: string, args: object}} event
   */
  #serve(process, event) {
    if (event.type === "records") serveRecords(process, this.records, event);
    else serveWorld(process, this.ledger, event);
  }

  /**
   * The session's background work once its first process is ready (after-first-boot.mjs).
   * @param {Promise<boolean>} whenControlled @param {boolean} snapshot
   * @param {string | null} started how the first process started Python ("shipped": from the build's
   *   snapshot)
   */
  #afterFirstBoot(whenControlled, snapshot, started) {
    return afterFirstBoot({
      controlled: whenControlled,
      snapshot,
      shipped: started === "shipped",
      busy: () => this.#processes.busy,
      closed: () => this.#processes.closed,
      snapshotting: (done) => this.#processes.spareWaitsFor(done),
      emit: (event) => this.#emit(event),
    });
  }

  /** @param {SessionEvent} event */
  #emit(event) {
    for (const listener of this.#listeners) listener(event);
  }
}
