/**
 * The teacher's thread on a learner's step page in a class room (`?room=<code>`, docs/ROOM.md): the
 * frames (checkpoints) the teacher's thread has in the room, newest first, read every 3 s by this
 * lab's worker (`room_frames`, lab/browser/room_rpc.py: the saver core over the room's records), each
 * with "Try this frame in my lab". That button forks it (`room_fork`): the teacher's thread goes
 * through the thread file into this browser's own IndexedDB, under a thread id of the learner's, and
 * (where the teacher's lab published the thread's session) the lab lists it among its saved threads:
 * "Open it in the lab" opens the lab page on the copy, at that frame.
 */
import { lang, t } from "../i18n.mjs";
import { h } from "../views/dom.mjs";

const POLL_MS = 3000;

/**
 * @param {{request: (cmd: string, args: object) => Promise<any>}} session the page's lab session
 */
export function mountRoomThread(session) {
  const code = new URLSearchParams(location.search).get("room");
  if (!code) return;
  const list = h("ol", { class: "room-frames" });
  const status = h("p", { "data-room-fork": "", role: "status" });
  const attributes = { class: "room-thread", "data-room-thread": "", "aria-live": "polite", hidden: true }; // until a frame
  const panel = h("section", attributes, h("h3", { text: t("room.thread") }), list, status);
  let shown = "";

  const fork = async (frame, button) => {
    button.disabled = true;
    status.textContent = t("room.forking");
    try {
      const copy = await session.request("room_fork", { code, thread_id: frame.thread_id, checkpoint_id: frame.checkpoint_id });
      status.dataset.forked = copy.thread_id;
      status.dataset.checkpoint = copy.checkpoint_id;
      status.textContent = t("room.forked", { thread: copy.thread_id, n: copy.checkpoints, step: frame.step });
      if (copy.opens) {
        const address = `/?${new URLSearchParams({ thread: copy.thread_id, frame: copy.checkpoint_id, lang: lang() })}`;
        status.append(" ", h("a", { href: address, "data-room-open-fork": "", text: t("room.openFork") }));
      }
    } catch (error) {
      status.textContent = t("room.failed", { message: error.message ?? String(error) });
    } finally {
      button.disabled = false;
    }
  };
  const draw = (frames) => {
    const key = frames.map((frame) => frame.checkpoint_id).join(",");
    if (key === shown) return;
    shown = key;
    list.replaceChildren(
      ...frames.map((frame) => {
        const button = h("button", { type: "button", text: t("room.tryFrame"), on: { click: () => fork(frame, button) } });
        const words = t("room.frame", { step: frame.step, source: frame.source, thread: frame.thread_id });
        return h("li", { dataset: { frame: frame.checkpoint_id, step: frame.step } }, `${words} `, button);
      }),
    );
    panel.dataset.frames = String(frames.length);
    panel.hidden = frames.length === 0;
  };
  const poll = async () => {
    if (!panel.isConnected) document.querySelector("[data-room-learner]")?.after(panel); // "Next" swapped the page
    try {
      draw((await session.request("room_frames", { code })).frames);
    } catch {
      // not booted yet, or the room is out of reach: the next poll tries again
    }
  };
  poll();
  setInterval(poll, POLL_MS);
}
