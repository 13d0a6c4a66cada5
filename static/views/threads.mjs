/**
 * The threads picker: every thread saved in this browser (the controller's `threads()`, newest
 * first) in a select, and Open thread, which makes the chosen one the lab's thread (`open`).
 *
 * Below it: Export thread (the open thread as a file), Export for LangGraph (the same file, and the
 * commands that continue it in real LangGraph), Import thread (a file input: Python validates
 * the file and opens its thread) and, for each saved thread Python says no longer loads, what is
 * wrong with it and a Drop thread button.
 *
 * It shows what Python listed; the only state it keeps is which option is chosen.
 */
import { say, t } from "../i18n.mjs";
import { actionButton, relabel, showAction } from "./actions.mjs";
import { h, replace } from "./dom.mjs";

export function mountThreads(root, actions) {
  const select = h("select", { id: "thread-select", name: "thread", "aria-describedby": "thread-hint" });
  const label = h("label", { for: "thread-select" });
  const hint = h("p", { class: "muted", id: "thread-hint" });
  const open = actionButton("open", () => actions.openThread(select.value));
  const form = h("form", { class: "thread-picker", id: "thread-picker" },
    h("div", { class: "field" }, label, select), hint, h("div", { class: "buttons" }, open));
  form.addEventListener("submit", (e) => { e.preventDefault(); if (!open.disabled) open.click(); });
  select.addEventListener("change", () => render(last));

  const exportButton = actionButton("export_thread", () => actions.exportThread());
  const langgraphButton = actionButton("export_langgraph", () => actions.exportForLangGraph(langgraphButton));
  const fileInput = h("input", { type: "file", id: "thread-file", accept: ".cklab", class: "visually-hidden" });
  const importLabel = h("label", { for: "thread-file", class: "button action", id: "action-import_thread" });
  fileInput.addEventListener("change", () => {
    const [file] = fileInput.files;
    fileInput.value = "";
    if (file) actions.importThread(file);
  });
  const note = h("p", { class: "muted", id: "thread-note", role: "status" });
  const files = h("div", { class: "buttons thread-files" }, exportButton, langgraphButton, importLabel, fileInput);
  const damagedTitle = h("h3", { id: "damaged-title" });
  const damagedList = h("ul", { class: "damaged-threads", "aria-labelledby": "damaged-title" });
  const damaged = h("div", { id: "damaged-threads", class: "damaged" }, damagedTitle, damagedList);
  root.append(form, files, note, damaged);

  let drawn = null; // the list and language last drawn, so a redraw keeps the learner's choice
  let last = null;

  function render(model) {
    last = model;
    if (!model) return;
    const threads = model.threads ?? [];
    const current = model.session?.thread_id ?? null;
    const key = JSON.stringify([threads, current, model.lang]);
    if (key !== drawn) {
      const chosen = drawn === null ? current : select.value;
      drawn = key;
      label.textContent = t("threads.label");
      hint.textContent = threads.length ? t("threads.hint") : t("threads.none");
      relabel(open, t("action.open"));
      replace(select, ...threads.map((thread) => {
        const option = t("threads.option", {
          thread: thread.thread_id,
          case: thread.case_id,
          variant: t(`variant.${thread.variant}`),
          durability: t(`durability.${thread.durability}`),
          count: thread.checkpoints,
        });
        return h("option", {
          value: thread.thread_id,
          text: thread.current ? t("threads.current", { option }) : option,
        });
      }));
      const keep = threads.some((thread) => thread.thread_id === chosen) ? chosen : current;
      if (keep) select.value = keep;
    }
    renderFiles(model, threads);
    // Python's verdicts (threads()): is any thread saved to choose, and can the chosen one be opened?
    showAction(select, model.threadPick, false);
    const chosen = threads.find((thread) => thread.thread_id === select.value);
    showAction(open, chosen?.open ?? model.threadPick, Boolean(model.busy) || model.process !== "ready");
  }

  let drawnDamaged = null;
  function renderFiles(model, threads) {
    const idle = !model.busy && model.process === "ready";
    relabel(exportButton, t("action.export_thread"));
    showAction(exportButton, model.actions?.export_thread, !idle);
    relabel(langgraphButton, t("action.export_langgraph"));
    showAction(langgraphButton, model.actions?.export_thread, !idle); // the same file, so the same rule
    if (importLabel.textContent !== t("action.import_thread")) importLabel.textContent = t("action.import_thread");
    showAction(fileInput, model.actions?.import_thread, !idle); // the file input is Import's control
    importLabel.classList.toggle("disabled", fileInput.disabled);
    note.textContent = model.threadNote ? model.threadNote() : "";
    note.hidden = !model.threadNote;
    const broken = threads.filter((thread) => thread.damaged);
    damaged.hidden = !broken.length;
    const key = JSON.stringify([broken, model.lang]);
    if (key !== drawnDamaged) {
      drawnDamaged = key;
      damagedTitle.textContent = t("threads.damaged");
      replace(damagedList, ...broken.map((thread, index) => h("li", { dataset: { threadId: thread.thread_id } },
        h("p", { text: say(thread.damaged) }),
        actionButton("drop", () => actions.dropThread(thread.thread_id), { id: `action-drop-${index}`, class: "danger" }))));
    }
    for (const button of damagedList.querySelectorAll("button")) showAction(button, model.actions?.drop, !idle);
  }

  return { render };
}
