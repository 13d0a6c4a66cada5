/**
 * Starting Pyodide for the lab, shared by the lab's worker (worker.mjs) and the worker that stores the
 * memory snapshot for return visits (snapshot-worker.mjs).
 *
 * A memory snapshot is a copy of a booted Python's whole memory (about 31 MB). Restoring one skips
 * Pyodide's own boot, the wheels' first imports and `import` of the lab's JavaScript-free modules
 * (lab/preload.py). Pyodide 314 offers it as private API (`_makeSnapshot`, `makeMemorySnapshot()`,
 * `_loadSnapshot`), so the normal boot stays the fallback whenever a snapshot is missing or fails. The
 * build makes it with the same Pyodide in Node (site_build/snapshot.py) and ships it gzipped
 * (MEMORY_SNAPSHOT, about 7 MiB: more than bare Pyodide's whole compressed download). A first visit
 * downloads it only where the browser says the link is fast (shippedSnapshotPays); elsewhere it boots
 * as before. After the first boot, snapshot-worker.mjs stores a snapshot in Cache Storage
 * ("checkpoint-lab-snapshot-<build id>"; sw.mjs deletes other builds' caches) for return visits and
 * spares: the shipped one inflated if the first boot restored it, else one made here by a second boot.
 * The rules it imposes:
 * - the snapshot may hold no JavaScript reference: it imports only the lab's modules that never touch
 *   JavaScript (lab/preload.py), and a Python started with `_makeSnapshot` cannot use `js` afterwards,
 *   so one made here is made in a throwaway worker, never in the lab's own process;
 * - the restored Python has an empty file system: the wheels are unpacked again after a restore;
 * - it only fits the exact Pyodide build and wheels it was made with, and Pyodide itself refuses
 *   another build's.
 */
import { BOOT_WHEELS, BUILD_ID, loadPyodide, MEMORY_SNAPSHOT, PYODIDE_INDEX_URL } from "./build-manifest.mjs";

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
/** Python run before a snapshot is made here: import every lab module that never touches JavaScript. */
const PRELOAD_PYTHON = "import lab.preload; len(lab.preload.preload())";
/**
 * The downlink, in Mbit/s, from which the shipped snapshot is downloaded: 10, the most the Network
 * Information API ever reports (Chromium caps it there, after adding a few percent of noise). Measured
 * (bench/RESULTS.md): at 10 Mbit/s the shipped snapshot makes a first visit slower than the normal
 * boot, on an unthrottled link 2-3 times faster; the API cannot say where between them it starts to pay.
 */
const FAST_DOWNLINK_MBPS = 10;

/**
 * Download the boot wheels and read their files (start this before Pyodide, so all of it happens while
 * Pyodide boots). build.py ships each wheel's files with their precompiled bytecode (a .pyc next to
 * each .py) as a gzipped tar: the browser ungzips it natively, and the tar is read here.
 * @returns {Promise<Array<{name: string, files: Array<{path: string, bytes: Uint8Array}>}>>}
 */
export function fetchWheels() {
  return Promise.all(
    BOOT_WHEELS.map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`could not download ${url}: HTTP ${response.status}`);
      const tar = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
      return { name: decodeURIComponent(url.split("/").pop()), files: tarFiles(new Uint8Array(tar)) };
    }),
  );
}

/**
 * The regular files of a ustar archive, the only kind build.py writes: each 512-byte header holds the
 * name (prefix at 345, name at 0), the size (octal, at 124) and the type (at 156; "0" a file); the
 * file's bytes follow, padded to 512; two zero blocks end it.
 * @param {Uint8Array} tar @returns {Array<{path: string, bytes: Uint8Array}>}
 */
function tarFiles(tar) {
  const decoder = new TextDecoder();
  const files = [];
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const field = (offset, length) => decoder.decode(tar.subarray(at + offset, at + offset + length)).split("\0")[0];
    const size = parseInt(field(124, 12), 8);
    const [prefix, name] = [field(345, 155), field(0, 100)];
    if (field(156, 1) === "0") files.push({ path: prefix ? `${prefix}/${name}` : name, bytes: tar.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/**
 * Write the wheels' files straight into site-packages; ours need no installer.
 * @param {any} pyodide @param {Array<{name: string, files: Array<{path: string, bytes: Uint8Array}>}>} wheels
 * @returns {string[]} the archives' file names
 */
export function unpackWheels(pyodide, wheels) {
  // site is imported at startup (sysconfig is not, and would cost an import): Pyodide asks it too
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const { path, bytes } of wheels.flatMap(({ files }) => files)) {
    const target = `${sitePackages}/${path}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, bytes);
  }
  pyodide.runPython("import importlib; importlib.invalidate_caches()"); // new folders on sys.path
  return wheels.map(({ name }) => name);
}

/**
 * Whether a first visit should download the shipped snapshot: only when the browser says the link is
 * fast (`navigator.connection`: a 4g-class link at FAST_DOWNLINK_MBPS, the learner not saving data).
 * A browser that says nothing (Firefox, Safari) boots as before: there the extra 7 MiB may cost more
 * time than the restore saves.
 * @param {{downlink?: number, effectiveType?: string, saveData?: boolean} | undefined} [connection]
 * @returns {boolean}
 */
export function shippedSnapshotPays(connection = self.navigator.connection) {
  if (!connection || connection.saveData) return false;
  return connection.effectiveType === "4g" && connection.downlink >= FAST_DOWNLINK_MBPS;
}

/**
 * Start Pyodide from a memory snapshot: the one this browser stored (a return visit), else the one the
 * build shipped (MEMORY_SNAPSHOT, gzipped; downloaded while Pyodide's own files are) where that pays
 * (shippedSnapshotPays), else with Pyodide's normal boot. A snapshot that fails falls back to the
 * normal boot; a stored one that fails is deleted (the next snapshot worker stores a new one).
 * @returns {Promise<{pyodide: any, snapshot: "restored" | "shipped" | "none" | string}>} `snapshot` says
 *   which way it went; "failed: <why>" when the snapshot did not restore
 */
export async function startPyodide() {
  const stored = await readSnapshot();
  const snapshot = stored ?? (shippedSnapshotPays() ? shippedSnapshot() : null);
  if (snapshot === null) return { pyodide: await load(), snapshot: "none" };
  snapshot.catch?.(() => {}); // a failed download is reported below, once loadPyodide awaits it
  let why;
  try {
    const pyodide = await load({ _loadSnapshot: snapshot });
    if (pyodide.runPython("6 * 7") === 42) return { pyodide, snapshot: stored ? "restored" : "shipped" };
    why = "the restored Python does not compute";
  } catch (error) {
    why = String(error?.message ?? error).split("\n")[0];
  }
  if (stored) await caches.delete(SNAPSHOT_CACHE).catch(() => {});
  return { pyodide: await load(), snapshot: `failed: ${why}` };
}

/** @returns {Promise<Uint8Array>} the build's snapshot, downloaded and inflated */
async function shippedSnapshot() {
  const response = await fetch(MEMORY_SNAPSHOT);
  if (!response.ok) throw new Error(`could not download ${MEMORY_SNAPSHOT}: HTTP ${response.status}`);
  const inflated = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

/**
 * Store this build's snapshot unless it is stored, so return visits and spares restore it: the shipped
 * one, inflated, when this visit downloaded it (`shipped`: the first boot restored it); else one made
 * here - boot a Python that may be snapshotted, unpack the wheels, import the lab's JavaScript-free
 * modules, snapshot - which costs a boot's CPU instead of the shipped one's 7 MiB.
 * @param {{shipped?: boolean}} [options]
 * @returns {Promise<{snapshot: "present"} |
 *   {snapshot: "made", source: "shipped" | "booted", bytes: number, ms: number}>}
 */
export async function makeSnapshot({ shipped = false } = {}) {
  if (await storedSnapshot()) return { snapshot: "present" };
  const started = performance.now();
  const bytes = shipped ? await shippedSnapshot() : await bootedSnapshot();
  const cache = await caches.open(SNAPSHOT_CACHE);
  await cache.put(SNAPSHOT_KEY, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  const source = shipped ? "shipped" : "booted";
  return { snapshot: "made", source, bytes: bytes.length, ms: Math.round(performance.now() - started) };
}

/** @returns {Promise<Uint8Array>} the snapshot of a Python booted here that has imported the lab */
async function bootedSnapshot() {
  const wheels = fetchWheels();
  const pyodide = await load({ _makeSnapshot: true });
  unpackWheels(pyodide, await wheels);
  pyodide.runPython(PRELOAD_PYTHON);
  return pyodide.makeMemorySnapshot();
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
