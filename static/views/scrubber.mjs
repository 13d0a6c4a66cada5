/**
 * Time travel: a scrubber and First / Previous / Next / Last over the frames of the branch in view,
 * and "Replay from here" (LangGraph's replay: a fork checkpoint, then the step re-runs). Where each
 * can go is Python's: every frame of the branch tree says whether First / Previous and Next / Last
 * lead anywhere from it (`travel`), every branch whether its scrubber can slide (`scrub`).
 */
import { say, t } from "../i18n.mjs";
import { actionButton, relabel, showAction } from "./actions.mjs";
import { h, shortId } from "./dom.mjs";

export function mountScrubber(root, actions) {
  const range = h("input", { type: "range", id: "scrubber", min: "0", max: "0", value: "0", step: "1" });
  const rangeLabel = h("label", { for: "scrubber" });
  const position = h("output", { id: "scrubber-position", for: "scrubber", "aria-live": "polite" });
  const first = actionButton("first", () => actions.move("first"));
  const prev = actionButton("prev", () => actions.move("prev"));
  const next = actionButton("next", () => actions.move("next"));
  const last = actionButton("last", () => actions.move("last"));
  const replay = actionButton("replay", () => actions.replay(), { class: "primary" });
  const empty = h("p", { class: "empty" });
  const body = h("div", { class: "scrubber" },
    h("div", { class: "range-row" }, rangeLabel, range, position),
    h("div", { class: "toolbar", role: "toolbar", "aria-label": "" }, first, prev, next, last, replay));
  root.append(empty, body);
  range.addEventListener("input", () => actions.moveTo(Number(range.value)));

  function render(model) {
    const path = model.branchPath ?? [];
    const index = path.indexOf(model.selectedId);
    empty.hidden = path.length > 0;
    empty.textContent = model.session ? t("travel.empty") : t("empty.noThread");
    rangeLabel.textContent = t("travel.frame");
    body.querySelector('[role="toolbar"]').setAttribute("aria-label", t("travel.toolbar"));
    for (const b of [first, prev, next, last, replay]) relabel(b, t(`action.${b.dataset.action}`));
    range.max = String(Math.max(0, path.length - 1));
    range.value = String(Math.max(0, index));
    const frame = model.frames?.find((f) => f.checkpoint_id === model.selectedId);
    const text = frame
      ? t("travel.position", { n: index + 1, total: path.length, step: frame.step, id: shortId(frame.checkpoint_id) })
      : "";
    range.setAttribute("aria-valuetext", frame
      ? t("travel.valuetext", { n: index + 1, total: path.length, caption: say(frame.caption), step: frame.step })
      : "");
    position.textContent = text;
    const busy = Boolean(model.busy) || model.process !== "ready";
    const travel = model.tree?.nodes?.find((node) => node.checkpoint_id === model.selectedId)?.travel;
    showAction(range, model.branch?.scrub, false);
    for (const button of [first, prev]) showAction(button, travel?.back, false);
    for (const button of [next, last]) showAction(button, travel?.forward, false);
    showAction(replay, model.actions?.replay, busy);
  }

  return { render };
}
