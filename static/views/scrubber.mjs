/**
 * Time travel: a scrubber and First / Previous / Next / Last over the frames of the branch in view,
 * and "Replay from here" (LangGraph's replay: a fork checkpoint, then the step re-runs).
 */
import { say, t } from "../i18n.mjs";
import { actionButton, relabel } from "./actions.mjs";
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
    range.disabled = path.length < 2;
    first.disabled = prev.disabled = index <= 0;
    last.disabled = next.disabled = index < 0 || index >= path.length - 1;
    replay.disabled = busy || index < 0 || !path.length || !model.actions?.replay?.enabled;
  }

  return { render };
}
