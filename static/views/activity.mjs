/**
 * The activity log: what the lab just did, one line per notable event (a run started, a checkpoint
 * was committed, writes were saved, the process crashed, a new one booted). A `role="log"` region.
 */
import { h } from "./dom.mjs";

const KEEP = 120;

export function mountActivity(root) {
  const list = h("ol", { class: "activity", id: "activity-log", role: "log", "aria-live": "off", tabindex: "0" });
  root.append(list);
  let shown = 0; // entries already in the list (model.activity only grows, or is cleared)

  function render(model) {
    const entries = model.activity;
    if (entries.length < shown || model.langChanged) { list.replaceChildren(); shown = 0; }
    for (const entry of entries.slice(shown)) {
      list.append(h("li", { class: entry.kind, dataset: { kind: entry.kind } },
        h("span", { class: "seq", text: entry.time }), " ", entry.text()));
      shown += 1;
    }
    while (list.children.length > KEEP) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  return { render };
}
