/** `/api/rooms/<code>`: GET is the room as a learner's page follows it (lesson, step, closed). */
import { allowOnly, answer, json } from "../../../_room/http.js";
import { database, findRoom, roomState } from "../../../_room/rooms.js";

export function onRequest(context) {
  return answer(context, async ({ request, env, params }) => {
    allowOnly(request, "GET");
    return json(roomState(await findRoom(database(env), params.code)));
  });
}
