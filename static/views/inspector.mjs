/**
 * The frame inspector: the selected checkpoint's state, `next`, channel versions, versions_seen and
 * pending writes, and the diff against its parent - both as the controller's `frame` command sends
 * them (Python computes the diff; the page only lays it out).
 */
import { t } from "../i18n.mjs";
import { brief, h, pretty, replace, shortId, shortVersion } from "./dom.mjs";

function mappingDiff(title, diff, format = (v) => brief(v, 80)) {
  const rows = [];
  for (const [k, v] of Object.entries(diff?.added ?? {})) rows.push(h("li", { class: "added", dataset: { key: k } }, h("code", { text: k }), ` + ${format(v)}`));
  for (const [k, v] of Object.entries(diff?.changed ?? {})) rows.push(h("li", { class: "changed", dataset: { key: k } }, h("code", { text: k }), ` ${format(v.before)} → ${format(v.after)}`));
  for (const [k, v] of Object.entries(diff?.removed ?? {})) rows.push(h("li", { class: "removed", dataset: { key: k } }, h("code", { text: k }), ` − ${format(v)}`));
  return h("div", { class: "diff-part" }, h("h4", { text: title }),
    rows.length ? h("ul", { class: "diff" }, ...rows) : h("p", { class: "muted", text: t("inspect.unchanged") }));
}

const version = (v) => (v && typeof v === "object" ? Object.entries(v).map(([c, x]) => `${c}@${shortVersion(x)}`).join(", ") || "{}" : shortVersion(v));

export function mountInspector(root) {
  const empty = h("p", { class: "empty" });
  const body = h("div", { class: "inspector", id: "inspector" });
  root.append(empty, body);

  function render(model) {
    const detail = model.detail;
    const frame = detail?.frame;
    empty.hidden = Boolean(frame);
    empty.textContent = model.session ? t("inspect.empty") : t("empty.noThread");
    body.hidden = !frame;
    if (!frame) { replace(body); return; }
    if (body.dataset.key === `${frame.checkpoint_id}|${model.lang}|${JSON.stringify(frame.pending_writes)}`) return;
    body.dataset.key = `${frame.checkpoint_id}|${model.lang}|${JSON.stringify(frame.pending_writes)}`;
    body.dataset.checkpointId = frame.checkpoint_id;
    const diff = detail.diff ?? {};
    replace(body,
      h("dl", { class: "facts" },
        h("dt", { text: t("inspect.id") }), h("dd", {}, h("code", { text: frame.checkpoint_id })),
        h("dt", { text: t("inspect.step") }), h("dd", { text: `${frame.step} · ${frame.source}` }),
        h("dt", { text: t("inspect.parent") }), h("dd", {}, h("code", { title: frame.parent_id ?? "", text: shortId(frame.parent_id) })),
        h("dt", { text: t("inspect.next") }), h("dd", { id: "inspect-next", text: frame.next?.length ? frame.next.join(", ") : t("table.none") }),
        frame.interrupts?.length ? [h("dt", { text: t("inspect.interrupts") }), h("dd", { text: frame.interrupts.map((i) => brief(i.value, 60)).join("; ") })] : ""),
      h("section", { class: "diff-box", id: "frame-diff", "aria-label": t("inspect.diff") },
        h("h3", { text: diff.against ? t("inspect.diffAgainst", { id: shortId(diff.against) }) : t("inspect.diffFirst") }),
        mappingDiff(t("inspect.values"), diff.values),
        h("div", { class: "diff-part" }, h("h4", { text: t("inspect.next") }),
          h("p", { text: `${(diff.next?.before ?? []).join(", ") || "∅"} → ${(diff.next?.after ?? []).join(", ") || "∅"}` })),
        mappingDiff(t("inspect.versions"), diff.channel_versions, version),
        mappingDiff(t("inspect.seen"), diff.versions_seen, version)),
      h("details", { open: true, class: "state" }, h("summary", { text: t("inspect.state") }),
        h("pre", { id: "inspect-state", tabindex: "0", text: pretty(frame.values) })),
      h("details", { class: "pending" }, h("summary", { text: t("inspect.pending", { count: frame.pending_writes?.length ?? 0 }) }),
        frame.pending_writes?.length
          ? h("ul", { class: "writes" }, ...frame.pending_writes.map(([node, channel, value]) =>
              h("li", {}, h("b", { text: node }), ` → ${channel} = `, h("code", { text: brief(value, 80) }))))
          : h("p", { class: "muted", text: t("inspect.noPending") })),
      h("details", { class: "versions" }, h("summary", { text: t("inspect.versions") }),
        h("pre", { tabindex: "0", text: Object.entries(frame.channel_versions ?? {}).map(([c, v]) => `${c}: ${shortVersion(v)}`).join("\n") || "{}" })),
      h("details", { class: "seen" }, h("summary", { text: t("inspect.seen") }),
        h("pre", { tabindex: "0", text: Object.entries(frame.versions_seen ?? {}).map(([n, m]) => `${n}: ${version(m)}`).join("\n") || "{}" })));
  }

  return { render };
}
