/**
 * The lab page (index.html) and the embeddable lab (embed.html): a view over the worker's events.
 *
 * It shows boot progress stage by stage, a plain error view with a Retry button if boot fails, a
 * notice when storage falls back to memory, and - once ready - a status line and a Ping button.
 * The page keeps no lab state of its own; everything shown comes from events or responses.
 *
 * For the curious (and for tests): `window.lab` is the LabClient, so the browser console can run
 * `await lab.request("stats")`.
 */
import { LabClient } from "./lab-client.mjs";
import { BOOT_STAGES } from "./protocol.mjs";

/** @typedef {import("./protocol.mjs").LabEvent} LabEvent */

/** What each stage is called on screen, and what it means when it fails. */
const STAGE_TEXT = {
  runtime: {
    label: "Python runtime",
    failed: "Python (Pyodide) could not be downloaded or started. Check your connection, then retry.",
  },
  packages: {
    label: "Packages",
    failed: "The lab's Python packages could not be downloaded. Check your connection, then retry.",
  },
  lab: { label: "Lab runtime", failed: "The lab's Python code failed to load. This is a bug in the lab." },
  restore: { label: "Saved threads", failed: "Saved threads could not be restored." },
  ready: { label: "Ready", failed: "The lab could not start." },
};
const WORKER_FAILED = "Your browser could not start the lab's background worker.";

const $ = (selector) => document.querySelector(selector);
const view = {
  stages: $("#boot-stages"),
  progress: $("#boot-progress"),
  status: $("#boot-status"),
  error: $("#boot-error"),
  errorMessage: $("#boot-error-message"),
  errorDetail: $("#boot-error-detail"),
  retry: $("#boot-retry"),
  storageNotice: $("#storage-notice"),
  storageMessage: $("#storage-message"),
  session: $("#session"),
  sessionFacts: $("#session-facts"),
  ping: $("#ping"),
  pingResult: $("#ping-result"),
};

/** @type {LabClient | null} */
let client = null;
/** When the current boot began: the navigation itself for the first one, the Retry click after. */
let bootStartedAt = 0;

/** Draw the stage list once: one item per stage, all pending. */
function renderStages() {
  view.stages.replaceChildren(
    ...BOOT_STAGES.map((stage) => {
      const item = document.createElement("li");
      item.dataset.stage = stage;
      item.dataset.state = "pending";
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = STAGE_TEXT[stage].label;
      const time = document.createElement("span");
      time.className = "time";
      item.append(label, time);
      return item;
    }),
  );
  view.progress.max = BOOT_STAGES.length;
  view.progress.value = 0;
}

/** @param {string} stage @param {string} state @param {string} [time] */
function showStage(stage, state, time = "") {
  const item = view.stages.querySelector(`[data-stage="${stage}"]`);
  item.dataset.state = state;
  item.querySelector(".time").textContent = time;
  view.progress.value = view.stages.querySelectorAll('[data-state="done"]').length;
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** @param {LabEvent} event */
function onEvent(event) {
  if (event.type === "worker-error") {
    showFailure(WORKER_FAILED, event.error);
  } else if (event.type === "boot") {
    onBootEvent(event);
  }
}

/** @param {import("./protocol.mjs").BootEvent} event */
function onBootEvent(event) {
  const { stage, state } = event;
  if (state === "start") {
    showStage(stage, "active");
    view.status.textContent = `${STAGE_TEXT[stage].label}…`;
  } else if (state === "done" && stage !== "ready") {
    showStage(stage, "done", seconds(event.ms));
  } else if (state === "done") {
    showReady(event);
  } else if (state === "warning") {
    view.storageMessage.textContent = event.message;
    view.storageNotice.hidden = false;
  } else if (state === "error") {
    showStage(stage, "error");
    showFailure(STAGE_TEXT[stage].failed, event.error);
  }
}

/** @param {import("./protocol.mjs").BootEvent} event */
async function showReady(event) {
  const pageMs = performance.now() - bootStartedAt; // page load (or Retry) -> ready
  showStage("ready", "done", seconds(pageMs));
  document.body.dataset.readyMs = String(Math.round(pageMs));
  document.body.dataset.bootState = "ready";
  view.status.textContent = `Ready in ${seconds(pageMs)} (Python booted in ${seconds(event.ms)}).`;
  view.session.hidden = false;
  try {
    const stats = await client.request("stats");
    const storage = stats.storage === "indexeddb" ? "IndexedDB" : "memory only";
    view.sessionFacts.textContent = `Python ${stats.python} · Pyodide ${stats.pyodide} · storage: ${storage}`;
  } catch (error) {
    view.sessionFacts.textContent = `Python is running, but did not report its facts: ${error.message}`;
  }
}

/**
 * Show the error view: a sentence for the learner, the technical reason folded away.
 * @param {string} sentence @param {import("./protocol.mjs").ErrorInfo} error
 */
function showFailure(sentence, error) {
  if (document.body.dataset.bootState === "error") return; // the first failure is the cause
  document.body.dataset.bootState = "error";
  view.status.textContent = "The lab could not start.";
  view.errorMessage.textContent = sentence;
  view.errorDetail.textContent = `${error.type}: ${error.message}`;
  view.error.hidden = false;
  view.retry.focus();
}

/** Start (or restart) the worker with a clean view. */
function boot() {
  client?.terminate();
  document.body.dataset.bootState = "booting";
  delete document.body.dataset.readyMs;
  view.error.hidden = true;
  view.storageNotice.hidden = true;
  view.session.hidden = true;
  view.pingResult.textContent = "";
  view.status.textContent = "Starting…";
  renderStages();
  client = new LabClient();
  client.onEvent(onEvent);
  window.lab = client;
}

view.retry.addEventListener("click", () => {
  bootStartedAt = performance.now();
  boot();
});
view.ping.addEventListener("click", async () => {
  const start = performance.now();
  try {
    const { python } = await client.request("ping");
    view.pingResult.textContent = `Python ${python} answered in ${(performance.now() - start).toFixed(1)} ms`;
  } catch (error) {
    view.pingResult.textContent = `Ping failed: ${error.message}`;
  }
});

boot();
