/**
 * Execution counts: how often each node ran over the thread's life, and - for the last run that
 * picked the thread up (resume, continue, answer) - which tasks were restored from pending writes and
 * which re-ran. Everything comes from the controller's `executions` command (its journal). Under a
 * node, a row per `@task` it called in its latest execution: ran, or restored from the checkpoint
 * (the view's `task_calls`, lab/controller/task_rows.py, with Python's reason).
 */
import { say, t } from "../i18n.mjs";
import { h, replace } from "./dom.mjs";

export function mountExecutions(root) {
  const summary = h("p", { class: "resume-summary", id: "resume-summary", role: "status", "aria-live": "polite" });
  const table = h("table", { class: "executions", id: "executions-table" });
  const runs = h("ol", { class: "runs", id: "runs" });
  const empty = h("p", { class: "empty" });
  root.append(empty, summary, table, h("h3", { class: "small", id: "runs-heading" }), runs);

  function render(model) {
    const report = model.executions;
    const nodes = (model.graph?.nodes ?? []).filter((n) => n.kind === "node").map((n) => n.id);
    empty.hidden = Boolean(model.session);
    empty.textContent = t("empty.noThread");
    table.hidden = !model.session;
    root.querySelector("#runs-heading").textContent = t("exec.runs");
    root.querySelector("#runs-heading").hidden = !report?.runs?.length;
    if (!model.session) {
      summary.textContent = "";
      replace(runs);
      replace(table);
      return;
    }
    const last = report?.last_resume;
    const restored = new Set(last?.restored ?? []);
    const rerun = new Set(last?.rerun ?? []);
    replace(table,
      h("caption", { text: t("exec.caption") }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("exec.col.node") }),
        h("th", { scope: "col", text: t("exec.col.started") }),
        h("th", { scope: "col", text: t("exec.col.finished") }),
        h("th", { scope: "col", text: t("exec.col.lastResume") }))),
      h("tbody", {}, ...nodes.flatMap((node) => {
        const c = report?.nodes?.[node] ?? { started: 0, finished: 0 };
        const verdict = restored.has(node) ? "restored" : rerun.has(node) ? "rerun" : null;
        const row = h("tr", { dataset: { node, started: c.started, finished: c.finished, resume: verdict ?? "" } },
          h("th", { scope: "row" }, h("code", { text: node })),
          h("td", { class: "num count", text: String(c.started) }),
          h("td", { class: "num", text: String(c.finished) }),
          h("td", {}, verdict ? h("span", { class: `verdict ${verdict}`, text: t(`exec.${verdict}`) }) : "—"));
        return [row, ...(model.task_calls?.[node] ?? []).map((call) => taskRow(node, call))];
      })));
    if (last) {
      const list = (items) => (items.length ? items.join(", ") : t("exec.nothing"));
      summary.textContent = t("exec.summary", {
        run: last.run,
        kind: t(`run.kind.${last.kind}`),
        step: last.step ?? "—",
        restored: list(last.restored ?? []),
        rerun: list(last.rerun ?? []),
      });
    } else {
      summary.textContent = t("exec.noResume");
    }
    replace(runs, ...(report?.runs ?? []).map((r) =>
      h("li", { dataset: { run: r.run, status: r.status } },
        t("exec.run", { run: r.run, kind: t(`run.kind.${r.kind}`), durability: r.durability, status: t(`run.status.${r.status}`) }))));
  }

  return { render };
}

/** A task the node called: its name and id, and what became of it (ran, restored, ...) with Python's reason. */
function taskRow(node, call) {
  const label = t("exec.task", { name: call.name, node, id: call.task_id });
  return h("tr", { class: "task-call", dataset: { caller: node, task: call.name, taskId: call.task_id, state: call.state } },
    h("th", { scope: "row", class: "task-name", title: label }, "↳ ", h("code", { text: call.name })),
    h("td", { colspan: "2" }, h("code", { class: "task-id", title: call.task_id, text: call.task_id.slice(0, 8) })),
    h("td", {}, h("span", { class: `verdict ${call.state}`, text: t(`exec.task.${call.state}`) }),
      " ", h("span", { class: "task-reason", text: say(call.reason) })));
}
