/**
 * The lab page's model: what its views read. It holds the last answer of Python's `view()`, spread
 * out by job, and the page's own state (the selected frame and branch, the form's choices, whether a
 * command or a reboot is under way). `takeView` copies a view in; `settleSelection` keeps the
 * selection on a frame of the branch in view; `createSelection` moves it (a frame, a branch). No LangGraph concept: the rules are Python's, this is
 * where the page keeps its answer. app.mjs wires it to the store and the views.
 */
import { lang } from "./i18n.mjs";

/**
 * What the views read: the last view() (spread out by job) and the page's own state.
 * @param {{case?: string, variant?: string, durability?: string, storage?: string}} fromUrl the link's choices (url-state.mjs)
 */
export function createModel(fromUrl) {
  return {
    lang: lang(),
    langChanged: false,
    catalog: null, // cases and diagrams, for the form before a case is open
    threads: [], // the saved threads (the controller's threads()), newest first
    threadPick: null, // threads()'s verdict on the threads picker: anything to choose?
    // -- from view() ------------------------------------------------------------------------------
    session: null, status: null, actions: null, graph: null, seams: null, defaults: null, armed: null,
    words: null, // the graph profile's words: {title, outside_calls}
    run: null, review: null, frames: [], namespaces: [], tree: null, executions: null, ledger: null, activity: [], nodeStates: [],
    task_calls: {}, // per node, the @task calls of its latest execution (lab/controller/task_rows.py)
    viewProcess: 0, // the process whose view the store holds
    // -- the page's own ---------------------------------------------------------------------------
    selectedId: null,
    follow: true, // keep the newest frame selected as frames arrive
    branchLeaf: null, // the branch in view (its leaf); null: the head's branch
    branch: null, // the branch in view, as Python's tree has it (its path, its scrubber's verdict)
    branchPath: [],
    detail: null, // {frame, diff} of the selected frame
    busy: null, // the command in flight
    process: "booting", // booting | ready | crashed
    crashes: 0, // processes that died under this page
    crashPoint: null, // where the last one died, as the session reported it (shown while the next boots)
    choices: {
      case: fromUrl.case,
      variant: fromUrl.variant,
      durability: fromUrl.durability,
      storage: fromUrl.storage,
    },
    randomArmed: false, // "crash at a random moment" is armed for the next run
    forkError: "",
    threadNote: null, // () => the last export / import / drop, in the current language
    refreshSelection: null, // () => settle the selection and render (app.mjs)
    storage: null, // the storage panel's report (the controller's `storage` command), read while it is open
  };
}

/**
 * Copy one answer of `view()` into the model, keep the form's choices among the offered ones and the
 * selection on the branch in view.
 * @param {object} model @param {object} view @param {number} processNumber the process that answered
 */
export function takeView(model, view, processNumber) {
  const shownThread = model.session?.thread_id ?? null;
  Object.assign(model, {
    session: view.session, status: view.status, actions: view.actions, seams: view.seams,
    defaults: view.defaults, words: view.words, armed: view.armed, run: view.run, review: view.review, frames: view.frames, namespaces: view.namespaces, tree: view.tree,
    executions: view.executions, task_calls: view.task_calls, ledger: view.ledger, activity: view.activity,
    nodeStates: view.defaults.node_states, viewProcess: processNumber,
  });
  const { variants, durabilities, storages } = view.defaults;
  if (!variants.includes(model.choices.variant)) model.choices.variant = view.defaults.variant;
  if (!durabilities.includes(model.choices.durability)) model.choices.durability = view.defaults.durability;
  if (!storages.includes(model.choices.storage)) model.choices.storage = view.defaults.storage;
  // The form follows the thread only when another thread comes into view: a refresh of the same one
  // (a new process, another tab's save) keeps what the learner picked for the next Start.
  if (view.session && view.session.thread_id !== shownThread) {
    Object.assign(model.choices, { case: view.session.case_id, variant: view.session.variant });
  }
  model.graph = view.session ? view.graph : model.catalog?.graphs[model.choices.variant] ?? view.graph;
  if (model.branchLeaf && !model.tree.branches.some((b) => b.leaf === model.branchLeaf)) model.branchLeaf = null;
  settleSelection(model);
}

/** The branch in view (Python's branch tree has each branch's path, root first), or null. */
function branchInView(model) {
  const branches = model.tree?.branches ?? [];
  const leaf = model.branchLeaf ?? model.tree?.head;
  return branches.find((b) => b.leaf === leaf) ?? branches.find((b) => b.is_head) ?? null;
}

/** Keep the selection on an existing frame of the branch in view; its detail comes with the frame. */
export function settleSelection(model) {
  model.branch = branchInView(model);
  model.branchPath = model.branch?.path ?? [];
  const path = model.branchPath;
  if (!path.length) {
    Object.assign(model, { selectedId: null, detail: null });
    return;
  }
  if (model.follow || !model.frames.some((f) => f.checkpoint_id === model.selectedId)) model.selectedId = path.at(-1);
  const frame = model.frames.find((f) => f.checkpoint_id === model.selectedId);
  model.detail = frame ? { frame, diff: frame.diff } : null;
}

/**
 * The page's own choices of frame and branch over a model (the lab page's, or a lesson pane's): each
 * sets the selection, then calls `model.refreshSelection()` to settle it and draw.
 * @param {object} model
 */
export function createSelection(model) {
  function branchOf(id) {
    return model.tree?.branches?.find((b) => b.path.includes(id));
  }

  function select(id) {
    model.selectedId = id;
    if (!model.branchPath.includes(id)) {
      const branch = branchOf(id); // the frame sits on another branch: view the branch that holds it
      model.branchLeaf = branch && !branch.is_head ? branch.leaf : null;
    }
    model.follow = model.branchLeaf === null && model.tree?.head === id;
    model.refreshSelection();
  }

  function selectBranch(leaf) {
    const branch = model.tree?.branches?.find((b) => b.leaf === leaf);
    model.branchLeaf = branch?.is_head ? null : leaf;
    model.follow = Boolean(branch?.is_head);
    model.selectedId = leaf;
    model.refreshSelection();
  }

  function nextBranch() {
    const branches = model.tree?.branches ?? [];
    if (branches.length < 2) return;
    const current = branches.findIndex((b) => b.leaf === (model.branchLeaf ?? model.tree.head));
    selectBranch(branches[(current + 1) % branches.length].leaf);
  }

  function moveTo(index) {
    const path = model.branchPath;
    const id = path[Math.max(0, Math.min(path.length - 1, index))];
    if (id) select(id);
  }

  function move(where) {
    const path = model.branchPath;
    const index = path.indexOf(model.selectedId);
    const target = { first: 0, prev: index - 1, next: index + 1, last: path.length - 1 }[where];
    if (target >= 0 && target < path.length) moveTo(target);
  }

  return { select, selectBranch, nextBranch, moveTo, move };
}
