/**
 * The lab's module Web Worker: it boots Python (Pyodide) stage by stage, then forwards every
 * request from the page to Python. The messages it sends and receives are documented in
 * protocol.mjs; the commands themselves live in Python (lab/browser/worker_api.py).
 */
import { BOOT_WHEELS, loadPyodide, PYODIDE_INDEX_URL } from "./build-manifest.mjs";
import { errorInfo } from "./protocol.mjs";

/** @typedef {import("./protocol.mjs").BootStage} BootStage */

/** @param {object} message */
const post = (message) => self.postMessage(message);
/** Milliseconds since the worker started. */
const now = () => Math.round(performance.now());

/** @type {BootStage} the stage that is running, so a failure can say where boot stopped */
let currentStage = "runtime";

/**
 * Run one boot stage between a "start" and a "done" event.
 * @template T
 * @param {BootStage} name
 * @param {() => Promise<T>} work
 * @param {(value: T) => object} [describe] what the "done" event reports about the stage's result
 * @returns {Promise<T>}
 */
async function stage(name, work, describe) {
  currentStage = name;
  const start = now();
  post({ type: "boot", stage: name, state: "start", at: start });
  const value = await work();
  const at = now();
  post({ type: "boot", stage: name, state: "done", at, ms: at - start, detail: describe?.(value) });
  return value;
}

/**
 * Download a wheel (our wheels are fetched while Pyodide boots, not after it).
 * @param {string} url @returns {Promise<{name: string, bytes: ArrayBuffer}>}
 */
async function fetchWheel(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not download ${url}: HTTP ${response.status}`);
  return { name: decodeURIComponent(url.split("/").pop()), bytes: await response.arrayBuffer() };
}

/**
 * Boot Python and resolve to the Python module that answers requests.
 * @returns {Promise<any>} a PyProxy of lab.browser.worker_api
 */
async function boot() {
  const wheels = Promise.all(BOOT_WHEELS.map(fetchWheel));
  wheels.catch(() => {}); // awaited in the "packages" stage, which reports the failure
  const pyodide = await stage(
    "runtime",
    // packageBaseUrl: packages come from our own folder, never from Pyodide's default CDN.
    () => loadPyodide({ indexURL: PYODIDE_INDEX_URL, packageBaseUrl: PYODIDE_INDEX_URL }),
    (py) => ({ pyodide: py.version }),
  );
  await stage("packages", async () => {
    // Unpacked straight into site-packages: a wheel is a zip, and ours need no installer.
    const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
    const downloaded = await wheels;
    for (const { bytes } of downloaded) pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
    return downloaded.map(({ name }) => name);
  }, (packages) => ({ packages }));
  const api = await stage("lab", async () => pyodide.pyimport("lab.browser.worker_api"));
  api.connect((eventJson) => post(JSON.parse(eventJson)));
  await stage("restore", async () => JSON.parse(await api.restore()), (storage) => storage);
  post({ type: "boot", stage: "ready", state: "done", at: now(), ms: now() });
  return api;
}

/**
 * Boot, but fail as soon as an error escapes. Pyodide reports some failures (a failed download of its
 * WebAssembly, for one) only as an unhandled rejection, and then loadPyodide never settles.
 * @returns {Promise<any>} the Python module that answers requests
 */
function bootOrFail() {
  return new Promise((resolve, reject) => {
    const escaped = (event) => settle(reject, event.reason);
    const warn = console.warn;
    const settle = (outcome, value) => {
      self.removeEventListener("unhandledrejection", escaped);
      console.warn = warn;
      outcome(value);
    };
    self.addEventListener("unhandledrejection", escaped);
    // Pyodide 314 starts fetching its WebAssembly early. If that download fails *before* Pyodide
    // awaits it, the failure escapes as an unhandled rejection (above); if it fails *after*, Pyodide
    // catches it, only warns "wasm instantiation failed!" followed by the error, and never settles.
    // That warning is then the only sign, so it fails the boot too.
    let instantiationFailed = false;
    console.warn = (...args) => {
      warn(...args);
      if (instantiationFailed) settle(reject, args[0]);
      instantiationFailed = args[0] === "wasm instantiation failed!";
    };
    boot().then((api) => settle(resolve, api), (error) => settle(reject, error));
  });
}

const booted = bootOrFail();
booted.catch((error) => {
  console.error(`boot failed in stage "${currentStage}"`, error);
  post({ type: "boot", stage: currentStage, state: "error", at: now(), error: errorInfo(error) });
});

self.addEventListener("message", async ({ data: request }) => {
  let api;
  try {
    api = await booted;
  } catch (error) {
    const { message } = errorInfo(error);
    post({ id: request.id, ok: false, error: { type: "BootError", message: `Python did not start: ${message}` } });
    return;
  }
  try {
    post(JSON.parse(await api.dispatch(JSON.stringify(request))));
  } catch (error) {
    // dispatch answers every failing command itself; reaching here is a bug in the worker or in dispatch.
    console.error("dispatch failed", error);
    post({ id: request.id, ok: false, error: { ...errorInfo(error), type: "InternalError" } });
  }
});
