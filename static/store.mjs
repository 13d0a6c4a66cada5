/**
 * The store: the page's one copy of what the lab is, the last answer of Python's `view()`.
 *
 * Python computes everything the page draws (lab/controller/view.py): node states and why, which
 * actions are enabled and why not, the status line, frames and the branch tree, the ledger and its
 * verdict, the activity history. The page never re-derives any of it. An event from the worker only
 * says "something changed": `changed()` schedules one re-read, coalescing a burst of events into a
 * single `view` command; an answer older than the one in the store (lower `seq` from the same
 * process) is dropped, so a slow read can never paint an older picture over a newer one.
 */

/**
 * @param {() => Promise<object>} readView asks the current Python process for `view()`
 * @param {() => number} processNumber which process answers (seq restarts with each process)
 */
export function createStore(readView, processNumber) {
  /** @type {object | null} */
  let view = null;
  let stamp = [0, -1]; // [process, seq] of the view in the store
  let reading = null; // the read in flight
  let again = false; // a change arrived while reading: read once more after it
  const listeners = new Set();

  function newer(process, seq) {
    return process > stamp[0] || (process === stamp[0] && seq >= stamp[1]);
  }

  async function readNow() {
    const process = processNumber();
    const answer = await readView();
    if (!newer(process, answer.seq)) return;
    view = answer;
    stamp = [process, answer.seq];
    for (const listener of listeners) listener(view);
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
    clear() {
      view = null;
      stamp = [0, -1];
    },
  };
}
