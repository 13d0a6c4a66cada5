/**
 * The branch tree of the thread (from the controller's `branches` command): its checkpoints grouped
 * by parent, each branch (root → leaf) one click away, the head (the newest checkpoint, where a plain
 * Run continues) marked. Switching a branch points the time-travel scrubber at that branch's frames.
 */
import { t } from "../i18n.mjs";
import { h, replace, shortId } from "./dom.mjs";

export function mountBranches(root, { onBranch, onSelect }) {
  const list = h("ul", { class: "branch-list", id: "branch-list" });
  const tree = h("ul", { class: "tree", id: "branch-tree", "aria-label": "" });
  const empty = h("p", { class: "empty" });
  root.append(empty, list, tree);

  function render(model) {
    const data = model.tree;
    const branches = data?.branches ?? [];
    empty.hidden = branches.length > 0;
    empty.textContent = model.session ? t("branch.empty") : t("empty.noThread");
    tree.setAttribute("aria-label", t("branch.treeLabel"));
    if (!branches.length) { replace(list); replace(tree); return; }
    const current = model.branchLeaf ?? branches.find((b) => b.is_head)?.leaf ?? null;
    replace(list, ...branches.map((b, i) => {
      const label = t("branch.name", { n: i + 1 });
      const facts = [
        t("branch.frames", { count: b.path.length }),
        b.forked_at ? t("branch.forkedAt", { id: shortId(b.forked_at) }) : t("branch.original"),
      ];
      return h("li", { dataset: { leaf: b.leaf, head: b.is_head } },
        h("button", {
          type: "button",
          class: ["branch", b.is_head && "is-head"],
          "aria-pressed": String(b.leaf === current),
          dataset: { leaf: b.leaf },
          on: { click: () => onBranch(b.leaf) },
        }, label, b.is_head ? [" ", h("span", { class: "tag head", text: t("branch.head") })] : ""),
        h("span", { class: "facts", text: facts.join(" · ") }));
    }));

    const nodes = new Map(data.nodes.map((n) => [n.checkpoint_id, n]));
    const onCurrent = new Set(branches.find((b) => b.leaf === current)?.path ?? []);
    // A chip's accessible name starts with the words it shows (step, source, "head"), then says more.
    const chip = (n) => {
      const shown = [
        { class: "step", text: String(n.step) },
        n.source === "loop" ? null : { class: "src", text: n.source },
        n.is_head ? { class: "tag head", text: t("branch.head") } : null,
      ].filter(Boolean);
      return h("button", {
        type: "button",
        class: ["chip", n.is_head && "is-head", onCurrent.has(n.checkpoint_id) && "on-branch", n.checkpoint_id === model.selectedId && "selected"],
        title: `${n.checkpoint_id} · ${n.source}`,
        "aria-label": `${shown.map((part) => part.text).join(" ")}: ${t("branch.chip", { step: n.step, source: n.source, id: shortId(n.checkpoint_id) })}`,
        dataset: { checkpointId: n.checkpoint_id, source: n.source },
        on: { click: () => onSelect(n.checkpoint_id) },
      }, ...shown.flatMap((part, i) => [i ? " " : "", h("span", part)]));
    };
    const chain = (id) => {
      const items = [];
      let n = nodes.get(id);
      for (;;) {
        items.push(chip(n));
        if (n.children.length !== 1) break;
        items.push(h("span", { class: "arrow", "aria-hidden": "true", text: "→" }));
        n = nodes.get(n.children[0]);
      }
      const li = h("li", {}, h("div", { class: "chain" }, ...items));
      if (n.children.length > 1) li.append(h("ul", {}, ...n.children.map(chain)));
      return li;
    };
    replace(tree, ...data.nodes.filter((n) => !n.parent_id).map((n) => chain(n.checkpoint_id)));
  }

  return { render };
}
