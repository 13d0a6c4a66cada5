/**
 * The playground's instruments: the lab's own views (static/views/*) over the learner's program.
 *
 * LangGraph Studio loads a graph and runs it with its server's checkpointer; here the lab's worker
 * does (lab/browser/play_rpc.py): `play_load {source, input}` makes the program's graph the one the
 * lab's controller drives, compiled again over the lab's IndexedDB saver (database
 * "checkpoint-lab-play"), and `lab.world`'s charges land in the playground's own ledger
 * ("checkpoint-lab-play-ledger"). From then on everything is the lab page's machinery: the store
 * over Python's `view()`, the commands (commands.mjs), the LabSession that kills the worker at an
 * armed seam and swaps in a warm spare. A new process is told the program before it restores the
 * thread (LabSession's `prepare`), so a crash resumes the learner's own graph.
 *
 * The worker boots when the page opens, so Run finds Python ready; a page opened from a shared link
 * boots it at the first Run (someone else's program: nothing of Python loads until the learner asks).
 *
 * Run as written (./script-runner.mjs) and Drive it yourself load the program when it changed (a new controller: its graph, its seams), then starts a new
 * thread and runs it; the same program again only starts a new thread, so a crash armed meanwhile
 * stays armed. Each load is named (`program-1`, `program-2`, ...: `play_load`'s `program`, sent again
 * to a process that takes over after a crash); every view says the program and thread it belongs to,
 * and the store draws only the views of the program loaded last (store.mjs `show`): a new
 * controller's `seq` starts again at 0, so without the name the page would keep drawing the previous
 * program's thread.
 *
 * Stop: a node that never returns keeps the worker's Python busy, and nothing but killing the worker
 * stops it; Stop does (LabSession.kill, as a crash at a random moment), and says why.
 */
import { createCommands } from "../commands.mjs";
import { say, t } from "../i18n.mjs";
import { LabSession } from "../lab-session.mjs";
import { Ledger } from "../ledger.mjs";
import { createModel, settleSelection, takeView } from "../page-model.mjs";
import { createStore } from "../store.mjs";
import { actionButton, relabel, showAction } from "../views/actions.mjs";
import { h } from "../views/dom.mjs";
import { mountPanels, onceAFrame, renderViews } from "../views/panels.mjs";
import { isSameProgram, showLoaded, showOutput, showPlain } from "./loaded-program.mjs";
import { createPlayClient } from "./play-client.mjs";

export const PLAY_LEDGER = "checkpoint-lab-play-ledger";
const RUN_COMMANDS = ["step", "run", "resume"];

const $ = (selector) => document.querySelector(selector);
const instruments = $("#play-instruments");

/**
 * Mount the instruments and boot the lab's worker.
 * @param {{onProblem: (problem: {kind: string, line: number | null, column: number | null,
 *          say: object} | null) => void, show: (element: HTMLElement, key: string, params?: object) => void,
 *          onOutput: (text: string) => void}} page `onOutput`: a line the program's script printed
 */
export function mountInstruments({ onProblem, show, onOutput }) {
  /** @type {{source: string, input: unknown, program: string, own: boolean, script: boolean,
   *          plain: {printed: string} | null} | null} the program the worker runs (told to every new
   * process), with its own input or not, with a script or not, with a graph or not (plain: what it printed) */
  let loaded = null;
  let loads = 0; // programs loaded so far: the next one's name
  let processNumber = 1;
  let stopping = false;
  let held = false; // a script waits for the learner: the lab's own run buttons wait too
  const drives = () => loaded !== null && !loaded.plain; // a program with a graph (plain: none) is loaded
  const model = createModel({});
  const render = onceAFrame(renderNow); // many changes, one drawing per frame
  model.refreshSelection = () => {
    settleSelection(model);
    render();
  };

  /** @type {LabSession | null} the lab's worker, booted by `boot()` (at once, or at the first Run) */
  let session = null;
  const client = createPlayClient((cmd, args) => boot().request(cmd, args));
  window.labView = model; // for the curious and for tests, as on the lab page

  function boot() {
    if (session) return session;
    session = new LabSession({ ledger: new Ledger(PLAY_LEDGER), prepare });
    session.onEvent(onEvent);
    window.lab = session;
    return session;
  }

  /**
   * A new process: load the program before it restores the thread. Nothing loaded (or a program
   * without a graph): the process has no graph (LabSession names none), so nothing to restore.
   */
  async function prepare(request) {
    if (!drives()) return null;
    const answer = await request("play_load", loaded);
    if (answer.problem) throw new Error(answer.problem.say.text);
    return {};
  }

  const crashing = () => model.process !== "ready";
  const store = createStore(() => session.command("view"), () => processNumber);
  store.subscribe((view) => {
    takeView(model, view, processNumber);
    Object.assign(instruments.dataset, { program: view.owner.program, thread: view.owner.thread ?? "" });
    render();
  });

  let errorText = null;
  function showError(text) {
    errorText = text;
    $("#error-line").textContent = text ? text() : "";
    $("#error-line").hidden = !text;
  }

  const commands = createCommands({ model, store, session: () => session, render, showError, crashing });
  const { actions } = commands;
  const views = mountPanels(actions);

  /** A run command, then, if the run failed, where in the program (play_problem). */
  async function located(run) {
    const result = await run();
    if (result?.status === "error") onProblem((await client.problem()).problem);
    return result;
  }

  const buttons = {
    ...Object.fromEntries(RUN_COMMANDS.map((name) => [name, actionButton(name, () => located(actions[name]))])),
    approve: actionButton("approve", () => located(() => actions.answer(true)), { class: "approve" }),
    reject: actionButton("reject", () => located(() => actions.answer(false)), { class: "reject" }),
  };
  const answerJson = h("button", { type: "button", id: "play-answer-json" });
  answerJson.addEventListener("click", () => located(answerWithJson));
  const stop = h("button", { type: "button", id: "play-stop", class: "danger" });
  stop.addEventListener("click", stopRun);
  $("#play-run-controls").append(buttons.step, buttons.run, buttons.resume, stop);
  $("#play-answer-buttons").append(buttons.approve, buttons.reject, answerJson);

  function answerWithJson() {
    let value;
    try {
      value = JSON.parse($("#play-answer").value);
    } catch (error) {
      showError(() => t("play.badJson", { message: error.message }));
      return undefined;
    }
    model.follow = true;
    return commands.act("answer", { value }, { label: "approve" });
  }

  /** Kill the worker under a run that does not stop (an infinite loop in a node) and boot the next. */
  async function stopRun() {
    stopping = true;
    show($("#play-run-status"), "play.stopped");
    await session.kill();
  }

  /** Draw the page from the model, at the frame `render()` asked for. */
  function renderNow() {
    renderViews(views, model);
    model.langChanged = false;
    const busy = Boolean(model.busy) || crashing();
    for (const [name, button] of Object.entries(buttons)) {
      relabel(button, t(`action.${name}`));
      showAction(button, model.actions?.[name], busy || !drives() || held);
    }
    answerJson.textContent = t("play.answerJson");
    showAction(answerJson, model.actions?.approve, busy); // answering with JSON is Approve's `answer` command
    stop.textContent = t("play.stop");
    stop.disabled = !model.busy || crashing(); // only while a command (a run) waits on the worker
    const asked = model.review?.request ?? null;
    $("#play-answer-box").hidden = !model.actions?.approve?.enabled;
    $("#play-question").textContent = asked ? JSON.stringify(asked) : "";
    const status = model.status ? say(model.status.message) : "";
    if ($("#status").textContent !== status) $("#status").textContent = status;
    $("#process").textContent = crashing()
      ? t("process.booting", { n: processNumber, stage: "…" })
      : t("process.ready", { n: processNumber });
    $("#process").dataset.state = model.process;
    document.body.dataset.busy = model.busy ?? "";
  }

  function onEvent(event) {
    if (event.type === "process") onProcessEvent(event);
    else if (event.type === "package") onPackageEvent(event);
    else if (event.type === "script_output") onOutput(event.text);
    else if (event.type !== "world" && event.type !== "boot" && loaded && !crashing()) {
      store.changed().catch(() => {});
    }
  }

  /** A package the program imports is loading (pydantic, worker.mjs): say so, with its size. */
  function onPackageEvent({ name, bytes, state }) {
    const size = (bytes / 1e6).toFixed(1);
    show($("#play-run-status"), state === "loading" ? "play.loadingPackage" : "play.loadedPackage", { name, size });
  }

  function onProcessEvent(event) {
    if (event.worker && ["booting", "ready", "crashed"].includes(event.state)) processNumber = event.worker;
    if (event.state === "crashed") {
      model.crashes += 1;
      model.crashPoint = stopping ? null : (event.crash ?? null);
      model.process = "crashed";
    } else if (event.state === "ready") {
      model.process = "ready";
      model.busy = null;
      if (loaded) commands.reread().then(() => { model.crashPoint = null; render(); });
      if (stopping) show($("#play-run-status"), "play.stoppedDone", { n: processNumber });
      stopping = false;
    } else if (event.state === "failed") {
      showError(() => t("process.rebootFailed", { message: event.error?.message ?? "" }));
    }
    document.body.dataset.process = model.process; // at once, not at the next frame: Run answers from now
    render();
  }

  /**
   * Load `source` in the worker and run it on a new thread: `{problem}` if it did not load.
   * @param {string} source @param {unknown} input the thread's input (null: the program's own example)
   */
  async function runProgram(source, input) {
    const answer = await loadProgram(source, input);
    if (answer.problem || answer.plain) return answer;
    followNewThread();
    model.choices.durability = $("#play-durability").value; // the run command reads it (commands.mjs)
    await commands.act("start", { case_id: "default", durability: model.choices.durability });
    await located(actions.run);
    return { problem: null };
  }

  /** The page follows the thread a run is about to start: its newest frame, its own branch. */
  function followNewThread() {
    Object.assign(model, { selectedId: null, detail: null, follow: true, branchLeaf: null, catalog: null });
  }

  /** Load `source` in the worker unless it is loaded already with this input: `{problem}`. */
  async function loadProgram(source, input) {
    onProblem(null);
    showError(null);
    showOutput(null);
    if (!isSameProgram(loaded, source, input)) {
      loads += 1;
      const program = `program-${loads}`;
      store.show(program); // from now on, only this program's views are drawn
      const answer = await client.load(source, input, program);
      if (answer.problem) {
        loaded = null;
        onProblem(answer.problem);
        render();
        return answer;
      }
      loaded = { source, input: answer.input, program, own: input === null, script: answer.script };
      loaded.plain = answer.graph === null ? { printed: answer.printed } : null;
      if (!loaded.plain) showLoaded(answer);
      $("#play-panels").hidden = Boolean(loaded.plain);
    }
    if (loaded.plain) showPlain(loaded.plain); // (again at each Run: a new load hid its output)
    render(); // the lab's own Step/Run/Resume: enabled for a graph only
    return { problem: null, plain: Boolean(loaded.plain) };
  }

  /**
   * A challenge's check (./challenges.mjs), marked busy like a run: Stop can kill a program whose
   * node never returns while the lab checks it.
   * @param {string} id @param {string} source
   */
  async function check(id, source) {
    await boot().ready; // (a process becoming ready clears `busy`)
    model.busy = "check";
    render();
    try {
      return await client.check(id, source);
    } finally {
      model.busy = null;
      render();
    }
  }

  return {
    client,
    boot,
    check,
    runProgram,
    loadProgram,
    followNewThread,
    /** @returns {{script: boolean} | null} the program the worker runs */
    loaded: () => loaded,
    refresh: () => store.changed(),
    /** Mark the instruments busy with `what` (null: idle): Stop can kill a script whose node never returns. */
    setBusy(what) {
      model.busy = what;
      render();
    },
    /** While a script waits for the learner (`true`), the lab's own Step/Run/Resume wait too. */
    holdRuns(hold) {
      held = hold;
      render();
    },
    translate() {
      model.langChanged = true;
      if (errorText) showError(errorText);
      render();
    },
  };
}
