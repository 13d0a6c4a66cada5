/**
 * The lab page (index.html) and the embeddable lab (embed.html): a view over the lab session.
 *
 * Boot: progress stage by stage, a plain error view with Retry, a notice when storage falls back to
 * memory. Then the lab: choose a case, variant and durability → Start (or go back to a saved thread:
 * the Threads picker → Open thread); Step / Run / Resume; Approve /
 * Reject at the interrupt; arm a crash at a named seam; travel through the frames, replay, fork; the
 * branch tree, the ledger, the execution counts.
 *
 * It is a VIEW. Every fact it shows comes from a LabSession command (the Python controller's answer)
 * or an event; it never decides what re-ran or what a checkpoint means. The only state it keeps is the
 * view's own - which frame and branch are selected, the language, the form's choices - and that state
 * lives in the URL as well (`?thread=…&frame=…&branch=…&variant=…&case=…&durability=…&lang=…`). A link
 * to a saved thread that is not the lab's current one opens it on boot.
 *
 * For the curious (and for tests): `window.lab` is the LabSession (`await lab.command("frames")`), and
 * `window.labView` exposes the view model read-only.
 */
import { LabSession } from "./lab-session.mjs";
import { BOOT_STAGES } from "./protocol.mjs";
import { LANGS, lang, onLangChange, setLang, t, translateDom } from "./i18n.mjs";
import { mountUpdatePrompt } from "./offline.mjs";
import { mountActivity } from "./views/activity.mjs";
import { actionForKey, actionButton, relabel, SHORTCUTS } from "./views/actions.mjs";
import { mountBranches } from "./views/branches.mjs";
import { mountCheckpoints } from "./views/checkpoints.mjs";
import { mountControls } from "./views/controls.mjs";
import { mountCrash, RANDOM } from "./views/crash.mjs";
import { h, replace, shortId } from "./views/dom.mjs";
import { mountExecutions } from "./views/executions.mjs";
import { mountFork } from "./views/fork.mjs";
import { mountGraph } from "./views/graph.mjs";
import { mountInspector } from "./views/inspector.mjs";
import { mountLedger } from "./views/ledger.mjs";
import { mountScrubber } from "./views/scrubber.mjs";
import { mountThreads } from "./views/threads.mjs";

const $ = (selector) => document.querySelector(selector);

// ------------------------------------------------------------------------------------------------
// The URL: the view's state, restorable from a link
// ------------------------------------------------------------------------------------------------

const URL_KEYS = ["thread", "frame", "branch", "variant", "case", "durability", "lang"];

function readUrl() {
  const params = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  const out = {};
  for (const key of URL_KEYS) out[key] = params.get(key) ?? hash.get(key) ?? null;
  return out;
}

function writeUrl() {
  const params = new URLSearchParams(location.search);
  const values = {
    thread: model.session?.thread_id,
    frame: model.selectedId,
    branch: model.branchLeaf,
    variant: model.session?.variant ?? model.choices.variant,
    case: model.session?.case_id ?? model.choices.case,
    durability: model.choices.durability,
    lang: lang(),
  };
  for (const key of URL_KEYS) {
    if (values[key]) params.set(key, values[key]);
    else params.delete(key);
  }
  const query = params.toString();
  const url = `${location.pathname}${query ? `?${query}` : ""}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, "", url);
}

const fromUrl = readUrl();
if (fromUrl.lang && LANGS.includes(fromUrl.lang)) setLang(fromUrl.lang);

// ------------------------------------------------------------------------------------------------
// The view model
// ------------------------------------------------------------------------------------------------

const model = {
  lang: lang(),
  langChanged: false,
  catalog: null,
  graph: null, // the diagram of the session's variant (or of the chosen one before Start)
  session: null,
  threads: [], // the saved threads (the controller's threads()), newest first
  state: null,
  frames: [], // committed checkpoints, oldest first
  tree: null,
  executions: null,
  ledger: null,
  selectedId: null,
  follow: true, // keep the newest frame selected as frames arrive
  branchLeaf: null, // the branch in view (its leaf); null: the head's branch
  branchPath: [],
  detail: null, // {frame, diff} of the selected frame
  nodeStates: {},
  busy: null, // the command in flight
  process: "booting", // booting | ready | crashed
  crash: null, // the last crash_point (+ kept: checkpoints IndexedDB held afterwards)
  choices: {
    case: fromUrl.case,
    variant: ["misplaced", "fixed"].includes(fromUrl.variant) ? fromUrl.variant : "misplaced",
    durability: ["sync", "async", "exit"].includes(fromUrl.durability) ? fromUrl.durability : "sync",
  },
  lastRunDurability: null,
  randomArmed: false, // "crash at a random moment" is armed for the next run
  forkError: "",
  activity: [],
};
window.labView = model;

// ------------------------------------------------------------------------------------------------
// Boot view
// ------------------------------------------------------------------------------------------------

const boot = {
  section: $("#boot"),
  stages: $("#boot-stages"),
  progress: $("#boot-progress"),
  status: $("#boot-status"),
  error: $("#boot-error"),
  errorMessage: $("#boot-error-message"),
  errorDetail: $("#boot-error-detail"),
  retry: $("#boot-retry"),
  storageNotice: $("#storage-notice"),
  storageMessage: $("#storage-message"),
  facts: $("#session-facts"),
};

/** @type {LabSession | null} */
let session = null;
let bootStartedAt = 0;
let bootFailure = null; // {stage, error} of a failed boot, re-rendered on a language switch
let everReady = false; // after the first ready, boot events belong to a replacement process

function renderStages() {
  boot.stages.replaceChildren(
    ...BOOT_STAGES.map((stage) =>
      h("li", { dataset: { stage, state: "pending" } },
        h("span", { class: "label", text: t(`boot.stage.${stage}`) }),
        h("span", { class: "time" }))),
  );
  boot.progress.max = BOOT_STAGES.length;
  boot.progress.value = 0;
}

function showStage(stage, state, time = "") {
  const item = boot.stages.querySelector(`[data-stage="${stage}"]`);
  if (!item) return;
  item.dataset.state = state;
  item.querySelector(".time").textContent = time;
  boot.progress.value = boot.stages.querySelectorAll('[data-state="done"]').length;
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

function onBootEvent(event) {
  const { stage, state } = event;
  if (state === "start") {
    if (stage === BOOT_STAGES[0] && everReady) renderStages(); // a replacement process boots
    showStage(stage, "active");
    boot.status.textContent = `${t(`boot.stage.${stage}`)}…`;
    if (everReady) setProcess("booting", t(`boot.stage.${stage}`));
  } else if (state === "done" && stage !== "ready") {
    showStage(stage, "done", seconds(event.ms));
  } else if (state === "done") {
    showReady(event);
  } else if (state === "warning") {
    boot.storageMessage.textContent = lang() === "en" || !event.message ? event.message : t("boot.memoryOnly");
    boot.storageMessage.dataset.original = event.message ?? "";
    boot.storageNotice.hidden = false;
  } else if (state === "error") {
    showStage(stage, "error");
    showFailure(stage, event.error);
  }
}

async function showReady(event) {
  if (everReady) {
    showStage("ready", "done", seconds(event.ms ?? 0));
    boot.status.textContent = t("boot.rebooted", { python: seconds(event.ms ?? 0) });
    return; // the process event "ready" carries on
  }
  const pageMs = performance.now() - bootStartedAt;
  showStage("ready", "done", seconds(pageMs));
  document.body.dataset.readyMs = String(Math.round(pageMs));
  document.body.dataset.bootState = "ready";
  boot.status.textContent = t("boot.ready", { page: seconds(pageMs), python: seconds(event.ms) });
  boot.status.dataset.page = seconds(pageMs);
  boot.status.dataset.python = seconds(event.ms);
  everReady = true;
  $("#lab").hidden = false;
  render();
  try {
    model.stats = await session.request("stats");
    renderFacts();
  } catch (error) {
    boot.facts.textContent = t("boot.factsFailed", { message: error.message });
  }
}

function renderFacts() {
  const stats = model.stats;
  if (!stats) return;
  boot.facts.textContent = t("boot.facts", {
    python: stats.python,
    pyodide: stats.pyodide,
    storage: stats.storage === "indexeddb" ? t("boot.storage.indexeddb") : t("boot.storage.memory"),
  });
}

function showFailure(stage, error) {
  if (document.body.dataset.bootState === "error") return; // the first failure is the cause
  if (everReady) {
    // A replacement process failed to boot: the lab stays, and says so.
    setProcess("crashed");
    showError(t("process.rebootFailed", { message: error.message }));
    return;
  }
  bootFailure = { stage, error };
  document.body.dataset.bootState = "error";
  boot.status.textContent = t("boot.couldNotStart");
  boot.errorMessage.textContent = stage ? t(`boot.failed.${stage}`) : t("boot.workerFailed");
  boot.errorDetail.textContent = `${error.type}: ${error.message}`;
  $("#boot-wipe").hidden = stage !== "restore"; // saved data that does not load: offer the way back
  boot.error.hidden = false;
  boot.retry.focus();
}

/** Seconds each node works, from the link (`?delay=0.05` makes tests fast); null: the lab's default. */
function nodeDelay() {
  const value = Number.parseFloat(new URLSearchParams(location.search).get("delay") ?? "");
  return Number.isFinite(value) && value >= 0 ? value : null;
}

function startBoot() {
  session?.close();
  everReady = false;
  bootFailure = null;
  document.body.dataset.bootState = "booting";
  delete document.body.dataset.readyMs;
  boot.error.hidden = true;
  boot.storageNotice.hidden = true;
  $("#lab").hidden = true;
  boot.status.textContent = t("boot.starting");
  renderStages();
  session = new LabSession({ delay: nodeDelay() });
  session.onEvent(onEvent);
  window.lab = session;
}

boot.retry.addEventListener("click", () => {
  bootStartedAt = performance.now();
  startBoot();
});

// ------------------------------------------------------------------------------------------------
// The lab's views
// ------------------------------------------------------------------------------------------------

const actions = {
  start, step: () => advance("step"), run: () => advance("run"), resume, answer, arm, disarm,
  choose, move, moveTo, replay, fork, select, selectBranch, openThread,
};

const views = {
  controls: mountControls($("#controls"), actions),
  threads: mountThreads($("#threads"), actions),
  crash: mountCrash($("#crash"), actions, $("#crash-report")),
  graph: mountGraph($("#graph")),
  executions: mountExecutions($("#executions")),
  checkpoints: mountCheckpoints($("#checkpoints"), { onSelect: (id) => select(id) }),
  scrubber: mountScrubber($("#scrubber-view"), actions),
  inspector: mountInspector($("#inspector-view")),
  fork: mountFork($("#fork-view"), actions),
  branches: mountBranches($("#branches-view"), { onBranch: selectBranch, onSelect: (id) => select(id) }),
  ledger: mountLedger($("#ledger")),
  activity: mountActivity($("#activity")),
};

const barButtons = {
  help: actionButton("help", () => openHelp(), { id: "action-help", class: "quiet" }),
  reset: actionButton("reset", () => askReset(), { id: "action-reset", class: "danger quiet" }),
};
$("#lab-actions").append(barButtons.help, barButtons.reset);

let renderQueued = false;
function render() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(renderNow);
}

function renderNow() {
  renderQueued = false;
  model.lang = lang();
  model.branchPath = branchPath();
  for (const [name, view] of Object.entries(views)) {
    try {
      view.render(model);
    } catch (error) {
      console.error(`view ${name} failed to render`, error);
    }
  }
  model.langChanged = false;
  for (const b of Object.values(barButtons)) relabel(b, t(`action.${b.dataset.action}`));
  barButtons.reset.disabled = Boolean(model.busy) || model.process !== "ready";
  renderStatus();
  document.body.dataset.process = model.process;
  document.body.dataset.busy = model.busy ?? "";
  writeUrl();
}

/** The frames of the branch in view, root first: follow parent ids from its leaf. */
function branchPath() {
  const byId = new Map(model.frames.map((f) => [f.checkpoint_id, f]));
  const leaf = (model.branchLeaf && byId.get(model.branchLeaf)) || model.frames.at(-1);
  const path = [];
  for (let f = leaf; f; f = f.parent_id ? byId.get(f.parent_id) : null) {
    path.push(f.checkpoint_id);
    if (path.length > byId.size) break;
  }
  return path.reverse();
}

// ------------------------------------------------------------------------------------------------
// Status line, error line, process indicator
// ------------------------------------------------------------------------------------------------

let statusMessage = () => t("status.idle");
function setStatus(message) {
  statusMessage = message;
  render();
}

function renderStatus() {
  const text = statusMessage();
  const line = $("#status");
  if (line.textContent !== text) line.textContent = text;
  const proc = $("#process");
  const procText = processText();
  if (proc.textContent !== procText) proc.textContent = procText;
  proc.dataset.state = model.process;
}

let processDetail = "";
let processNumber = 1;
let spareReady = false;
function setProcess(state, detail = "") {
  model.process = state;
  processDetail = detail;
  render();
}

function processText() {
  const spare = spareReady ? ` · ${t("process.spare")}` : "";
  if (model.process === "ready") return t("process.ready", { n: processNumber }) + spare;
  if (model.process === "crashed") return t("process.crashed", { n: processNumber });
  return t("process.booting", { n: processNumber, stage: processDetail || "…" });
}

let errorText = null;
function showError(text) {
  errorText = text;
  const line = $("#error-line");
  line.textContent = typeof text === "function" ? text() : text ?? "";
  line.hidden = !text;
}

function clearError() {
  showError(null);
  model.forkError = "";
}

function log(kind, text) {
  const now = new Date();
  const time = `${String(now.getMinutes()).padStart(2, "0")}:${String(now.getSeconds()).padStart(2, "0")}.${String(now.getMilliseconds()).padStart(3, "0")}`;
  model.activity.push({ kind, time, text });
  if (model.activity.length > 400) model.activity.splice(0, model.activity.length - 400);
  render();
}

// ------------------------------------------------------------------------------------------------
// Commands
// ------------------------------------------------------------------------------------------------

/** True while the worker is being replaced: a failing command then is the crash, not an error. */
const crashing = () => model.process !== "ready";

/**
 * Run one controller command with the page marked busy; show a refusal as the error line.
 * @returns {Promise<any>} the result, or undefined when it failed
 */
async function act(name, args = {}, { label = name, refreshAfter = true, then = null } = {}) {
  clearError();
  model.busy = name;
  render();
  try {
    const result = await session.command(name, args);
    then?.(result);
    return result;
  } catch (error) {
    if (!crashing() && error?.type !== "Terminated") {
      showError(() => t("error.command", { action: t(`action.${label}`, {}, label), message: error.message ?? String(error) }));
      if (name === "fork") model.forkError = error.message;
      log("error", () => t("log.refused", { action: label, message: error.message }));
    }
    return undefined;
  } finally {
    model.busy = null;
    render();
    if (refreshAfter && !crashing()) await refresh();
    commandFinished();
  }
}

/** Commands finished (with the view refreshed after them): `body[data-commands-done]`, for tests. */
let commandsDone = 0;
function commandFinished() {
  commandsDone += 1;
  document.body.dataset.commandsDone = String(commandsDone);
}

let refreshSeq = 0;
/** Read what the controller and storage hold now: state, frames, branches, executions, ledger. */
async function refresh() {
  const seq = ++refreshSeq;
  if (!model.session) {
    Object.assign(model, { state: null, frames: [], tree: null, executions: null, detail: null, selectedId: null });
    model.ledger = await readLedger().catch(() => null);
    model.threads = (await session.command("threads").catch(() => null))?.threads ?? [];
    render();
    return;
  }
  try {
    const [state, frames, tree, executions, ledger, threads] = await Promise.all([
      session.command("state"),
      session.command("frames"),
      session.command("branches"),
      session.command("executions"),
      readLedger(),
      session.command("threads"),
    ]);
    if (seq !== refreshSeq) return; // a newer refresh is under way
    model.threads = threads.threads;
    model.state = state;
    model.frames = frames.frames;
    model.tree = tree;
    model.executions = executions;
    model.ledger = ledger;
    if (model.branchLeaf && !model.frames.some((f) => f.checkpoint_id === model.branchLeaf)) model.branchLeaf = null;
    await settleSelection();
  } catch (error) {
    if (!crashing()) showError(() => t("error.refresh", { message: error.message }));
  }
  render();
}

let lightSeq = 0;
/** During a run: execution counts and the ledger only (cheap), at most one read at a time. */
let lightQueued = false;
async function refreshLight() {
  if (lightQueued || !model.session) return;
  lightQueued = true;
  await new Promise((r) => setTimeout(r, 30));
  lightQueued = false;
  const seq = ++lightSeq;
  try {
    const [executions, ledger] = await Promise.all([session.command("executions"), readLedger()]);
    if (seq !== lightSeq || crashing()) return;
    model.executions = executions;
    model.ledger = ledger;
    render();
  } catch {
    // the process may be dying; the full refresh after it says what is true
  }
}

/** The ledger as Python reads it: the page-side record, with attempts, "charged ×2" flags and totals. */
function readLedger() {
  return session.command("ledger");
}

/** Keep the selection on an existing frame of the branch in view, and load its detail. */
async function settleSelection() {
  const path = branchPath();
  if (!path.length) {
    model.selectedId = null;
    model.detail = null;
    return;
  }
  if (model.follow || !model.selectedId || !model.frames.some((f) => f.checkpoint_id === model.selectedId)) {
    model.selectedId = path.at(-1);
  }
  await loadDetail();
}

let detailSeq = 0;
async function loadDetail() {
  const id = model.selectedId;
  if (!id) { model.detail = null; return; }
  if (model.detail?.frame?.checkpoint_id === id && !model.detailStale) return;
  const seq = ++detailSeq;
  try {
    const detail = await session.command("frame", { checkpoint_id: id });
    if (seq === detailSeq) {
      model.detail = detail;
      model.detailStale = false;
    }
  } catch (error) {
    if (!crashing()) showError(() => t("error.refresh", { message: error.message }));
  }
  render();
}

// -- actions -------------------------------------------------------------------------------------

function choose(choices) {
  Object.assign(model.choices, choices);
  if (!model.session && model.catalog) model.graph = model.catalog.graphs[model.choices.variant];
  render();
}

async function start() {
  const choices = views.controls.readChoices();
  Object.assign(model.choices, choices);
  const args = { case_id: choices.case, variant: choices.variant, durability: choices.durability };
  await act("start", args, {
    then: (result) => {
      enterSession(result);
      setStatus(() => t("status.started", { thread: result.session.thread_id }));
      log("session", () => t("log.started", { thread: result.session.thread_id, variant: result.session.variant, durability: result.session.durability }));
    },
  });
}

/** The lab's thread changed (Start, Open thread): forget the view of the one before. */
function enterSession(result) {
  Object.assign(model, {
    session: result.session,
    graph: result.graph ?? model.catalog.graphs[result.session.variant],
    frames: [], tree: null, detail: null, selectedId: null, follow: true, branchLeaf: null,
    crash: null, nodeStates: nextStates(result.state?.next ?? []), state: result.state ?? null, executions: null,
  });
  Object.assign(model.choices, { case: result.session.case_id, variant: result.session.variant });
}

/** Go back to a saved thread (the Threads picker). */
async function openThread(threadId) {
  if (!threadId || threadId === model.session?.thread_id) return;
  await act("open", { thread_id: threadId }, {
    then: (result) => {
      enterSession(result);
      showNotice(null);
      const s = result.session;
      setStatus(() => t("status.opened", { thread: s.thread_id, count: model.frames.length }));
      log("session", () => t("log.opened", { thread: s.thread_id, variant: s.variant, durability: s.durability }));
    },
  });
}

/** Durability for a new run: the form's choice; a paused run keeps the mode it started with. */
function runDurability() {
  return model.state?.run?.paused ? {} : { durability: model.choices.durability };
}

async function advance(name) {
  model.follow = true;
  model.branchLeaf = null;
  const result = await act(name, runDurability());
  if (result) reportOutcome(result);
}

async function resume() {
  model.follow = true;
  model.branchLeaf = null;
  const result = await act("resume", runDurability());
  if (result) reportOutcome(result);
}

async function answer(approve) {
  model.follow = true;
  model.branchLeaf = null;
  const result = await act("answer", { approve, ...runDurability() }, { label: approve ? "approve" : "reject" });
  if (result) reportOutcome(result);
}

async function arm({ seam, node }) {
  if (seam === RANDOM) {
    // A random moment, not a seam: the session kills the process at a random time of the next run.
    clearError();
    if (model.state?.crash_armed) await act("disarm_crash", {}, { label: "disarm" });
    model.randomArmed = true;
    log("armed", () => t("log.armedRandom"));
    render();
    return;
  }
  model.randomArmed = false;
  const args = node ? { seam, node } : { seam };
  const result = await act("arm_crash", args, { label: "arm" });
  if (result) log("armed", () => t("log.armed", { seam, node: node ?? t("crash.anyNodeLower") }));
}

async function disarm() {
  model.randomArmed = false;
  clearTimeout(randomTimer);
  if (model.state?.crash_armed) await act("disarm_crash", {}, { label: "disarm" });
  else render();
}

let randomTimer = 0;
/** A run started with a random crash armed: kill the process after a random share of its likely length. */
function scheduleRandomCrash() {
  model.randomArmed = false;
  const nodeMs = (nodeDelay() ?? 0.3) * 1000;
  const after = 50 + Math.random() * 6 * nodeMs;
  randomTimer = setTimeout(() => {
    if (model.process === "ready" && model.state?.run) session.kill();
  }, after);
}

function select(id) {
  model.selectedId = id;
  const path = branchPath();
  if (!path.includes(id)) {
    // The frame sits on another branch: view the branch that ends at its newest descendant.
    const branch = model.tree?.branches?.find((b) => b.path.includes(id));
    model.branchLeaf = branch ? branch.leaf : null;
  }
  model.follow = branchPath().at(-1) === id && model.branchLeaf === null;
  render();
  loadDetail();
}

function selectBranch(leaf) {
  const branch = model.tree?.branches?.find((b) => b.leaf === leaf);
  model.branchLeaf = branch?.is_head ? null : leaf;
  model.follow = Boolean(branch?.is_head);
  model.selectedId = leaf;
  render();
  loadDetail();
  setStatus(() => t("status.branch", { id: shortId(leaf) }));
}

function moveTo(index) {
  const path = branchPath();
  const id = path[Math.max(0, Math.min(path.length - 1, index))];
  if (id) select(id);
}

function move(where) {
  const path = branchPath();
  const index = path.indexOf(model.selectedId);
  const target = { first: 0, prev: index - 1, next: index + 1, last: path.length - 1 }[where];
  if (target >= 0 && target < path.length) moveTo(target);
}

async function replay() {
  const id = model.selectedId;
  if (!id) return;
  model.follow = true;
  model.branchLeaf = null;
  log("replay", () => t("log.replay", { id: shortId(id) }));
  const result = await act("replay", { checkpoint_id: id, ...runDurability() });
  if (result) reportOutcome(result);
}

async function fork(checkpointId, values, asNode) {
  const args = { checkpoint_id: checkpointId, values };
  if (asNode) args.as_node = asNode;
  const result = await act("fork", args, {
    then: (forked) => {
      model.branchLeaf = null; // the update checkpoint is the new head
      model.follow = true;
      log("fork", () => t("log.fork", { id: shortId(forked.checkpoint_id), parent: shortId(checkpointId) }));
      setStatus(() => t("status.forked", { id: shortId(forked.checkpoint_id), next: (forked.frame?.next ?? []).join(", ") || "∅" }));
    },
  });
  return Boolean(result);
}

function reportOutcome(result) {
  const s = result.status;
  if (s === "paused") setStatus(() => t("status.paused", { step: result.step, next: (result.next ?? []).join(", ") || "∅" }));
  else if (s === "interrupted") setStatus(() => t("status.interrupted"));
  else if (s === "done") setStatus(() => t("status.done", { outcome: result.values?.outcome ?? "" }));
  else if (s === "error") {
    setStatus(() => t("status.error"));
    showError(() => t("error.run", { type: result.error?.type ?? "Error", message: result.error?.message ?? "" }));
  } else if (s === "stopped") setStatus(() => t("status.stopped"));
}

// -- reset ---------------------------------------------------------------------------------------

const resetDialog = $("#reset-dialog");
function askReset() {
  if (barButtons.reset.disabled) return;
  resetDialog.showModal();
  $("#reset-cancel").focus();
}
$("#reset-cancel").addEventListener("click", () => resetDialog.close());
$("#reset-confirm").addEventListener("click", async () => {
  resetDialog.close();
  clearError();
  model.busy = "reset";
  render();
  try {
    if (typeof session.reset === "function") await session.reset();
    else await session.command("reset");
    Object.assign(model, {
      session: null, state: null, frames: [], tree: null, executions: null, ledger: null, detail: null,
      selectedId: null, branchLeaf: null, follow: true, crash: null, nodeStates: {}, activity: [],
    });
    model.graph = model.catalog?.graphs[model.choices.variant] ?? null;
    setStatus(() => t("status.reset"));
  } catch (error) {
    showError(() => t("error.resetFailed", { message: error.message }));
    if (!crashing()) askWipe();
  } finally {
    model.busy = null;
    await refresh();
    commandFinished();
  }
});

// -- wipe: the way back from saved data that no longer loads -------------------------------------

const wipeDialog = $("#wipe-dialog");
function askWipe() {
  wipeDialog.showModal();
  $("#wipe-cancel").focus();
}
$("#boot-wipe").addEventListener("click", askWipe);
$("#wipe-cancel").addEventListener("click", () => wipeDialog.close());
$("#wipe-confirm").addEventListener("click", async () => {
  wipeDialog.close();
  try {
    await session.wipeStorage();
  } finally {
    location.reload();
  }
});

// -- help ----------------------------------------------------------------------------------------

const helpDialog = $("#help-dialog");
function openHelp() {
  replace($("#help-list"), ...Object.entries(SHORTCUTS).map(([action, s]) =>
    [h("dt", {}, h("kbd", { text: s.show })), h("dd", { text: t(`action.${action}`) })]).flat());
  helpDialog.showModal();
  $("#help-close").focus();
}
$("#help-close").addEventListener("click", () => helpDialog.close());

// ------------------------------------------------------------------------------------------------
// Events
// ------------------------------------------------------------------------------------------------

function onEvent(event) {
  switch (event.type) {
    case "worker-error":
      if (everReady) setProcess("crashed");
      showFailure(null, event.error);
      return;
    case "boot":
      onBootEvent(event);
      return;
    case "process":
      onProcessEvent(event);
      return;
    default:
      if (event.type?.startsWith?.("ledger")) {
        onLedgerEvent(event);
        return;
      }
      onControllerEvent(event);
  }
}

function onProcessEvent(event) {
  if (event.worker && ["booting", "ready", "crashed"].includes(event.state)) processNumber = event.worker;
  if (event.state === "crashed") {
    if (event.crash?.cause === "kill" && (!model.crash || model.crash.resumed)) {
      // Killed without a seam (a random moment): what the session says is all there is to say.
      model.crash = { seam: event.crash.seam ?? RANDOM, node: event.crash.node ?? null, step: event.crash.step ?? null, cause: event.crash.cause };
      for (const [node, state] of Object.entries(model.nodeStates)) if (state === "running") model.nodeStates[node] = "crashed";
      setStatus(() => t("status.killed"));
    }
    setProcess("crashed");
    log("crash", () => t("log.processKilled", { n: event.worker ?? processNumber }));
  } else if (event.state === "booting") {
    if (!everReady) return; // the first boot is shown by the boot view
    setProcess("booting", event.warm ? t("process.warm") : "");
    log("boot", () => t(event.warm ? "log.processSwapped" : "log.processBooting", { n: event.worker }));
  } else if (event.state === "ready") {
    onProcessReady(event);
  } else if (event.state === "spare-ready") {
    spareReady = true;
    render();
  } else if (event.state === "failed") {
    if (!everReady) return; // the boot view shows why
    setProcess("crashed");
    showError(() => t("process.rebootFailed", { message: event.error?.message ?? "" }));
  }
}

function onLedgerEvent(event) {
  const entry = event.entry;
  if (entry) {
    log("ledger", () => t("log.ledger", { kind: t(`ledger.kind.${entry.kind}`), id: entry.id ?? "", node: entry.node ?? "" }));
  }
  refreshLight(); // Python flags a repeated charge; the page shows what it says
}

/** A (new) Python process is ready: read what it restored from storage. */
async function onProcessReady(event = {}) {
  if (event.worker) processNumber = event.worker;
  if (event.reason && event.reason !== "start" && event.reason !== "retry") spareReady = false; // the spare took over
  const wasCrash = model.crash !== null && model.process !== "ready";
  model.busy = null; // a command cut short by the crash never answers
  try {
    model.catalog ??= await session.command("catalog");
    const restored = event.restore ?? event.restored ?? (await session.command("restore"));
    model.session = restored?.session ?? null;
    model.graph = model.catalog.graphs[model.session?.variant ?? model.choices.variant];
    model.choices.case ??= model.catalog.cases[0]?.id;
    if (model.session) {
      model.choices.case = model.session.case_id;
      model.nodeStates = wasCrash ? keepCrashMarks(restored.state?.next ?? []) : nextStates(restored.state?.next ?? []);
    }
  } catch (error) {
    showError(() => t("error.refresh", { message: error.message }));
  }
  setProcess("ready");
  if (!wasCrash) await applyUrlSelection();
  await refresh();
  if (wasCrash && model.crash) {
    model.crash.kept = model.frames.length;
    const n = processNumber;
    log("boot", () => t("log.processReady", { n, count: model.crash.kept }));
    setStatus(() => (model.crash?.kept ? t("status.afterCrash", { count: model.crash.kept }) : t("status.afterCrashEmpty")));
    render();
  } else if (model.session) {
    setStatus(() => t("status.restored", { thread: model.session.thread_id, count: model.frames.length }));
  } else {
    setStatus(() => t("empty.noThread"));
  }
}

/**
 * The link's thread, frame and branch, once the lab knows its thread (on the first ready process only:
 * afterwards the learner's own choices are what the URL says). A saved thread that is not the lab's
 * current one is opened first.
 */
let urlApplied = false;
async function applyUrlSelection() {
  if (urlApplied || !fromUrl.thread) return;
  urlApplied = true;
  if (model.session?.thread_id !== fromUrl.thread) {
    const current = () => model.session?.thread_id ?? t("notice.none");
    try {
      const saved = (await session.command("threads")).threads;
      if (!saved.some((thread) => thread.thread_id === fromUrl.thread)) {
        showNotice(() => t("notice.noSuchThread", { wanted: fromUrl.thread, current: current() }));
        return;
      }
      enterSession(await session.command("open", { thread_id: fromUrl.thread }));
    } catch (error) {
      showNotice(() => t("notice.otherThread", { wanted: fromUrl.thread, current: current() }));
      showError(() => t("error.command", { action: t("action.open"), message: error.message ?? String(error) }));
      return;
    }
  }
  if (fromUrl.branch) model.branchLeaf = fromUrl.branch;
  if (fromUrl.frame) {
    model.selectedId = fromUrl.frame;
    model.follow = false;
  }
}

let noticeText = null;
function showNotice(text) {
  noticeText = text;
  const notice = $("#link-notice");
  notice.textContent = text ? text() : "";
  notice.hidden = !text;
}

const nextStates = (next) => Object.fromEntries(next.map((n) => [n, "next"]));
function keepCrashMarks(next) {
  const states = nextStates(next);
  for (const [node, state] of Object.entries(model.nodeStates)) if (state === "crashed") states[node] = "crashed";
  return states;
}

function onControllerEvent(event) {
  switch (event.type) {
    case "session":
      model.session = event.session;
      break;
    case "reset":
      log("reset", () => t("log.reset", { count: event.threads_deleted }));
      break;
    case "run_started":
      if (model.randomArmed) scheduleRandomCrash();
      model.nodeStates = {};
      model.lastRunDurability = event.durability;
      if (model.crash) model.crash.resumed = true; // the report stays until the next crash or Start
      setStatus(() => t("status.running", { run: event.run, kind: t(`run.kind.${event.kind}`), durability: event.durability }));
      log("run", () => t("log.runStarted", { run: event.run, kind: t(`run.kind.${event.kind}`), durability: event.durability }));
      model.state = { ...(model.state ?? {}), run: { run: event.run, kind: event.kind, paused: false } };
      break;
    case "seam":
      onSeam(event);
      break;
    case "checkpoint":
      onCheckpoint(event.frame, event.run);
      break;
    case "writes":
      onWrites(event);
      break;
    case "interrupt":
      for (const node of [event.node].filter(Boolean)) model.nodeStates[node] = "interrupted";
      log("interrupt", () => t("log.interrupt", { node: event.node }));
      break;
    case "error":
      if (event.node) model.nodeStates[event.node] = "crashed";
      log("error", () => t("log.error", { scope: event.scope, type: event.error?.type, message: event.error?.message }));
      break;
    case "paused":
      model.state = { ...(model.state ?? {}), run: { ...(model.state?.run ?? {}), paused: true } };
      setStatus(() => t("status.paused", { step: event.step, next: (event.next ?? []).join(", ") || "∅" }));
      log("paused", () => t("log.paused", { step: event.step, next: (event.next ?? []).join(", ") || "∅" }));
      break;
    case "crash_point":
      onCrashPoint(event);
      break;
    case "run_finished":
      clearTimeout(randomTimer);
      log("run", () => t("log.runFinished", { run: event.run, status: t(`run.status.${event.status}`) }));
      if (!model.busy) refresh(); // a run the page did not start (e.g. closed by another command)
      break;
    default:
      break;
  }
  render();
}

function onSeam(event) {
  const states = model.nodeStates;
  const node = event.node;
  switch (event.seam) {
    case "step_start":
      model.nodeStates = {};
      for (const n of event.detail?.tasks ?? []) model.nodeStates[n] = "next";
      for (const n of event.detail?.restored ?? []) {
        model.nodeStates[n] = "restored";
        log("restored", () => t("log.restored", { node: n, step: event.step }));
      }
      break;
    case "task_start":
      states[node] = "running";
      log("task", () => t("log.taskStart", { node, step: event.step }));
      refreshLight();
      break;
    case "task_finish":
      states[node] = "finished";
      break;
    case "put_writes":
      if (node && states[node] !== "interrupted") states[node] = "saved";
      break;
    default:
      break;
  }
}

function onCheckpoint(frame, run) {
  if (!frame) return;
  if (!model.frames.some((f) => f.checkpoint_id === frame.checkpoint_id)) {
    model.frames = [...model.frames, frame];
    log("checkpoint", () => t("log.checkpoint", { id: shortId(frame.checkpoint_id), step: frame.step, source: frame.source }));
  }
  if (model.follow && model.branchLeaf === null) {
    model.selectedId = frame.checkpoint_id;
    loadDetail();
  }
  if (run === null || run === undefined) refresh();
}

function onWrites(event) {
  const at = model.frames.findIndex((f) => f.checkpoint_id === event.checkpoint_id);
  if (at >= 0) {
    const frame = model.frames[at];
    const seen = new Set((frame.pending_writes ?? []).map((w) => JSON.stringify(w)));
    const added = (event.writes ?? []).filter((w) => !seen.has(JSON.stringify(w)));
    if (added.length) {
      model.frames = model.frames.with(at, { ...frame, pending_writes: [...(frame.pending_writes ?? []), ...added] });
      if (model.selectedId === frame.checkpoint_id) model.detailStale = true;
    }
  }
  log("writes", () => t("log.writes", { node: event.node, channels: (event.writes ?? []).map((w) => w[1]).join(", "), id: shortId(event.checkpoint_id) }));
}

function onCrashPoint(event) {
  model.crash = { seam: event.seam, node: event.node, step: event.step, checkpoint_id: event.checkpoint_id };
  for (const [node, state] of Object.entries(model.nodeStates)) if (state === "running") model.nodeStates[node] = "crashed";
  if (event.node) model.nodeStates[event.node] = "crashed";
  model.process = "crashed";
  setStatus(() => t("status.crashed", { seam: event.seam, node: event.node ?? t("crash.anyNodeLower") }));
  log("crash", () => t("log.crash", { seam: event.seam, node: event.node ?? "—", step: event.step }));
}

// ------------------------------------------------------------------------------------------------
// Keyboard
// ------------------------------------------------------------------------------------------------

const KEY_TARGETS = {
  lang: () => $("#lang-select"),
  help: () => barButtons.help,
  reset: () => barButtons.reset,
  fork: () => $("#fork-values"),
};

document.addEventListener("keydown", (event) => {
  if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
  const target = event.target;
  const typing = target instanceof HTMLElement && (target.matches("input, textarea, select, [contenteditable]") || target.isContentEditable);
  if (typing) return;
  if (document.body.dataset.bootState !== "ready") return;
  const action = actionForKey(event);
  if (!action) return;
  event.preventDefault();
  if (action === "lang") {
    switchLanguage(lang() === "en" ? "zh" : "en");
    return;
  }
  if (action === "fork") {
    $("#fork-values")?.focus();
    return;
  }
  if (action === "branch") {
    const branches = model.tree?.branches ?? [];
    if (branches.length > 1) {
      const current = branches.findIndex((b) => b.leaf === (model.branchLeaf ?? model.tree.head));
      selectBranch(branches[(current + 1) % branches.length].leaf);
    }
    return;
  }
  const button = KEY_TARGETS[action]?.() ?? document.querySelector(`button[data-action="${action}"]`);
  if (button && !button.disabled) button.click();
  else setStatus(() => t("status.unavailable", { action: t(`action.${action}`) }));
});

// ------------------------------------------------------------------------------------------------
// Language
// ------------------------------------------------------------------------------------------------

const langSelect = $("#lang-select");
langSelect.value = lang();
langSelect.addEventListener("change", () => switchLanguage(langSelect.value));
$("#lang-label").setAttribute("aria-keyshortcuts", "L");

function switchLanguage(next) {
  setLang(next);
  langSelect.value = next;
}

const originalTitle = document.title;
/** The page around the lab (index.html's header, the title) in the chosen language. */
function translatePage() {
  document.title = lang() === "en" ? originalTitle : t("page.title");
  const tagline = $(".tagline");
  if (tagline) tagline.textContent = t("page.tagline");
  const title = $("body[data-layout='page'] > header h1");
  if (title) title.textContent = t("page.title");
}

onLangChange(() => {
  translateDom(document);
  translatePage();
  model.langChanged = true;
  for (const item of boot.stages.querySelectorAll("[data-stage]")) {
    item.querySelector(".label").textContent = t(`boot.stage.${item.dataset.stage}`);
  }
  if (document.body.dataset.bootState === "ready" && boot.status.dataset.page) {
    boot.status.textContent = t("boot.ready", { page: boot.status.dataset.page, python: boot.status.dataset.python });
  }
  if (bootFailure) {
    boot.errorMessage.textContent = bootFailure.stage ? t(`boot.failed.${bootFailure.stage}`) : t("boot.workerFailed");
    boot.status.textContent = t("boot.couldNotStart");
  }
  if (boot.storageMessage.dataset.original) {
    boot.storageMessage.textContent = lang() === "en" ? boot.storageMessage.dataset.original : t("boot.memoryOnly");
  }
  renderFacts();
  if (errorText) showError(errorText);
  if (noticeText) showNotice(noticeText);
  for (const entry of [barButtons.help, barButtons.reset]) relabel(entry, t(`action.${entry.dataset.action}`));
  render();
});

// ------------------------------------------------------------------------------------------------
// Go
// ------------------------------------------------------------------------------------------------

translateDom(document);
if (lang() !== "en") translatePage();
startBoot();
mountUpdatePrompt($("main"));
