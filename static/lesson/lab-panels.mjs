/**
 * Focus: the lab beside a lesson step shows only the panels that lesson needs (its `panels`, from
 * lab/lessons), drawn by the lab page's own views from Python's `view()`: the graph and the status
 * line always, the ledger (the lesson thread's requests alone) when the lesson is about money.
 * Everything else is one click away: the full lab, opened on the same thread. The page decides nothing; it draws what Python says, in the
 * page's language (`say()` renders Python's sentences from the i18n catalogues).
 */
import { lang, say, t } from "../i18n.mjs";
import { mountGraph } from "../views/graph.mjs";
import { mountLedger } from "../views/ledger.mjs";

/** The lab's views a lesson can focus on, by the panel names lessons use. */
const VIEWS = { graph: mountGraph, ledger: mountLedger };

/**
 * Mount the focused lab under `root` (its `[data-lab-<panel>]` holders) for a lesson's `panels`.
 * @param {HTMLElement} root @param {string[]} panels
 * @returns {{render: (view: object) => void}}
 */
export function mountLabPanels(root, panels) {
  const mounted = [];
  for (const [name, mount] of Object.entries(VIEWS)) {
    const holder = root.querySelector(`[data-lab-${name}]`);
    if (!holder) continue;
    holder.hidden = !panels.includes(name);
    if (!holder.hidden) mounted.push(mount(holder));
  }
  const status = root.querySelector("[data-lab-status]");
  const nodes = root.querySelector("[data-lab-nodes]");
  const sandbox = root.querySelector("[data-sandbox]");

  function render(view) {
    // The lesson's ledger: its own thread's requests, as Python lists them (view().thread_ledger).
    const model = { ...view, ledger: view.thread_ledger, lang: lang(), nodeStates: view.defaults.node_states };
    for (const panel of mounted) panel.render(model);
    status.textContent = say(view.status.message);
    status.dataset.phase = view.status.phase;
    nodes.replaceChildren(...view.graph.nodes.filter((node) => node.kind === "node" && node.state !== "idle").map(nodeLine));
    const thread = view.session?.thread_id;
    sandbox.hidden = !thread;
    if (thread) sandbox.href = `/?${new URLSearchParams({ thread, lang: lang() })}`;
  }

  return { render };
}

/** One node that is not idle: its name (code, never translated) and Python's reason (else its state). */
function nodeLine(node) {
  const item = document.createElement("li");
  item.dataset.node = node.id;
  item.dataset.state = node.state;
  const why = node.reason ? say(node.reason) : t(`graph.state.${node.state}`);
  item.append(Object.assign(document.createElement("code"), { textContent: node.id }), `: ${why}`);
  return item;
}
