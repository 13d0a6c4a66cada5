/**
 * `/api/rooms`: GET says the site has class rooms (the presenter shows its room button only then;
 * without the ROOMS binding, or on a plain static server, this answers 404); POST opens a room.
 */
import { allowOnly, answer, json, readBody } from "../../_room/http.js";
import { createRoom, database } from "../../_room/rooms.js";

export function onRequest(context) {
  return answer(context, async ({ request, env }) => {
    allowOnly(request, "GET", "POST");
    const db = database(env);
    if (request.method === "GET") return json({ rooms: true });
    const client = request.headers.get("cf-connecting-ip") ?? "local";
    return json(await createRoom(db, env, await readBody(request), client), 201);
  });
}
