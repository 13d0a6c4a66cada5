/**
 * One writer per thread across the browser's tabs: a Web Lock per thread, held by the tab that writes it.
 *
 * LangGraph assumes one writer per thread: two processes running one thread would both append
 * checkpoints from the same parent and charge twice. Every tab of the lab shares IndexedDB, so
 * the tab that shows a thread asks for the thread's lock (`navigator.locks`, named
 * `checkpoint-lab-thread:<thread_id>`) and holds it while the thread is open. A second tab on the
 * same thread does not get it: it is the reader, and Python's `view()` makes it read-only (the
 * page only reports `writer: "here" | "elsewhere"` through `LabSession.setWriter`; which actions
 * that disables, and why, is lab/controller/actions.py's). The reader waits in the lock's queue, so
 * it becomes the writer as soon as the other tab closes or moves to another thread; "Take over"
 * steals the lock (`{steal: true}`), and the tab that lost it is told (`stolen`).
 *
 * The lock belongs to the tab, not to its Python process: when the lab kills its worker and a
 * spare takes over, the tab keeps the lock and the spare is told it writes. A closed tab's locks
 * are released by the browser. Without the Web Locks API (an insecure origin) every tab writes.
 *
 * The writer announces each save on a BroadcastChannel; a reader of that thread re-reads `view()`
 * (it reads the same IndexedDB), so it never shows stale frames. A ledger row, a new thread or a
 * reset is announced too, so every tab's ledger and list of saved threads stay current.
 *
 *   const writer = new ThreadWriter({onChange: ({writer, stolen}) => ..., onStale: reread, onThreads: list});
 *   writer.show("S-1001-1a2b3c4d");   // claim the thread's lock, or watch it
 *   writer.announce("saved");         // after a save: readers re-read
 *   writer.takeOver();                // steal the lock
 */

export const LOCK_PREFIX = "checkpoint-lab-thread:";
export const CHANNEL = "checkpoint-lab-threads";

/** @typedef {"here" | "elsewhere"} Writer */
/** @typedef {{thread: string, writer: Writer, stolen: boolean}} WriterChange */

export class ThreadWriter {
  /** @type {string | null} the thread this tab shows */
  #thread = null;
  /** @type {Writer | null} */
  #writer = null;
  /** each show() or takeOver() starts a new claim; the callbacks of older ones only let go */
  #claim = 0;
  /** @type {(() => void) | null} lets go of the held lock */
  #release = null;
  /** @type {AbortController | null} stops waiting in the lock's queue */
  #waiting = null;
  #onChange;
  #channel;
  /** @type {LockManager | undefined} */
  #locks;

  /**
   * @param {{onChange: (change: WriterChange) => void, onStale: () => void, onThreads: () => void,
   *          locks?: LockManager}} options
   *   onChange: this tab became the writer or a reader; onStale: another tab changed what this one
   *   shows (the thread it reads, the ledger, everything on a reset); onThreads: another tab started
   *   or opened a thread, or reset the lab
   */
  constructor({ onChange, onStale, onThreads, locks = navigator.locks }) {
    this.#onChange = onChange;
    this.#locks = locks;
    this.#channel = new BroadcastChannel(CHANNEL);
    this.#channel.addEventListener("message", ({ data }) => {
      if (data.change === "threads" || data.change === "reset") onThreads();
      const read = data.change === "saved" && data.thread === this.#thread && this.#writer === "elsewhere";
      if (read || data.change === "ledger" || data.change === "reset") onStale();
    });
  }

  /**
   * This tab shows `thread` now (null: none): let go of the last thread's lock, claim this one's.
   * @param {string | null} thread
   */
  show(thread) {
    if (thread === this.#thread) return;
    this.#letGo();
    this.#thread = thread;
    this.#writer = null;
    if (thread === null) return;
    if (this.#locks) this.#ask(thread, { ifAvailable: true });
    else this.#become(thread, "here", false); // no Web Locks (an insecure origin): one tab is assumed
  }

  /** Steal the lock of the thread this tab shows: the tab that held it becomes a reader. */
  takeOver() {
    if (this.#thread === null || this.#writer === "here") return;
    this.#letGo();
    this.#ask(this.#thread, { steal: true });
  }

  /**
   * Tell the other tabs what changed: "saved" (the writer saved this tab's thread), "ledger" (the
   * ledger, which every tab shows, recorded a request), "threads" (this tab started or opened a
   * thread), "reset" (every thread is gone).
   * @param {"saved" | "ledger" | "threads" | "reset"} change
   */
  announce(change) {
    if (change === "saved" && this.#writer !== "here") return;
    this.#channel.postMessage({ thread: this.#thread, change });
  }

  /** Release every lock and stop listening (the page goes away). */
  close() {
    this.#letGo();
    this.#channel.close();
  }

  /**
   * Ask for `thread`'s lock and hold it once granted, until this tab lets go or another tab steals it.
   * `{ifAvailable: true}`: now or never (never: this tab reads, and queues); `{steal: true}`: now,
   * from whoever holds it; `{}`: queue until the holder lets go.
   */
  #ask(thread, options) {
    const claim = ++this.#claim;
    const current = () => claim === this.#claim;
    const queued = !options.ifAvailable && !options.steal;
    this.#waiting = queued ? new AbortController() : null;
    let granted = false;
    const held = this.#locks.request(LOCK_PREFIX + thread, queued ? { signal: this.#waiting.signal } : options, (lock) => {
      if (!current()) return null; // a newer claim replaced this one
      if (lock === null) {
        this.#become(thread, "elsewhere", false);
        this.#ask(thread, {});
        return null;
      }
      granted = true;
      this.#waiting = null;
      this.#become(thread, "here", false);
      return new Promise((release) => (this.#release = release));
    });
    held.catch((error) => {
      if (!granted || !current() || error?.name !== "AbortError") return; // a queued wait given up
      this.#release = null; // another tab stole the lock
      this.#become(thread, "elsewhere", true);
      this.#ask(thread, {});
    });
  }

  #letGo() {
    this.#claim += 1;
    this.#waiting?.abort();
    this.#waiting = null;
    this.#release?.();
    this.#release = null;
  }

  #become(thread, writer, stolen) {
    this.#writer = writer;
    this.#onChange({ thread, writer, stolen });
  }
}
