/**
 * The lab's panels, mounted where static/_lab_parts.html puts them: on the lab page (app.mjs) and on
 * the playground (play/instruments.mjs), which lay them out each its own way. One view per element,
 * all drawing the same model; their buttons call the page's `actions` (commands.mjs).
 */
import { mountActivity } from "./activity.mjs";
import { mountBranches } from "./branches.mjs";
import { mountCheckpoints } from "./checkpoints.mjs";
import { mountCrash } from "./crash.mjs";
import { mountExecutions } from "./executions.mjs";
import { mountFork } from "./fork.mjs";
import { mountGraph } from "./graph.mjs";
import { mountInspector } from "./inspector.mjs";
import { mountLedger } from "./ledger.mjs";
import { mountScrubber } from "./scrubber.mjs";
import { mountStorage } from "./storage.mjs";

/**
 * Mount every panel's view on the page's markup.
 * @param {object} actions the page's commands (commands.mjs `createCommands(...).actions`)
 * @returns {Record<string, {render: (model: object) => void}>} the views by name, in drawing order
 */
export function mountPanels(actions) {
  const $ = (selector) => document.querySelector(selector);
  return {
    crash: mountCrash($("#crash"), actions, $("#crash-report")),
    graph: mountGraph($("#graph")),
    executions: mountExecutions($("#executions")),
    checkpoints: mountCheckpoints($("#checkpoints"), { onSelect: (id) => actions.select(id) }),
    scrubber: mountScrubber($("#scrubber-view"), actions),
    inspector: mountInspector($("#inspector-view")),
    fork: mountFork($("#fork-view"), actions),
    branches: mountBranches($("#branches-view"), { onBranch: actions.selectBranch, onSelect: (id) => actions.select(id) }),
    ledger: mountLedger($("#ledger")),
    activity: mountActivity($("#activity")),
    storage: mountStorage($("#storage"), actions),
  };
}

/**
 * Draw every view from `model`: a view that fails is logged, and the others still draw.
 * @param {Record<string, {render: (model: object) => void}>} views @param {object} model
 */
export function renderViews(views, model) {
  for (const [name, view] of Object.entries(views)) {
    try {
      view.render(model);
    } catch (error) {
      console.error(`view ${name} failed to render`, error);
    }
  }
}

/**
 * A page's `render`: asks for `draw` at the next animation frame, once however often it is called
 * before then (many events, one drawing).
 * @param {() => void} draw @returns {() => void}
 */
export function onceAFrame(draw) {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      draw();
    });
  };
}
