/**
 * One line when the lesson runs without IndexedDB (a cross-site frame, some private modes): the
 * checkpoints live in the in-memory saver and vanish on reload. Python's `stats` says which saver
 * the worker opened; the line is the page's `.storage-line`, written in the page's language from its
 * words (`writeStorageLine`), and shows once `<html data-storage="memory">` is set. The html element
 * outlives a "Next" that swaps the page's body, so the line stays on every step of that lesson.
 */

/**
 * Write the line: why the lesson runs in memory, and a link that opens this step in a new tab.
 * @param {HTMLElement} line @param {{memory_only: string, open_in_tab: string}} words
 */
export function writeStorageLine(line, words) {
  const tab = Object.assign(document.createElement("a"), {
    href: location.pathname,
    target: "_blank",
    rel: "noopener",
    textContent: words.open_in_tab,
  });
  line.replaceChildren(`${words.memory_only} `, tab);
}

/** @param {import("../lab-session.mjs").LabSession} session */
export async function markStorage(session) {
  await session.ready;
  const { storage } = await session.request("stats");
  document.documentElement.dataset.storage = storage;
}
