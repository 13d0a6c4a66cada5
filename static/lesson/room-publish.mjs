/**
 * The presenter's lesson thread, published into the class room (docs/ROOM.md): once the teacher has
 * opened a room, every checkpoint the lesson's lab saves also reaches the room's thread, where the
 * learners' pages list it (room-thread.mjs).
 *
 * The worker writes (`room_publish`, lab/browser/room_publish.py): it copies what the room lacks of
 * the lab's open thread, and of every thread the lab's events named since, from this browser's own
 * IndexedDB (the source of truth) through the same saver core. This module only says when: after each
 * event that saves something (a checkpoint, writes, a run's end, a new or restored session), one
 * publish at a time, and once more if anything was saved meanwhile. A room out of reach never stops
 * the lesson: the status line says so quietly, and the next step tries again; a closed or expired
 * room ends the publishing. The room keeps a thread per lesson: this publishes into the thread of the
 * lesson the room was opened or moved to (`room.lesson`).
 */
import { t } from "../i18n.mjs";

/** The events after which the lab has saved something new. */
const SAVED = new Set(["checkpoint", "writes", "run_finished", "interrupt", "session", "crash"]);

/**
 * Publish the lab's thread into `room` from now on.
 * @param {{request: (cmd: string, args: object) => Promise<any>, onEvent: (listener: (event: any) => void) => () => void}} session
 *   the page's lab session
 * @param {{code: string, key: string, lesson: string}} room the teacher's room, and the lesson on the page
 * @param {HTMLElement} status where the publishing says how it goes (`data-published`: the checkpoints
 *   the room holds of the open thread; `data-publish`: "sent", "retrying" or "stopped")
 * @param {{openThread?: boolean}} options `openThread: false` right after the presenter went on to
 *   another lesson: the thread the lab has open is still the lesson left's, so only the threads this
 *   lesson's events name are published
 * @returns {() => void} stop publishing
 */
export function publishToRoom(session, room, status, { openThread = true } = {}) {
  const threads = new Set();
  let running = false;
  let again = false;
  let stopped = false;

  const say = (state, text) => {
    status.dataset.publish = state;
    status.textContent = text;
  };
  const publish = async () => {
    if (stopped) return;
    if (running) {
      again = true; // saved meanwhile: once more when this one is done
      return;
    }
    running = true;
    again = false;
    try {
      const args = { code: room.code, teacher_key: room.key, lesson: room.lesson, threads: [...threads], open: openThread };
      const answer = await session.request("room_publish", args);
      if (answer.refused?.final) stop(); // closed or expired: Python says no later publish can mend it
      else if (answer.refused) say("retrying", t("room.publishRetry", { reason: answer.refused.name }));
      else if (answer.threads.length) {
        const [open] = answer.threads;
        status.dataset.published = String(open.checkpoints);
        status.dataset.thread = open.thread_id;
        say("sent", t("room.published", { n: open.checkpoints, thread: open.thread_id }));
      }
    } catch (error) {
      // the worker was killed mid-publish (a lesson's crash) or is restarting: the next step tries again
      say("retrying", t("room.publishRetry", { reason: error.message ?? String(error) }));
    } finally {
      running = false;
    }
    if (again) publish();
  };
  const listening = session.onEvent((event) => {
    if (event.thread_id && SAVED.has(event.type)) threads.add(event.thread_id);
    if (SAVED.has(event.type) || (event.type === "process" && event.state === "ready")) publish();
  });
  function stop() {
    stopped = true;
    listening();
    say("stopped", t("room.publishStopped"));
  }
  publish(); // the thread the lab has open now
  return stop;
}
