/**
 * One write transaction of the lab's IndexedDB checkpoint saver, made in a single call from Python.
 *
 * The saver (lab/checkpoint/indexeddb.py) decides everything: which rows go to which store, with
 * put() or add(), and whether the transaction may commit at once. Crossing from Python into
 * JavaScript costs more in Pyodide than an IndexedDB request, so it hands over the whole transaction
 * at once - each store's field names and its rows as plain arrays - and this module only makes the
 * requests. worker.mjs puts the module on the worker's global scope as `labIndexedDBWrites`.
 */

/**
 * A request's error event: an add() that found a record with its key keeps that record (first write
 * wins). Cancelling the event stops it from aborting the transaction; stopping its propagation keeps
 * it from the database. Any other error is left alone: it aborts the transaction.
 * @param {Event & { target: IDBRequest }} event
 */
function keepExisting(event) {
  if (event.target.error?.name === "ConstraintError") {
    event.preventDefault();
    event.stopPropagation();
  }
}

/**
 * A row as the record IndexedDB stores: `fields[i]` is `row[i]`, and a serialized value, which
 * arrives as the array `[type, bytes]`, becomes `{ type, bytes }` (no other field is an array).
 * @param {string[]} fields
 * @param {unknown[]} row
 */
function toRecord(fields, row) {
  /** @type {Record<string, unknown>} */
  const record = {};
  fields.forEach((field, index) => {
    const value = row[index];
    record[field] = Array.isArray(value) ? { type: value[0], bytes: value[1] } : value;
  });
  return record;
}

/**
 * @typedef {[store: string, method: "put" | "add", fields: string[], rows: unknown[][]]} Batch
 * @typedef {[event: "complete"] | [event: "abort", errorName: string, message: string]} Outcome
 */

/**
 * Make every request of one readwrite transaction (relaxed durability), synchronously, and resolve
 * once it ends. The promise never rejects (Pyodide cannot await every DOMException a rejection may
 * carry): an aborted transaction resolves to ["abort", name, message]. A request IndexedDB refuses
 * at once (a DataError) aborts the transaction and throws.
 * @param {IDBDatabase} db
 * @param {string[]} storeNames every store the batches write to
 * @param {Batch[]} batches
 * @param {boolean} commitAtOnce call commit() after the last request (not when an add() may fail on
 *   purpose: Chromium aborts a transaction already committing when one does)
 * @returns {Promise<Outcome>}
 */
export function writeRows(db, storeNames, batches, commitAtOnce) {
  const tx = db.transaction(storeNames, "readwrite", { durability: "relaxed" });
  const ended = new Promise((resolve) => {
    tx.oncomplete = () => resolve(["complete"]);
    tx.onabort = () =>
      resolve(["abort", tx.error?.name ?? "AbortError", tx.error?.message ?? "the transaction was aborted"]);
  });
  tx.onerror = keepExisting;
  try {
    for (const [store, method, fields, rows] of batches) {
      const objectStore = tx.objectStore(store);
      for (const row of rows) objectStore[method](toRecord(fields, row));
    }
    if (commitAtOnce) tx.commit();
  } catch (error) {
    tx.abort(); // drop the requests already made
    throw error;
  }
  return ended;
}
