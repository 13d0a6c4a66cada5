/**
 * `/api/rooms/<code>/thread/<op>`: the teacher's thread shared with the room (functions/_room/thread.js).
 * POST `read` (anyone with the room's code) and POST `write` (the room's teacher key, as
 * `Authorization: Bearer <key>`), JSON bodies of up to 1 MiB.
 */
import { Refusal, allowOnly, answer, json, readBody } from "../../../../_room/http.js";
import { database, findRoom, requireTeacher } from "../../../../_room/rooms.js";
import { MAX_THREAD_BODY, readRecords, writeRecords } from "../../../../_room/thread.js";

export function onRequest(context) {
  return answer(context, async ({ request, env, params }) => {
    const { op } = params;
    if (op !== "read" && op !== "write") {
      throw new Refusal(404, "unknown_action", `a room's thread has no "${String(op).slice(0, 20)}"`);
    }
    allowOnly(request, "POST");
    const db = database(env);
    const room = await findRoom(db, params.code);
    if (op === "read") return json(await readRecords(db, room, await readBody(request, MAX_THREAD_BODY)));
    await requireTeacher(room, request);
    return json(await writeRecords(db, room, await readBody(request, MAX_THREAD_BODY)));
  });
}
