/**
 * The storage panel: what IndexedDB holds for each thread and for each checkpoint of this one, a plot
 * of the thread's growth stored LangGraph's default way (every list whole) against the same thread
 * with its lists opted in to DeltaChannel (inline SVG; one of the two is what it stores), and what
 * Prune keeps. Every number
 * is the controller's `storage` command (lab/controller/storage_panel.py); this view only draws.
 * The panel is a <details>: the report is read when it is opened and again after each change while open.
 */
import { t } from "../i18n.mjs";
import { showAction } from "./actions.mjs";
import { h, replace, s, shortId } from "./dom.mjs";

const PLOT = { width: 480, height: 160, pad: 36 };

/** "12.3 kB" in the learner's language (the unit stays Latin: kB and MB read the same in both). */
function bytes(n) {
  if (n < 1000) return t("storage.bytes", { n });
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(2)} MB`;
}

/** The two cumulative curves, lists whole and lists as deltas, over the thread's checkpoints (oldest left). */
function growthPlot(growth) {
  const { width, height, pad } = PLOT;
  const top = Math.max(1, ...growth.full, ...growth.delta);
  const count = Math.max(1, growth.stored.length - 1);
  const point = (value, i) => `${(pad + (i / count) * (width - 2 * pad)).toFixed(1)},${(height - pad - (value / top) * (height - 2 * pad)).toFixed(1)}`;
  const line = (values, cls) => s("polyline", { class: cls, points: values.map(point).join(" "), fill: "none" });
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "storage-plot", role: "img", "aria-labelledby": "storage-plot-title" },
    s("title", { id: "storage-plot-title", text: t("storage.plot", { full: bytes(growth.full.at(-1) ?? 0), delta: bytes(growth.delta.at(-1) ?? 0) }) }),
    s("line", { class: "axis", x1: pad, y1: height - pad, x2: width - pad, y2: height - pad }),
    s("line", { class: "axis", x1: pad, y1: pad, x2: pad, y2: height - pad }),
    s("text", { class: "tick", x: pad - 4, y: pad + 4, "text-anchor": "end", text: bytes(top) }),
    s("text", { class: "tick", x: width / 2, y: height - 8, "text-anchor": "middle", text: t("storage.axis") }),
    line(growth.full, "full"),
    line(growth.delta, "delta"));
}

/**
 * @param {HTMLElement} root
 * @param {{loadStorage: () => Promise<void>, prune: () => Promise<void>}} actions
 */
export function mountStorage(root, actions) {
  const details = h("details", { id: "storage-details" });
  const summary = h("summary", { id: "storage-summary" });
  const body = h("div", { id: "storage-body" });
  details.append(summary, body);
  root.append(details);
  let seen = null; // the view the last report was read for
  details.addEventListener("toggle", () => { if (details.open) actions.loadStorage(); });

  function render(model) {
    summary.textContent = t("storage.open");
    const key = `${model.viewProcess}:${model.session?.thread_id}:${model.frames?.at(-1)?.checkpoint_id}:${model.frames?.length}`;
    if (details.open && key !== seen && !model.busy) {
      seen = key;
      actions.loadStorage();
    }
    const report = model.storage;
    if (!report) {
      replace(body, h("p", { class: "empty", text: t("storage.loading") }));
      return;
    }
    const thread = report.thread;
    const threads = h("table", { class: "storage-threads", id: "storage-threads" },
      h("caption", { text: t("storage.threads") }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("storage.col.thread") }),
        h("th", { scope: "col", text: t("storage.col.checkpoints") }),
        h("th", { scope: "col", text: t("storage.col.bytes") }))),
      h("tbody", {}, ...report.threads.map((row) =>
        h("tr", { dataset: { thread: row.thread_id, bytes: row.bytes } },
          h("th", { scope: "row" }, h("code", { text: row.thread_id })),
          h("td", { class: "num", text: String(row.checkpoints) }),
          h("td", { class: "num", text: bytes(row.bytes) })))));
    if (!thread) {
      replace(body, threads, h("p", { class: "empty", text: t("empty.noThread") }));
      return;
    }
    const ratio = thread.full_bytes ? (thread.delta_bytes / thread.full_bytes).toFixed(3) : "—";
    const checkpoints = h("table", { class: "storage-checkpoints", id: "storage-checkpoints" },
      h("caption", { text: t("storage.checkpoints") }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("storage.col.checkpoint") }),
        h("th", { scope: "col", text: t("storage.col.step") }),
        h("th", { scope: "col", text: t("storage.col.bytes") }),
        h("th", { scope: "col", text: t("storage.col.full") }),
        h("th", { scope: "col", text: t("storage.col.delta") }))),
      h("tbody", {}, ...thread.checkpoints.map((row) =>
        h("tr", { dataset: { checkpoint: row.checkpoint_id, bytes: row.bytes, kept: thread.prune.keeps.includes(row.checkpoint_id) } },
          h("th", { scope: "row" }, h("code", { text: shortId(row.checkpoint_id) })),
          h("td", { class: "num", text: `${row.step} · ${row.source}` }),
          h("td", { class: "num", text: bytes(row.bytes) }),
          h("td", { class: "num", text: bytes(row.full_bytes) }),
          h("td", { class: "num", text: bytes(row.delta_bytes) })))));
    const pruneButton = h("button", {
      type: "button", id: "action-prune", class: "danger quiet", text: t("action.prune"),
      on: { click: () => actions.prune() },
    });
    showAction(pruneButton, model.actions?.prune, Boolean(model.busy) || model.process !== "ready");
    replace(body,
      h("p", { id: "storage-total", dataset: { bytes: thread.bytes, full: thread.full_bytes, delta: thread.delta_bytes, storage: thread.storage },
        text: t(`storage.total.${thread.storage}`, { bytes: bytes(thread.bytes), full: bytes(thread.full_bytes), delta: bytes(thread.delta_bytes), ratio }) }),
      growthPlot(thread.growth),
      h("p", { class: "legend" },
        h("span", { class: "key full", text: t("storage.legend.full") }), " ",
        h("span", { class: "key delta", text: t("storage.legend.delta") })),
      h("p", { id: "storage-prune", dataset: { keeps: thread.prune.keeps.join(" "), bytes: thread.prune.bytes }, text: t("storage.prune", { n: thread.prune.keeps.length, bytes: bytes(thread.prune.bytes), frees: bytes(thread.prune.frees) }) }),
      pruneButton,
      threads,
      checkpoints);
  }
  return { render };
}
