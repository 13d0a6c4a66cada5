/**
 * The checkpoint table: one row per checkpoint the saver has *committed* to IndexedDB. Rows are added
 * when a `checkpoint` event arrives (or when the frames are read back after a reload or a crash) -
 * never when a step merely starts. A row's pending-writes cell grows as `writes` events commit.
 *
 * A thread whose nodes ran subgraphs has more than one namespace (`view.namespaces`: the root "" and
 * each subgraph's "<node>:<task id>"): the rows are then grouped by namespace, each group under a
 * header row naming it, the root's first (its rows select a frame), then each subgraph's rows as
 * Python read them (shown, not selectable: the scrubber and the inspector browse the root's frames).
 */
import { t } from "../i18n.mjs";
import { brief, h, replace, shortId, shortVersion } from "./dom.mjs";

const COLUMNS = ["index", "id", "step", "source", "parent", "next", "versions", "seen", "writes"];

/** Channel versions as compact "channel version" pairs; the channels this checkpoint updated stand out. */
function versionsCell(mapping, updated) {
  const entries = Object.entries(mapping ?? {});
  if (!entries.length) return "—";
  const fresh = new Set(updated ?? []);
  return entries.flatMap(([channel, v], i) => [
    i ? " " : "",
    h("span", { class: ["pair", fresh.has(channel) && "updated"], dataset: { channel } }, `${channel}\u00a0${shortVersion(v)}`),
  ]);
}

/** versions_seen: per node, the channel versions it has seen (what triggers it next). */
function seenCell(seen) {
  const entries = Object.entries(seen ?? {}).filter(([, m]) => Object.keys(m ?? {}).length);
  if (!entries.length) return "—";
  return entries.map(([node, m]) =>
    h("div", {}, h("b", { text: node }), ` ${Object.entries(m).map(([c, v]) => `${c}@${shortVersion(v)}`).join(", ")}`));
}

function writesCell(writes) {
  if (!writes?.length) return h("span", { class: "muted", text: "—" });
  return h("ul", { class: "writes" }, ...writes.map(([node, channel, value]) =>
    h("li", { dataset: { node, channel }, title: `${node} → ${channel} = ${brief(value, 400)}` }, h("b", { text: node }), ` → ${channel} = `,
      h("code", { text: brief(value, 28) }))));
}

export function mountCheckpoints(root, { onSelect }) {
  const empty = h("p", { class: "empty", role: "note" });
  const table = h("table", { class: "checkpoints", id: "checkpoint-table" });
  const caption = h("caption", {});
  const head = h("thead", {});
  const rootHead = h("tbody", { class: "ns-group-head" }); // the root group's header, when there are groups
  const body = h("tbody", { dataset: { checkpointNs: "" } });
  table.append(caption, head, rootHead, body);
  /** @type {HTMLTableSectionElement[]} */
  let subgraphBodies = [];
  let drawnNamespaces = "";
  const scroller = h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "checkpoints-heading" }, table);
  root.append(empty, scroller);
  /** @type {Map<string, HTMLTableRowElement>} */
  const rows = new Map();
  let lang = null;

  /** A group's header row: the namespace and what it holds, as Python's view says. */
  function groupHead(namespace) {
    const text = namespace.graph === null
      ? t("table.ns.root", { count: namespace.count })
      : t("table.ns.subgraph", { ns: namespace.checkpoint_ns, graph: namespace.graph, count: namespace.count });
    return h("tr", { class: "ns-head" },
      h("th", { scope: "rowgroup", colspan: String(COLUMNS.length) }, h("span", { class: "ns-label", text })));
  }

  /** One subgraph namespace's rows under its header (redrawn whole: a subgraph has a few checkpoints). */
  function subgraphGroup(namespace) {
    return h("tbody", { class: "ns-group", dataset: { checkpointNs: namespace.checkpoint_ns } },
      groupHead(namespace), ...namespace.frames.map((frame, index) => row(frame, index, false)));
  }

  function row(frame, index, selectable = true) {
    const id = frame.checkpoint_id;
    const select = !selectable ? h("code", { text: shortId(id), title: id }) : h("button", {
      type: "button",
      class: "link",
      text: shortId(id),
      title: id,
      "aria-label": t("table.select", { id: shortId(id), step: frame.step }),
      on: { click: () => onSelect(id) },
    });
    return h("tr", { dataset: { checkpointId: id, checkpointNs: frame.checkpoint_ns, step: frame.step, source: frame.source } },
      h("td", { class: "num", text: String(index + 1) }),
      h("td", { class: "id" }, select),
      h("td", { class: "num", text: String(frame.step) }),
      h("td", {}, h("span", { class: `source ${frame.source}`, text: frame.source })),
      h("td", { class: "id", title: frame.parent_id ?? "", text: shortId(frame.parent_id) }),
      h("td", { class: "next", text: frame.next?.length ? frame.next.join(", ") : t("table.none") }),
      h("td", { class: "versions" }, versionsCell(frame.channel_versions, frame.updated_channels)),
      h("td", { class: "versions seen" }, seenCell(frame.versions_seen)),
      h("td", { class: "pending" }, writesCell(frame.pending_writes)));
  }

  function render(model) {
    const frames = model.frames ?? [];
    if (lang !== model.lang) {
      lang = model.lang;
      replace(head, h("tr", {}, ...COLUMNS.map((c) => h("th", { scope: "col", class: `col-${c}`, text: t(`table.col.${c}`) }))));
      for (const r of rows.values()) r.remove();
      rows.clear();
    }
    caption.textContent = model.session
      ? t("table.caption", { count: frames.length, thread: model.session.thread_id })
      : "";
    empty.textContent = !model.session
      ? t("empty.noThread")
      : frames.length
        ? ""
        : model.session.durability === "exit" || model.executions?.runs?.at(-1)?.durability === "exit"
          ? t("table.emptyExit")
          : t("table.empty");
    empty.hidden = frames.length > 0;
    scroller.hidden = frames.length === 0;

    drawNamespaces(model.namespaces ?? [], model.lang);
    const wanted = new Set(frames.map((f) => f.checkpoint_id));
    for (const [id, r] of rows) if (!wanted.has(id)) { r.remove(); rows.delete(id); }
    frames.forEach((frame, index) => {
      const id = frame.checkpoint_id;
      const key = JSON.stringify(frame.pending_writes ?? []) + index;
      let r = rows.get(id);
      if (r && r.dataset.key !== key) {
        const fresh = row(frame, index);
        r.replaceWith(fresh);
        r = fresh;
        rows.set(id, r);
      } else if (!r) {
        r = row(frame, index);
        rows.set(id, r);
        r.classList.add("fresh");
      }
      r.dataset.key = key;
      if (body.children[index] !== r) body.insertBefore(r, body.children[index] ?? null);
      const selected = id === model.selectedId;
      r.setAttribute("aria-current", selected ? "true" : "false");
      r.classList.toggle("selected", selected);
      r.classList.toggle("on-branch", model.branchPath?.includes(id) ?? true);
      r.classList.toggle("head", id === model.tree?.head);
    });
  }

  /** The namespace groups: none while the thread has only the root namespace. */
  function drawNamespaces(namespaces, shownLang) {
    const key = JSON.stringify([shownLang, namespaces]);
    if (key === drawnNamespaces) return;
    drawnNamespaces = key;
    const grouped = namespaces.length > 1;
    replace(rootHead, ...(grouped ? [groupHead(namespaces[0])] : []));
    for (const group of subgraphBodies) group.remove();
    subgraphBodies = grouped ? namespaces.slice(1).map(subgraphGroup) : [];
    table.append(...subgraphBodies);
  }

  return { render };
}
