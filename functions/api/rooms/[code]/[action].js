/**
 * `/api/rooms/<code>/<action>`: a learner's `join`, `vote`, `progress` (POST, JSON bodies with their
 * `learner` id), and the teacher's `tally` (GET), `step`, `lesson` and `close` (POST), which need the room's
 * teacher key as `Authorization: Bearer <key>`.
 */
import { Refusal, allowOnly, answer, json, readBody } from "../../../_room/http.js";
import * as rooms from "../../../_room/rooms.js";

const LEARNER_ACTIONS = { join: rooms.join, vote: rooms.vote, progress: rooms.progress };
const TEACHER_ACTIONS = { step: rooms.moveTo, lesson: rooms.moveToLesson, close: rooms.close };

export function onRequest(context) {
  return answer(context, async ({ request, env, params }) => {
    const { action } = params;
    const known = action === "tally" || action in LEARNER_ACTIONS || action in TEACHER_ACTIONS;
    if (!known) throw new Refusal(404, "unknown_action", `a room has no "${String(action).slice(0, 20)}"`);
    allowOnly(request, action === "tally" ? "GET" : "POST");
    const db = rooms.database(env);
    const room = await rooms.findRoom(db, params.code);
    if (action in LEARNER_ACTIONS) return json(await LEARNER_ACTIONS[action](db, room, await readBody(request)));
    await rooms.requireTeacher(room, request);
    if (action === "tally") return json(await rooms.tally(db, room));
    return json(await TEACHER_ACTIONS[action](db, room, await readBody(request)));
  });
}
