/**
 * The site's service worker: after one visit the lab and its lessons work with the network off, and a
 * new deployment never mixes with the old one.
 *
 * Every file of one build - the pages, the modules, Pyodide, the wheels - is listed with its
 * Subresource Integrity hash in the module imported below (build.py writes the list and the import,
 * whose path is the list's hash, so a new deployment is a new service worker). The files live in one
 * Cache Storage cache per build, "checkpoint-lab-site-<build>". The list has two parts: the files
 * precached after a first visit, and those cached on first use - the lessons' seeds, 2 MB of which a
 * deep link fetches one file. A seed is checked and cached like any file the first time a page asks for
 * it, and served from the cache afterwards, offline too; a step whose seed was never fetched replays
 * its moves instead when offline (lesson/runner.mjs). Nothing below downloads a seed unasked.
 *
 * - First visit: the page waits (a moment; at most 10 s) for this worker to control it before it starts
 *   Python, so Pyodide's files pass through `fetch` below, land in the cache once, and the warm spare
 *   worker reads them from there: nothing is downloaded twice. Once Python is ready the page asks for
 *   the rest of the precached files ("precache"): the files it loaded before this worker existed come
 *   from the HTTP cache (`force-cache`), and each one's integrity is checked, so nothing stale gets in.
 * - A new deployment installs a new worker next to the running one. It copies the precached files
 *   that did not change from the old cache (same hash), downloads the others, then waits: the page
 *   shows "update available", and the switch happens only when the learner accepts ("activate") or
 *   every tab of the lab has closed. The old build's caches are deleted then, its memory snapshot and
 *   the seeds it cached with them (the new build fetches a seed again on its first use).
 * - A file the cache lacks and the network only has in another version (its hash differs) is never
 *   served: the page is told that an update is available instead.
 */

/**
 * build.py replaces this line with the import of the build's id and its files, [path, "sha256-..."]
 * pairs: those to precache and those cached on first use.
 */
const BUILD = { id: "unbuilt", precache: [], onFirstUse: [] };

/** The prefix of every cache this site owns; offline.mjs deletes them all on "Reset lab". */
const SITE_CACHE_PREFIX = "checkpoint-lab-site-";
/** The prefix of the memory snapshots' caches (pyodide-boot.mjs writes them, one per build). */
const SNAPSHOT_CACHE_PREFIX = "checkpoint-lab-snapshot-";
const CACHE_NAME = SITE_CACHE_PREFIX + BUILD.id;
/** @type {Map<string, string>} path -> integrity, of every file this worker serves */
const INTEGRITY = new Map([...BUILD.precache, ...BUILD.onFirstUse]);

self.addEventListener("install", (event) => {
  // A first install has nothing to replace: take over at once and cache files as the page loads them.
  // An update copies or downloads the whole new build first, then waits for the page's "activate".
  event.waitUntil(self.registration.active ? precache().then(requireWhole) : self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(deleteOtherBuildsCaches().then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!INTEGRITY.has(url.pathname)) return; // not part of the build: the network answers
  event.respondWith(fromCacheOrNetwork(url.pathname, event));
});

self.addEventListener("message", (event) => {
  const reply = (message) => event.ports[0]?.postMessage(message);
  if (event.data?.type === "precache") {
    event.waitUntil(precache().then((counts) => reply({ build: BUILD.id, ...counts })));
  } else if (event.data?.type === "activate") {
    event.waitUntil(self.skipWaiting());
  }
});

/**
 * Answer from this build's cache; on a miss get the file (checked against its hash) and answer with it
 * while it is being stored - a page waiting for Pyodide's 9.6 MB WebAssembly need not wait for the
 * cache to write it and read it back.
 * @param {string} path @param {FetchEvent} event @returns {Promise<Response>}
 */
async function fromCacheOrNetwork(path, event) {
  // match, not open: a lookup never re-creates a cache that "Reset lab" has just deleted
  const cached = await caches.match(path, { cacheName: CACHE_NAME });
  if (cached) return cached;
  const { got, stored } = storeOnce(path);
  event.waitUntil(stored.catch(() => {})); // the cache may fail to keep it (storage full, say): served anyway
  try {
    return (await got).clone();
  } catch (error) {
    if (error instanceof OtherBuildError) {
      await tellPages({ type: "update-available", reason: error.message });
      return Response.error();
    }
  }
  return download(path).catch(() => Response.error());
}

/**
 * The files on their way into the cache right now, so that each downloads once: `got` resolves to the
 * checked response (each caller takes a clone), `stored` once the cache holds it.
 * @type {Map<string, {got: Promise<Response>, stored: Promise<void>}>}
 */
const storing = new Map();

/**
 * Put this build's `path` into its cache: copied from another build's cache when it has the same bytes,
 * else downloaded. Callers asking for a file already on its way share that one download.
 * @param {string} path @returns {{got: Promise<Response>, stored: Promise<void>}}
 */
function storeOnce(path) {
  if (!storing.has(path)) {
    const got = (async () => (await fromOtherCache(path)) ?? (await download(path)))();
    const stored = got.then(async (response) => (await caches.open(CACHE_NAME)).put(path, response.clone()));
    storing.set(path, { got, stored });
    stored.finally(() => storing.delete(path)).catch(() => {});
  }
  return storing.get(path);
}

/** The server holds another build's version of a file than the one this service worker serves. */
class OtherBuildError extends Error {}

/**
 * This build's bytes of `path`: from the HTTP cache if it holds them, else from the network; each
 * try is checked against the file's hash.
 * @param {string} path @returns {Promise<Response>}
 * @throws {OtherBuildError} when the server sends other bytes; a TypeError when it cannot be reached
 */
async function download(path) {
  const integrity = INTEGRITY.get(path);
  for (const mode of ["force-cache", "no-cache"]) {
    try {
      return await fetch(new Request(path, { cache: mode, integrity }));
    } catch {
      // an integrity failure or a failed connection (both are TypeErrors): try the next way
    }
  }
  const unchecked = await fetch(path, { cache: "no-store" }); // rejects when offline
  throw new OtherBuildError(`the server has another version of ${path} (HTTP ${unchecked.status})`);
}

/**
 * Make this build's cache complete but for the files cached on first use: copy unchanged files from
 * other caches (same hash), take the rest from the HTTP cache or the network, always checked against
 * the build's hashes.
 * @returns {Promise<{cached: number, added: number, failed: string[]}>}
 */
async function precache() {
  const cache = await caches.open(CACHE_NAME);
  const counts = { cached: 0, added: 0, failed: [] };
  await Promise.all(
    BUILD.precache.map(async ([path]) => {
      if (await cache.match(path)) counts.cached += 1;
      else await storeOnce(path).stored.then(() => (counts.added += 1), () => counts.failed.push(path));
    }),
  );
  return counts;
}

/** An update installs only whole: every precached file (a failed install is retried at the next visit). */
function requireWhole({ failed }) {
  if (failed.length) throw new Error(`could not cache ${failed.join(", ")}`);
}

/** A file of this build already stored by another build's cache, or null. */
async function fromOtherCache(path) {
  const found = await caches.match(path);
  if (!found) return null;
  return (await sha256Integrity(found.clone())) === INTEGRITY.get(path) ? found : null;
}

/** @param {Response} response @returns {Promise<string>} its body's "sha256-<base64>" */
async function sha256Integrity(response) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

async function deleteOtherBuildsCaches() {
  const ours = (name) => name.startsWith(SITE_CACHE_PREFIX) || name.startsWith(SNAPSHOT_CACHE_PREFIX);
  const stale = (await caches.keys()).filter((name) => ours(name) && !name.endsWith(`-${BUILD.id}`));
  await Promise.all(stale.map((name) => caches.delete(name)));
}

/** @param {object} message sent to every page of the site */
async function tellPages(message) {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(message);
}
