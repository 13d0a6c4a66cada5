/**
 * Run as written: the program's own script (its top-level graph.invoke(...) calls and its
 * `__main__` block, lab/playground/script.py) runs in the lab, each graph call a run on the lab's
 * thread with every instrument, and the learner may step through it.
 *
 * The script is an outer list of graph calls; each run inside a call is a list of super-steps. The
 * worker's `play_script {pace}` runs the script until it ends or waits: before its next graph call
 * (pace "call") or at the next super-step too (pace "step", the lab's own Step inside the run). While
 * it waits, the script bar says where ("Call 2 of 3: graph.invoke(...) at line 19, before it runs")
 * and offers Step, Next call, Run to the end; the lab's own Step/Run/Resume wait with it (a crash
 * armed meanwhile fires as in any run). What the script prints arrives as it prints
 * (`script_output` events, `told`), and the whole of it once the script ends.
 */
import { t } from "../i18n.mjs";
import { showOutput } from "./loaded-program.mjs";

const $ = (selector) => document.querySelector(selector);

/**
 * @param {{lab: ReturnType<import("./instruments.mjs").mountInstruments>,
 *          onProblem: (problem: object | null) => void, onWhere: (line: number | null) => void}} page
 *   `onWhere`: the line where the script waits (null: it does not), marked in the editor
 */
export function mountScript({ lab, onProblem, onWhere }) {
  /** @type {{call: number, total: number | null, line: number, text: string, at: string,
   *          step?: number, next?: string[]} | null} where the script waits (null: it does not) */
  let waiting = null;

  /**
   * Load `source` (with its own input) and run its script afresh until it ends or waits at `pace`:
   * `{problem, plain, script: false}` if it did not load or has no script, else `ask`'s answer.
   * @param {string} source @param {"end" | "call" | "step"} pace
   */
  async function run(source, pace) {
    const answer = await lab.loadProgram(source, null);
    if (answer.problem || !lab.loaded().script) return { ...answer, script: false };
    lab.followNewThread();
    waitAt(null);
    showOutput("");
    return ask(pace, true);
  }

  /**
   * The worker's play_script: `{crashed: true}` if the process was killed under it, else
   * `{output, runs, problem, waiting}`; the script bar and the output pane say what it did.
   */
  async function ask(pace, fresh) {
    lab.setBusy("script"); // Stop can kill a script whose node never returns
    try {
      const result = await lab.client.script($("#play-durability").value, pace, fresh);
      waitAt(result.waiting);
      if (!result.waiting) {
        showOutput(result.output);
        onProblem(result.problem);
      }
      await lab.refresh();
      return { ...result, script: true };
    } catch (error) {
      // an armed crash (or Stop) killed the process under the script: the next one restores its thread
      if (error?.type === "Terminated" || error?.type === "Crashed") {
        waitAt(null);
        return { script: true, crashed: true };
      }
      throw error;
    } finally {
      lab.setBusy(null);
    }
  }

  /** Say where the script waits (the script bar), or hide the bar. */
  function waitAt(where) {
    waiting = where;
    lab.holdRuns(Boolean(where));
    $("#play-script").hidden = !where;
    $("#play-script").dataset.call = where ? String(where.call) : "";
    $("#play-script").dataset.at = where?.at ?? "";
    onWhere(where?.line ?? null);
    if (!where) return;
    const call = t(where.total === null ? "play.scriptCall" : "play.scriptCallOf", where);
    const inside = where.at === "call"
      ? t("play.scriptBefore")
      : t("play.scriptInside", { step: where.step, next: where.next.join(", ") });
    $("#play-script-where").textContent = `${call} ${inside}`;
  }

  return {
    run,
    /** Let the waiting script go on at `pace` (from the script bar). */
    go: (pace) => ask(pace, false),
    /** A line the script printed, as it printed it. */
    told(text) {
      $("#play-output").textContent += text;
      $("#play-output-box").hidden = false;
    },
    /** The learner drives the graph themselves: the bar goes (a new Run starts the script afresh). */
    forget: () => waitAt(null),
    translate: () => waitAt(waiting),
  };
}
