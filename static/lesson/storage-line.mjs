/**
 * One line when the lesson runs without IndexedDB (a cross-site frame, some private modes): the
 * checkpoints live in the in-memory saver and vanish on reload. Python's `stats` says which saver
 * the worker opened; the line itself is in the page (`.storage-line`, in the page's language) and
 * shows once `<html data-storage="memory">` is set. The html element outlives a "Next" that swaps
 * the page's body, so the line stays on every step of that lesson.
 */

/** @param {import("../lab-session.mjs").LabSession} session */
export async function markStorage(session) {
  await session.ready;
  const { storage } = await session.request("stats");
  document.documentElement.dataset.storage = storage;
}
