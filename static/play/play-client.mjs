/**
 * The seam between /play and the lab's Python worker: the page asks for the playground's commands
 * here and nowhere else, so connecting the instruments is one change in this module.
 *
 * The commands (the controller answers them once it serves any graph; lab/playground/ is their
 * Python side): `play_load {source}` loads a program (lab.playground.load_program: its graph, or a
 * problem `{kind, line, column, say}` at its line), then the lab's own commands drive the loaded
 * graph (run, step, crash, time travel, fork). Until a `send` is given, the client is not connected:
 * it records what the page asked for and answers `{connected: false}`, and the page says so.
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
    /** Load `source` in the worker: `{graph, problem}` once connected. @param {string} source */
    load: (source) => ask("play_load", { source }),
  };
}
