/**
 * LabSession: the one object the lab's page uses. It owns the Python process (a Web Worker running
 * Pyodide and the lab controller), the page's ledger, and the crashes.
 *
 *   const session = new LabSession();            // boots a worker at once
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
 * when its process died resolves with `{status: "crashed", crash_point}`.
 *
 * The external world is the page's: the controller's paid API and SAR registry calls arrive as
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
import { errorInfo } from "./protocol.mjs";
import { PythonProcess } from "./python-process.mjs";

export { LabError };

/** @typedef {import("./protocol.mjs").SessionEvent} SessionEvent */
/** @typedef {import("./protocol.mjs").ProcessReadyEvent} ProcessReadyEvent */
/** @typedef {import("./protocol.mjs").CrashInfo} CrashInfo */

/** The controller commands that run the graph: the ones a crash can interrupt (controller.py). */
const RUN_COMMANDS = new Set(["step", "run", "resume", "answer", "replay"]);

export class LabSession {
  /** @type {Ledger} the external world's ledger: read its rows with entries(), watch onChange */
  ledger;
  /** the checkpoints and journal of a worker without IndexedDB: kept here, they outlive its crash */
  records = new PageRecords();
  #spareWanted;
  #delay;
  #count = 0;
  /** @type {Set<(event: SessionEvent) => void>} */
  #listeners = new Set();
  /** @type {PythonProcess} the process that answers commands (or is booting to) */
  #active;
  /** @type {PythonProcess | null} the next one, booting or booted in advance */
  #spare = null;
  /** @type {Promise<ProcessReadyEvent>} the active process's way to ready */
  #ready;
  /** @type {"booting" | "ready" | "failed" | "closed"} */
  #state = "booting";
  /** @type {ProcessReadyEvent | null} */
  #lastReady = null;
  /** @type {Promise<unknown>} the first worker waits for the service worker, so Pyodide is cached once */
  #offline;
  #snapshotWanted;
  /** @type {Promise<unknown>} a spare started while the memory snapshot is being made waits for it */
  #snapshotDone = Promise.resolve();
  /** how many controller commands are running: the snapshot is made only while none is */
  #commandsRunning = 0;
  /** @type {{thread: string, writer: "here" | "elsewhere"} | null} who writes this tab's thread (setWriter) */
  #writer = null;
  #oneWriter;

  /**
   * @param {object} [options]
   * @param {boolean} [options.spare] keep a second worker booted, so a crash swaps it in (default true)
   * @param {number | null} [options.delay] seconds each node works; null: the controller's default
   * @param {Ledger} [options.ledger] the external world's ledger (default: the "checkpoint-lab-ledger" one)
   * @param {boolean} [options.offline] keep an offline copy of the site with its service worker (default true)
   * @param {boolean} [options.snapshot] make a memory snapshot after the first boot, so spares and
   *   later visits restore Python from it (default true)
   * @param {boolean} [options.oneWriter] the page keeps one writer per thread across tabs and says
   *   who writes with setWriter (thread-writer.mjs); until it has, a process only reads (default false)
   */
  constructor({
    spare = true, delay = null, ledger = new Ledger(), offline = true, snapshot = true, oneWriter = false,
  } = {}) {
    this.#oneWriter = oneWriter;
    performance.mark("lab:session");
    this.#offline = offline ? controlled().finally(() => performance.mark("lab:controlled")) : Promise.resolve(false);
    this.#snapshotWanted = snapshot;
    this.#spareWanted = spare;
    this.#delay = delay;
    this.ledger = ledger;
    ledger.onChange((change) => this.#emit({ type: "ledger", ...change }));
    this.#switchTo(this.#spawn(), "start", performance.now());
  }

  /**
   * Resolves with the latest "ready" process event once the current process is ready (booted and
   * restored); after a crash, with the replacement's. Rejects if that process failed to boot.
   * @returns {Promise<ProcessReadyEvent>}
   */
  get ready() {
    return this.#whenReady();
  }

  /**
   * Where the session is: its process, its spare, what the last ready event said.
   * @returns {{state: string, worker: number, spare: "none" | "booting" | "ready",
   *            ready: ProcessReadyEvent | null}}
   */
  get status() {
    const spare = this.#spare === null ? "none" : this.#spare.booted ? "ready" : "booting";
    return { state: this.#state, worker: this.#active.number, spare, ready: this.#lastReady };
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
  async command(name, args = {}) {
    await this.#whenReady();
    return this.#call(this.#active, name, args);
  }

  /**
   * Send a platform command that is not the controller's (protocol.mjs, Commands: "ping", "stats",
   * "lab_info", ...) to the current process once it is ready.
   * @param {string} cmd @param {object} [args]
   * @returns {Promise<any>} its result; rejects with a LabError
   */
  async request(cmd, args = {}) {
    await this.#whenReady();
    return this.#active.client.request(cmd, args);
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
    this.#requireOpen();
    const crash = { cause: "kill", run: null, seam: null, node: null, step: null, checkpoint_id: null };
    this.#crash(this.#active, crash);
    return this.ready;
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

  /** Boot a fresh process after a failed boot (the Retry button). */
  retry() {
    this.#requireOpen();
    this.#active.kill();
    this.#switchTo(this.#spawn(), "retry", performance.now());
    return this.ready;
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
    this.#state = "closed";
    this.#active.kill();
    this.#spare?.kill();
    this.#spare = null;
    this.#listeners.clear();
  }

  // -- processes --------------------------------------------------------------------------------------

  /**
   * How a process that takes over restores: the thread this tab shows, and only reading while the
   * page keeps one writer per thread (Python's set_writer("here") then writes down a run that died).
   */
  #restoreArgs() {
    if (this.#writer) return { observe_only: true, thread_id: this.#writer.thread };
    return this.#oneWriter ? { observe_only: true } : {};
  }

  /** @param {Promise<unknown>} [whenCanStart] what the worker waits for before it starts */
  #spawn(whenCanStart = this.#offline) {
    this.#count += 1;
    const onEvent = (process, event) => this.#onProcessEvent(process, event);
    return new PythonProcess(this.#count, this.#delay, onEvent, whenCanStart);
  }

  /**
   * Make `process` the active one and bring it up: wait for its boot, restore the controller's
   * session, announce "ready", then start the next spare.
   * @param {PythonProcess} process
   * @param {"start" | "seam" | "kill" | "retry"} reason
   * @param {number} since when the wait began (performance.now()): the ready event's `ms` counts from it
   */
  #switchTo(process, reason, since) {
    this.#active = process;
    this.#state = "booting";
    const warm = process.booted;
    const booting = { type: "process", state: "booting", worker: process.number, reason, warm };
    queueMicrotask(() => this.#emit(booting)); // the first switch is in the constructor: let listeners come
    this.#ready = this.#bringUp(process, reason, since, warm);
    this.#ready.catch(() => {}); // reported as a "failed" process event; commands see the rejection
  }

  async #bringUp(process, reason, since, warm) {
    let info, restored;
    try {
      info = await process.whenBooted;
      restored = await this.#call(process, "restore", this.#restoreArgs());
      if (this.#writer) await this.#call(process, "set_writer", { writer: this.#writer.writer });
    } catch (error) {
      if (process === this.#active) {
        this.#state = "failed";
        this.#emit({ type: "process", state: "failed", worker: process.number, error: errorInfo(error) });
      }
      throw error;
    }
    const ready = {
      type: "process",
      state: "ready",
      worker: process.number,
      reason,
      warm,
      snapshot: process.snapshot,
      ms: Math.round(performance.now() - since),
      storage: info.storage,
      process: info.process,
      restored,
    };
    if (process !== this.#active) {
      throw new LabError({ type: "Replaced", message: "a newer process took over while this one booted" });
    }
    this.#state = "ready";
    this.#lastReady = ready;
    this.#emit(ready);
    if (reason === "start") {
      afterFirstBoot({
        controlled: this.#offline,
        snapshot: this.#snapshotWanted,
        busy: () => this.#commandsRunning > 0 || (this.#spare !== null && !this.#spare.booted),
        closed: () => this.#state === "closed",
        snapshotting: (done) => (this.#snapshotDone = done),
        emit: (event) => this.#emit(event),
      });
    }
    this.#prepareSpare();
    return ready;
  }

  /** Boot the next process in advance, so that a crash finds it ready. */
  #prepareSpare() {
    if (!this.#spareWanted || this.#spare !== null) return;
    const spare = this.#spawn(this.#snapshotDone);
    this.#spare = spare;
    const stillSpare = () => this.#spare === spare;
    spare.whenBooted.then(
      () => stillSpare() && this.#emit({ type: "process", state: "spare-ready", worker: spare.number }),
      () => stillSpare() && (this.#spare = null), // a crash will boot a fresh one instead
    );
  }

  /**
   * Terminate `process` for real and switch to the next one.
   * @param {PythonProcess} process @param {CrashInfo} crash
   */
  #crash(process, crash) {
    const since = performance.now();
    process.kill(crash);
    this.#emit({ type: "process", state: "crashed", worker: process.number, crash });
    const next = this.#spare ?? this.#spawn();
    this.#spare = null;
    this.#switchTo(next, crash.cause, since);
  }

  /** @returns {Promise<ProcessReadyEvent>} once the active process is ready (following any switch) */
  async #whenReady() {
    this.#requireOpen();
    for (;;) {
      const ready = this.#ready;
      try {
        const event = await ready;
        if (ready === this.#ready) return event;
      } catch (error) {
        if (ready === this.#ready) throw error;
      }
    }
  }

  #requireOpen() {
    if (this.#state !== "closed") return;
    throw new LabError({ type: "Closed", message: "This lab session is closed" });
  }

  /** Send a controller command to `process` and unwrap its answer. */
  async #call(process, name, args = {}) {
    let answer;
    this.#commandsRunning += 1;
    try {
      answer = await process.client.request("lab", { name, args });
    } catch (error) {
      if (process.crash === null) throw error; // alive, or closed: the error says what happened
      if (RUN_COMMANDS.has(name)) return { status: "crashed", crash_point: process.crash };
      const message = `The lab's Python process was killed while it ran ${name}`;
      throw new LabError({ type: "Crashed", message });
    } finally {
      this.#commandsRunning -= 1;
    }
    if (!answer.ok) throw Object.assign(new LabError(answer.error), { notes: answer.error.notes ?? [] });
    return answer.result;
  }

  // -- events -----------------------------------------------------------------------------------------

  /** @param {PythonProcess} process @param {object} event */
  #onProcessEvent(process, event) {
    if (event.type === "records") return serveRecords(process, this.records, event); // spares read them too
    if (process !== this.#active || !process.alive) return; // a spare boots quietly; the dead are silent
    this.#emit({ ...event, worker: process.number });
    if (event.type === "world") {
      serveWorld(process, this.ledger, event);
    } else if (event.type === "crash_point") {
      const { run, seam, node, step, checkpoint_id } = event;
      this.#crash(process, { cause: "seam", run, seam, node, step, checkpoint_id });
    }
  }

  /** @param {SessionEvent} event */
  #emit(event) {
    for (const listener of this.#listeners) listener(event);
  }
}

