/**
 * The lab's IndexedDB databases, and how the page deletes them all (LabSession.wipeStorage, the way
 * back that needs no Python). LangGraph keeps a saver's records in a database; the lab keeps three.
 */
import { LEDGER_DATABASE } from "./ledger.mjs";

/** Every IndexedDB database the lab writes: the platform's, the threads' (checkpoints, journal), the ledger's. */
export const LAB_DATABASES = Object.freeze(["checkpoint-lab", "checkpoint-lab-threads", LEDGER_DATABASE]);

/** @returns {Promise<void>} resolves once every lab database is gone */
export function deleteLabDatabases() {
  return Promise.all(LAB_DATABASES.map(deleteDatabase)).then(() => {});
}

/** @param {string} name @returns {Promise<void>} resolves once the database is gone */
function deleteDatabase(name) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.addEventListener("success", () => resolve());
    request.addEventListener("error", () => reject(request.error));
  });
}
