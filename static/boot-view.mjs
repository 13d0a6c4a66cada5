/**
 * The boot view: the Python process starting stage by stage (with times), a plain error view with
 * Retry (and, when saved data no longer loads, the way back), the notice when storage falls back to
 * memory, and the facts line (Python, Pyodide, storage) once the lab is ready.
 */
import { BOOT_STAGES } from "./protocol.mjs";
import { lang, t } from "./i18n.mjs";
import { h } from "./views/dom.mjs";

const $ = (selector) => document.querySelector(selector);
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
/** How often the running boot stage's time is redrawn. */
const TICK_MS = 250;

/**
 * @param {{onFirstReady: () => void, onReplacementBooting: (stage: string) => void,
 *          onReplacementFailed: (error: {message: string}) => void, readStats: () => Promise<object>}} hooks
 */
export function mountBoot(hooks) {
  const el = {
    stages: $("#boot-stages"),
    progress: $("#boot-progress"),
    status: $("#boot-status"),
    error: $("#boot-error"),
    errorMessage: $("#boot-error-message"),
    errorDetail: $("#boot-error-detail"),
    storageNotice: $("#storage-notice"),
    storageMessage: $("#storage-message"),
    facts: $("#session-facts"),
  };
  let startedAt = 0;
  let failure = null; // {stage, error} of a failed boot, re-rendered on a language switch
  let everReady = false; // after the first ready, boot events belong to a replacement process
  let stats = null;

  function renderStages() {
    el.stages.replaceChildren(...BOOT_STAGES.map((stage) =>
      h("li", { dataset: { stage, state: "pending" } },
        h("span", { class: "label", text: t(`boot.stage.${stage}`) }), h("span", { class: "time" }))));
    el.progress.max = BOOT_STAGES.length;
    el.progress.value = 0;
  }

  /**
   * The running stage counts its seconds a few times a second. This is the only motion while Python
   * boots: a spinning icon would draw 60 frames a second on the same cores that boot Python. Measured
   * in headless Chromium (bench/boot_cpu.py), such a spinner used about 0.6 s of CPU during a 5 s boot.
   */
  let ticking = 0;
  function tick(item) {
    clearInterval(ticking);
    if (!item) return;
    const since = performance.now();
    const time = item.querySelector(".time");
    ticking = setInterval(() => (time.textContent = seconds(performance.now() - since)), TICK_MS);
  }

  function showStage(stage, state, time = "") {
    const item = el.stages.querySelector(`[data-stage="${stage}"]`);
    if (!item) return;
    item.dataset.state = state;
    item.querySelector(".time").textContent = time;
    el.progress.value = el.stages.querySelectorAll('[data-state="done"]').length;
    tick(state === "active" ? item : null);
  }

  function onBootEvent(event) {
    const { stage, state } = event;
    if (state === "start") {
      if (stage === BOOT_STAGES[0] && everReady) renderStages(); // a replacement process boots
      showStage(stage, "active");
      el.status.textContent = `${t(`boot.stage.${stage}`)}…`;
      if (everReady) hooks.onReplacementBooting(t(`boot.stage.${stage}`));
    } else if (state === "done" && stage !== "ready") {
      showStage(stage, "done", seconds(event.ms));
    } else if (state === "done") {
      showReady(event);
    } else if (state === "warning") {
      el.storageMessage.textContent = lang() === "en" || !event.message ? event.message : t("boot.memoryOnly");
      el.storageMessage.dataset.original = event.message ?? "";
      el.storageNotice.hidden = false;
    } else if (state === "error") {
      showStage(stage, "error");
      showFailure(stage, event.error);
    }
  }

  async function showReady(event) {
    if (everReady) {
      showStage("ready", "done", seconds(event.ms ?? 0));
      el.status.textContent = t("boot.rebooted", { python: seconds(event.ms ?? 0) });
      return; // the process event "ready" carries on
    }
    const pageMs = performance.now() - startedAt;
    showStage("ready", "done", seconds(pageMs));
    document.body.dataset.readyMs = String(Math.round(pageMs));
    document.body.dataset.bootState = "ready";
    el.status.textContent = t("boot.ready", { page: seconds(pageMs), python: seconds(event.ms) });
    el.status.dataset.page = seconds(pageMs);
    el.status.dataset.python = seconds(event.ms);
    everReady = true;
    $("#lab").hidden = false;
    hooks.onFirstReady();
    try {
      stats = await hooks.readStats();
      renderFacts();
    } catch (error) {
      el.facts.textContent = t("boot.factsFailed", { message: error.message });
    }
  }

  function renderFacts() {
    if (!stats) return;
    el.facts.textContent = t("boot.facts", {
      python: stats.python,
      pyodide: stats.pyodide,
      storage: stats.storage === "indexeddb" ? t("boot.storage.indexeddb") : t("boot.storage.memory"),
    });
  }

  function showFailure(stage, error) {
    if (document.body.dataset.bootState === "error") return; // the first failure is the cause
    if (everReady) {
      hooks.onReplacementFailed(error); // the lab stays, and says so
      return;
    }
    failure = { stage, error };
    document.body.dataset.bootState = "error";
    el.status.textContent = t("boot.couldNotStart");
    el.errorMessage.textContent = stage ? t(`boot.failed.${stage}`) : t("boot.workerFailed");
    el.errorDetail.textContent = `${error.type}: ${error.message}`;
    $("#boot-wipe").hidden = stage !== "restore"; // saved data that does not load: offer the way back
    el.error.hidden = false;
    $("#boot-retry").focus();
  }

  /** A (new) boot starts: forget the last one. */
  function reset(at) {
    startedAt = at ?? startedAt;
    everReady = false;
    failure = null;
    document.body.dataset.bootState = "booting";
    delete document.body.dataset.readyMs;
    el.error.hidden = true;
    el.storageNotice.hidden = true;
    $("#lab").hidden = true;
    el.status.textContent = t("boot.starting");
    tick(null);
    renderStages();
  }

  /** Redraw every boot string in the current language. */
  function translate() {
    for (const item of el.stages.querySelectorAll("[data-stage]")) {
      item.querySelector(".label").textContent = t(`boot.stage.${item.dataset.stage}`);
    }
    if (document.body.dataset.bootState === "ready" && el.status.dataset.page) {
      el.status.textContent = t("boot.ready", { page: el.status.dataset.page, python: el.status.dataset.python });
    }
    if (failure) {
      el.errorMessage.textContent = failure.stage ? t(`boot.failed.${failure.stage}`) : t("boot.workerFailed");
      el.status.textContent = t("boot.couldNotStart");
    }
    if (el.storageMessage.dataset.original) {
      el.storageMessage.textContent = lang() === "en" ? el.storageMessage.dataset.original : t("boot.memoryOnly");
    }
    renderFacts();
  }

  return {
    onBootEvent,
    showFailure,
    reset,
    translate,
    get everReady() {
      return everReady;
    },
  };
}
