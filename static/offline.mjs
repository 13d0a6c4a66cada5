/**
 * The page's side of working offline (the service worker is sw.mjs):
 *
 *   await controlled();        // register sw.mjs; resolves once it controls the page (or cannot)
 *   await completeOfflineCopy();  // after Python is ready: cache the rest of the build
 *   mountUpdatePrompt();       // "A new version is available" with a Reload button, when it is
 *   await clearOfflineCopy();  // "Reset lab": delete the cached site and the memory snapshots
 *
 * A browser without service workers (or one that refuses them, as some do in private windows and
 * cross-site frames) gets the lab exactly as before, online only.
 */

/** Every Cache Storage cache the lab writes starts with this (sw.mjs and worker.mjs name them). */
export const LAB_CACHE_PREFIX = "checkpoint-lab-";
const SERVICE_WORKER_URL = "/sw.mjs";
/** How long the first visit waits for the service worker before it boots Python without it. */
const CONTROL_TIMEOUT_MS = 10_000;

/** @type {Promise<ServiceWorkerRegistration | null> | null} */
let registering = null;

/** @returns {Promise<ServiceWorkerRegistration | null>} null where there is no service worker */
function register() {
  registering ??= navigator.serviceWorker
    ? navigator.serviceWorker.register(SERVICE_WORKER_URL, { type: "module", scope: "/" }).catch((error) => {
        console.warn("the lab will not work offline: its service worker did not register", error);
        return null;
      })
    : Promise.resolve(null);
  return registering;
}

/**
 * Register the service worker and wait until it controls this page, so that the workers started
 * afterwards load Pyodide through it (and into its cache). Never rejects: after a failure, or
 * CONTROL_TIMEOUT_MS, it resolves and the lab boots from the network.
 * @returns {Promise<boolean>} whether the page is controlled
 */
export async function controlled() {
  if (!(await register())) return false;
  if (navigator.serviceWorker.controller) return true;
  return new Promise((resolve) => {
    const done = () => resolve(Boolean(navigator.serviceWorker.controller));
    navigator.serviceWorker.addEventListener("controllerchange", done, { once: true });
    setTimeout(done, CONTROL_TIMEOUT_MS);
  });
}

/**
 * Ask the service worker to cache every file of the build it does not hold yet.
 * @returns {Promise<{build: string, cached: number, added: number, failed: string[]} | null>}
 *   null when no service worker controls the page
 */
export async function completeOfflineCopy() {
  const worker = navigator.serviceWorker?.controller;
  return worker ? ask(worker, { type: "precache" }) : null;
}

/**
 * Delete every cache the lab wrote: the offline copy of the site and the memory snapshots. Where the
 * browser refuses Cache Storage (a cross-site frame) there is nothing to delete.
 */
export async function clearOfflineCopy() {
  let names;
  try {
    names = (await caches.keys()).filter((name) => name.startsWith(LAB_CACHE_PREFIX));
  } catch {
    return;
  }
  await Promise.all(names.map((name) => caches.delete(name)));
}

/**
 * Show "A new version of the lab is available" with a Reload button when a new deployment's service
 * worker is installed and waiting (or the old one meets a file it cannot serve). Reload lets the new
 * worker take over, then reloads the page: never a mix of two builds.
 * @param {HTMLElement} [parent] where the prompt goes (default: the page's body)
 */
export async function mountUpdatePrompt(parent = document.body) {
  const registration = await register();
  if (!registration) return;
  const show = () => showPrompt(parent, registration);
  if (registration.waiting && navigator.serviceWorker.controller) show();
  registration.addEventListener("updatefound", () => {
    const incoming = registration.installing;
    incoming?.addEventListener("statechange", () => {
      if (incoming.state === "installed" && navigator.serviceWorker.controller) show();
    });
  });
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data?.type === "update-available") show();
  });
}

const PROMPT_TEXT = {
  en: { message: "A new version of the lab is available.", reload: "Reload" },
  zh: { message: "实验室有新版本。", reload: "重新加载" },
};

/** @param {HTMLElement} parent @param {ServiceWorkerRegistration} registration */
function showPrompt(parent, registration) {
  if (document.getElementById("update-prompt")) return;
  const text = document.documentElement.lang.startsWith("zh") ? PROMPT_TEXT.zh : PROMPT_TEXT.en;
  const prompt = document.createElement("p");
  prompt.id = "update-prompt";
  prompt.className = "notice-line";
  prompt.setAttribute("role", "status");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text.reload;
  button.addEventListener("click", () => applyUpdate(registration));
  prompt.append(`${text.message} `, button);
  parent.prepend(prompt);
}

/** Let the waiting service worker take over, then reload into the new build. */
async function applyUpdate(registration) {
  const waiting = registration.waiting;
  if (!waiting) {
    location.reload();
    return;
  }
  navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
  waiting.postMessage({ type: "activate" });
}

/**
 * Send a message to a service worker and wait for its reply on a MessageChannel.
 * @param {ServiceWorker} worker @param {object} message @returns {Promise<any>}
 */
function ask(worker, message) {
  const channel = new MessageChannel();
  const reply = new Promise((resolve) => (channel.port1.onmessage = ({ data }) => resolve(data)));
  worker.postMessage(message, [channel.port2]);
  return reply;
}
