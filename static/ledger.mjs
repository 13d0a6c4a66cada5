/**
 * The ledger: the raw requests the outside world's services received (the operations of the graph's
 * profile: lab.world), kept by the page.
 *
 * The graph runs in a Web Worker that the lab kills on purpose. Money a node has spent is not given
 * back when its process dies, so the external world cannot live in that process: the ledger keeps
 * its rows in an IndexedDB database of its own ("checkpoint-lab-ledger"), which survives a crash, a
 * reload and the worker's termination; the lab's checkpoints live elsewhere.
 *
 * The ledger only stores and lists rows. What a request does - execute, or replay an idempotency
 * key's receipt the way Stripe does - is decided in Python by one rule
 * (`lab.world.decider.decide_request`, which the CPython world uses too): Python's
 * `PageWorld` (lab/browser/page_world.py) reads the rows (`entries`), decides, then asks the ledger
 * to `record` the row it decided. Python numbers the row `seq` (its place after the rows it was decided
 * over); the ledger adds the lab `worker` that sent it (LabSession numbers them):
 *
 *   {seq, kind, id, idempotency_key, replayed, purpose, amount_cents,
 *    thread_id, node, task_id, checkpoint_id, at, worker, ...the operation's own fields}
 *
 * What the rows mean to a learner (attempts, a "×2" verdict, totals) is worked out in
 * Python too (`lab.controller.ledger_rules.annotate_ledger`).
 *
 * Calls are handled one at a time, in arrival order, and each new row is durable before the ledger
 * answers. Several tabs share the database: `entries` always reads it afresh, and `seq` is the
 * store's key, so a row decided over stale rows (another tab recorded in between) fails whole with
 * IndexedDB's `ConstraintError`; Python then reads and decides again (page_world.py). When another
 * tab upgrades the database (`versionchange`), the ledger closes its connection, as it must for the
 * upgrade to go on, and says so (`{change: "closed", reason: "versionchange"}`): the page asks for a
 * reload. Without IndexedDB (some private modes) it keeps its rows in memory only and says so
 * (`durable: false`).
 */

export const LEDGER_DATABASE = "checkpoint-lab-ledger";
const SCHEMA_VERSION = 1;
const REQUESTS = "requests"; // one row per request received, key path "seq"

/**
 * @typedef {object} LedgerRow one request a service of the outside world received
 * @property {number} seq                1, 2, ... in arrival order (decided by Python; unique)
 * @property {string} kind               the operation (its profile's kind)
 * @property {string} id                 the receipt: the operation's prefix and number, "ch_0001" (a replay
 *                                       repeats the original's)
 * @property {string | null} idempotency_key
 * @property {boolean} replayed          Python decided the key was seen before: nothing happened again
 * @property {string} purpose
 * @property {number} amount_cents       0 for a replay and for an operation that moves no money
 * @property {string} thread_id
 * @property {string} node
 * @property {string} task_id
 * @property {string} checkpoint_id      the checkpoint the calling step started from
 * @property {number} at                 when Python made the request, ms since 1970
 * @property {number | null} worker      the lab worker that sent it (given by the ledger)
 */

/** @typedef {{change: "recorded", entry: LedgerRow} | {change: "cleared"} |
 *            {change: "closed", reason: "versionchange"}} LedgerChange */

export class Ledger {
  /** @type {LedgerRow[]} the rows when there is no database (memory only) */
  #rows = [];
  /** @type {Set<(change: LedgerChange) => void>} */
  #listeners = new Set();
  /** @type {Promise<IDBDatabase | null>} null: memory only */
  #db;
  /** @type {Promise<unknown>} the call being handled; the next one waits for it */
  #queue;

  /** Open (or create) the ledger's database; calls wait until its rows are loaded. */
  constructor(name = LEDGER_DATABASE) {
    this.#db = this.#load(name);
    this.#queue = this.#db;
  }

  /**
   * Resolves once the ledger has loaded.
   * @returns {Promise<{durable: boolean, database: string | null}>} durable: false without IndexedDB
   */
  async ready() {
    const db = await this.#db;
    return { durable: db !== null, database: db?.name ?? null };
  }

  /**
   * Listen to the ledger: every recorded request and every clear.
   * @param {(change: LedgerChange) => void} listener
   * @returns {() => void} call it to stop listening
   */
  onChange(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** @returns {Promise<LedgerRow[]>} every request received (by any tab), oldest first */
  entries() {
    return this.#serially(async () => {
      const db = await this.#db;
      return db ? settle(db.transaction(REQUESTS).objectStore(REQUESTS).getAll()) : structuredClone(this.#rows);
    });
  }

  /**
   * Store one request as Python decided it, at its place `seq` in arrival order.
   * @param {Omit<LedgerRow, "worker">} request
   * @param {{worker?: number}} [origin]
   * @returns {Promise<LedgerRow>} the row as stored
   * @throws {DOMException} `ConstraintError` when `seq` is taken: decided over stale rows
   */
  record(request, origin = {}) {
    return this.#serially(async () => {
      if (!Number.isInteger(request.seq) || request.seq < 1) {
        throw new TypeError(`a ledger row needs its place in arrival order, seq >= 1 (got ${request.seq})`);
      }
      const row = { ...request, worker: origin.worker ?? null };
      const db = await this.#db;
      if (db) {
        const tx = db.transaction(REQUESTS, "readwrite");
        tx.objectStore(REQUESTS).add(row); // the key "seq": another tab's row at this place aborts it
        await committed(tx); // durable before anyone is told
      } else if (this.#rows.some((kept) => kept.seq === row.seq)) {
        throw new DOMException(`row ${row.seq} is recorded already`, "ConstraintError");
      } else {
        this.#rows.push(row);
      }
      this.#notify({ change: "recorded", entry: structuredClone(row) });
      return structuredClone(row);
    });
  }

  /** Forget every request (the lab's reset). */
  clear() {
    return this.#serially(async () => {
      const db = await this.#db;
      if (db) {
        const tx = db.transaction(REQUESTS, "readwrite");
        tx.objectStore(REQUESTS).clear();
        await committed(tx);
      }
      this.#rows = [];
      this.#notify({ change: "cleared" });
    });
  }

  /**
   * Serve one call of Python's PageWorld: `op` is "entries", "record" or "clear".
   * @param {string} op
   * @param {object} args
   * @param {{worker?: number}} [origin]
   */
  async handle(op, args, origin = {}) {
    if (op === "entries") return this.entries();
    if (op === "record") return this.record(args, origin);
    if (op === "clear") return this.clear().then(() => null);
    throw new Error(`the ledger has no operation ${JSON.stringify(op)}`);
  }

  /** Run `work` after every earlier call has been handled. */
  #serially(work) {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => {});
    return result;
  }

  /** @param {LedgerChange} change */
  #notify(change) {
    for (const listener of this.#listeners) listener(change);
  }

  /** Close the database connection (so the lab's storage can be deleted); the ledger is unusable after. */
  async close() {
    (await this.#db)?.close();
  }

  /** @returns {Promise<IDBDatabase | null>} the open database, or null (memory only) */
  async #load(name) {
    let db;
    try {
      db = await openDatabase(name);
    } catch (error) {
      console.warn(`IndexedDB unavailable (${error?.message ?? error}); the ledger lives in memory`);
      return null;
    }
    db.addEventListener("versionchange", () => {
      db.close(); // another tab upgrades the database: let it, and say so
      this.#notify({ change: "closed", reason: "versionchange" });
    });
    return db;
  }
}

/** @returns {Promise<IDBDatabase>} */
function openDatabase(name) {
  const request = indexedDB.open(name, SCHEMA_VERSION);
  request.addEventListener("upgradeneeded", ({ oldVersion }) => {
    if (oldVersion < 1) request.result.createObjectStore(REQUESTS, { keyPath: "seq" });
  });
  return settle(request);
}

/** @param {IDBRequest} request @returns {Promise<any>} its result */
function settle(request) {
  return new Promise((resolve, reject) => {
    request.addEventListener("success", () => resolve(request.result));
    request.addEventListener("error", () => reject(request.error));
  });
}

/** @param {IDBTransaction} tx @returns {Promise<void>} resolves once the data is durable */
function committed(tx) {
  return new Promise((resolve, reject) => {
    tx.addEventListener("complete", () => resolve());
    tx.addEventListener("abort", () => reject(tx.error ?? new Error("the ledger's transaction was aborted")));
  });
}
