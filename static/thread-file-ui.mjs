/**
 * Whole threads: a thread written to a file and read back, and a damaged thread dropped (issue 10);
 * the same file exported for LangGraph, with the commands that continue it there (issue 26,
 * langgraph-dialog.mjs). Python writes and validates the file and decides what is damaged
 * (lab/controller/thread_commands.py); the page only downloads the file it is given, sends the one the
 * learner chose, and notes the outcome in the threads panel (`model.threadNote`).
 */
import { t } from "./i18n.mjs";
import { createLangGraphDialog } from "./langgraph-dialog.mjs";
import { h } from "./views/dom.mjs";

/**
 * @param {{model: object, act: (name: string, args?: object, options?: object) => Promise<any>,
 *          render: () => void}} page
 */
export function createThreadFileActions({ model, act, render }) {
  let exportUrl = null;
  const langgraph = createLangGraphDialog();
  /** Download the open thread's file (Python writes it: checkpoints, writes, journal, ledger). */
  async function exportThread(label = "export_thread") {
    const file = await act("export_thread", {}, { label });
    if (!file) return null;
    if (exportUrl) URL.revokeObjectURL(exportUrl);
    const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
    exportUrl = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
    h("a", { href: exportUrl, download: file.file_name }).click();
    model.threadNote = () => t("threads.exported", { name: file.file_name, size: file.size });
    render();
    return file;
  }

  /** Download the file, then show the commands that continue its thread in real LangGraph. */
  async function exportForLangGraph(opener) {
    const variant = model.session?.variant;
    const file = await exportThread("export_langgraph");
    if (file) langgraph.show(file, variant, opener);
  }

  /** Send a chosen file to Python, which validates it whole before it stores anything. A file over
   * Python's limit is not even read: Python refuses it by its `size`. */
  async function importThread(file) {
    const limit = model.catalog?.limits?.thread_file_bytes ?? file.size;
    const bytes = file.size > limit ? new Uint8Array() : new Uint8Array(await file.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    Object.assign(model, { selectedId: null, detail: null, follow: true, branchLeaf: null });
    const done = await act("import_thread", { data: btoa(binary), size: file.size }, { label: "import_thread" });
    if (!done) return;
    model.threadNote = () => t("threads.imported", { thread: done.session.thread_id, ...done.imported });
    render();
  }

  /** Delete a saved thread's rows (offered for a thread whose records no longer load). */
  async function dropThread(threadId) {
    if (!(await act("drop", { thread_id: threadId }))) return;
    model.threadNote = () => t("threads.dropped", { thread: threadId });
    render();
  }

  return { exportThread: () => exportThread(), exportForLangGraph, importThread, dropThread };
}
