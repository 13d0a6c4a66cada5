/**
 * The teacher's thread, shared with the room, over D1 (table `thread_records`, migrations/0002; one
 * thread per lesson since 0003): the records of the lab's checkpoint saver, as
 * lab/browser/page_records.py defines them. Each store maps a
 * key (a list of strings and numbers) to a JSON record; the server stores and returns records and
 * decides nothing about checkpoints (the saver core, in Python, does). Beside the saver's three stores,
 * `sessions` keeps the session each thread was run with (lab/browser/room_publish.py writes it, a
 * learner's fork reads it: lab/browser/room_rpc.py). Two operations:
 *
 *   read   {store, keys}      the record of each key, null where none          anyone with the code
 *   read   {store, prefix}    every record whose key starts with prefix,       anyone with the code
 *                             in the order their keys were first stored
 *   write  {changes: [...]}   every change applied, atomically (one D1 batch)  the teacher key
 *
 * A change is {do: "put" | "add", store, key, record} ("add" keeps a record already there),
 * {do: "delete", store, key}, {do: "delete_prefix", store, prefix} or {do: "clear", store}.
 * Each lesson the room was on has its own thread (migrations/0003): a request reads and writes the
 * room's lesson's records, or those of the lesson it names (`lesson`: the teacher's lab names the
 * lesson it publishes from, so a publish still under way when the room moves on lands in the lesson
 * it came from, not in the next one's thread).
 * Every query names the room's code: one room's thread is never read through another's code.
 */
import { Refusal, field } from "./http.js";
import { isLesson } from "./rooms.js";

/** The largest thread request body, in bytes: a super-step's checkpoint and its changed values. */
export const MAX_THREAD_BODY = 1024 * 1024;
const STORES = ["checkpoints", "blobs", "writes", "sessions"]; // the saver's three, and each thread's session
const MAX_KEY_PARTS = 6;
const MAX_KEY_TEXT = 512; // characters of one string in a key
const MAX_ITEMS = 200; // keys in one read, changes in one write
const CHANGES = ["put", "add", "delete", "delete_prefix", "clear"];

function isKeyPart(part) {
  return (typeof part === "string" && part.length <= MAX_KEY_TEXT) || (typeof part === "number" && Number.isFinite(part));
}

function isKey(value, least = 1) {
  return Array.isArray(value) && value.length >= least && value.length <= MAX_KEY_PARTS && value.every(isKeyPart);
}

const KEY = `a list of 1 to ${MAX_KEY_PARTS} strings (up to ${MAX_KEY_TEXT} characters) or numbers`;
const PREFIX = `a list of 0 to ${MAX_KEY_PARTS} strings or numbers`;

function storeOf(body) {
  return field(body, "store", (v) => STORES.includes(v), `one of ${STORES.join(", ")}`);
}

function itemsOf(body, name, valid, what) {
  return field(body, name, (v) => Array.isArray(v) && v.length <= MAX_ITEMS && v.every(valid), `a list of up to ${MAX_ITEMS} ${what}`);
}

/**
 * The condition and its values for "key starts with prefix": the key is the prefix itself, or its JSON
 * text starts with the prefix's text less its closing bracket, plus a comma.
 */
function startsWith(prefix) {
  const whole = JSON.stringify(prefix);
  const start = prefix.length ? `${whole.slice(0, -1)},` : "[";
  return ["(key = ? OR substr(key, 1, ?) = ?)", [whole, [...start].length, start]]; // SQLite counts code points
}

/** The lesson whose thread a request reads or writes: `body.lesson`, else the room's. */
function lessonOf(room, body) {
  return body.lesson === undefined ? room.lesson : field(body, "lesson", isLesson, "a lesson id");
}

/** The records of `body.keys` (null where none) or of every key starting with `body.prefix`. */
export async function readRecords(db, room, body) {
  const store = storeOf(body);
  const lesson = lessonOf(room, body);
  const where = "WHERE code = ? AND lesson = ? AND store = ?";
  if (body.keys !== undefined) {
    const keys = itemsOf(body, "keys", (key) => isKey(key), `keys, each ${KEY}`);
    if (!keys.length) return { records: [] };
    const found = await db.batch(
      keys.map((key) =>
        db.prepare(`SELECT record FROM thread_records ${where} AND key = ?`).bind(room.code, lesson, store, JSON.stringify(key)),
      ),
    );
    return { records: found.map(({ results }) => (results.length ? JSON.parse(results[0].record) : null)) };
  }
  const prefix = field(body, "prefix", (v) => isKey(v, 0), PREFIX);
  const [condition, values] = startsWith(prefix);
  const { results } = await db
    .prepare(`SELECT record FROM thread_records ${where} AND ${condition} ORDER BY seq`)
    .bind(room.code, lesson, store, ...values)
    .all();
  return { records: results.map((row) => JSON.parse(row.record)) };
}

/** One change to `lesson`'s thread as a D1 statement, refused by name when malformed. */
function statement(db, room, lesson, change, index) {
  if (change === null || typeof change !== "object" || !CHANGES.includes(change.do)) {
    throw new Refusal(400, "bad_field", `change ${index} must have "do": one of ${CHANGES.join(", ")}`);
  }
  const store = storeOf(change);
  const where = "WHERE code = ? AND lesson = ? AND store = ?";
  if (change.do === "clear") return db.prepare(`DELETE FROM thread_records ${where}`).bind(room.code, lesson, store);
  if (change.do === "delete_prefix") {
    const [condition, values] = startsWith(field(change, "prefix", (v) => isKey(v, 0), PREFIX));
    return db.prepare(`DELETE FROM thread_records ${where} AND ${condition}`).bind(room.code, lesson, store, ...values);
  }
  const key = JSON.stringify(field(change, "key", (v) => isKey(v), KEY));
  if (change.do === "delete") {
    return db.prepare(`DELETE FROM thread_records ${where} AND key = ?`).bind(room.code, lesson, store, key);
  }
  const record = field(change, "record", (v) => v !== null && typeof v === "object" && !Array.isArray(v), "a JSON object");
  const onConflict = change.do === "put" ? "DO UPDATE SET record = excluded.record" : "DO NOTHING";
  return db
    .prepare(
      "INSERT INTO thread_records (code, lesson, store, key, record) VALUES (?, ?, ?, ?, ?) " +
        `ON CONFLICT (code, lesson, store, key) ${onConflict}`,
    )
    .bind(room.code, lesson, store, key, JSON.stringify(record));
}

/** Apply `body.changes` in order, all or none (a D1 batch is one transaction). */
export async function writeRecords(db, room, body) {
  if (room.closed) throw new Refusal(410, "room_closed", "the teacher has closed this room");
  const lesson = lessonOf(room, body);
  const changes = itemsOf(body, "changes", () => true, "changes");
  const statements = changes.map((change, index) => statement(db, room, lesson, change, index));
  if (statements.length) await db.batch(statements);
  return { written: statements.length };
}
