/**
 * The seam between /play and the lab's Python worker: the page asks for the playground's commands
 * here and nowhere else, so connecting the instruments is one change in this module.
 *
 * The commands (lab/browser/play_rpc.py): `play_load {source, input}` loads a program
 * (lab.playground.load_program: its graph, or a problem `{kind, line, column, say}` at its line) and
 * makes it the graph the lab's controller drives; then the lab's own commands drive it (run, step,
 * crash, time travel, fork: ./instruments.mjs); `play_problem` says where the last failing run raised;
 * `play_check {challenge, source}` checks a challenge's goal (./challenges.mjs).
 * Without a `send`, the client is not connected: it records what the page asked for and answers
 * `{connected: false}`.
 */

/** @typedef {(command: string, args: Record<string, unknown>) => Promise<unknown>} Send */

/** @param {Send} [send] the worker's command channel (lab-session.mjs), when connected */
export function createPlayClient(send) {
  /** @type {{command: string, args: Record<string, unknown>}[]} */
  const asked = [];

  /** @param {string} command a `play_*` command @param {Record<string, unknown>} args */
  async function ask(command, args) {
    if (!command.startsWith("play_")) throw new Error(`not a playground command: ${command}`);
    asked.push({ command, args });
    return send ? send(command, args) : { connected: false };
  }

  return {
    connected: Boolean(send),
    /** Everything the page asked for, in order (the tests read it: a shared link asks nothing). */
    asked,
    /**
     * Load `source` in the worker: `{problem}` at its line, or `{graph, checkpointer, skipped, input,
     * example, input_schema}` (lab/browser/play_rpc.py).
     * @param {string} source @param {unknown} [input] a new thread's input (null: the program's own example)
     * @param {string | null} [program] the page's name for this load: every view of it carries it
     */
    load: (source, input = null, program = null) => ask("play_load", { source, input, program }),
    /**
     * Run the loaded program's script as written (each graph.invoke a run on the lab's thread) until
     * it ends or waits at `pace` ("end", "call": before its next graph call, "step": the next
     * super-step too): `{output, runs, problem, waiting}` (lab/browser/play_rpc.py). A waiting script
     * goes on, unless `fresh`.
     * @param {string} durability its threads' durability @param {string} [pace] @param {boolean} [fresh]
     */
    script: (durability, pace = "end", fresh = true) => ask("play_script", { durability, pace, fresh }),
    /** Where the last failing run raised: `{problem}` (null when none did). */
    problem: () => ask("play_problem", {}),
    /**
     * Check `source` against challenge `challenge`'s goal, crashing and resuming it in a controller
     * of its own: `{passed, say, problem}` (lab/playground/challenges.py).
     * @param {string} challenge @param {string} source
     */
    check: (challenge, source) => ask("play_check", { challenge, source }),
  };
}
