/**
 * The lab's first Python worker, started before the page is ready for it. Pyodide's boot is most of
 * the wait for a usable lab, and it needs nothing from the page: so the page's first module
 * (early-start.mjs) calls startFirstWorker() while the page's other modules still load, and the first
 * LabSession (lab-session.mjs) adopts the worker, already booting; its events wait for the session
 * (lab-client.mjs). A page that never calls startFirstWorker() - a lesson, an embedded lab, a test -
 * gets its first worker from LabSession, as before. A platform concern, no LangGraph concept.
 *
 * On a first visit the worker starts once the service worker controls the page (offline.mjs,
 * `controlled()`), so that Pyodide's files pass through the service worker's cache: downloaded once.
 */
import { controlled } from "./offline.mjs";
import { startWorker } from "./python-process.mjs";

/** @typedef {{client: import("./lab-client.mjs").LabClient, controlled: Promise<boolean>}} FirstWorker */

/** @type {FirstWorker | null} started and not adopted yet */
let waiting = null;
let started = false;

/** Register the service worker and start the lab's first worker once it controls the page (once). */
export function startFirstWorker() {
  if (started) return;
  started = true;
  const whenControlled = controlled().finally(() => performance.mark("lab:controlled"));
  waiting = { client: startWorker(1, whenControlled), controlled: whenControlled };
}

/**
 * The worker startFirstWorker() started, with whether the page is controlled: for the first
 * LabSession, which owns it from then on. Null when none was started, or it was adopted already.
 * @returns {FirstWorker | null}
 */
export function adoptFirstWorker() {
  const adopted = waiting;
  waiting = null;
  return adopted;
}
