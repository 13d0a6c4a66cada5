/**
 * The URL holds the page's own state (never the lab's): which thread, frame and branch are in view,
 * the form's choices and the language - `?thread=…&frame=…&branch=…&variant=…&case=…&durability=…&storage=…&lang=…`,
 * so a link restores what a learner was looking at.
 */

const URL_KEYS = ["thread", "frame", "branch", "variant", "case", "durability", "storage", "lang"];

/** @returns {Record<string, string | null>} each key from the query (or the hash), else null */
export function readUrl() {
  const params = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  const out = {};
  for (const key of URL_KEYS) out[key] = params.get(key) ?? hash.get(key) ?? null;
  return out;
}

/** @param {Record<string, string | null | undefined>} values */
export function writeUrl(values) {
  const params = new URLSearchParams(location.search);
  for (const key of URL_KEYS) {
    if (values[key]) params.set(key, values[key]);
    else params.delete(key);
  }
  const query = params.toString();
  const url = `${location.pathname}${query ? `?${query}` : ""}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, "", url);
}

/** Seconds each node works, from the link (`?delay=0.05` makes tests fast); null: the lab's default. */
export function nodeDelay() {
  const value = Number.parseFloat(new URLSearchParams(location.search).get("delay") ?? "");
  return Number.isFinite(value) && value >= 0 ? value : null;
}
