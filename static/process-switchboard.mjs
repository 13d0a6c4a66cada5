/**
 * The process switchboard: which Python process answers the lab's commands, and how the next one takes
 * over. It keeps the active process and a warm spare (booted in advance), kills a process for real on a
 * crash and switches to the spare (or a fresh one), brings each new process up (boot, then the session's
 * restore), and holds every command until the active process is ready.
 *
 * In LangGraph this is the host's job, not the graph's: when the process running a graph dies, a
 * supervisor (a server's worker pool, a job queue) starts another, and that one resumes the thread from
 * the checkpointer. Here the page is the host and each process is a Web Worker (python-process.mjs);
 * LabSession (lab-session.mjs) tells the switchboard how a new process restores and answers what the
 * processes ask of the page.
 */
import { LabError } from "./lab-client.mjs";
import { errorInfo } from "./protocol.mjs";
import { PythonProcess } from "./python-process.mjs";

/** @typedef {import("./protocol.mjs").SessionEvent} SessionEvent */
/** @typedef {import("./protocol.mjs").ProcessReadyEvent} ProcessReadyEvent */
/** @typedef {import("./protocol.mjs").CrashInfo} CrashInfo */
/** @typedef {(name: string, args?: object) => Promise<any>} ControllerCall */

/** The controller commands that run the graph: the ones a crash can interrupt (controller.py). */
const RUN_COMMANDS = new Set(["step", "run", "resume", "answer", "replay"]);

export class ProcessSwitchboard {
  #spareWanted;
  /** @type {{graph: string | null, delay: number | null}} what each process's lab opens */
  #opens;
  #whenCanStart;
  #restore;
  #serve;
  #started;
  #emit;
  #count = 0;
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
  /** @type {Promise<unknown>} a spare started while the memory snapshot is being made waits for it */
  #snapshotDone = Promise.resolve();
  /** how many controller commands are running: the snapshot is made only while none is */
  #commandsRunning = 0;

  /**
   * Boot the first process at once.
   * @param {object} session what the session gives the switchboard and is told by it
   * @param {boolean} session.spare keep a second process booted, so a crash swaps it in
   * @param {string | null} session.graph the Python module of the graph each process's lab opens
   *   (null: none, until the page loads a program)
   * @param {number | null} session.delay seconds each node works; null: the graph's default
   * @param {Promise<unknown>} session.whenCanStart what the first process waits for before it starts
   * @param {(call: ControllerCall, request: (cmd: string, args?: object) => Promise<any>) => Promise<object>}
   *   session.restore bring the controller's session up in a new process through `call` (its platform
   *   commands through `request`); resolves with what its `restore` said
   * @param {(process: PythonProcess, event: object) => void} session.serve answer what a process asks
   *   of the page: `records` (from any live process, a spare too) and `world` (from the active one)
   * @param {(ready: ProcessReadyEvent) => void} session.started the first process is ready: the session's
   *   background work may start
   * @param {(event: SessionEvent) => void} session.emit the process events and the active process's events
   */
  constructor({ spare, graph, delay, whenCanStart, restore, serve, started, emit }) {
    this.#spareWanted = spare;
    this.#opens = { graph, delay };
    this.#whenCanStart = whenCanStart;
    this.#restore = restore;
    this.#serve = serve;
    this.#started = started;
    this.#emit = emit;
    this.#switchTo(this.#spawn(), "start", performance.now());
  }

  /**
   * Where the switchboard is: its process, its spare, what the last ready event said.
   * @returns {{state: string, worker: number, spare: "none" | "booting" | "ready",
   *            ready: ProcessReadyEvent | null}}
   */
  get status() {
    const spare = this.#spare === null ? "none" : this.#spare.booted ? "ready" : "booting";
    return { state: this.#state, worker: this.#active.number, spare, ready: this.#lastReady };
  }

  /** whether a controller command is running or a spare is booting now */
  get busy() {
    return this.#commandsRunning > 0 || (this.#spare !== null && !this.#spare.booted);
  }

  get closed() {
    return this.#state === "closed";
  }

  /** @param {Promise<unknown>} done the memory snapshot's making: a spare started meanwhile waits for it */
  spareWaitsFor(done) {
    this.#snapshotDone = done;
  }

  /** Run a controller command on the active process once it is ready (LabSession.command). */
  async command(name, args = {}) {
    await this.whenReady();
    return this.#call(this.#active, name, args);
  }

  /** Send a platform command to the active process once it is ready (LabSession.request). */
  async request(cmd, args = {}) {
    await this.whenReady();
    return this.#active.client.request(cmd, args);
  }

  /** @returns {Promise<ProcessReadyEvent>} once the active process is ready (following any switch) */
  async whenReady() {
    this.requireOpen();
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

  /**
   * Kill the active process now, wherever it is, and bring up the next.
   * @returns {Promise<ProcessReadyEvent>} the replacement's ready event
   */
  kill() {
    this.requireOpen();
    const crash = { cause: "kill", run: null, seam: null, node: null, step: null, checkpoint_id: null };
    this.#crash(this.#active, crash);
    return this.whenReady();
  }

  /** Boot a fresh process after a failed boot. */
  retry() {
    this.requireOpen();
    this.#active.kill();
    this.#switchTo(this.#spawn(), "retry", performance.now());
    return this.whenReady();
  }

  /** Stop every process; nothing is answered after this. */
  close() {
    this.#state = "closed";
    this.#active.kill();
    this.#spare?.kill();
    this.#spare = null;
  }

  requireOpen() {
    if (this.#state !== "closed") return;
    throw new LabError({ type: "Closed", message: "This lab session is closed" });
  }

  // -- switching ------------------------------------------------------------------------------------

  /** @param {Promise<unknown>} [whenCanStart] what the worker waits for before it starts */
  #spawn(whenCanStart = this.#whenCanStart) {
    this.#count += 1;
    const onEvent = (process, event) => this.#onProcessEvent(process, event);
    return new PythonProcess(this.#count, this.#opens, onEvent, whenCanStart);
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
      const request = (cmd, args) => process.client.request(cmd, args);
      restored = await this.#restore((name, args) => this.#call(process, name, args), request);
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
    if (reason === "start") this.#started(ready);
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

  /** @param {PythonProcess} process @param {object} event */
  #onProcessEvent(process, event) {
    if (event.type === "records") return this.#serve(process, event); // spares read them too
    if (process !== this.#active || !process.alive) return; // a spare boots quietly; the dead are silent
    this.#emit({ ...event, worker: process.number });
    if (event.type === "world") {
      this.#serve(process, event);
    } else if (event.type === "crash_point") {
      const { run, seam, node, step, checkpoint_id } = event;
      this.#crash(process, { cause: "seam", run, seam, node, step, checkpoint_id });
    }
  }
}
