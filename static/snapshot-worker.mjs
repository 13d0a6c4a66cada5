/**
 * A throwaway Web Worker that stores this build's Pyodide memory snapshot for return visits
 * (pyodide-boot.mjs says how and why): told `{shipped}` (whether this visit downloaded the shipped
 * snapshot), it posts `{snapshot: "present" | "made", ...}` or `{snapshot: "failed", error}`, and is
 * done. LabSession starts it once the lab's first worker is ready, so it never competes with that boot.
 */
import { errorInfo } from "./protocol.mjs";
import { makeSnapshot } from "./pyodide-boot.mjs";

self.addEventListener(
  "message",
  ({ data }) =>
    makeSnapshot(data).then(
      (outcome) => self.postMessage(outcome),
      (error) => self.postMessage({ snapshot: "failed", error: errorInfo(error) }),
    ),
  { once: true },
);
