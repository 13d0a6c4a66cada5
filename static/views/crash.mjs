/**
 * The crash panel: pick a seam (addressable by its controller name: `data-seam`) and a node, arm it,
 * then Run or Step - the page terminates the Python worker for real when the run reaches that seam,
 * and a new worker boots over the same IndexedDB. The panel then says where the process died and what
 * storage kept. Which seams each node can reach is Python's catalogue (`view().seams`,
 * lab/controller/seam_catalog.py): a seam a node never reaches is not offered for it, and whether a
 * node may be chosen with a seam is its verdict (`seams.node_choice`: a seam of the whole step has none).
 */
import { say, t } from "../i18n.mjs";
import { actionButton, relabel, showAction } from "./actions.mjs";
import { h, replace } from "./dom.mjs";

export const RANDOM = "random";
/** Disarm while a random moment is armed: the page armed it, not Python, so the page's verdict. */
const RANDOM_DISARMABLE = { enabled: true, reason: null };

/** A seam in words; the one right before a node's outside call says that call in the graph's own words. */
const seamWords = (seam, model) => t(`seam.${seam}`, { call: say(model.words?.outside_calls) });

/**
 * @param {HTMLElement} root the panel's body
 * @param {object} actions
 * @param {HTMLElement} report the crash banner (at the top of the lab: a crash is the lab's big event)
 */
export function mountCrash(root, actions, report) {
  const seams = h("fieldset", { class: "choice seams", id: "crash-seams" });
  const nodeSelect = h("select", { id: "crash-node" });
  const nodeLabel = h("label", { for: "crash-node" });
  const arm = actionButton("arm", () => actions.arm(read()), { class: "danger" });
  const disarm = actionButton("disarm", () => actions.disarm());
  const armed = h("p", { class: "armed", id: "crash-armed", role: "status", "aria-live": "polite" });
  root.append(seams, h("div", { class: "field" }, nodeLabel, nodeSelect), h("div", { class: "buttons" }, arm, disarm), armed);
  seams.addEventListener("change", () => sync());

  let drawnFor = null;

  function read() {
    const seam = seams.querySelector("input:checked")?.value ?? catalogue.any_node[0];
    return { seam, node: nodeSelect.disabled ? null : nodeSelect.value || null };
  }

  let catalogue = { step: [], nodes: {}, any_node: [], node_choice: {} };

  function sync() {
    const seam = seams.querySelector("input:checked")?.value;
    const chosen = nodeSelect.value;
    const nodes = Object.entries(catalogue.nodes).filter(([, offered]) => offered.includes(seam)).map(([n]) => n);
    replace(nodeSelect, h("option", { value: "", text: t("crash.anyNode") }),
      ...nodes.map((n) => h("option", { value: n, text: n, selected: n === chosen })));
    // Python has no verdict for a random moment (the page arms it): no node is chosen for it either.
    showAction(nodeSelect, catalogue.node_choice[seam], false);
  }

  function draw(model) {
    catalogue = model.seams;
    const offered = (model.defaults?.seams ?? []).filter((seam) => catalogue.step.includes(seam) || catalogue.any_node.includes(seam));
    const checked = seams.querySelector("input:checked")?.value ?? model.seams.any_node[0];
    replace(seams, h("legend", { text: t("crash.seam") }),
      ...[...offered, RANDOM].map((seam) =>
        h("label", { class: "radio", dataset: { seam } },
          h("input", { type: "radio", name: "crash-seam", value: seam, checked: seam === checked, dataset: { seam } }),
          h("span", {}, h("b", { text: seamWords(seam, model) }), h("small", {}, h("code", { text: seam === RANDOM ? "?" : seam }))))));
    nodeLabel.textContent = t("crash.node");
    relabel(arm, t("action.arm"));
    relabel(disarm, t("action.disarm"));
    sync();
  }

  function render(model) {
    if (!model.seams) return;
    const key = `${model.lang}|${JSON.stringify(model.seams)}|${JSON.stringify(model.words)}`;
    if (drawnFor !== key) { drawnFor = key; draw(model); }
    const busy = Boolean(model.busy) || model.process !== "ready";
    showAction(arm, model.actions?.arm, busy);
    const current = model.armed;
    // a random moment is armed in the page (commands.mjs), not in Python: it can be disarmed too
    showAction(disarm, model.randomArmed ? RANDOM_DISARMABLE : model.actions?.disarm, busy);
    armed.textContent = model.randomArmed
      ? t("crash.armedRandom")
      : current
        ? t("crash.armed", { seam: seamWords(current.seam, model), code: current.seam, node: current.node ?? t("crash.anyNodeLower") })
        : model.session ? t("crash.notArmed") : "";
    armed.classList.toggle("is-armed", Boolean(current || model.randomArmed));

    const status = model.status;
    const rebooting = model.process !== "ready" && model.crashPoint;
    const afterCrash = status?.phase?.startsWith("crashed") && model.process === "ready";
    report.hidden = !(rebooting || afterCrash);
    if (report.hidden) return;
    const where = rebooting ? model.crashPoint : status.message.params;
    const place = where.seam === RANDOM || where.seam === "kill" || !where.seam
      ? t("crash.whereRandom")
      : typeof where.node === "string" // a seam of the whole step names no node (Python says "the step")
        ? t("crash.where", { seam: where.seam, node: where.node, step: where.step })
        : t("crash.whereStep", { seam: where.seam, step: where.step });
    const lines = [h("p", {}, h("strong", { text: t("crash.killed") }), " ", place)];
    if (rebooting) lines.push(h("p", { class: "booting", text: t("crash.rebooting") }));
    else {
      lines.push(h("p", { text: t("crash.kept", { count: model.frames.length }) }));
      lines.push(h("p", { class: "muted", text: say(status.message) }));
    }
    replace(report, ...lines);
  }

  return { render };
}
