/**
 * The class room's client side, shared by the join page (join.mjs) and a lesson step in a room
 * (lesson/room.mjs): the API calls (functions/api/rooms, docs/ROOM.md), the learner's random id, and
 * the address of a lesson's step. Nothing here is a rule: the server checks every vote.
 */

const LEARNER_KEY = "checkpoint-lab.learner";

/** Answers worth another try: no answer, or a busy or failing server (a refusal is a 4xx, said at once). */
const BUSY = new Set([0, 500, 502, 503, 504]);
/** The pauses before each further try of a busy answer. */
const RETRY_DELAYS_MS = [250, 1000, 2500];

/**
 * `method path` with a JSON `body`, and the teacher `key` if given; a busy answer is tried again a few
 * times (every room request but a room's creation says the same thing twice: a join, a vote or a move
 * repeated counts once), so a class's burst of first visits does not turn a join into an error.
 * @returns {Promise<{ok: boolean, status: number, body: any}>} the answer; a network failure is status 0
 */
export async function roomApi(method, path, body = undefined, key = undefined) {
  const repeatable = !(method === "POST" && path === ""); // a second POST /api/rooms would open a second room
  let answer = await roomRequest(method, path, body, key);
  for (const delay of repeatable ? RETRY_DELAYS_MS : []) {
    if (!BUSY.has(answer.status)) break;
    await new Promise((resolve) => setTimeout(resolve, delay));
    answer = await roomRequest(method, path, body, key);
  }
  return answer;
}

/** One request; an answer that is not the room server's JSON (a proxy's 503 page) is named by its status. */
async function roomRequest(method, path, body, key) {
  const headers = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  try {
    const response = await fetch(`/api/rooms${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
    const answer = await response.json().catch(() => null);
    const message = `HTTP ${response.status} ${response.statusText}`.trim();
    const unnamed = { error: `http_${response.status}`, message };
    return { ok: response.ok, status: response.status, body: answer ?? (response.ok ? {} : unnamed) };
  } catch {
    return { ok: false, status: 0, body: { error: "offline" } };
  }
}

/** Whether this site has class rooms: GET /api/rooms answers only where the functions and D1 are. */
export async function roomsAvailable() {
  const answer = await roomApi("GET", "");
  return answer.ok && answer.body.rooms === true;
}

/** This browser's learner id: random, made once, kept in localStorage; no name. */
export function learnerId() {
  let id = localStorage.getItem(LEARNER_KEY);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(LEARNER_KEY, id);
  }
  return id;
}

/** The address of step `index` of lesson `lessonId` in `lang`, in room `code`. */
export async function stepAddress(lang, lessonId, index, code) {
  const response = await fetch(`/learn/data/${lessonId}.json`);
  if (!response.ok) throw new Error(`/learn/data/${lessonId}.json: HTTP ${response.status}`);
  const { steps } = await response.json();
  const step = steps[Math.min(index, steps.length - 1)];
  return `/learn/${lang}/${lessonId}/${step.id}/?room=${encodeURIComponent(code)}`;
}
