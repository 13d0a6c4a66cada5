/**
 * The activity log: what happened on the thread, one line per journal record (a run started, a step
 * ran these tasks, writes were saved, the process was killed, a run ended). Python rebuilds it from
 * the journal (`view().activity`), so it survives a crash and a reload. A `role="log"` region
 * around a plain list (a `role` on the list itself would hide its items' list semantics).
 */
import { say } from "../i18n.mjs";
import { h } from "./dom.mjs";

const KEEP = 120;

/** @param {number | null} at seconds since 1970 */
function clock(at) {
  if (!at) return "";
  const d = new Date(at * 1000);
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function mountActivity(root) {
  const list = h("ol");
  const log = h("div", {
    class: "activity", id: "activity-log", role: "log", "aria-live": "off", tabindex: "0",
    "aria-labelledby": "activity-heading",
  }, list);
  root.append(log);
  let drawn = ""; // what the list shows: the number of entries and the language

  function render(model) {
    const entries = (model.activity ?? []).slice(-KEEP);
    const key = `${model.activity?.length ?? 0}|${model.lang}|${model.session?.thread_id}`;
    if (key === drawn) return;
    drawn = key;
    list.replaceChildren(...entries.map((entry) =>
      h("li", { class: entry.kind, dataset: { kind: entry.kind, run: entry.run ?? "" } },
        h("span", { class: "seq", text: clock(entry.at) }), " ", say(entry.message))));
    log.scrollTop = log.scrollHeight;
  }

  return { render };
}
