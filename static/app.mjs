/**
 * The lab page (index.html) and the embeddable lab (embed.html): a store over Python's `view()`.
 *
 * Everything the lab shows - node states and why, which actions are enabled and why not, the status
 * line, frames, branches, the ledger's verdict, the activity history - is one answer of the
 * controller's `view` command (lab/controller/view.py), kept in the store (store.mjs). An event from
 * the worker only says "something changed": the store re-reads (coalesced) and every view renders
 * from the model. The page keeps only its own state: which frame and branch are selected, the form's
 * choices, the language (all in the URL, url-state.mjs), and whether a command or a reboot is under
 * way. The jobs live next door: page-model.mjs, boot-view.mjs, commands.mjs, keyboard.mjs, language.mjs.
 *
 * For the curious (and for tests): `window.lab` is the LabSession (`await lab.command("view")`), and
 * `window.labView` exposes the page's model read-only.
 */
import { mountBoot } from "./boot-view.mjs";
import { createCommands } from "./commands.mjs";
import { LANGS, lang, say, setLang, t } from "./i18n.mjs";
import { mountKeyboard } from "./keyboard.mjs";
import { mountLanguage } from "./language.mjs";
import { LabSession } from "./lab-session.mjs";
import { mountUpdatePrompt } from "./offline.mjs";
import { createModel, settleSelection, takeView } from "./page-model.mjs";
import { createStore } from "./store.mjs";
import { ThreadWriter } from "./thread-writer.mjs";
import { nodeDelay, readUrl, writeUrl } from "./url-state.mjs";
import { actionButton, relabel, showAction } from "./views/actions.mjs";
import { mountControls } from "./views/controls.mjs";
import { mountGraph } from "./views/graph.mjs";
import { mountPanels, onceAFrame, renderViews } from "./views/panels.mjs";
import { mountThreads } from "./views/threads.mjs";

const $ = (selector) => document.querySelector(selector);
const fromUrl = readUrl();
if (fromUrl.lang && LANGS.includes(fromUrl.lang)) setLang(fromUrl.lang);
/** Whether the link's thread, frame or branch is still to be opened (applyUrlSelection). */
let linkPending = Boolean(fromUrl.thread || fromUrl.frame || fromUrl.branch);

const model = createModel(fromUrl);
const render = onceAFrame(renderNow); // many changes, one drawing per frame
model.refreshSelection = () => { settleSelection(model); render(); };
window.labView = model;

let session = null;
let processNumber = 1;
let processDetail = "";
let spareReady = false;
const crashing = () => model.process !== "ready";

const store = createStore(() => session.command("view"), () => processNumber);
store.subscribe((view) => {
  takeView(model, view, processNumber);
  render();
  threadWriter.show(view.session?.thread_id ?? null); // claim the lock of the thread now shown
});

// -- the status, error and notice lines; the process indicator ------------------------------------

let errorText = null;
function showError(text) {
  errorText = text;
  const line = $("#error-line");
  line.textContent = text ? text() : "";
  line.hidden = !text;
}

let noticeText = null;
function showNotice(text) {
  noticeText = text;
  $("#link-notice").textContent = text ? text() : "";
  $("#link-notice").hidden = !text;
}

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

// -- one writer per thread across tabs (thread-writer.mjs): the lock is the tab's, the rules Python's --

/** Controller events that change what other tabs show, and what to tell them (ThreadWriter.announce). */
const ANNOUNCED = {
  session: "threads", reset: "reset", ledger: "ledger",
  checkpoint: "saved", writes: "saved", interrupt: "saved", paused: "saved", run_finished: "saved",
};
const threadWriter = new ThreadWriter({
  onChange: onWriterChange,
  onStale: () => crashing() || store.changed().catch(() => {}),
  onThreads: () => commands.reread().then(render),
});
addEventListener("pagehide", () => threadWriter.close());

/** This tab became the thread's writer, or a reader (another tab holds or stole the lock): tell Python. */
async function onWriterChange({ thread, writer, stolen }) {
  if (stolen) showNotice(() => t("notice.takenOver", { thread }));
  try {
    await session.setWriter(thread, writer);
  } catch {
    // Refused while a run is live: the run lost the lock, so its process dies, as a lost lease should.
    if (writer === "elsewhere" && !crashing()) session.kill();
  }
  if (!crashing()) store.changed().catch(() => {});
}

// -- the views --------------------------------------------------------------------------------------

const commands = createCommands({ model, store, session: () => session, render, showError, crashing });
const { actions } = commands;
actions.takeOver = () => threadWriter.takeOver();
const views = {
  controls: mountControls($("#controls"), actions),
  threads: mountThreads($("#threads"), actions),
  ...mountPanels(actions),
};
const barButtons = {
  help: actionButton("help", () => commands.openHelp(), { id: "action-help", class: "quiet" }),
  reset: actionButton("reset", () => commands.askReset(), { id: "action-reset", class: "danger quiet" }),
};
$("#lab-actions").append(barButtons.help, barButtons.reset);

// -- the graph diagram while Python boots (issue 11): build.py computed it, graph.mjs draws it ------
const bootGraph = $("#boot-graph");
if (bootGraph?.dataset.graph) {
  const graph = JSON.parse(bootGraph.dataset.graph);
  mountGraph(bootGraph, { idPrefix: "boot-graph" }).render({ graph, lang: lang(), nodeStates: [] });
  bootGraph.querySelector(".static-graph").hidden = true;
}

/** Draw the page from the model, at the frame `render()` asked for. */
function renderNow() {
  model.lang = lang();
  renderViews(views, model);
  model.langChanged = false;
  for (const b of Object.values(barButtons)) relabel(b, t(`action.${b.dataset.action}`));
  showAction(barButtons.reset, model.actions?.reset, Boolean(model.busy) || crashing());
  const status = model.status ? say(model.status.message) : "";
  if ($("#status").textContent !== status) $("#status").textContent = status;
  $("#status").dataset.phase = model.status?.phase ?? "";
  const proc = $("#process");
  if (proc.textContent !== processText()) proc.textContent = processText();
  proc.dataset.state = model.process;
  document.body.dataset.process = model.process;
  document.body.dataset.busy = model.busy ?? "";
  if (linkPending) return; // the URL still holds the link being opened: keep it until then
  writeUrl({
    thread: model.session?.thread_id, frame: model.selectedId, branch: model.branchLeaf,
    variant: model.choices.variant, case: model.choices.case, durability: model.choices.durability,
    storage: model.choices.storage, lang: lang(),
  });
}

// -- events: each one only says "re-read" -------------------------------------------------------------

function onEvent(event) {
  if (event.type === "worker-error") {
    if (boot.everReady) setProcess("crashed");
    boot.showFailure(null, event.error);
  } else if (event.type === "boot") {
    boot.onBootEvent(event);
  } else if (event.type === "process") {
    onProcessEvent(event);
  } else if (event.type === "storage" || (event.type === "ledger" && event.change === "closed")) {
    showNotice(() => t("notice.versionchange")); // another tab upgraded the lab's database
  } else if (event.type !== "world") { // a world call is answered by the ledger, whose change event follows
    if (event.type === "run_started") commands.scheduleRandomCrash();
    if (event.type in ANNOUNCED) threadWriter.announce(ANNOUNCED[event.type]);
    if (!crashing()) store.changed().catch(() => {}); // a dying process answers nothing: the next one will
  }
}

function onProcessEvent(event) {
  if (event.worker && ["booting", "ready", "crashed"].includes(event.state)) processNumber = event.worker;
  if (event.state === "crashed") {
    model.crashes += 1;
    model.crashPoint = event.crash ?? null;
    setProcess("crashed");
  } else if (event.state === "booting" && boot.everReady) {
    setProcess("booting", event.warm ? t("process.warm") : "");
  } else if (event.state === "ready") {
    onProcessReady(event);
  } else if (event.state === "spare-ready") {
    spareReady = true;
    render();
  } else if (event.state === "failed" && boot.everReady) {
    setProcess("crashed");
    showError(() => t("process.rebootFailed", { message: event.error?.message ?? "" }));
  }
}

/** A (new) Python process is ready: read the lab as it restored it from storage. */
async function onProcessReady(event) {
  if (event.reason && !["start", "retry"].includes(event.reason)) spareReady = false; // the spare took over
  model.busy = null; // a command cut short by the crash never answers
  setProcess("ready");
  try {
    model.catalog ??= await session.command("catalog");
    model.choices.case ??= model.catalog.cases[0]?.id;
    await applyUrlSelection();
  } catch (error) {
    showError(() => t("error.refresh", { message: error.message }));
  }
  await commands.reread();
  model.crashPoint = null;
  render();
}

/** The link's thread, frame and branch, on the first ready process only. Python checks each part
 * (`link`: a saved thread is opened first) and explains, in `notices`, any part it cannot follow. */
let urlApplied = false;
async function applyUrlSelection() {
  if (urlApplied || !linkPending) return;
  urlApplied = true;
  const { thread, frame, branch } = fromUrl;
  const linked = await commands.act("link", { thread, frame, branch });
  linkPending = false;
  if (!linked) return;
  if (linked.notices.length) showNotice(() => linked.notices.map((notice) => say(notice)).join(" "));
  if (linked.branch) model.branchLeaf = linked.branch;
  if (linked.checkpoint_id) Object.assign(model, { selectedId: linked.checkpoint_id, follow: false });
}

// -- go ---------------------------------------------------------------------------------------------

const boot = mountBoot({
  onFirstReady: () => {
    bootGraph?.remove(); // the live diagram takes over
    render();
  },
  onReplacementBooting: (stage) => setProcess("booting", stage),
  onReplacementFailed: (error) => {
    setProcess("crashed");
    showError(() => t("process.rebootFailed", { message: error.message }));
  },
  readStats: () => session.request("stats"),
});

function startBoot(at) {
  session?.close();
  threadWriter.show(null); // the new session is told who writes once its first view names the thread
  boot.reset(at);
  // the lab page's graph: the AML investigation, with the guided lessons' commands (lab/aml/lab_page.py)
  session = new LabSession({ graph: "lab.aml.lab_page", delay: nodeDelay(), oneWriter: true });
  session.onEvent(onEvent);
  window.lab = session;
}
$("#boot-retry").addEventListener("click", () => startBoot(performance.now()));

const language = mountLanguage(() => {
  model.langChanged = true;
  boot.translate();
  if (errorText) showError(errorText);
  if (noticeText) showNotice(noticeText);
  render();
});
mountKeyboard({
  special: { lang: language.toggle, fork: () => $("#fork-values")?.focus(), branch: commands.nextBranch },
  target: { help: () => barButtons.help, reset: () => barButtons.reset },
  reasonOf: (action) => model.actions?.[action]?.reason ?? null,
  unavailable: commands.unavailable,
});
startBoot(0);
mountUpdatePrompt($("main"));
