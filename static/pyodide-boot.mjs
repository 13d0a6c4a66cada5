/**
 * Starting Pyodide for the lab, shared by the lab's worker (worker.mjs) and the worker that makes the
 * memory snapshot (snapshot-worker.mjs).
 *
 * A memory snapshot is a copy of a booted Python's whole memory (about 31 MB). Restoring one skips
 * Pyodide's own boot (about 0.4 s instead of 2.7 s). Pyodide 314 offers it as private API
 * (`_makeSnapshot`, `makeMemorySnapshot()`, `_loadSnapshot`), so the normal boot stays the fallback
 * whenever a snapshot is missing, stale or fails. The rules it imposes:
 * - the snapshot may hold no JavaScript reference, so it is made in a throwaway worker that imports
 *   only the lab's modules that never touch JavaScript (lab/preload.py) - a Python started with
 *   `_makeSnapshot` cannot use `js` afterwards, so it can never be the lab's own process;
 * - the restored Python has an empty file system: the wheels are unpacked again after a restore;
 * - it only fits the exact Pyodide build and wheels it was made with: it is cached per build
 *   ("checkpoint-lab-snapshot-<build id>"; sw.mjs deletes other builds' caches), and Pyodide itself
 *   refuses another build's.
 */
import { BOOT_WHEELS, BUILD_ID, loadPyodide, PYODIDE_INDEX_URL } from "./build-manifest.mjs";

/**
 * Start Pyodide with these options added to ours (a fresh object each time: loadPyodide writes to it).
 * packageBaseUrl: packages come from our own folder, never from Pyodide's default CDN.
 * @param {object} [options]
 */
const load = (options = {}) =>
  loadPyodide({ indexURL: PYODIDE_INDEX_URL, packageBaseUrl: PYODIDE_INDEX_URL, ...options });
const SNAPSHOT_CACHE = `checkpoint-lab-snapshot-${BUILD_ID}`;
/** The snapshot's key in its cache: a name, never fetched. */
const SNAPSHOT_KEY = new URL("./pyodide-memory-snapshot", import.meta.url).href;

/** Python run before the snapshot: import every lab module that never touches JavaScript. */
const PRELOAD_PYTHON = "import lab.preload; len(lab.preload.preload())";

/**
 * Download the boot wheels (start this before Pyodide, so both download at once).
 * @returns {Promise<Array<{name: string, bytes: ArrayBuffer}>>}
 */
export function fetchWheels() {
  return Promise.all(
    BOOT_WHEELS.map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`could not download ${url}: HTTP ${response.status}`);
      return { name: decodeURIComponent(url.split("/").pop()), bytes: await response.arrayBuffer() };
    }),
  );
}

/**
 * Unpack the wheels straight into site-packages: a wheel is a zip, and ours need no installer.
 * @param {any} pyodide @param {Array<{name: string, bytes: ArrayBuffer}>} wheels
 * @returns {string[]} the wheels' file names
 */
export function unpackWheels(pyodide, wheels) {
  // site is imported at startup (sysconfig is not, and would cost an import): Pyodide asks it too
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const { bytes } of wheels) pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
  return wheels.map(({ name }) => name);
}

/**
 * Start Pyodide: from this build's memory snapshot when there is one that works, else the normal way.
 * A snapshot that fails is deleted (the next snapshot worker makes a new one).
 * @returns {Promise<{pyodide: any, snapshot: "restored" | "none" | string}>} `snapshot` says which
 *   way it went; "failed: <why>" when a snapshot was there but did not restore
 */
export async function startPyodide() {
  const snapshot = await readSnapshot();
  if (!snapshot) return { pyodide: await load(), snapshot: "none" };
  let why;
  try {
    const pyodide = await load({ _loadSnapshot: snapshot });
    if (pyodide.runPython("6 * 7") === 42) return { pyodide, snapshot: "restored" };
    why = "the restored Python does not compute";
  } catch (error) {
    why = String(error?.message ?? error).split("\n")[0];
  }
  await caches.delete(SNAPSHOT_CACHE).catch(() => {});
  return { pyodide: await load(), snapshot: `failed: ${why}` };
}

/**
 * Make this build's snapshot unless it exists: boot a Python that may be snapshotted, unpack the
 * wheels, import the lab's JavaScript-free modules, snapshot, store.
 * @returns {Promise<{snapshot: "present"} | {snapshot: "made", bytes: number, modules: number, ms: number}>}
 */
export async function makeSnapshot() {
  if (await storedSnapshot()) return { snapshot: "present" };
  const started = performance.now();
  const wheels = fetchWheels();
  const pyodide = await load({ _makeSnapshot: true });
  unpackWheels(pyodide, await wheels);
  const modules = pyodide.runPython(PRELOAD_PYTHON);
  const bytes = pyodide.makeMemorySnapshot();
  const cache = await caches.open(SNAPSHOT_CACHE);
  await cache.put(SNAPSHOT_KEY, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  return { snapshot: "made", bytes: bytes.length, modules, ms: Math.round(performance.now() - started) };
}

/**
 * This build's stored snapshot, if any. Cache Storage may be missing or refused (a cross-site frame,
 * some private windows): then there is none.
 * @returns {Promise<Response | undefined>}
 */
async function storedSnapshot() {
  try {
    return await (await caches.open(SNAPSHOT_CACHE)).match(SNAPSHOT_KEY);
  } catch {
    return undefined;
  }
}

/** @returns {Promise<Uint8Array | null>} this build's snapshot, or null */
async function readSnapshot() {
  const stored = await storedSnapshot();
  return stored ? new Uint8Array(await stored.arrayBuffer()) : null;
}
