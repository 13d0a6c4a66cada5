/**
 * The class room's HTTP edges (docs/ROOM.md): JSON in, JSON out, and every refusal a JSON error
 * `{"error": <name>, "message": <sentence>}` with its status. No route lives here (no onRequest
 * export), so Pages makes no URL of this file.
 */

/** The largest request body a room accepts, in bytes: the biggest (a room's creation) is well under. */
export const MAX_BODY = 4096;

export class Refusal extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {string} name a stable name a client can test (`unknown_room`, `bad_teacher_key`, …)
   * @param {string} message what went wrong, for a person
   */
  constructor(status, name, message) {
    super(message);
    this.status = status;
    this.name = name;
  }
}

export function json(body, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Run `handler(context)`; a Refusal (or a crash, as a 500 without details) becomes its JSON error. */
export async function answer(context, handler) {
  try {
    return await handler(context);
  } catch (error) {
    if (error instanceof Refusal) return json({ error: error.name, message: error.message }, error.status);
    console.error(error);
    return json({ error: "internal", message: "the room server failed; try again" }, 500);
  }
}

/** The request's JSON object body, refused if it is over `limit` bytes, not JSON or not an object. */
export async function readBody(request, limit = MAX_BODY) {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) throw tooBig(limit);
  const text = await request.text();
  if (new TextEncoder().encode(text).length > limit) throw tooBig(limit);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Refusal(400, "malformed_json", "the request body is not JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new Refusal(400, "malformed_json", "the request body must be a JSON object");
  }
  return body;
}

function tooBig(limit) {
  return new Refusal(413, "body_too_large", `the request body is larger than ${limit} bytes`);
}

/** Refuse any method but the ones a route answers, naming them. */
export function allowOnly(request, ...methods) {
  if (!methods.includes(request.method)) {
    throw new Refusal(405, "method_not_allowed", `use ${methods.join(" or ")} here`);
  }
}

/** `field` of `body`, checked by `valid`; refused by name when missing or wrong. */
export function field(body, name, valid, what) {
  const value = body[name];
  if (value === undefined) throw new Refusal(400, "missing_field", `"${name}" is missing: ${what}`);
  if (!valid(value)) throw new Refusal(400, "bad_field", `"${name}" must be ${what}`);
  return value;
}
