/**
 * The lesson runner: one step of a guided lesson (predict → do → see why) over a live lab, the way a
 * Learn Git Branching level runs over its simulator.
 *
 * No rule lives here. The lesson's data (lab/lessons, embedded in the page as JSON at build time)
 * lists the moves that lead to this step; Python resolves each into the command its control sends
 * (`lesson_command`), and decides whether the step is done by checking its facts on `view()`
 * (`lesson_check`). This module only sends, shows and remembers:
 *
 * 1. Setup: on a fresh page the lab replays every earlier step's moves (a deep link opens the same
 *    step on any browser, with empty storage: a crash in a move is a real worker kill, answered by
 *    LabSession with a new worker).
 * 2. Predict: the choices open; a wrong pick shows the hint and stays open for a second try; the
 *    right one opens the step's control. Nothing advances on a timer.
 * 3. Do: the step's control and "do it for me" send the same command.
 * 4. See why: once Python says the step is done, its explanation opens, its progress is kept
 *    (progress.mjs), and the page's `data-done` says so.
 */
import { LabSession } from "../lab-session.mjs";
import { markDone, showProgress } from "./progress.mjs";

const section = document.querySelector("[data-lesson]");
const lesson = JSON.parse(document.getElementById("lesson-data").textContent);
const words = JSON.parse(document.getElementById("lesson-words").textContent);
const step = lesson.steps.find((candidate) => candidate.id === section.dataset.step);
const element = (selector) => section.querySelector(selector);
const choices = [...section.querySelectorAll("[data-choice]")];
const doButtons = [element("[data-control]"), element("[data-do-it]")].filter(Boolean);

// Nodes work at the lab's own pace (0.3 s), in the setup too: under durability "async" what a crash
// loses depends on how far the saver got, and at that pace a lesson loses what it says it loses.
const session = new LabSession();

function say(text) {
  element("[data-lesson-status]").textContent = text;
}

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
    return { refused: error.message };
  }
}

/** What the lab shows now: its status line and every node that is not idle, with its reason. */
async function showLab() {
  const view = await session.command("view");
  element("[data-lab-view]").hidden = false;
  element("[data-lab-status]").textContent = view.status.message.text;
  const list = element("[data-lab-nodes]");
  list.replaceChildren(
    ...view.graph.nodes
      .filter((node) => node.kind === "node" && node.state !== "idle")
      .map((node) => {
        const item = document.createElement("li");
        item.textContent = `${node.id}: ${node.state}${node.reason ? ` (${node.reason.text})` : ""}`;
        return item;
      }),
  );
}

/** Ask Python whether the step is done; when it is, reveal why and keep the progress. */
async function check() {
  const result = await session.command("lesson_check", { lesson: lesson.id, step: step.id });
  await showLab();
  if (!result.done) {
    const wrong = Object.entries(result.facts).filter(([, fact]) => !fact.holds);
    say(`${words.not_done}: ${wrong.map(([name, fact]) => `${name} = ${JSON.stringify(fact.actual)}`).join("; ")}`);
    return result;
  }
  section.dataset.done = "true";
  element("[data-why]").open = true;
  markDone(lesson.id, step.id);
  showProgress(document, words);
  say(words.done);
  return result;
}

async function act() {
  for (const button of doButtons) button.disabled = true;
  say(words.running);
  const answer = await send(step.id, "action");
  if (answer?.refused) element("[data-lab-status]").textContent = answer.refused;
  const result = await check();
  if (!result.done) for (const button of doButtons) button.disabled = false;
}

/** The predict question: a wrong pick shows the hint; the right one opens the step's action. */
function predicted(index) {
  if (index !== step.predict.answer) {
    choices[index].disabled = true;
    choices[index].dataset.wrong = "true";
    element("[data-hint]").hidden = false;
    return;
  }
  for (const choice of choices) choice.disabled = true;
  choices[index].dataset.right = "true";
  element("[data-hint]").hidden = true;
  element("[data-correct]").hidden = false;
  section.dataset.predicted = "true";
  if (step.action) open();
  else check().catch(failed);
}

function open() {
  for (const button of doButtons) button.disabled = false;
  say(words.ready);
  doButtons[0].focus();
}

function failed(error) {
  say(`${words.failed} ${error.message}`);
  section.dataset.failed = "true";
}

async function setUp() {
  say(words.preparing);
  await session.ready;
  for (const [stepId, part] of step.moves) await send(stepId, part);
  section.dataset.ready = "true";
  for (const [index, choice] of choices.entries()) choice.addEventListener("click", () => predicted(index));
  for (const button of doButtons) button.addEventListener("click", () => act().catch(failed));
  if (step.predict) {
    for (const choice of choices) choice.disabled = false;
    await showLab();
    say(words.predict_first);
  } else if (step.action) {
    await showLab();
    open();
  } else {
    await check();
  }
}

showProgress(document, words);
setUp().catch(failed);
