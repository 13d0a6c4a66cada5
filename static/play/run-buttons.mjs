/**
 * The playground's run buttons: what each asks the lab, and what the status line then says.
 *
 * - Run: the program as written when it has a script (./script-runner.mjs: the seed's two invokes are
 *   two runs on one thread), else the graph driven on a new thread from the Input (JSON) box;
 * - Step through: the script, waiting before its first graph call (then the script bar's Step, Next
 *   call and Run to the end);
 * - Drive it yourself: the second way, for any program: a new thread from the Input (JSON) box (empty:
 *   the program's own input), run to its end, then the lab's Step/Run/Resume.
 * A program that builds no graph ran as plain Python when it loaded: each of them says so.
 */

const $ = (selector) => document.querySelector(selector);

const BUTTONS = ["#play-run", "#play-step-script", "#play-drive", "#play-script-step", "#play-script-next", "#play-script-end"];

/**
 * @param {{lab: ReturnType<import("./instruments.mjs").mountInstruments>,
 *          script: ReturnType<import("./script-runner.mjs").mountScript>,
 *          source: () => string, givenInput: () => unknown,
 *          show: (element: HTMLElement, key: string, params?: object) => void}} page
 */
export function mountRunButtons({ lab, script, source, givenInput, show }) {
  const instruments = $("#play-instruments");
  const status = $("#play-run-status");

  /** Say `startKey`, ask the lab (`running()`), then say what the answer means (`said`). */
  async function pressed(startKey, running) {
    instruments.dataset.runs = String(Number(instruments.dataset.runs) + 1);
    show(status, startKey);
    for (const button of BUTTONS) $(button).disabled = true;
    const asked = running();
    instruments.dataset.asked = String(lab.client.asked.length); // what the page asked of the worker
    try {
      const answer = await asked;
      show(status, ...said(answer));
      return answer;
    } catch (error) {
      show(status, "play.failed", { message: error.message ?? String(error) });
      return undefined;
    } finally {
      for (const button of BUTTONS) $(button).disabled = false;
    }
  }

  /** @returns {[string, object?]} the status line's words for a run's answer */
  function said(answer) {
    if (answer.badJson) return ["play.badJson", { message: answer.badJson }];
    if (answer.plain) return ["play.ranPlain"]; // it builds no graph: it ran as plain Python at load
    if (answer.drove) return [answer.problem ? "play.notLoaded" : "play.ran"];
    if (!answer.script) return [answer.problem ? "play.notLoaded" : "play.noScript"];
    if (answer.crashed) return ["play.scriptCrashed"];
    if (answer.waiting) return ["play.scriptWaits"];
    return [answer.problem ? "play.scriptStopped" : "play.ranScript", { runs: answer.runs }];
  }

  /** Drive the graph on a new thread from the Input (JSON) box (empty: the program's own input). */
  async function drive() {
    let given;
    try {
      given = givenInput();
    } catch (error) {
      return { badJson: error.message };
    }
    script.forget();
    return { ...(await lab.runProgram(source(), given)), drove: true };
  }

  /** Run: as written when the program has a script, else driven (the Input box read only then). */
  function run() {
    return pressed("play.running", async () => {
      const answer = await script.run(source(), "end");
      return answer.problem || answer.script || answer.plain ? answer : drive();
    });
  }

  $("#play-run").addEventListener("click", run);
  $("#play-step-script").addEventListener("click", () => pressed("play.running", () => script.run(source(), "call")));
  $("#play-drive").addEventListener("click", () => pressed("play.running", drive));
  for (const [id, pace] of [["#play-script-step", "step"], ["#play-script-next", "call"], ["#play-script-end", "end"]]) {
    $(id).addEventListener("click", () => pressed("play.runningScript", () => script.go(pace)));
  }
}
