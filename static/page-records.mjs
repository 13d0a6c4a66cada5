/**
 * PageRecords: the records a worker without IndexedDB keeps in the page, which outlives the worker.
 *
 * Where the browser refuses IndexedDB (a cross-site iframe, some private modes), the lab's checkpoints
 * and journal cannot live in the Python worker: a crash is a real worker.terminate(), and the next
 * worker would find an empty thread. So Python's storage layer (lab/browser/page_storage.py,
 * page_journal.py) asks the page to keep its records, through lab/browser/page_records.py: the
 * events {type: "records", call, op, args}, answered with the worker command "records_reply".
 * LabSession serves them from one PageRecords.
 *
 * Like an IndexedDB object store, and nothing more: each store maps a key (an array of strings and
 * numbers) to a JSON record. What the records mean is decided in Python. Still memory: a reload
 * loses them.
 *
 *   read   {store, keys}      -> the record of each key, null where none
 *   read   {store, prefix}    -> every record whose key starts with prefix, in the order their keys
 *                                were first stored
 *   write  {changes}          -> null, once every change is applied, in order, in one go (atomic)
 *     change: {do: "put" | "add", store, key, record}   "add" keeps a record already under key
 *             {do: "delete", store, key} | {do: "delete_prefix", store, prefix} | {do: "clear", store}
 */

export class PageRecords {
  /** @type {Map<string, Map<string, {key: any[], record: any}>>} store -> key (as JSON) -> entry */
  #stores = new Map();

  /**
   * Serve one call of Python's PageRecords.
   * @param {string} op "read" or "write"
   * @param {object} args
   */
  handle(op, args) {
    if (op === "read") return args.keys ? args.keys.map((key) => this.#get(args.store, key)) : this.#withPrefix(args);
    if (op === "write") return this.#write(args.changes);
    throw new Error(`the page's records have no operation ${JSON.stringify(op)}`);
  }

  /** Forget every record (the lab's storage is wiped). */
  clear() {
    this.#stores.clear();
  }

  #store(name) {
    if (!this.#stores.has(name)) this.#stores.set(name, new Map());
    return this.#stores.get(name);
  }

  #get(store, key) {
    return this.#store(store).get(JSON.stringify(key))?.record ?? null;
  }

  #withPrefix({ store, prefix }) {
    return [...this.#store(store).values()].filter(({ key }) => startsWith(key, prefix)).map(({ record }) => record);
  }

  /** Check every change first, so that a bad one applies none (atomic), then apply them in order. */
  #write(changes) {
    for (const change of changes) {
      if (!CHANGES.has(change.do)) throw new TypeError(`unknown change ${JSON.stringify(change.do)}`);
    }
    for (const { do: what, store, key, prefix, record } of changes) {
      const entries = this.#store(store);
      const id = JSON.stringify(key);
      if (what === "put" || (what === "add" && !entries.has(id))) entries.set(id, { key, record });
      else if (what === "delete") entries.delete(id);
      else if (what === "delete_prefix") {
        for (const [kept, entry] of entries) if (startsWith(entry.key, prefix)) entries.delete(kept);
      } else if (what === "clear") entries.clear();
    }
    return null;
  }
}

const CHANGES = new Set(["put", "add", "delete", "delete_prefix", "clear"]);

/** @param {any[]} key @param {any[]} prefix */
function startsWith(key, prefix) {
  return prefix.length <= key.length && prefix.every((part, index) => part === key[index]);
}
