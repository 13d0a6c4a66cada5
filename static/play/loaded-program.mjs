/**
 * What the playground shows of the program it loaded: the load's notes, its input and input schema,
 * and what its script printed. Plain writers into static/play.html's panes; nothing here decides
 * anything the lab's Python says (`play_load`'s and `play_script`'s answers are shown as given).
 */

import { t } from "../i18n.mjs";

const $ = (selector) => document.querySelector(selector);

/**
 * The program `loaded` ({source, input, own}) is `source` with this input (null: its own, as it was
 * loaded with): Run starts a new thread of it (an armed crash stays), without loading it again.
 */
export function isSameProgram(loaded, source, input) {
  if (loaded?.source !== source) return false;
  return input === null ? loaded.own : !loaded.own && JSON.stringify(input) === JSON.stringify(loaded.input);
}

/** `play_load`'s answer: which graph, what became of its checkpointer, the lines skipped, its input. */
export function showLoaded(answer) {
  const notes = [t("play.loaded", { graph: answer.graph })];
  notes.push(answer.checkpointer
    ? t("play.checkpointerReplaced", { checkpointer: answer.checkpointer })
    : t("play.noCheckpointer"));
  if (answer.skipped) notes.push(t("play.skipped", { first: answer.skipped[0], last: answer.skipped[1] }));
  $("#play-load-notes").textContent = notes.join(" ");
  $("#play-load-notes").hidden = false;
  const box = $("#play-input"); // the input the thread started with, unless the learner gave one
  if (!box.value.trim() || box.value === box.dataset.filled) {
    box.value = JSON.stringify(answer.input);
    box.dataset.filled = box.value;
  }
  $("#play-schema-text").textContent = JSON.stringify(answer.input_schema, null, 2);
  $("#play-schema").hidden = !answer.input_schema;
}

/**
 * A program that builds no graph ran as plain Python while it loaded (`play_load` answered `graph:
 * null` and what it `printed`): the notes say so and its output is shown (no checkpoints to show: the
 * page hides the lab's panels until a program with a graph loads).
 */
export function showPlain({ printed }) {
  $("#play-load-notes").textContent = t("play.noGraph");
  $("#play-load-notes").hidden = false;
  $("#play-schema").hidden = true;
  showOutput(printed);
}

/** What the script printed, in its pane (null: the pane hidden, as a new load has printed nothing). */
export function showOutput(text) {
  if (text !== null) $("#play-output").textContent = text;
  $("#play-output-box").hidden = text === null;
}
