/**
 * Focus: the lab beside a lesson step shows the panels that lesson's text points at (its `panels`,
 * from lab/lessons: the frames, the branch tree, the threads, the review, the ledger...), drawn by
 * the lab page's own views from Python's `view()`: the graph and the status line always, then one
 * section per panel. The frames and branches are the lesson's to browse: the scrubber, a row of the
 * checkpoint table or a branch's chip selects a frame here, in the page (page-model.mjs's selection),
 * so stepping back and forth through the thread's frames sends nothing to Python and rebuilds nothing.
 * The panels show; the step's own control acts: a view's buttons that would act on the lab (Replay,
 * Arm, Open, Export...) are not shown here (lesson.css). Everything else is one click away: the full
 * lab, opened on the same thread. The page decides nothing; it draws what Python says, in the page's
 * language (`say()` renders Python's sentences from the i18n catalogues).
 */
import { lang, say, t } from "../i18n.mjs";
import { createModel, createSelection, settleSelection, takeView } from "../page-model.mjs";
import { mountBranches } from "../views/branches.mjs";
import { mountCheckpoints } from "../views/checkpoints.mjs";
import { mountReview } from "../views/controls.mjs";
import { mountCrash } from "../views/crash.mjs";
import { h } from "../views/dom.mjs";
import { mountGraph } from "../views/graph.mjs";
import { mountInspector } from "../views/inspector.mjs";
import { mountLedger } from "../views/ledger.mjs";
import { mountScrubber } from "../views/scrubber.mjs";
import { mountStorage } from "../views/storage.mjs";
import { mountThreads } from "../views/threads.mjs";

/** What a view's acting buttons call beside a lesson: nothing (they are not shown; the step acts). */
const NO_ACTIONS = new Proxy({}, { get: () => () => {} });

/**
 * The panels a lesson can name, in the order the pane shows them: the heading's catalogue key (and
 * its id where a view's region is labelled by it, as on the lab page) and the lab's views that draw it (`selection`: the pane's own choice of frame and branch). "fork" is
 * the selected frame as the inspector shows it (its state and its diff against its parent: what an
 * `update_state` wrote); "graph", "status" and "controls" are always there (the step's control is
 * the lesson's), so they need no section.
 */
const PANELS = {
  ledger: { heading: "panel.ledger", mount: (root) => [mountLedger(root)] },
  review: { heading: null, mount: (root) => [mountReview(root)] },
  crash: { heading: "panel.crash", mount: (root) => [mountCrash(root, NO_ACTIONS, root.appendChild(h("div", { class: "crash-report" })))] },
  frames: {
    heading: "panel.checkpoints",
    id: "checkpoints-heading", // the checkpoint table's scroller is labelled by it (checkpoints.mjs)
    mount: (root, selection) => [mountScrubber(root, selection), mountCheckpoints(root, { onSelect: selection.select })],
  },
  branches: {
    heading: "panel.branches",
    mount: (root, selection) => [mountBranches(root, { onBranch: selection.selectBranch, onSelect: selection.select })],
  },
  fork: { heading: "panel.inspector", mount: (root) => [mountInspector(root)] },
  threads: { heading: "threads.label", mount: (root) => [mountThreads(root, NO_ACTIONS)] },
  storage: { heading: "panel.storage", mount: (root) => [mountOpenStorage(root)] },
};

/** The storage bill, opened: its report is read beside `view()` (the `storage` command), not on toggle. */
function mountOpenStorage(root) {
  const panel = mountStorage(root, NO_ACTIONS);
  root.querySelector("details").open = true;
  return panel;
}

/** Whether a lesson with these panels lists the saved threads (the `threads` command, beside `view`). */
export const needsThreads = (panels) => panels.includes("threads");

/** Whether a lesson with these panels shows the storage bill (the `storage` command, beside `view`). */
export const needsStorage = (panels) => panels.includes("storage");

/**
 * Mount the focused lab under `root` for a lesson's `panels`: the graph in `[data-lab-graph]`, each
 * other panel as a `<section data-lab-<panel>>` in `[data-lab-panels]`.
 * @param {HTMLElement} root @param {string[]} panels
 * @returns {{render: (view: object, threads?: object[]) => void, instruct: (text: string | null) => void}}
 */
export function mountLabPanels(root, panels) {
  const model = createModel({});
  model.process = "ready";
  model.refreshSelection = () => {
    settleSelection(model);
    draw();
  };
  const selection = createSelection(model);
  const holder = root.querySelector("[data-lab-panels]");
  const headings = [];
  const mounted = [mountGraph(root.querySelector("[data-lab-graph]"))];
  for (const [name, panel] of Object.entries(PANELS)) {
    if (!panels.includes(name)) continue;
    const section = h("section", { class: `lab-panel lab-${name}`, dataset: { [`lab${name[0].toUpperCase()}${name.slice(1)}`]: "" } });
    if (panel.heading) headings.push([section.appendChild(h("h4", { id: panel.id })), panel.heading]);
    holder.append(section);
    mounted.push(...panel.mount(section, selection));
  }
  const status = root.querySelector("[data-lab-status]");
  const nodes = root.querySelector("[data-lab-nodes]");
  const sandbox = root.querySelector("[data-sandbox]");
  let instruction = null;

  function draw() {
    if (!model.status) return;
    model.lang = lang();
    for (const [heading, key] of headings) heading.textContent = t(key);
    for (const panel of mounted) panel.render(model);
    // The panels show, the step acts: no key of the lab page works here, so none is offered.
    for (const button of holder.querySelectorAll("[aria-keyshortcuts]")) button.removeAttribute("aria-keyshortcuts");
    status.textContent = instruction ?? say(model.status.message);
    status.dataset.source = instruction === null ? "lab" : "step";
    status.dataset.phase = model.status.phase;
    nodes.replaceChildren(...model.graph.nodes.filter((node) => node.kind === "node" && node.state !== "idle").map(nodeLine));
    const thread = model.session?.thread_id;
    sandbox.hidden = !thread;
    if (thread) sandbox.href = `/?${new URLSearchParams({ thread, lang: lang() })}`;
  }

  /** Take a new `view()` (and `saved`, the answer of `threads()`, and the storage bill, for a lesson
   * that shows them) and draw it. */
  function render(view, saved = { threads: [], pick: null }, storage = null) {
    takeView(model, view, 0);
    // The lesson's ledger: its own thread's requests, as Python lists them (view().thread_ledger).
    Object.assign(model, { ledger: view.thread_ledger, threads: saved.threads, threadPick: saved.pick, storage });
    draw();
  }

  /**
   * The status line in a lesson: while the step is open, the step's own instruction (`text`) stands
   * where the lab's status line would name another control ("Press Run" while the step asks to arm
   * a crash); `null` gives the line back to Python's status sentence once the step is done.
   */
  function instruct(text) {
    instruction = text;
    draw();
  }

  return { render, instruct };
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
