/**
 * The class room over D1 (binding `ROOMS`, schema in migrations/): a teacher opens a room for one
 * lesson and gets a short code (for learners) and a teacher key (for the teacher's page only);
 * learners join with a random id their browser made (no names), vote once per step (the last vote
 * counts), report which step they are on; the teacher reads the tally, moves the room to a step or
 * to another lesson (the presenter went on to it), closes it. Votes and progress are kept per lesson:
 * a lesson's tally counts only its own. Every query names the room's code, so nothing of one room is
 * read through another. No route here.
 */
import { Refusal, field } from "./http.js";

const HOUR_MS = 3600 * 1000;
const ROOM_HOURS = 6; // a room expires this long after it opened
const CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I: read off a projector
const CODE_LENGTH = 6;
export const CODE = /^[A-HJ-NP-Z2-9]{6}$/;
const LEARNER = /^[A-Za-z0-9_-]{16,64}$/;
const LESSON = /^[a-z0-9-]{1,40}$/;
const MAX_STEPS = 60;
const MAX_CHOICES = 9; // the presenter's digit keys
const DEFAULT_CREATIONS_PER_HOUR = 20;

/** The database, or a 404: a site deployed without the binding has no rooms at all. */
export function database(env) {
  if (!env.ROOMS) throw new Refusal(404, "no_rooms", "this site has no class rooms (no ROOMS database)");
  return env.ROOMS;
}

function randomText(letters, length) {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((byte) => letters[byte % letters.length]).join(""); // 256 % 32 == 0: uniform
}

function teacherKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

async function sha256(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function hex(bytes) {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Equal digests, compared in constant time (both are 32 bytes, whatever key was presented). */
function sameDigest(a, b) {
  if (crypto.subtle.timingSafeEqual) return crypto.subtle.timingSafeEqual(a, b);
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a[i] ^ b[i];
  return difference === 0;
}

function isCount(value, low, high) {
  return Number.isInteger(value) && value >= low && value <= high;
}

/** The creations of `client` in the last hour, refused past the limit; this one is recorded. */
async function limitCreations(db, env, client, now) {
  const limit = Number(env.ROOM_CREATIONS_PER_HOUR ?? DEFAULT_CREATIONS_PER_HOUR);
  await db.prepare("DELETE FROM creations WHERE at < ?").bind(now - HOUR_MS).run();
  const { made } = await db
    .prepare("SELECT COUNT(*) AS made FROM creations WHERE client = ?")
    .bind(client)
    .first();
  if (made >= limit) {
    throw new Refusal(429, "too_many_rooms", `at most ${limit} rooms an hour from one address; try later`);
  }
  await db.prepare("INSERT INTO creations (client, at) VALUES (?, ?)").bind(client, now).run();
}

export function isLesson(value) {
  return typeof value === "string" && LESSON.test(value);
}

/** `body.lesson` and `body.shape`: a lesson's id and each of its steps' number of choices (0: no question). */
function lessonAndShape(body) {
  const lesson = field(body, "lesson", isLesson, "a lesson id");
  const shape = field(
    body,
    "shape",
    (v) => Array.isArray(v) && isCount(v.length, 1, MAX_STEPS) && v.every((n) => isCount(n, 0, MAX_CHOICES)),
    `a list of 1 to ${MAX_STEPS} choice counts, each 0 to ${MAX_CHOICES}`,
  );
  return { lesson, shape };
}

/**
 * Open a room for `body.lesson`, whose steps have `body.shape[i]` choices (0: no question), at step
 * `body.step` (the teacher's; the first if not given).
 */
export async function createRoom(db, env, body, client) {
  const { lesson, shape } = lessonAndShape(body);
  const step = body.step === undefined ? 0 : stepOf({ lesson, shape }, body);
  const now = Date.now();
  await limitCreations(db, env, client, now);
  await db.prepare("DELETE FROM rooms WHERE expires_at < ?").bind(now).run();
  const key = teacherKey();
  const hash = hex(await sha256(key));
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const code = randomText(CODE_LETTERS, CODE_LENGTH);
    const expiresAt = now + ROOM_HOURS * HOUR_MS;
    const { meta } = await db
      .prepare(
        "INSERT OR IGNORE INTO rooms (code, teacher_key_hash, lesson, shape, step, created_at, expires_at) " +
          "VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(code, hash, lesson, JSON.stringify(shape), step, now, expiresAt)
      .run();
    if (meta.changes === 1) return { code, teacher_key: key, lesson, expires_at: expiresAt };
  }
  throw new Error("no free room code after 5 tries");
}

/** The open (or closed, not yet expired) room `code`, or a 404 naming it unknown or expired. */
export async function findRoom(db, code) {
  const normal = String(code).toUpperCase();
  const room = CODE.test(normal)
    ? await db.prepare("SELECT * FROM rooms WHERE code = ? AND expires_at >= ?").bind(normal, Date.now()).first()
    : null;
  if (!room) throw new Refusal(404, "unknown_room", `no room "${normal.slice(0, 12)}": unknown or expired`);
  return { ...room, shape: JSON.parse(room.shape) };
}

/** Refuse unless the request carries this room's teacher key (`Authorization: Bearer <key>`). */
export async function requireTeacher(room, request) {
  const header = request.headers.get("authorization") ?? "";
  const key = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!key) throw new Refusal(401, "missing_teacher_key", "this needs the room's teacher key");
  const expected = Uint8Array.from(room.teacher_key_hash.match(/../g), (pair) => parseInt(pair, 16));
  if (!sameDigest(await sha256(key), expected)) {
    throw new Refusal(403, "bad_teacher_key", "this is not the room's teacher key");
  }
}

function requireOpen(room) {
  if (room.closed) throw new Refusal(410, "room_closed", "the teacher has closed this room");
}

function learnerOf(body) {
  return field(body, "learner", (v) => typeof v === "string" && LEARNER.test(v), "16 to 64 letters, digits, - or _");
}

function stepOf(room, body) {
  const step = field(body, "step", Number.isInteger, "a whole number");
  if (step < 0 || step >= room.shape.length) {
    throw new Refusal(422, "no_such_step", `lesson "${room.lesson}" has steps 0 to ${room.shape.length - 1}, not ${step}`);
  }
  return step;
}

/**
 * The lesson a learner's vote or report is about: `body.lesson` where the page says it (a page still
 * on the lesson the room has left is refused by name), else the room's.
 */
function lessonOf(room, body) {
  if (body.lesson === undefined) return room.lesson;
  const lesson = field(body, "lesson", isLesson, "a lesson id");
  if (lesson !== room.lesson) {
    throw new Refusal(409, "other_lesson", `the room is on lesson "${room.lesson}", not "${lesson}"`);
  }
  return lesson;
}

/** What a learner's page needs to follow the room. */
export function roomState(room) {
  return { code: room.code, lesson: room.lesson, step: room.step, steps: room.shape.length, closed: !!room.closed };
}

export async function join(db, room, body) {
  requireOpen(room);
  const learner = learnerOf(body);
  await db
    .prepare("INSERT INTO learners (code, learner, lesson, step, seen_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
    .bind(room.code, learner, room.lesson, room.step, Date.now())
    .run();
  return roomState(room);
}

async function requireJoined(db, room, learner) {
  const row = await db
    .prepare("SELECT 1 AS joined FROM learners WHERE code = ? AND learner = ?")
    .bind(room.code, learner)
    .first();
  if (!row) throw new Refusal(403, "not_joined", "join the room before voting or reporting progress");
}

/** A learner's vote on a step's question of the room's lesson; a later vote on the same step replaces it. */
export async function vote(db, room, body) {
  requireOpen(room);
  const learner = learnerOf(body);
  const lesson = lessonOf(room, body);
  const step = stepOf(room, body);
  const choice = field(body, "choice", Number.isInteger, "a whole number");
  const choices = room.shape[step];
  if (choice < 0 || choice >= choices) {
    const has = choices ? `choices 0 to ${choices - 1}` : "no question";
    throw new Refusal(422, "no_such_choice", `step ${step} has ${has}, not choice ${choice}`);
  }
  await requireJoined(db, room, learner);
  await db
    .prepare(
      "INSERT INTO votes (code, lesson, learner, step, choice, at) VALUES (?, ?, ?, ?, ?, ?) " +
        "ON CONFLICT (code, lesson, learner, step) DO UPDATE SET choice = excluded.choice, at = excluded.at",
    )
    .bind(room.code, lesson, learner, step, choice, Date.now())
    .run();
  return { voted: { lesson, step, choice } };
}

/** Where a learner's page is in the room's lesson, and whether they have finished it (once said, kept
 * until they report from another lesson). */
export async function progress(db, room, body) {
  requireOpen(room);
  const learner = learnerOf(body);
  const lesson = lessonOf(room, body);
  const step = stepOf(room, body);
  const finished = field(body, "finished", (v) => typeof v === "boolean", "true or false") ? 1 : 0;
  await requireJoined(db, room, learner);
  await db
    .prepare(
      "UPDATE learners SET step = ?, finished = CASE WHEN lesson = ? THEN MAX(finished, ?) ELSE ? END, " +
        "lesson = ?, seen_at = ? WHERE code = ? AND learner = ?",
    )
    .bind(step, lesson, finished, finished, lesson, Date.now(), room.code, learner)
    .run();
  return roomState(room);
}

/**
 * The teacher's view of the room's lesson: each step's votes per choice, how many learners are on each
 * step, and who has finished (by the first 4 letters of their id: the whole id would let the teacher's
 * screen vote as them). `learners` counts everyone in the room, also those whose page has not yet
 * followed the room to this lesson.
 */
export async function tally(db, room) {
  const votes = room.shape.map((choices) => new Array(choices).fill(0));
  const [counted, where, done, everyone] = await db.batch([
    db
      .prepare("SELECT step, choice, COUNT(*) AS n FROM votes WHERE code = ? AND lesson = ? GROUP BY step, choice")
      .bind(room.code, room.lesson),
    db
      .prepare("SELECT step, COUNT(*) AS n FROM learners WHERE code = ? AND lesson = ? GROUP BY step")
      .bind(room.code, room.lesson),
    db
      .prepare(
        "SELECT substr(learner, 1, 4) AS tag FROM learners WHERE code = ? AND lesson = ? AND finished = 1 ORDER BY seen_at",
      )
      .bind(room.code, room.lesson),
    db.prepare("SELECT COUNT(*) AS n FROM learners WHERE code = ?").bind(room.code),
  ]);
  for (const { step, choice, n } of counted.results) if (choice < (votes[step]?.length ?? 0)) votes[step][choice] = n;
  const onStep = new Array(room.shape.length).fill(0);
  for (const { step, n } of where.results) if (step < onStep.length) onStep[step] = n;
  const learners = everyone.results[0].n;
  return { ...roomState(room), learners, votes, on_step: onStep, finished: done.results.map((row) => row.tag) };
}

export async function moveTo(db, room, body) {
  requireOpen(room);
  const step = stepOf(room, body);
  await db.prepare("UPDATE rooms SET step = ? WHERE code = ?").bind(step, room.code).run();
  return roomState({ ...room, step });
}

/**
 * Move the room to another lesson (`body.lesson`, its `body.shape`) at `body.step` (its first step if
 * not given): the presenter went on to it. The lesson left keeps its votes and thread (going back finds
 * them); learners' pages follow the room there.
 */
export async function moveToLesson(db, room, body) {
  requireOpen(room);
  const moved = { ...room, ...lessonAndShape(body), step: 0 };
  if (body.step !== undefined) moved.step = stepOf(moved, body);
  await db
    .prepare("UPDATE rooms SET lesson = ?, shape = ?, step = ? WHERE code = ?")
    .bind(moved.lesson, JSON.stringify(moved.shape), moved.step, room.code)
    .run();
  return roomState(moved);
}

export async function close(db, room) {
  await db.prepare("UPDATE rooms SET closed = 1 WHERE code = ?").bind(room.code).run();
  return roomState({ ...room, closed: 1 });
}
