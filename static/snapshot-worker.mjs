/**
 * A throwaway Web Worker that stores this build's Pyodide memory snapshot, inflated, for return visits
 * (pyodide-boot.mjs says how and why), posts `{snapshot: "present" | "made", ...}` or
 * `{snapshot: "failed", error}`, and is done. LabSession starts it once the lab's first worker is
 * ready, so it never competes with that boot.
 */
import { errorInfo } from "./protocol.mjs";
import { makeSnapshot } from "./pyodide-boot.mjs";

makeSnapshot().then(
  (outcome) => self.postMessage(outcome),
  (error) => self.postMessage({ snapshot: "failed", error: errorInfo(error) }),
);
