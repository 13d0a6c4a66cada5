/**
 * The threads picker: every thread saved in this browser (the controller's `threads()`, newest
 * first) in a select, and Open thread, which makes the chosen one the lab's thread (`open`).
 *
 * It shows what Python listed; the only state it keeps is which option is chosen.
 */
import { t } from "../i18n.mjs";
import { actionButton, relabel } from "./actions.mjs";
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
  root.append(form);

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
    select.disabled = !threads.length;
    open.disabled = Boolean(model.busy) || model.process !== "ready" || !select.value || select.value === current;
  }

  return { render };
}
