/**
 * The lab page's entry (index.html, embed.html). It starts the Python process before anything else,
 * then loads the page itself (lab-page.mjs: the store over Python's `view()` and its views) while
 * Pyodide boots: the worker need not wait for the page's ~30 view modules (issue 11). The session's
 * events until the page listens are kept and handed over in order, so none is lost.
 *
 * For the curious (and for tests): `window.lab` is the LabSession (`await lab.command("view")`), and
 * `window.labView` exposes the page's model read-only.
 */
import { LabSession } from "./lab-session.mjs";
import { nodeDelay } from "./url-state.mjs";

/**
 * Start a session (its worker boots at once) and keep its events until someone listens.
 * @returns {import("./lab-page.mjs").StartedSession}
 */
function startSession() {
  const session = new LabSession({ delay: nodeDelay(), oneWriter: true });
  const kept = [];
  const stopKeeping = session.onEvent((event) => kept.push(event));
  window.lab = session;
  return {
    session,
    listen(listener) {
      stopKeeping();
      for (const event of kept.splice(0)) listener(event);
      session.onEvent(listener);
    },
  };
}

const first = startSession();
const { mountLabPage } = await import("./lab-page.mjs");
mountLabPage(first, startSession);
