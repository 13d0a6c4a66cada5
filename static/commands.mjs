/**
 * The page's actions: each button (and its shortcut) sends one controller command through the
 * LabSession, then asks the store to re-read `view()`. A refusal is shown as the error line in the
 * learner's language; what is enabled was decided by Python before the button could be pressed.
 * Also here: the page's own choices (the form, the selected frame and branch), and the dialogs
 * (reset, wipe, help), where the page has them (the playground, static/play/instruments.mjs, has none).
 */
import { say, t } from "./i18n.mjs";
import { createSelection } from "./page-model.mjs";
import { createThreadFileActions } from "./thread-file-ui.mjs";
import { SHORTCUTS } from "./views/actions.mjs";
import { RANDOM } from "./views/crash.mjs";
import { h, replace } from "./views/dom.mjs";

const $ = (selector) => document.querySelector(selector);

/**
 * @param {{model: object, store: object, session: () => object, render: () => void,
 *          showError: (text: (() => string) | null) => void, crashing: () => boolean}} page
 */
export function createCommands({ model, store, session, render, showError, crashing }) {
  let commandsDone = 0;
  /** Commands finished, with the view re-read after them: `body[data-commands-done]`, for tests. */
  function commandFinished() {
    commandsDone += 1;
    document.body.dataset.commandsDone = String(commandsDone);
  }

  async function reread() {
    if (crashing()) return;
    try {
      await store.changed();
      const saved = await session().command("threads");
      Object.assign(model, { threads: saved.threads, threadPick: saved.pick });
    } catch (error) {
      if (!crashing()) showError(() => t("error.refresh", { message: error.message }));
    }
  }

  /** Run one controller command with the page marked busy; a refusal becomes the error line. */
  async function act(name, args = {}, { label = name, then = null } = {}) {
    showError(null);
    model.forkError = "";
    model.threadNote = null;
    model.busy = name;
    render();
    try {
      // Reset also drops the offline copy and the memory snapshots (LabSession.reset).
      const result = await (name === "reset" ? session().reset() : session().command(name, args));
      then?.(result);
      if (result?.status === "error") {
        const message = () => (result.error?.say ? say(result.error.say) : result.error?.message ?? "");
        showError(() => t("error.run", { type: result.error?.type ?? "Error", message: message() }));
      }
      return result;
    } catch (error) {
      if (!crashing() && error?.type !== "Terminated") {
        const message = () => (error.say ? say(error.say) : error.message ?? String(error));
        showError(() => t("error.command", { action: t(`action.${label}`, {}, label), message: message() }));
        if (name === "fork") model.forkError = message();
      }
      return undefined;
    } finally {
      model.busy = null;
      await reread();
      render();
      commandFinished();
    }
  }

  /** A new run: follow the head's branch, the newest frame selected. */
  function followHead() {
    model.follow = true;
    model.branchLeaf = null;
  }

  /** Durability for a new run: the form's choice; a paused run keeps the mode it started with. */
  const runDurability = () => (model.run?.paused ? {} : { durability: model.choices.durability });

  async function start(choices) {
    Object.assign(model.choices, choices);
    Object.assign(model, { selectedId: null, detail: null, follow: true, branchLeaf: null });
    await act("start", { case_id: choices.case, variant: choices.variant, durability: choices.durability, storage: choices.storage });
  }

  async function openThread(threadId) {
    if (!threadId) return;
    Object.assign(model, { selectedId: null, detail: null, follow: true, branchLeaf: null });
    await act("open", { thread_id: threadId });
  }

  async function run(name, args = {}, label = name) {
    followHead();
    return act(name, { ...args, ...runDurability() }, { label });
  }

  async function arm({ seam, node }) {
    if (seam === RANDOM) {
      // A random moment, not a seam: the session kills the process at a random time of the next run.
      showError(null);
      if (model.actions?.disarm?.enabled) await act("disarm_crash", {}, { label: "disarm" });
      model.randomArmed = true;
      render();
      return;
    }
    model.randomArmed = false;
    await act("arm_crash", node ? { seam, node } : { seam }, { label: "arm" });
  }

  async function disarm() {
    model.randomArmed = false;
    clearTimeout(randomTimer);
    if (model.actions?.disarm?.enabled) await act("disarm_crash", {}, { label: "disarm" });
    else render();
  }

  let randomTimer = 0;
  /** A run started with a random crash armed: kill the process after a random share of its likely length. */
  function scheduleRandomCrash() {
    if (!model.randomArmed) return;
    model.randomArmed = false;
    const nodeMs = model.defaults.delay * 1000; // a run can only start once a view is in the store
    randomTimer = setTimeout(() => {
      if (model.process === "ready" && model.status?.phase === "running") session().kill();
    }, 50 + Math.random() * 6 * nodeMs);
  }

  const { select, selectBranch, nextBranch, moveTo, move } = createSelection(model);

  async function fork(checkpointId, values, asNode) {
    const args = { checkpoint_id: checkpointId, values, ...(asNode ? { as_node: asNode } : {}) };
    return Boolean(await act("fork", args, { then: followHead }));
  }

  function choose(choices) {
    Object.assign(model.choices, choices);
    render();
  }

  // -- dialogs -----------------------------------------------------------------------------------

  function askReset() {
    $("#reset-dialog").showModal();
    $("#reset-cancel").focus();
  }
  $("#reset-cancel")?.addEventListener("click", () => $("#reset-dialog").close());
  $("#reset-confirm")?.addEventListener("click", async () => {
    $("#reset-dialog").close();
    Object.assign(model, { selectedId: null, detail: null, follow: true, branchLeaf: null });
    const result = await act("reset");
    if (!result && !crashing()) askWipe();
  });

  function askWipe() {
    $("#wipe-dialog").showModal();
    $("#wipe-cancel").focus();
  }
  $("#boot-wipe")?.addEventListener("click", askWipe);
  $("#wipe-cancel")?.addEventListener("click", () => $("#wipe-dialog").close());
  $("#wipe-confirm")?.addEventListener("click", async () => {
    $("#wipe-dialog").close();
    try {
      await session().wipeStorage();
    } finally {
      location.reload();
    }
  });

  function openHelp() {
    replace($("#help-list"), ...Object.entries(SHORTCUTS).map(([action, s]) =>
      [h("dt", {}, h("kbd", { text: s.show })), h("dd", { text: t(`action.${action}`) })]).flat());
    $("#help-dialog").showModal();
    $("#help-close").focus();
  }
  $("#help-close")?.addEventListener("click", () => $("#help-dialog").close());

  /** A shortcut whose button is disabled: say why, in Python's words when it gave a reason. */
  function unavailable(action, reason) {
    const why = reason ? ` ${say(reason)}` : "";
    showError(() => `${t("status.unavailable", { action: t(`action.${action}`) })}${why}`);
    render();
  }

  // -- the storage panel (issue 11): its report is the controller's `storage` command --------------

  let storageLoading = null;
  /** Read the storage report into `model.storage` (one read at a time); `body[data-storage-reads]` counts them. */
  function loadStorage() {
    if (crashing()) return Promise.resolve();
    storageLoading ??= session().command("storage")
      .then((report) => { model.storage = report; })
      .catch((error) => { if (!crashing()) showError(() => t("error.refresh", { message: error.message })); })
      .finally(() => {
        storageLoading = null;
        document.body.dataset.storageReads = String(Number(document.body.dataset.storageReads ?? 0) + 1);
        render();
      });
    return storageLoading;
  }

  async function prune() {
    await act("prune", {}, { then: (report) => { if (report) model.storage = report; } });
  }

  return {
    actions: {
      loadStorage, prune,
      start,
      step: () => run("step"),
      run: () => run("run"),
      resume: () => run("resume"),
      answer: (approve) => run("answer", { approve }, approve ? "approve" : "reject"),
      replay: () => model.selectedId && run("replay", { checkpoint_id: model.selectedId }),
      arm, disarm, choose, move, moveTo, fork, select, selectBranch, openThread,
      ...createThreadFileActions({ model, act, render }),
    },
    act, reread, commandFinished, scheduleRandomCrash, nextBranch, askReset, openHelp, unavailable,
  };
}
