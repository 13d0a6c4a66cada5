/**
 * The lesson runner: one step of a guided lesson (predict → do → see why) over a live lab, the way a
 * Learn Git Branching level runs over its simulator.
 *
 * No rule lives here. The lesson's data (lab/lessons, written as JSON at build time to the file the
 * step's section names in `data-lesson-file`, one file for all its steps and languages) lists the moves that lead to this step; Python resolves each into the command its control sends
 * (`lesson_command`), and decides whether the step is done by checking its facts on `view()`
 * (`lesson_check`). This module only sends, shows and remembers:
 *
 * 1. Setup: on a fresh page the lab imports the step's seed, the threads the earlier steps made,
 *    recorded as thread files at build time and proven to lead to the same answers
 *    (site_build/seed_recorder.py), and sends only the step's own preparation. A step without a seed, or
 *    whose seeded threads this browser already holds (a second visit), replays every earlier step's
 *    moves instead (a deep link opens the same step on any browser, with empty storage: a crash in a
 *    move is a real worker kill, answered by LabSession with a new worker).
 * 2. Predict: the choices open; a wrong pick shows the hint and stays open for a second try; the
 *    right one opens the step's control. Nothing advances on a timer.
 * 3. Do: the step's control and "do it for me" send the same command.
 * 4. See why: once Python says the step is done, its explanation opens, its progress is kept
 *    (progress.mjs), and the page's `data-done` says so.
 *
 * "Next" after a done step stays on this lab: the next step's page replaces this one (its URL is
 * pushed, so it stays a deep link) and only that step's own preparation is sent, since the lab
 * already stands where the earlier steps left it; the next lesson's first step (every lesson starts
 * its own case) sends its whole setup. Any other navigation loads the page afresh.
 *
 * The lab beside the step shows the panels the lesson names (lab-panels.mjs); while the step is
 * open, its status line gives the step's own instruction (the question, then what to do), and
 * Python's status sentence once the step is done: the lab's line names the lab's next control, which
 * is not always the step's. Presenter mode and its keys are in presenter.mjs, a class room in room.mjs; a page in another
 * site's frame is bare (framed.mjs). Python's sentences are shown in the page's language (i18n.mjs `say()`); the page's
 * own words come from the language's file (`data-words-file`). Both files are fetched while Python
 * boots, and kept offline by the service worker like the page itself.
 */
import { say, setLang } from "../i18n.mjs";
import { LabSession } from "../lab-session.mjs";
import { nodeDelay } from "../url-state.mjs";
import { bareWhenFramed } from "./framed.mjs";
import { mountLabPanels, needsStorage, needsThreads } from "./lab-panels.mjs";
import { mountPresenter } from "./presenter.mjs";
import { mountLearnerRoom } from "./room.mjs";
import { mountRoomThread } from "./room-thread.mjs";
import { markDone, showProgress } from "./progress.mjs";
import { markStorage, writeStorageLine } from "./storage-line.mjs";

/** One of the build's JSON files that a step names (`data-lesson-file`, `data-words-file`). */
async function fetchJson(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

const { lang, lessonFile, wordsFile } = document.querySelector("[data-lesson]").dataset;
setLang(lang);
// Nodes work at the lab's own pace (0.3 s) unless the link says otherwise (`?delay=0.05`, as the
// lab page reads it): a lesson's crashes wait on seams, not on time. The graph is the lab page's
// (lab/aml/lab_page.py): the AML investigation, with the guided lessons' commands.
const session = new LabSession({ graph: "lab.aml.lab_page", delay: nodeDelay() });
markStorage(session).catch(() => {}); // a11y/embed: the in-memory line; a failed boot is shown by the runner
let lesson;
let words;
try {
  [lesson, words] = await Promise.all([fetchJson(lessonFile), fetchJson(wordsFile)]);
} catch (error) {
  // Without its data or its words the step cannot run: the status line says which file failed.
  const section = document.querySelector("[data-lesson]");
  const status = section.querySelector("[data-lesson-status]");
  status.textContent = `${status.dataset.failedWord} ${error.message}`;
  section.dataset.failed = "true";
  throw error;
}

/** One step on the page: its section, its data, and what the learner can press. */
class StepView {
  constructor() {
    this.section = document.querySelector("[data-lesson]");
    this.step = lesson.steps.find((candidate) => candidate.id === this.section.dataset.step);
    this.choices = [...this.section.querySelectorAll("[data-choice]")];
    this.doButtons = [this.find("[data-control]"), this.find("[data-do-it]")].filter(Boolean);
    this.lab = mountLabPanels(this.find("[data-lab-view]"), lesson.panels);
    writeStorageLine(this.find("[data-storage-line]"), words);
  }

  /** Which panel presenter mode shows: the question, the lab while acting, or why. */
  stage(name) {
    this.section.dataset.stage = name;
  }

  find(selector) {
    return this.section.querySelector(selector);
  }

  say(text) {
    this.find("[data-lesson-status]").textContent = text;
  }
}

let view = new StepView();

/**
 * Send one move of the lesson: Python names the command, the session sends it. A refusal is an
 * answer (a lesson may ask for one); a crash is answered by the session with a new worker.
 */
async function send(stepId, part) {
  const command = await session.command("lesson_command", { lesson: lesson.id, step: stepId, part });
  try {
    return await session.command(command.name, command.args);
  } catch (error) {
    if (error.type === "Crashed") throw error;
    return { refused: error.say ? say(error.say) : error.message }; // Python's refusal, in the page's language
  }
}

/** What the lab shows now, drawn from Python's `view()` (and the saved threads and the storage bill,
 * where a lesson shows them; the bill once a thread is open). */
async function showLab() {
  const saved = needsThreads(lesson.panels) ? await session.command("threads") : undefined;
  const state = await session.command("view");
  const storage = needsStorage(lesson.panels) && state.session ? await session.command("storage") : null;
  view.lab.render(state, saved, storage);
  view.find("[data-lab-view]").hidden = false;
}

/** The step's instruction for the lab's status line while the step is open: its question, then what
 * to do; `null` (Python's status sentence) for a step with neither. */
function instruction(stage) {
  const text = view.find(stage === "predict" ? "[data-question]" : "[data-instruction]")?.textContent;
  return text ?? null;
}

/** Ask Python whether the step is done; when it is, reveal why and keep the progress. */
async function check() {
  const { section, step } = view;
  const result = await session.command("lesson_check", { lesson: lesson.id, step: step.id });
  await showLab();
  if (!result.done) {
    // What is missing, in the page's language: one sentence per fact (the page's words), never a raw value.
    const wrong = Object.entries(result.facts).filter(([, fact]) => !fact.holds).map(([name]) => words.not_yet[name]);
    view.say(`${words.not_done}: ${wrong.join(" ")}`);
    return result;
  }
  section.dataset.done = "true";
  view.stage("why");
  view.lab.instruct(null);
  reveal(view.find("[data-why]"), view.find("[data-after-vote]"), view.find("[data-takeaway]"));
  view.find("[data-why]").open = true;
  // A step about a repeated charge or filing brings the ledger's flag into view.
  if (step.expects.double_causes?.length) view.find(".double-charge")?.scrollIntoView({ block: "nearest" });
  markDone(lesson.id, step.id);
  showProgress(document);
  view.say(words.done);
  return result;
}

async function act() {
  for (const button of view.doButtons) button.disabled = true;
  view.say(words.running);
  const answer = await send(view.step.id, "action");
  const result = await check();
  if (answer?.refused) view.find("[data-lab-status]").textContent = `${words.refused} ${answer.refused}`;
  if (!result.done) for (const button of view.doButtons) button.disabled = false;
}

/** The predict question: a wrong pick shows the hint; the right one opens the step's action. */
function predicted(index) {
  const { choices, step } = view;
  if (!step.predict || view.section.dataset.predicted === "true" || choices[index]?.disabled !== false) return;
  if (index !== step.predict.answer) {
    choices[index].disabled = true;
    choices[index].dataset.wrong = "true";
    view.find("[data-hint]").hidden = false;
    return;
  }
  for (const choice of choices) choice.disabled = true;
  choices[index].dataset.right = "true";
  view.find("[data-hint]").hidden = true;
  view.find("[data-correct]").hidden = false;
  reveal(view.find("[data-after-vote]")); // its comments state the answer: shown once it is given
  view.section.dataset.predicted = "true";
  if (step.action) open();
  else check().catch(failed);
}

/** No spoilers: why, the step's LangGraph code and the takeaway are in the page but hidden until
 * the vote (the code of a step without a question is shown from the start). */
function reveal(...parts) {
  for (const part of parts) if (part) part.hidden = false;
}

/** Presenter mode's R: the class has voted, show the answer (as the right pick would). */
function revealAnswer() {
  if (view.step.predict) predicted(view.step.predict.answer);
}

function open() {
  view.stage("do");
  view.lab.instruct(instruction("do"));
  for (const button of view.doButtons) button.disabled = false;
  view.say(words.ready);
  view.doButtons[0].focus();
}

function failed(error) {
  view.say(`${words.failed} ${error.message}`);
  view.section.dataset.failed = "true";
}

/**
 * A fresh page's fast way in: import the step's seed (its threads, oldest first; an import opens its
 * thread) and answer the moves still to send, the step's own preparation; null when the step has no
 * seed or this browser already holds one of its threads.
 */
async function seeded() {
  const { id, seed, moves } = view.step;
  if (!seed) return null;
  const [file, saved] = await Promise.all([fetchJson(seed), session.command("threads")]);
  const held = new Set(saved.threads.map((thread) => thread.thread_id));
  if (file.ids.some((threadId) => held.has(threadId))) return null;
  let on = null;
  for (const data of file.threads) on = (await session.command("import_thread", { data })).session.thread_id;
  if (file.current && file.current !== on) await session.command("open", { thread_id: file.current });
  return moves.filter(([stepId]) => stepId === id);
}

/** Send `moves` (a fresh page: the step's seed first, where it has one), then open the step: its
 * question first, else its action, else its check. */
async function enter(moves, { fresh = false } = {}) {
  view.say(words.preparing);
  view.stage(view.step.predict ? "predict" : "do");
  showProgress(document);
  await session.ready;
  if (fresh) {
    const own = await seeded().catch((error) => {
      console.warn("The step's seed could not be used; replaying its moves instead:", error);
      return null;
    });
    view.section.dataset.seeded = String(own !== null);
    moves = own ?? moves;
  }
  for (const [stepId, part] of moves) await send(stepId, part);
  for (const [index, choice] of view.choices.entries()) choice.addEventListener("click", () => predicted(index));
  for (const button of view.doButtons) button.addEventListener("click", () => act().catch(failed));
  document.querySelector('a[rel="next"]')?.addEventListener("click", goNext);
  if (view.step.predict) {
    for (const choice of view.choices) choice.disabled = false;
    view.lab.instruct(instruction("predict"));
    await showLab();
    view.say(words.predict_first);
  } else if (view.step.action) {
    await showLab();
    open();
  } else {
    await check();
  }
  view.section.dataset.ready = "true";
}

/**
 * "Next" after a done step: swap in the next step's page and send only what the lab still needs -
 * the step's own preparation, or the whole setup of the next lesson's first step.
 */
async function goNext(event) {
  if (view.section.dataset.done !== "true") return; // not done here: a fresh page rebuilds the step
  event.preventDefault();
  const done = view.step;
  const href = event.currentTarget.href;
  const next = new DOMParser().parseFromString(await (await fetch(href)).text(), "text/html");
  const nextSection = next.querySelector("[data-lesson]");
  const sameLesson = nextSection.dataset.lesson === lesson.id;
  const nextLesson = sameLesson ? lesson : await fetchJson(nextSection.dataset.lessonFile);
  document.title = next.title;
  document.body.replaceChildren(...next.body.children); // parsed scripts never run: this module stays
  bareWhenFramed();
  history.pushState(null, "", href);
  lesson = nextLesson;
  view = new StepView();
  presenterShown();
  const moves = sameLesson ? view.step.moves.slice(done.moves.length + (done.action ? 1 : 0)) : view.step.moves;
  await enter(moves).catch(failed); // a step that cannot be set up says so, as on a fresh page
}

const presenterShown = mountPresenter(words, { reveal: revealAnswer, lesson: () => lesson, session });
mountLearnerRoom(() => lesson); // only in a class room (`?room=`): room.mjs
mountRoomThread(session); // the teacher's thread in the room, and forking its frames: room-thread.mjs
addEventListener("popstate", () => location.reload()); // back to an earlier step: rebuild it
enter(view.step.moves, { fresh: true }).catch(failed);
