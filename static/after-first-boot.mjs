/**
 * The lab's background work once its first Python process is ready (LabSession, lab-session.mjs,
 * starts it then, never during that boot, so it never competes with it): cache the rest of the site
 * for offline use (offline.mjs), and - once the lab has been quiet for a moment, or at once when a test
 * asks (LabSession.snapshotNow) - store the memory snapshot that spares and later visits restore Python
 * from (python-process.mjs). Each reports an event. A platform concern, no LangGraph concept.
 */
import { completeOfflineCopy } from "./offline.mjs";
import { errorInfo } from "./protocol.mjs";
import { makeSnapshotInWorker } from "./python-process.mjs";

/** How long the lab must be quiet (no command, no spare booting) before the memory snapshot is made. */
const QUIET_MS = 2000;

/**
 * @param {object} lab what the session tells and asks
 * @param {Promise<boolean>} lab.controlled whether the service worker controls the page
 * @param {boolean} lab.snapshot whether to make the memory snapshot once the lab is quiet
 * @param {boolean} lab.shipped whether the first process restored the build's shipped snapshot (then
 *   that one is stored, not made by a second boot)
 * @param {() => boolean} lab.busy whether a command is running or a spare booting now
 * @param {() => boolean} lab.closed whether the session has been closed
 * @param {(done: Promise<unknown>) => void} lab.snapshotting told when the snapshot is being made, with
 *   a promise of its end: a spare started meanwhile waits for it
 * @param {(event: object) => void} lab.emit reports `{type: "offline", ...}` and `{type: "snapshot", ...}`
 * @returns {{snapshotNow: () => Promise<object>}} make the snapshot now, without waiting for quiet
 *   (LabSession.snapshotNow); resolves with its `snapshot` event. It is made once: whichever asks
 *   first, now or quiet, starts it, and the other gets the same event.
 */
export function afterFirstBoot({ controlled, snapshot, shipped, busy, closed, snapshotting, emit }) {
  controlled.then(async (isControlled) => {
    const copy = isControlled && (await completeOfflineCopy().catch((error) => ({ error: errorInfo(error) })));
    if (copy) emit({ type: "offline", ...copy });
  });
  let made = null;
  const snapshotNow = () => {
    if (made === null) {
      made = makeSnapshotInWorker({ shipped }).then((outcome) => {
        const event = { type: "snapshot", ...outcome };
        emit(event);
        return event;
      });
      snapshotting(made);
    }
    return made;
  };
  if (snapshot) whenQuiet(busy).then(() => closed() || snapshotNow());
  return { snapshotNow };
}

/**
 * Resolves once `busy()` has been false for QUIET_MS: storing the snapshot inflates 31 MB or boots a
 * second Python, CPU the learner's first steps should not have to share.
 * @param {() => boolean} busy
 */
async function whenQuiet(busy) {
  let quietSince = performance.now();
  while (performance.now() - quietSince < QUIET_MS) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 4));
    if (busy()) quietSince = performance.now();
  }
}
