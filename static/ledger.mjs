/**
 * The ledger: the AML graph's paid transaction-graph API and SAR registry, kept by the page.
 *
 * The graph runs in a Web Worker that the lab kills on purpose. Money a node has spent is not given
 * back when its process dies, so the external world cannot live in that process: Python's
 * `PageWorld` (lab/browser/page_world.py) sends each call here, and the ledger records it in an
 * IndexedDB database of its own ("checkpoint-lab-ledger") before it answers. The ledger survives
 * a crash, a reload and the worker's termination; the lab's checkpoints live elsewhere.
 *
 * Idempotency keys work like Stripe's: the first request with a key is executed and its receipt
 * kept; a later request with the same key gets that receipt back with `replayed: true`, and no
 * money moves; the same key with different parameters is refused (IdempotencyError). A request
 * without a key always executes. Every request is a row, replayed or not:
 *
 *   {seq, kind: "charge" | "sar", id, idempotency_key, replayed, purpose, amount_cents,
 *    thread_id, node, task_id, checkpoint_id, at, worker[, case_id, report]}
 *
 * `at` is when the request arrived (ms since 1970), `worker` which lab worker sent it (LabSession
 * numbers them), `checkpoint_id` the frame whose step made it. The ledger only records; what the
 * rows mean to a learner (each request's attempt, the "charged ×2" flag of a side effect placed
 * before interrupt(), totals) is worked out in one place, Python's
 * `lab.controller.world.annotate_ledger`, which the page reads through the controller's `ledger`
 * command.
 *
 * Requests are handled one at a time, in arrival order (like a single-threaded API server); the
 * ledger keeps a copy of its rows in memory and writes each new row before it answers. It assumes
 * one lab tab at a time, as the lab itself does. Without IndexedDB (some private modes) it keeps
 * its rows in memory only and says so (`durable: false`).
 */

export const LEDGER_DATABASE = "checkpoint-lab-ledger";
const SCHEMA_VERSION = 1;
const REQUESTS = "requests"; // one row per request received, key path "seq"

const RECEIPT_PREFIX = { charge: "ch", sar: "sar" };

/** A key reused with different parameters (Stripe answers HTTP 400). */
export class IdempotencyError extends Error {
  name = "IdempotencyError";
}

/**
 * @typedef {object} LedgerRow one request the API or the registry received
 * @property {number} seq                1, 2, ... in arrival order
 * @property {"charge" | "sar"} kind
 * @property {string} id                 the receipt: "ch_0001", "sar_0001" (a replay repeats the original's)
 * @property {string | null} idempotency_key
 * @property {boolean} replayed          the key was seen before: nothing was charged or filed
 * @property {string} purpose
 * @property {number} amount_cents       0 for a replay and for a filing
 * @property {string} thread_id
 * @property {string} node
 * @property {string} task_id
 * @property {string} checkpoint_id      the checkpoint the calling step started from
 * @property {number} at                 arrival time, ms since 1970
 * @property {number | null} worker      the lab worker that sent it
 * @property {string} [case_id]          filings
 * @property {object} [report]           filings: the SAR as filed
 */


/** @typedef {{change: "recorded", entry: LedgerRow} | {change: "cleared"}} LedgerChange */

export class Ledger {
  /** @type {LedgerRow[]} */
  #rows = [];
  /** @type {Map<string, LedgerRow>} "kind key" -> the row that executed that idempotency key */
  #executed = new Map();
  /** @type {Set<(change: LedgerChange) => void>} */
  #listeners = new Set();
  /** @type {Promise<IDBDatabase | null>} null: memory only */
  #db;
  /** @type {Promise<unknown>} the request being handled; the next one waits for it */
  #queue;

  /** Open (or create) the ledger's database; requests wait until its rows are loaded. */
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
   * Listen to the ledger: every recorded request (already flagged) and every clear.
   * @param {(change: LedgerChange) => void} listener
   * @returns {() => void} call it to stop listening
   */
  onChange(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** @returns {Promise<LedgerRow[]>} every request received, oldest first */
  async entries() {
    await this.#queue;
    return structuredClone(this.#rows);
  }

  /**
   * The paid API: charge `amount_cents` for `purpose`.
   * @param {{idempotency_key: string | null, thread_id: string, node: string, task_id: string,
   *          checkpoint_id: string, amount_cents: number, purpose: string}} request
   * @param {{worker?: number}} [origin]
   * @returns {Promise<object>} the receipt, as Python's ChargeReceipt
   */
  charge(request, origin = {}) {
    return this.#serially(async () => {
      const row = await this.#record("charge", request, origin, {
        purpose: request.purpose,
        amount_cents: request.amount_cents,
      });
      const original = this.#original(row);
      return {
        receipt_id: original.id,
        idempotency_key: original.idempotency_key,
        amount_cents: original.amount_cents,
        purpose: original.purpose,
        ...site(original),
        replayed: row.replayed,
      };
    });
  }

  /**
   * The SAR registry: file `report` for `case_id`.
   * @param {{idempotency_key: string | null, thread_id: string, node: string, task_id: string,
   *          checkpoint_id: string, case_id: string, report: object}} request
   * @param {{worker?: number}} [origin]
   * @returns {Promise<object>} the receipt, as Python's FilingReceipt
   */
  fileSar(request, origin = {}) {
    return this.#serially(async () => {
      const row = await this.#record("sar", request, origin, {
        purpose: `SAR for ${request.case_id}`,
        amount_cents: 0,
        case_id: request.case_id,
        report: request.report,
      });
      const original = this.#original(row);
      return {
        sar_id: original.id,
        idempotency_key: original.idempotency_key,
        case_id: original.case_id,
        ...site(original),
        replayed: row.replayed,
      };
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
      this.#executed.clear();
      this.#notify({ change: "cleared" });
    });
  }

  /**
   * Serve one call of Python's PageWorld: `op` is "charge", "file_sar", "entries" or "clear".
   * @param {string} op
   * @param {object} args
   * @param {{worker?: number}} [origin]
   */
  async handle(op, args, origin = {}) {
    if (op === "charge") return this.charge(args, origin);
    if (op === "file_sar") return this.fileSar(args, origin);
    if (op === "entries") return this.entries();
    if (op === "clear") return this.clear().then(() => null);
    throw new Error(`the ledger has no operation ${JSON.stringify(op)}`);
  }

  /** Run `work` after every earlier request has been handled. */
  #serially(work) {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => {});
    return result;
  }

  /**
   * Decide what a request does (execute, or replay its key's receipt), write its row, then keep it.
   * @param {"charge" | "sar"} kind
   * @returns {Promise<LedgerRow>}
   */
  async #record(kind, request, origin, details) {
    const key = request.idempotency_key ?? null;
    const original = key === null ? undefined : this.#executed.get(keyOf({ kind, idempotency_key: key }));
    if (original) sameParameters(original, details);
    const executed = this.#rows.filter((row) => row.kind === kind && !row.replayed).length;
    const row = {
      seq: this.#rows.length + 1,
      kind,
      id: original ? original.id : `${RECEIPT_PREFIX[kind]}_${String(executed + 1).padStart(4, "0")}`,
      idempotency_key: key,
      replayed: Boolean(original),
      ...details,
      amount_cents: original ? 0 : details.amount_cents,
      ...site(request),
      at: Date.now(),
      worker: origin.worker ?? null,
    };
    const db = await this.#db;
    if (db) {
      const tx = db.transaction(REQUESTS, "readwrite");
      tx.objectStore(REQUESTS).add(row);
      await committed(tx); // durable before anyone is told
    }
    this.#rows.push(row);
    if (key !== null && !original) this.#executed.set(keyOf(row), row);
    this.#notify({ change: "recorded", entry: structuredClone(row) });
    return row;
  }

  /** The row that executed `row`'s idempotency key (the row itself unless it was a replay). */
  #original(row) {
    return row.replayed ? this.#executed.get(keyOf(row)) : row;
  }

  /** @param {LedgerChange} change */
  #notify(change) {
    for (const listener of this.#listeners) listener(change);
  }

  /** Close the database connection (so the lab's storage can be deleted); the ledger is unusable after. */
  async close() {
    (await this.#db)?.close();
  }

  /** @returns {Promise<IDBDatabase | null>} the open database with its rows loaded, or null */
  async #load(name) {
    let db;
    try {
      db = await openDatabase(name);
    } catch (error) {
      console.warn(`IndexedDB unavailable (${error?.message ?? error}); the ledger lives in memory`);
      return null;
    }
    this.#rows = await settle(db.transaction(REQUESTS).objectStore(REQUESTS).getAll());
    for (const row of this.#rows) {
      if (row.idempotency_key !== null && !row.replayed) this.#executed.set(keyOf(row), row);
    }
    return db;
  }
}

/** Idempotency keys are per kind of request, as the API and the registry are two services. */
const keyOf = (row) => `${row.kind} ${row.idempotency_key}`;

/** Where a request came from: what the ledger records next to each charge. */
const site = ({ thread_id, node, task_id, checkpoint_id }) => ({ thread_id, node, task_id, checkpoint_id });

/** Refuse a key reused with other parameters, as Stripe does. */
function sameParameters(original, details) {
  for (const name of ["amount_cents", "purpose", "case_id"]) {
    if (name in details && original[name] !== details[name]) {
      throw new IdempotencyError(
        "Keys for idempotent requests can only be used with the same parameters they were first used " +
          `with (${name}: ${JSON.stringify(original[name])} then ${JSON.stringify(details[name])}).`,
      );
    }
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
