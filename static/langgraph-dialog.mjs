/**
 * "Export for LangGraph" (issue 26): the thread file downloads, and a dialog shows the three commands
 * that continue the thread in a Python process with real LangGraph (`python -m lab.interop`,
 * lab/interop.py; the AML graph compiled by LangGraph, lab/aml/on_langgraph.py), each with a Copy
 * button. The lab's Python package comes from this site (`/python/<hash>/…whl`, named by build.py in
 * the dialog's `data-pip-wheel`): the project is on no package index. Escape or Close closes the
 * dialog, and the focus goes back to the button that opened it.
 * tests/browser/test_langgraph_export.py runs exactly the text shown here.
 */
import { t } from "./i18n.mjs";

const $ = (selector) => document.querySelector(selector);

/**
 * The three commands for a POSIX shell (macOS, Linux, WSL), in a folder holding the thread file.
 * @param {{wheelUrl: string, fileName: string, threadId: string, variant: string}} thread
 * @returns {{install: string, store: string, resume: string}}
 */
export function langgraphCommands({ wheelUrl, fileName, threadId, variant }) {
  const thread = JSON.stringify(threadId); // a JSON string is a Python string literal
  return {
    install: `pip install "checkpoint-lab[interop] @ ${wheelUrl}"`,
    store: `python -m lab.interop to-langgraph ${fileName} --sqlite checkpoints.db`,
    resume: [
      "python - <<'EOF'",
      "import asyncio",
      "from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver",
      "from langgraph.types import Command",
      "from lab.aml.on_langgraph import aml_graph",
      "",
      `config = {"configurable": {"thread_id": ${thread}}}`,
      "",
      "async def main():",
      '    async with AsyncSqliteSaver.from_conn_string("checkpoints.db") as saver:',
      `        with aml_graph(${JSON.stringify(variant)}, saver, ${thread}) as graph:`,
      "            state = await graph.aget_state(config)",
      '            print("next:", state.next)',
      '            answer = Command(resume={"approved": True}) if state.interrupts else None',
      "            values = await graph.ainvoke(answer, config)",
      '            print(values.get("outcome") or values.get("__interrupt__"))',
      "",
      "asyncio.run(main())",
      "EOF",
    ].join("\n"),
  };
}

/** Wire the dialog of `_lab.html`; `show` fills it for one exported file and opens it. */
export function createLangGraphDialog() {
  const dialog = $("#langgraph-dialog");
  const status = $("#langgraph-copied");
  let opener = null;
  dialog?.addEventListener("close", () => {
    status.textContent = "";
    opener?.focus();
    opener = null;
  });
  $("#langgraph-close")?.addEventListener("click", () => dialog.close());
  for (const button of dialog?.querySelectorAll("[data-copy]") ?? []) {
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText($(`#${button.dataset.copy}`).textContent);
        status.textContent = t("langgraph.copied");
      } catch {
        status.textContent = t("langgraph.copyFailed");
      }
    });
  }

  /**
   * @param {{file_name: string, thread_id: string}} file what `export_thread` answered
   * @param {string} variant the graph variant the thread runs
   * @param {HTMLElement | null} from the control that gets the focus back on close
   */
  function show(file, variant, from) {
    if (!dialog) return;
    const wheelUrl = new URL(dialog.dataset.pipWheel, location.href).href;
    const commands = langgraphCommands({ wheelUrl, fileName: file.file_name, threadId: file.thread_id, variant });
    for (const [step, text] of Object.entries(commands)) $(`#langgraph-${step}`).textContent = text;
    $("#langgraph-body").textContent = t("langgraph.body", { name: file.file_name });
    opener = from;
    dialog.showModal();
    $("#langgraph-close").focus();
  }

  return { show };
}
