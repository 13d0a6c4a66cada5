/**
 * Fork: edit the state at the selected frame (LangGraph's `update_state(config, values, as_node)`),
 * which writes an "update" checkpoint as a new child of that frame - a new branch, and the new head.
 * The JSON is checked here only for being a JSON object; Python judges the keys and values.
 */
import { t } from "../i18n.mjs";
import { actionButton, relabel, showAction } from "./actions.mjs";
import { h, replace, shortId } from "./dom.mjs";

/** Where in the text a JSON.parse error points, as "line L, column C" (Chromium says "position N"). */
function jsonError(text, error) {
  const match = /position (\d+)/.exec(error.message);
  const lineCol = /line (\d+) column (\d+)/.exec(error.message);
  if (lineCol) return t("fork.badJsonAt", { line: lineCol[1], column: lineCol[2], reason: error.message });
  if (!match) return t("fork.badJson", { reason: error.message });
  const before = text.slice(0, Number(match[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return t("fork.badJsonAt", { line, column, reason: error.message });
}

/**
 * Parse the editor's text: `{values}` or `{error}` (a sentence for the learner).
 * @param {string} text
 */
export function parseValues(text) {
  if (!text.trim()) return { error: t("fork.emptyJson") };
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: jsonError(text, error) };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { error: t("fork.notObject") };
  if (!Object.keys(value).length) return { error: t("fork.noKeys") };
  return { values: value };
}

/** The editor's starting text: the frame's plain (single-value) state keys with their values. */
function prefill(frame, graph) {
  const plain = new Set((graph?.state ?? []).filter((s) => s.channel === "LastValue").map((s) => s.key));
  const picked = {};
  for (const [k, v] of Object.entries(frame?.values ?? {})) {
    if (plain.has(k) && (typeof v === "string" || typeof v === "number" || typeof v === "boolean")) picked[k] = v;
  }
  return JSON.stringify(picked, null, 2);
}

export function mountFork(root, actions) {
  const intro = h("p", { class: "muted", id: "fork-intro" });
  const textarea = h("textarea", { id: "fork-values", rows: "7", spellcheck: "false", "aria-describedby": "fork-help fork-error" });
  const textLabel = h("label", { for: "fork-values" });
  const help = h("p", { class: "help", id: "fork-help" });
  const asNode = h("select", { id: "fork-as-node" });
  const asLabel = h("label", { for: "fork-as-node" });
  const error = h("p", { class: "field-error", id: "fork-error", role: "alert" });
  const submit = actionButton("fork", () => send(), { class: "primary" });
  const form = h("form", { class: "fork-form", id: "fork-form" },
    intro, textLabel, textarea, help, h("div", { class: "field" }, asLabel, asNode), error, h("div", { class: "buttons" }, submit));
  const empty = h("p", { class: "empty" });
  root.append(empty, form);
  form.addEventListener("submit", (e) => { e.preventDefault(); send(); });
  textarea.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); send(); }
  });
  textarea.addEventListener("input", () => showError(""));

  let frameShown = null;
  let drawnFor = null;
  let current = null;

  function showError(message) {
    error.textContent = message;
    error.hidden = !message;
    textarea.setAttribute("aria-invalid", message ? "true" : "false");
  }

  function send() {
    if (!current) return;
    const parsed = parseValues(textarea.value);
    if (parsed.error) {
      showError(parsed.error);
      textarea.focus();
      return;
    }
    showError("");
    actions.fork(current.checkpoint_id, parsed.values, asNode.value || null);
  }

  function render(model) {
    const frame = model.detail?.frame ?? null;
    current = frame;
    empty.hidden = Boolean(frame);
    empty.textContent = model.session ? t("inspect.empty") : t("empty.noThread");
    // The editor's fields are the fork's controls: editable when Python allows a fork (a frame to
    // fork from, no run in progress, this tab writes the thread), whatever the page is waiting for.
    for (const field of [textarea, asNode]) showAction(field, model.actions?.fork, false);
    showAction(submit, model.actions?.fork, Boolean(model.busy) || model.process !== "ready");
    const key = `${model.lang}|${model.session?.variant}`;
    if (drawnFor !== key && model.graph) {
      drawnFor = key;
      const chosen = asNode.value;
      replace(asNode, h("option", { value: "", text: t("fork.asNodeAuto") }),
        ...model.graph.nodes.filter((n) => n.kind === "node").map((n) => h("option", { value: n.id, text: n.id, selected: n.id === chosen })));
      textLabel.textContent = t("fork.values");
      asLabel.textContent = t("fork.asNode");
      relabel(submit, t("action.fork"));
    }
    help.textContent = t("fork.help", { keys: (model.graph?.state ?? []).map((s) => s.key).join(", ") });
    if (!frame) {
      intro.textContent = "";
      textarea.value = "";
      frameShown = null;
      return;
    }
    intro.textContent = t("fork.intro", { id: shortId(frame.checkpoint_id), step: frame.step });
    if (frameShown !== frame.checkpoint_id) {
      frameShown = frame.checkpoint_id;
      textarea.value = prefill(frame, model.graph);
      showError("");
    }
    if (model.forkError) showError(model.forkError);
  }

  return { render, focus: () => textarea.focus() };
}
