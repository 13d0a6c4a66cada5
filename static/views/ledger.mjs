/**
 * The ledger: every request the outside world's services received (the graph profile's operations), kept
 * outside the Python process (it survives crashes and reloads), as Python annotated it
 * (`view().ledger`, lab/controller/ledger_rules.py): each request's outcome, and the verdict on
 * every business operation done more than once, with why it happened again.
 */
import { say, t } from "../i18n.mjs";
import { h, money, replace, shortId } from "./dom.mjs";

const COLUMNS = ["seq", "kind", "id", "node", "frame", "process", "purpose", "amount", "key", "attempt", "flag"];

/** Each cell of a row carries its column's name (`data-label`): a narrow screen shows a row as a card,
 * one labelled line per cell (style.css). */
function labelled(row) {
  [...row.children].forEach((cell, index) => { cell.dataset.label = t(`ledger.col.${COLUMNS[index]}`); });
  return row;
}

export function mountLedger(root) {
  const alert = h("div", { class: "double-charge", id: "double-charge", role: "alert" });
  const totals = h("p", { class: "totals", id: "ledger-totals" });
  const table = h("table", { class: "ledger", id: "ledger-table" });
  const empty = h("p", { class: "empty" });
  // Focusable, so a keyboard can scroll a table wider than a narrow frame (axe: scrollable-region-focusable).
  const scroller = h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "ledger-caption" }, table);
  root.append(alert, totals, empty, scroller);

  function render(model) {
    const ledger = model.ledger;
    const entries = ledger?.entries ?? [];
    empty.hidden = entries.length > 0;
    empty.textContent = t("ledger.empty");
    table.hidden = entries.length === 0;
    totals.hidden = entries.length === 0;
    totals.textContent = ledger
      ? t("ledger.totals", { counts: (ledger.totals?.say ?? []).map(say).join(t("ledger.countsJoin")), total: money(ledger.totals?.cents ?? 0) })
      : "";
    const duplicates = ledger?.duplicates ?? [];
    alert.hidden = !ledger?.verdict?.double;
    replace(alert, ...duplicates.map((d) =>
      h("p", { dataset: { node: d.node, times: d.times, causes: d.causes.join(" ") } },
        h("strong", { class: "flag", text: `${say(d.purpose_say)} ${say(repeat(d.kind, d.times))}` }), " ",
        h("span", { text: `(${d.node}, ${d.ids.join(", ")}): ` }),
        [...new Set(d.causes)].map((c) => say({ code: `ledger.cause.${c}`, params: { node: d.node }, text: c })).join("; "))));
    if (!entries.length) { replace(table); return; }
    replace(table,
      h("caption", { id: "ledger-caption", text: t("ledger.caption") }),
      h("thead", {}, h("tr", {}, ...COLUMNS.map((c) => h("th", { scope: "col", text: t(`ledger.col.${c}`) })))),
      h("tbody", {}, ...entries.map((e) => labelled(
        h("tr", { class: [e.flag && "flagged", e.replayed && "replayed"], dataset: { node: e.node, kind: e.kind, flag: e.flag ?? "", replayed: e.replayed } },
          h("td", { class: "num", text: String(e.seq) }),
          h("td", { text: t(`ledger.kind.${e.kind}`) }),
          h("td", {}, h("code", { text: e.id })),
          h("td", {}, h("code", { text: e.node })),
          h("td", { class: "id", title: e.checkpoint_id ?? "", text: shortId(e.checkpoint_id) }),
          h("td", { class: "num", text: e.worker ? `#${e.worker}` : "—" }),
          h("td", { text: say(e.purpose_say) }), // case data, said by code (lab/aml/texts.py, by the graph profile)
          h("td", { class: "num", text: e.replayed ? t("ledger.replayed") : money(e.amount_cents) }),
          h("td", { class: "key", title: e.idempotency_key ?? "", text: e.idempotency_key ? `…${e.idempotency_key.slice(-8)}` : t("ledger.noKey") }),
          h("td", { class: "num", text: String(e.attempt ?? 1) }),
          h("td", {}, e.flag ? h("strong", { class: "flag", text: say(repeat(e.kind, e.repeats)) }) : say(e.outcome)))))));
  }

  return { render };
}

/** The catalogue's "charged ×n" / "filed ×n" for an operation done `times` times. */
function repeat(kind, times) {
  return { code: `ledger.repeat.${kind}`, params: { times }, text: `×${times}` };
}
