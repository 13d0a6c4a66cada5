/**
 * The graph diagram: an SVG drawn from the view's description of the compiled graph (nodes, edges,
 * joins, conditional edges) - nothing about the AML graph is written here. Each node is coloured by
 * the state Python gives it in `view().graph` (lab/controller/node_states.py), with its reason as
 * the tooltip and its execution count; the page decides none of it.
 */
import { say, t } from "../i18n.mjs";
import { h, s, replace } from "./dom.mjs";

const BOX_W = 168;
const BOX_H = 34;
const LAYER_GAP = 58;
const COL_GAP = 196;
const PAD = 16;
const SIDE_LANE = 40; // room on the right for edges that skip layers


/**
 * Longest-path layers from START, following every kind of edge; back edges (cycles) are ignored.
 * @param {{nodes: any[], edges: any[], joins: any[], conditional_edges: any[]}} graph
 */
function layout(graph) {
  const out = new Map(graph.nodes.map((n) => [n.id, []]));
  const link = (a, b, kind) => out.get(a)?.push({ target: b, kind });
  for (const e of graph.edges) link(e.source, e.target, "edge");
  for (const j of graph.joins) for (const source of j.sources) link(source, j.target, "join");
  for (const c of graph.conditional_edges) for (const target of c.targets) link(c.source, target, "conditional");

  const layer = new Map();
  const visiting = new Set();
  const start = graph.nodes.find((n) => n.kind === "start")?.id ?? graph.nodes[0]?.id;
  const visit = (id, depth) => {
    if (visiting.has(id)) return; // a cycle: keep the first placement
    if ((layer.get(id) ?? -1) >= depth) return;
    layer.set(id, depth);
    visiting.add(id);
    for (const { target } of out.get(id) ?? []) visit(target, depth + 1);
    visiting.delete(id);
  };
  visit(start, 0);
  for (const n of graph.nodes) if (!layer.has(n.id)) layer.set(n.id, 0);

  const layers = [];
  for (const n of graph.nodes) (layers[layer.get(n.id)] ??= []).push(n.id);
  const widest = Math.max(...layers.map((l) => l?.length ?? 0));
  const width = PAD * 2 + BOX_W + (widest - 1) * COL_GAP + SIDE_LANE;
  const center = PAD + (BOX_W + (widest - 1) * COL_GAP) / 2;
  const pos = new Map();
  layers.forEach((ids = [], depth) => {
    ids.forEach((id, i) => {
      pos.set(id, { x: center + (i - (ids.length - 1) / 2) * COL_GAP, y: PAD + BOX_H / 2 + depth * LAYER_GAP });
    });
  });
  const height = PAD * 2 + BOX_H + (layers.length - 1) * LAYER_GAP;
  const links = [];
  for (const [source, targets] of out) for (const l of targets) links.push({ source, ...l });
  return { pos, layer, links, width, height, laneX: width - SIDE_LANE / 2 };
}

function edgePath(a, b, skip, laneX) {
  if (!skip) {
    const y1 = a.y + BOX_H / 2;
    const y2 = b.y - BOX_H / 2;
    const mid = (y1 + y2) / 2;
    return `M${a.x},${y1} C${a.x},${mid} ${b.x},${mid} ${b.x},${y2}`;
  }
  // Skips a layer: leave on the right, run down the side lane, enter from the right.
  const x1 = a.x + BOX_W / 2;
  const x2 = b.x + BOX_W / 2;
  return `M${x1},${a.y} C${laneX},${a.y} ${laneX},${b.y} ${x2},${b.y}`;
}

/**
 * @param {HTMLElement} root
 * @param {{idPrefix?: string}} [options] `idPrefix` names the diagram's title and caption ids (a page may
 *   show two diagrams at once: the one drawn at build time while Python boots, and the live one)
 */
export function mountGraph(root, { idPrefix = "graph" } = {}) {
  let drawn = null; // the graph object currently drawn
  /** @type {Map<string, SVGGElement>} */
  let groups = new Map();
  const svgHolder = h("div", { class: "graph-holder" });
  const caption = h("p", { class: "graph-caption", id: `${idPrefix}-caption` });
  const legend = h("ul", { class: "graph-legend", "aria-label": "" });
  root.append(svgHolder, caption, legend);

  function draw(graph, title) {
    const { pos, layer, links, width, height, laneX } = layout(graph);
    groups = new Map();
    const defs = s("defs", {},
      s("marker", { id: `${idPrefix}-arrow`, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" },
        s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" })));
    const edges = s("g", { class: "edges" });
    for (const l of links) {
      const a = pos.get(l.source);
      const b = pos.get(l.target);
      if (!a || !b) continue;
      const skip = layer.get(l.target) - layer.get(l.source) > 1;
      edges.append(s("path", {
        d: edgePath(a, b, skip, laneX),
        class: `edge ${l.kind}`,
        "marker-end": `url(#${idPrefix}-arrow)`,
        dataset: { source: l.source, target: l.target, kind: l.kind },
      }));
    }
    const nodes = s("g", { class: "nodes" });
    for (const n of graph.nodes) {
      const p = pos.get(n.id);
      const terminal = n.kind !== "node";
      const w = terminal ? 84 : BOX_W;
      const g = s("g", {
        class: `node ${n.kind}`,
        transform: `translate(${p.x - w / 2},${p.y - BOX_H / 2})`,
        dataset: { node: n.id, state: "idle" },
      });
      const label = terminal ? (n.kind === "start" ? "START" : "END") : n.id;
      const badges = [n.paid && "$", n.interrupts && "‖", ...(n.marks ?? []).map((m) => m.glyph)].filter(Boolean).join(" ");
      g.append(
        s("title", { text: n.say_summary ? `${n.id}: ${say(n.say_summary)}` : label }),
        s("rect", { width: w, height: BOX_H, rx: terminal ? BOX_H / 2 : 6 }),
        s("text", { x: w / 2, y: BOX_H / 2 + 4, "text-anchor": "middle", class: "label", text: label }),
      );
      if (badges) g.append(s("text", { x: w - 6, y: 12, "text-anchor": "end", class: "badge", text: badges }));
      if (!terminal) g.append(s("text", { x: 6, y: 12, class: "count", text: "" }));
      nodes.append(g);
      groups.set(n.id, g);
    }
    const svg = s("svg", {
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-labelledby": `${idPrefix}-title ${idPrefix}-caption`,
      class: "graph",
    }, s("title", { id: `${idPrefix}-title`, text: title }), defs, edges, nodes);
    replace(svgHolder, svg);
  }

  function render(model) {
    const graph = model.graph;
    if (!graph) {
      replace(svgHolder, h("p", { class: "empty", text: t("graph.loading") }));
      caption.textContent = "";
      drawn = null;
      return;
    }
    // the graph profile's name for it; the lab page's diagram before Python answers is the AML graph
    const title = model.words ? say(model.words.title) : t("graph.title");
    const key = `${graph.nodes.map((n) => n.id).join(",")}|${model.lang}|${title}`;
    if (key !== drawn) draw(graph, title);
    drawn = key;
    const states = {};
    for (const n of graph.nodes) {
      const g = groups.get(n.id);
      if (!g || n.kind !== "node") continue;
      states[n.id] = n.state ?? "idle";
      g.dataset.state = states[n.id];
      g.querySelector("title").textContent = `${n.id}: ${say(n.reason ?? n.say_summary)}`;
      const started = n.counts?.started;
      g.querySelector(".count").textContent = started ? `×${started}` : "";
    }
    const byState = (state) => Object.keys(states).filter((id) => states[id] === state);
    const running = byState("running");
    const parts = [];
    if (running.length) parts.push(t("graph.running", { nodes: running.join(", ") }));
    for (const state of ["next", "restored", "interrupted", "crashed"]) {
      const ids = byState(state);
      if (ids.length) parts.push(t(`graph.caption.${state}`, { nodes: ids.join(", ") }));
    }
    caption.textContent = parts.join(" · ") || t("graph.idle");
    caption.dataset.running = running.join(",");
    replace(legend, ...(model.nodeStates ?? []).filter((state) => state !== "idle").map((state) =>
      h("li", { dataset: { state } }, h("span", { class: "swatch", "aria-hidden": "true" }), t(`graph.state.${state}`))),
      h("li", { class: "edge-key" }, h("span", { class: "dash", "aria-hidden": "true" }), t("graph.conditional")),
      ...badgeKeys(graph, model.words));
    legend.setAttribute("aria-label", t("graph.legend"));
  }

  /** The legend of the badges some node of `graph` shows, the outside calls and the profile's own marks
   * (a node's `marks`: `{glyph, say}`) in the graph's own words. */
  function badgeKeys(graph, words) {
    const marks = new Map(graph.nodes.flatMap((n) => n.marks ?? []).map((m) => [m.glyph, m]));
    const shown = [
      ...[
        ["paid", "$", () => (words ? say(words.outside_calls) : t("graph.badge.paid"))],
        ["interrupts", "‖", () => t("graph.badge.interrupt")],
      ].filter(([trait]) => graph.nodes.some((n) => n[trait])),
      ...[...marks.values()].map((m) => ["mark", m.glyph, () => say(m.say)]),
    ];
    return shown.map(([, glyph, said]) =>
      h("li", { class: "edge-key" }, h("span", { class: "glyph", "aria-hidden": "true", text: glyph }), said()));
  }

  return { render };
}
