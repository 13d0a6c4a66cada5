/**
 * The playground's program kept in this tab (sessionStorage), so a reload brings back what the learner
 * wrote, with the challenge it is their work on. Storage that refuses (a framed page, a full quota) or
 * holds something not ours only means a reload opens the gallery.
 */

const KEPT_KEY = "checkpoint-lab.play.program";

/** Keep `source` in this tab, with the challenge (or null) it is the learner's work on. */
export function keepInTab(source, challenge) {
  try {
    sessionStorage.setItem(KEPT_KEY, JSON.stringify({ source, challenge }));
  } catch {
    // storage refused: a reload opens the gallery
  }
}

/** @returns {{source: string, challenge: string | null} | null} the program kept in this tab */
export function keptInTab() {
  try {
    return JSON.parse(sessionStorage.getItem(KEPT_KEY) ?? "null");
  } catch {
    return null; // storage refused, or not ours
  }
}
