/**
 * The store: the page's one copy of what the lab is, the last answer of Python's `view()`.
 *
 * Python computes everything the page draws (lab/controller/view.py): node states and why, which
 * actions are enabled and why not, the status line, frames and the branch tree, the ledger and its
 * verdict, the activity history. The page never re-derives any of it. An event from the worker only
 * says "something changed": `changed()` schedules one re-read, coalescing a burst of events into a
 * single `view` command.
 *
 * A view says what it belongs to: the Python process that answered (the page knows which it asked),
 * and its `owner`, the program and the thread (lab/controller/view.py). Each program the playground
 * loads is a new controller whose `seq` starts again at 0, so `seq` alone cannot order two programs'
 * views: the page names the program it shows (`show(program)`, the name it gave the worker with the
 * program) and the store draws only that program's views, the newest of them: a later process, or
 * the same process and a `seq` at least the last one's. So a slow read can never paint an older
 * picture over a newer one, nor another program's thread over the one on screen. The lab page has
 * one graph and names none (`owner.program` null).
 */

/**
 * @param {() => Promise<object>} readView asks the current Python process for `view()`
 * @param {() => number} processNumber which process answers (seq restarts with each process)
 */
export function createStore(readView, processNumber) {
  /** @type {object | null} */
  let view = null;
  let shown = null; // the program the page shows (null: the lab page's one graph)
  let stamp = [0, -1]; // [process, seq] of the view in the store
  let reading = null; // the read in flight
  let again = false; // a change arrived while reading: read once more after it
  const listeners = new Set();

  /** `answer` (answered by `process`) is the shown program's, and no older than the view in the store. */
  function newer(process, answer) {
    if ((answer.owner?.program ?? null) !== shown) return false;
    return process > stamp[0] || (process === stamp[0] && answer.seq >= stamp[1]);
  }

  async function readNow() {
    const process = processNumber();
    const answer = await readView();
    if (!newer(process, answer)) return;
    view = answer;
    stamp = [process, answer.seq];
    for (const listener of listeners) listener(view);
  }

  function clear() {
    view = null;
    stamp = [0, -1];
  }

  /** Re-read now, or right after the read in flight; resolves once the store holds a fresh view. */
  function changed() {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      try {
        do {
          again = false;
          await readNow();
        } while (again);
      } finally {
        reading = null;
      }
    })();
    return reading;
  }

  return {
    get view() {
      return view;
    },
    changed,
    /** @param {(view: object) => void} listener called with each new view */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Forget the view (a reset, a process that lost everything). */
    clear,
    /**
     * The page shows `program` from now on (the name it sent the worker with it): only its views
     * are drawn, from its first one on.
     * @param {string | null} program
     */
    show(program) {
      shown = program;
      clear();
    },
  };
}
