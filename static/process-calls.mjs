/**
 * The page's answers to what a Python process asks of it: calls to the external world (the services
 * a graph calls, answered from the Ledger, ledger.mjs) and, for a worker without IndexedDB, its
 * checkpoint records (kept in the page, page-records.mjs). LangGraph's nodes call the world directly;
 * in the lab the world lives in the page, so it outlives a killed process. A dead process gets no answer.
 */
import { errorInfo } from "./protocol.mjs";

/** @typedef {import("./python-process.mjs").PythonProcess} PythonProcess */
/** @typedef {import("./ledger.mjs").Ledger} Ledger */
/** @typedef {import("./page-records.mjs").PageRecords} PageRecords */

/**
 * Answer a call to the external world from the ledger.
 * @param {PythonProcess} process @param {Ledger} ledger @param {{call: number, op: string, args: object}} event
 */
export async function serveWorld(process, ledger, { call, op, args }) {
  let answer;
  try {
    answer = { call, ok: true, result: await ledger.handle(op, args, { worker: process.number }) };
  } catch (error) {
    answer = { call, ok: false, error: errorInfo(error) };
  }
  if (process.alive) process.client.request("world_reply", answer).catch(() => {});
}

/**
 * Answer a records call of any live process (a spare restores from them too).
 * @param {PythonProcess} process @param {PageRecords} records @param {{call: number, op: string, args: object}} event
 */
export function serveRecords(process, records, { call, op, args }) {
  if (!process.alive) return;
  let answer;
  try {
    answer = { call, ok: true, result: records.handle(op, args) };
  } catch (error) {
    answer = { call, ok: false, error: errorInfo(error) };
  }
  if (process.alive) process.client.request("records_reply", answer).catch(() => {});
}
