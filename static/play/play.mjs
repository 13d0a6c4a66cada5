/**
 * The playground page (/play, /play?lang=zh): a learner's LangGraph program in a code editor beside
 * the lab's instruments.
 *
 * - The editor is CodeMirror 6, bundled at build time into ./editor.mjs (site_build/play.py), imported
 *   once the lab's worker has started booting, so Python's boot and the bundle's load overlap.
 * - The gallery (./gallery.json, written at build time from gallery/) opens a program.
 * - The challenges (./challenges.mjs, ./challenges.json): goal levels checked by crashing and
 *   resuming the learner's code; `?challenge=<id>` opens one.
 * - Share by link (./share.mjs): the program travels in the URL fragment; a shared program is shown,
 *   and nothing runs until Run is pressed.
 * - The editor's program is kept in the tab (sessionStorage) as it changes, so a reload brings it
 *   back (a shared link's or a challenge's program once the learner changed it), said beside the
 *   editor with a button back to the gallery.
 * - Run runs the program as written (./script-runner.mjs): its own script (its top-level
 *   graph.invoke(...) calls and its `__main__` block), each graph call a run on the lab's thread with
 *   the lab's instruments (./instruments.mjs, through ./play-client.mjs), its prints in the output
 *   pane as they come; Step through waits at each graph call and super-step. A program without a
 *   script, or Drive it yourself, runs the graph on a new thread from the Input box
 *   (./run-buttons.mjs). A problem is marked at its line in the editor. A program that builds no graph
 *   runs as plain Python: its output is shown, and the page says there is no graph to drive.
 * - Every string comes from the catalogues (../i18n/*-play.mjs), in English or 简体中文 (`?lang=zh`).
 */

import { LANGS, lang, onLangChange, say, setLang, t, translateDom } from "../i18n.mjs";
import { mountChallenges } from "./challenges.mjs";
import { mountInstruments } from "./instruments.mjs";
import { keepInTab, keptInTab } from "./kept-program.mjs";
import { mountRunButtons } from "./run-buttons.mjs";
import { mountScript } from "./script-runner.mjs";
import { FRAGMENT_KEY, programFragment, programFromFragment, ShareError } from "./share.mjs";

const $ = (selector) => document.querySelector(selector);

const requested = new URLSearchParams(location.search).get("lang");
if (requested && LANGS.includes(requested)) setLang(requested);
translateDom(document);

const instruments = $("#play-instruments");
const editorHost = $("#play-editor");
/** @type {ReturnType<import("./editor.mjs").createEditor>} CodeMirror, loaded once Python boots */
let editor;
/** Both lists load while Python boots and the editor's bundle arrives, side by side. */
const json = (name) => fetch(new URL(name, import.meta.url)).then((response) => response.json());
const galleryLoad = json("./gallery.json");
const challengesLoad = json("./challenges.json");

/** @type {{id: string, title: Record<string, string>, about: Record<string, string>, source: string}[]} */
let gallery = [];
const picker = $("#play-gallery");

/** Say `key` (with `params`) in an element, kept on it so a change of language says it again. */
function show(element, key, params = {}) {
  element.textContent = t(key, params);
  element.dataset.key = key;
  element.dataset.params = JSON.stringify(params);
}

function fillGallery() {
  const chosen = picker.value;
  for (const option of [...picker.options].slice(1)) option.remove();
  for (const program of gallery) {
    picker.add(new Option(program.title[lang()] ?? program.title.en, program.id));
  }
  picker.value = chosen;
  const program = gallery.find((entry) => entry.id === chosen);
  $("#play-gallery-about").textContent = program ? (program.about[lang()] ?? program.about.en) : "";
}

/**
 * The Input (JSON) box belongs to the program it was written for: a new program (a gallery pick, a
 * challenge, a paste over the whole editor) empties it, and empty means the program's own input.
 * What the page put there itself (the input a loaded program started with, `data-filled`) counts as
 * empty too: it was the last program's own input, not the learner's choice.
 */
const inputBox = $("#play-input");

function forgetInput() {
  inputBox.value = "";
  delete inputBox.dataset.filled;
}

/** The input the learner gave (null: none, the program's own); throws a SyntaxError on bad JSON. */
function givenInput() {
  const text = inputBox.value.trim();
  if (!text || inputBox.value === inputBox.dataset.filled) return null;
  return JSON.parse(text);
}

/** A paste over the whole program (or into an empty editor) brings a new program. */
function onPaste() {
  const { state } = editor.view;
  if (state.selection.main.from === 0 && state.selection.main.to === state.doc.length) forgetInput();
}

/** @type {string | null} the program a shared link opened, while the editor still holds it */
let sharedSource = null;

/**
 * Keep the editor's program in this tab, with the challenge it is the learner's work on (if any);
 * once it is not the shared link's program, the link stops naming it.
 */
function keepProgram(doc) {
  keepInTab(doc, new URLSearchParams(location.search).get("challenge"));
  if (sharedSource !== null && doc !== sharedSource) {
    sharedSource = null;
    history.replaceState(null, "", location.pathname + location.search);
  }
}

/** The program kept in this tab before a reload, back in the editor (false: none kept). */
function restoreKept(kept) {
  if (typeof kept?.source !== "string") return false;
  editor.setDoc(kept.source);
  const entry = gallery.find((program) => program.source === kept.source);
  picker.value = entry?.id ?? "";
  fillGallery();
  if (!entry) {
    show($("#play-origin"), "play.restored");
    $("#play-origin").hidden = false;
    $("#play-to-gallery-line").hidden = false;
  }
  return true;
}

function openFromGallery() {
  const program = gallery.find((entry) => entry.id === picker.value);
  if (!program) return;
  challenges.close(); // (first: the program is kept as no challenge's)
  editor.setDoc(program.source);
  forgetInput();
  $("#play-origin").hidden = true;
  $("#play-to-gallery-line").hidden = true;
  history.replaceState(null, "", location.pathname + location.search); // the link no longer names it
  fillGallery();
}

async function share() {
  const status = $("#play-share-status");
  const link = $("#play-share-link");
  try {
    const fragment = await programFragment(editor.getDoc());
    history.replaceState(null, "", `${location.pathname}${location.search}#${fragment}`);
    link.value = location.href;
    link.hidden = false;
    link.select();
    const copied = await navigator.clipboard?.writeText(location.href).then(
      () => true,
      () => false,
    );
    show(status, copied ? "play.shareCopied" : "play.shareReady");
  } catch (error) {
    if (!(error instanceof ShareError)) throw error;
    link.hidden = true;
    show(status, error.code, error.params);
  }
}

async function openSharedProgram() {
  const origin = $("#play-origin");
  try {
    const program = await programFromFragment(location.hash);
    if (program === null) return false;
    sharedSource = program;
    editor.setDoc(program);
    show(origin, "play.fromLink");
  } catch (error) {
    if (!(error instanceof ShareError)) throw error;
    show(origin, error.code, error.params);
  }
  origin.hidden = false;
  return true;
}

/** A problem of the program (or null: none): said beside the editor, its line marked in it. */
function showProblem(problem) {
  const box = $("#play-problem");
  box.hidden = !problem;
  if (!problem) {
    editor.markProblem(null);
    return;
  }
  const text = () => say(problem.say);
  box.textContent = text();
  box.dataset.kind = problem.kind;
  box.dataset.line = String(problem.line ?? "");
  if (problem.line) editor.markProblem(problem.line, problem.column ?? 1);
}

const lab = mountInstruments({ onProblem: showProblem, show, onOutput: (text) => script.told(text) });
// Python boots first, so the editor's bundle and the gallery load while it does (a returning visit
// opens as fast as the lab page); a page opened from a shared link boots it at the first Run instead
// (someone else's program: nothing of Python loads until the learner asks).
const fromLink = new URLSearchParams(location.hash.replace(/^#/, "")).has(FRAGMENT_KEY);
if (!fromLink) lab.boot();
const { createEditor } = await import("./editor.mjs");
editor = createEditor(editorHost, { label: t("play.editorLabel"), describedBy: "play-keys", onChange: keepProgram });
editorHost.dataset.state = "ready";

const challenges = mountChallenges({
  challenges: await challengesLoad,
  editor,
  check: (id, source) => lab.check(id, source),
  showProblem,
  onOpen() {
    picker.value = "";
    forgetInput();
    $("#play-origin").hidden = true;
    $("#play-to-gallery-line").hidden = true;
    fillGallery();
  },
});

const script = mountScript({ lab, onProblem: showProblem, onWhere: (line) => editor.markHere(line) });
mountRunButtons({ lab, script, source: () => editor.getDoc(), givenInput, show });

$("#play-share").addEventListener("click", share);
// a paste in the editor's shadow root reaches its host; caught on the way down, before the editor
// replaces the selection
editorHost.addEventListener("paste", onPaste, { capture: true });
picker.addEventListener("change", openFromGallery);
$("#play-to-gallery").addEventListener("click", () => {
  picker.value = gallery[0].id;
  openFromGallery();
  picker.focus();
});
$("#lang-select").value = lang();
$("#lang-select").addEventListener("change", (event) => setLang(event.target.value));
onLangChange(() => {
  translateDom(document);
  lab.translate();
  script.translate();
  fillGallery();
  challenges.translate();
  editor.view.contentDOM.setAttribute("aria-label", t("play.editorLabel"));
  for (const element of document.querySelectorAll("[data-key]")) {
    element.textContent = t(element.dataset.key, JSON.parse(element.dataset.params));
  }
});

gallery = await galleryLoad;
fillGallery();
const kept = keptInTab(); // (read before a shared or a challenge's program replaces it)
if (!(await openSharedProgram())) {
  if (challenges.openFromUrl()) {
    const challenge = new URLSearchParams(location.search).get("challenge");
    if (kept?.challenge === challenge) editor.setDoc(kept.source); // the learner's work on it
  } else if (!restoreKept(kept)) {
    picker.value = gallery[0].id;
    openFromGallery();
  }
}
document.body.dataset.ready = "true";
