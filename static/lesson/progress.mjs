/**
 * Lesson progress, kept in this browser (localStorage; for this page only where the browser refuses
 * it): which steps of which lesson are done. The
 * lesson list and each lesson's step list show it in their `[data-lesson-progress]` and
 * `[data-step-progress]` placeholders. Progress is a learner's, not a rule of the lab: Python decides
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

/**
 * Fill the progress placeholders under `root`, in the page's language: the list that holds them says
 * "done" in its `data-done-word` (narratives/<lang>/lessons/_page.toml's `lesson_done`).
 * @param {ParentNode} root
 */
export function showProgress(root) {
  const doneWord = root.querySelector("[data-done-word]")?.dataset.doneWord ?? "";
  const done = doneSteps();
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

showProgress(document);
