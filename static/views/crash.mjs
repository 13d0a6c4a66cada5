/**
 * The crash panel: pick a seam (addressable by its controller name: `data-seam`) and a node, arm it,
 * then Run or Step - the page terminates the Python worker for real when the run reaches that seam,
 * and a new worker boots over the same IndexedDB. The panel then says where the process died and what
 * storage kept.
 */
import { t } from "../i18n.mjs";
import { actionButton, relabel } from "./actions.mjs";
import { h, replace } from "./dom.mjs";

/** The crash seams offered, in the order a step meets them; `node`: whether the seam belongs to a node. */
export const CRASH_SEAMS = [
  { seam: "task_start", node: true },
  { seam: "side_effect", node: true },
  { seam: "side_effect_done", node: true },
  { seam: "task_finish", node: true },
  { seam: "put_writes", node: true },
  { seam: "step_end", node: false },
  { seam: "put", node: false },
  { seam: "step_start", node: false },
  { seam: "interrupt", node: true },
];
export const RANDOM = "random";

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
    const seam = seams.querySelector("input:checked")?.value ?? "task_start";
    return { seam, node: nodeSelect.disabled ? null : nodeSelect.value || null };
  }

  function sync() {
    const seam = seams.querySelector("input:checked")?.value;
    const spec = CRASH_SEAMS.find((x) => x.seam === seam);
    nodeSelect.disabled = !spec?.node;
  }

  function draw(model) {
    const offered = CRASH_SEAMS.filter((x) => model.catalog.seams.includes(x.seam));
    const checked = seams.querySelector("input:checked")?.value ?? "task_start";
    replace(seams, h("legend", { text: t("crash.seam") }),
      ...[...offered.map((x) => x.seam), RANDOM].map((seam) =>
        h("label", { class: "radio", dataset: { seam } },
          h("input", { type: "radio", name: "crash-seam", value: seam, checked: seam === checked, dataset: { seam } }),
          h("span", {}, h("b", { text: t(`seam.${seam}`) }), h("small", {}, h("code", { text: seam === RANDOM ? "?" : seam }))))));
    const chosen = nodeSelect.value;
    const nodes = (model.graph?.nodes ?? []).filter((n) => n.kind === "node").map((n) => n.id);
    replace(nodeSelect, h("option", { value: "", text: t("crash.anyNode") }),
      ...nodes.map((n) => h("option", { value: n, text: n, selected: n === chosen })));
    nodeLabel.textContent = t("crash.node");
    relabel(arm, t("action.arm"));
    relabel(disarm, t("action.disarm"));
    sync();
  }

  function render(model) {
    if (!model.catalog) return;
    const key = `${model.lang}|${model.session?.variant}`;
    if (drawnFor !== key) { drawnFor = key; draw(model); }
    const busy = Boolean(model.busy) || model.process !== "ready";
    arm.disabled = busy || !model.session;
    const current = model.state?.crash_armed;
    disarm.disabled = busy || !(current || model.randomArmed);
    armed.textContent = model.randomArmed
      ? t("crash.armedRandom")
      : current
        ? t("crash.armed", { seam: t(`seam.${current.seam}`), code: current.seam, node: current.node ?? t("crash.anyNodeLower") })
        : model.session ? t("crash.notArmed") : "";
    armed.classList.toggle("is-armed", Boolean(current || model.randomArmed));

    const crash = model.crash;
    report.hidden = !crash;
    if (crash) {
      const where = crash.seam === RANDOM || crash.cause === "kill"
        ? t("crash.whereRandom")
        : crash.node ? t("crash.where", { seam: crash.seam, node: crash.node, step: crash.step }) : t("crash.whereStep", { seam: crash.seam, step: crash.step });
      const lines = [h("p", {}, h("strong", { text: t("crash.killed") }), " ", where)];
      if (model.process === "crashed" || model.process === "booting") {
        lines.push(h("p", { class: "booting", text: t("crash.rebooting") }));
      } else if (crash.kept !== undefined) {
        lines.push(h("p", { text: t("crash.kept", { count: crash.kept }) }));
        if (!crash.resumed) lines.push(h("p", { class: "muted", text: crash.kept ? t("crash.nextResume") : t("crash.nextRun") }));
      }
      replace(report, ...lines);
    }
  }

  return { render };
}
