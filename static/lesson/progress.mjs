/**
 * Lesson progress, kept in this browser (localStorage; for this page only where the browser refuses
 * it): which steps of which lesson are done. The lesson list shows it in its `[data-lesson-progress]`
 * placeholders, and each lesson's step list (`ol.lesson-steps`) in a mark after each step's link; a
 * "Reset my progress" button (`[data-reset-progress]`, on the lesson list and every lesson page)
 * forgets it all. Progress is a learner's, not a rule of the lab: Python decides
 * whether a step is done (lesson_check); this module only remembers that it said so.
 */

const KEY = "checkpoint-lab.lessons";

/** Progress where the browser refuses localStorage (a cross-site frame throws a SecurityError):
 * kept for this page only, like the lab's records there. */
let unsaved = {};

/** @returns {Record<string, true>} "lesson/step" → true for every step done */
export function doneSteps() {
  let stored;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    return { ...unsaved };
  }
  try {
    return JSON.parse(stored ?? "{}") ?? {};
  } catch {
    return {}; // unreadable progress is no progress, not a broken page
  }
}

/** Remember that Python said `lesson`/`step` is done. */
export function markDone(lesson, step) {
  const done = { ...doneSteps(), [`${lesson}/${step}`]: true };
  try {
    localStorage.setItem(KEY, JSON.stringify(done));
  } catch {
    unsaved = done;
  }
}

/** Forget every step done, in this browser (the lab's threads and ledger are the lab's: untouched). */
export function resetProgress() {
  unsaved = {};
  try {
    localStorage.removeItem(KEY);
  } catch {
    // refused storage holds nothing to forget
  }
}

/** "lesson/step" for a link to a step, /learn/<lang>/<lesson>/<step>/. */
const stepKey = (link) => new URL(link.href).pathname.split("/").slice(3, 5).join("/");

/** Give each step link of the step lists under `root` its progress mark (`[data-step-progress]`), once. */
function addStepMarks(root) {
  for (const link of root.querySelectorAll("ol.lesson-steps a")) {
    if (link.nextElementSibling?.matches("[data-step-progress]")) continue;
    const mark = document.createElement("span");
    mark.dataset.stepProgress = stepKey(link);
    link.after(" ", mark);
  }
}

/**
 * Fill the progress placeholders under `root`, in the page's language: the list that holds them says
 * "done" in its `data-done-word` (narratives/<lang>/lessons/_page.toml's `lesson_done`).
 * @param {ParentNode} root
 */
export function showProgress(root) {
  const doneWord = root.querySelector("[data-done-word]")?.dataset.doneWord ?? "";
  const done = doneSteps();
  addStepMarks(root);
  for (const element of root.querySelectorAll("[data-step-progress]")) {
    const isDone = done[element.dataset.stepProgress] === true;
    element.textContent = isDone ? `✓ ${doneWord}` : "";
    element.dataset.done = String(isDone);
  }
  for (const element of root.querySelectorAll("[data-lesson-progress]")) {
    const prefix = `${element.dataset.lessonProgress}/`;
    const count = Object.keys(done).filter((key) => key.startsWith(prefix)).length;
    element.textContent = count ? `${count}/${element.dataset.steps} ${doneWord}` : "";
    element.dataset.done = String(count);
  }
}

// One listener for the page's reset buttons, also those of a step swapped in later (runner.mjs).
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-reset-progress]");
  if (!button) return;
  resetProgress();
  showProgress(document);
  const said = button.parentElement.querySelector("[data-reset-said]");
  if (said) said.textContent = button.dataset.saidWord;
});

showProgress(document);
