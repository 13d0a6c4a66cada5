/**
 * The lab's module Web Worker: it boots Python (Pyodide) stage by stage, then forwards every
 * request from the page to Python. The messages it sends and receives are documented in
 * protocol.mjs; the commands themselves live in Python (lab/browser/worker_api.py). Its name (the
 * Worker's `name` option, lab-client.mjs) is the Python module of the graph its lab opens, or "" for
 * none (lab/browser/lab_rpc.py, open_lab).
 */
import { LOADED_ON_IMPORT } from "./build-manifest.mjs"; // pyodide-boot.mjs imports it too: one level sooner
import { errorInfo } from "./protocol.mjs";
import { fetchWheels, startPyodide, unpackWheels } from "./pyodide-boot.mjs";
import * as indexedDBWrites from "./indexeddb-writes.mjs";

/** @typedef {import("./protocol.mjs").BootStage} BootStage */

// The IndexedDB saver (lab/checkpoint/indexeddb.py) makes each write transaction through this module.
self.labIndexedDBWrites = indexedDBWrites;

/** @param {object} message */
const post = (message) => self.postMessage(message);
/** Milliseconds since the worker started. */
const now = () => Math.round(performance.now());

/** @type {BootStage} the stage that is running, so a failure can say where boot stopped */
let currentStage = "runtime";

/**
 * The page's answers to Python's own calls (page_calls.py). Python may wait for one while it boots
 * (its restore stage reads the records the page keeps, page-records.mjs), so these are dispatched as
 * soon as the lab is imported, not held until "ready" like every other request.
 */
const ANSWERS_TO_PYTHON = new Set(["records_reply", "world_reply"]);
/** @type {any} lab.browser.worker_api, once the "lab" stage has imported it */
let imported = null;

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
 * Boot Python and resolve to the Python module that answers requests.
 * @returns {Promise<any>} a PyProxy of lab.browser.worker_api
 */
async function boot() {
  const wheels = fetchWheels(); // while Pyodide boots
  wheels.catch(() => {}); // awaited in the "packages" stage, which reports the failure
  const { pyodide } = await stage("runtime", startPyodide, ({ pyodide: py, snapshot }) => ({
    pyodide: py.version,
    snapshot,
  }));
  await stage("packages", async () => unpackWheels(pyodide, await wheels), (packages) => ({ packages }));
  self.labLoadPackage = (name) => loadOnImport(pyodide, name);
  const api = await stage("lab", async () => {
    pyodide.pyimport("lab.browser.event_loop").install(); // asyncio's ready callbacks run in batches
    return pyodide.pyimport("lab.browser.worker_api");
  });
  imported = api;
  api.connect((eventJson) => post(JSON.parse(eventJson)));
  // the graph the page named (LabSession's `graph`, given as this worker's name); "" names none
  await stage("restore", async () => JSON.parse(await api.restore(self.name)), (storage) => storage);
  post({ type: "boot", stage: "ready", state: "done", at: now(), ms: now() });
  return api;
}

/**
 * Load a package a program imports (lab/browser/packages.py awaits this): its wheels, from this site
 * (build-manifest.mjs: LOADED_ON_IMPORT), through Pyodide's package loader; the page is told while
 * it loads ({type: "package", name, bytes, state: "loading" | "loaded"}: PackageEvent, protocol.mjs).
 * @param {any} pyodide @param {string} name
 */
async function loadOnImport(pyodide, name) {
  const { bytes, urls } = LOADED_ON_IMPORT[name];
  post({ type: "package", name, bytes, state: "loading" });
  const errors = []; // Pyodide's loader reports a failed download here, and resolves anyway
  await pyodide.loadPackage(urls, { messageCallback: () => {}, errorCallback: (error) => errors.push(error) });
  if (errors.length) throw new Error(errors[0]); // the first failure says why
  post({ type: "package", name, bytes, state: "loaded" });
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
    api = ANSWERS_TO_PYTHON.has(request.cmd) && imported !== null ? imported : await booted;
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
