/**
 * The case form (case, variant, durability, storage → Start; storage only where the graph offers
 * a choice) and the run controls (Step, Run, Resume, Approve,
 * Reject), with the officer's review question when the thread waits at an interrupt (`mountReview`).
 *
 * What is enabled, and why not, is Python's answer (`view().actions`, lab/controller/actions.py): a
 * disabled button carries the reason as its tooltip. The review box shows the open interrupt and
 * what this thread already bought (`view().review`). Take over shows only while another tab writes
 * the thread (thread-writer.mjs then steals the thread's lock).
 */
import { say, t } from "../i18n.mjs";
import { actionButton, relabel, showAction } from "./actions.mjs";
import { h, replace } from "./dom.mjs";

export function mountControls(root, actions) {
  const form = h("form", { class: "case-form", id: "case-form", "aria-labelledby": "case-heading" });
  const caseSelect = h("select", { id: "case-select", name: "case" });
  const caseLabel = h("label", { for: "case-select" });
  const caseInfo = h("p", { class: "case-info", id: "case-info" });
  const variantSet = h("fieldset", { class: "choice", id: "variant-choice" });
  const durabilitySet = h("fieldset", { class: "choice", id: "durability-choice" });
  const storageSet = h("fieldset", { class: "choice", id: "storage-choice", hidden: true });
  const start = actionButton("start", () => actions.start(readChoices()), { class: "primary" });
  form.append(h("div", { class: "field" }, caseLabel, caseSelect), caseInfo, variantSet, durabilitySet, storageSet, h("div", { class: "buttons" }, start));
  form.addEventListener("submit", (e) => { e.preventDefault(); actions.start(readChoices()); });
  form.addEventListener("change", () => actions.choose(readChoices()));

  const sessionFacts = h("p", { class: "thread-facts", id: "thread-facts" });
  const step = actionButton("step", () => actions.step());
  const run = actionButton("run", () => actions.run());
  const resume = actionButton("resume", () => actions.resume());
  const approve = actionButton("approve", () => actions.answer(true), { class: "approve" });
  const reject = actionButton("reject", () => actions.answer(false), { class: "reject" });
  const takeOver = actionButton("take_over", () => actions.takeOver(), { class: "suggested", id: "action-take-over" });
  const toolbar = h("div", { class: "toolbar", role: "toolbar", id: "run-toolbar" }, step, run, resume, approve, reject, takeOver);
  const review = mountReview(h("div", { class: "review", id: "review", hidden: true }));
  const runBox = h("div", { class: "run-box" }, sessionFacts, toolbar, review.root);
  root.append(form, runBox);

  let lang = null;
  let catalogDrawn = null;

  function readChoices() {
    return {
      case: caseSelect.value,
      variant: form.querySelector('input[name="variant"]:checked')?.value,
      durability: form.querySelector('input[name="durability"]:checked')?.value,
      storage: form.querySelector('input[name="storage"]:checked')?.value,
    };
  }

  function radios(fieldset, name, values, checked, describe) {
    replace(fieldset, h("legend", { text: t(`form.${name}`) }), ...values.map((value) =>
      h("label", { class: "radio", dataset: { [name]: value } },
        h("input", { type: "radio", name, value, checked: value === checked }),
        h("span", {}, h("b", { text: t(`${name}.${value}`) }), h("small", { text: describe(value) })))));
  }

  function render(model) {
    const catalog = model.catalog;
    const choices = model.choices;
    if (catalog && (catalog !== catalogDrawn || lang !== model.lang)) {
      catalogDrawn = catalog;
      lang = model.lang;
      caseLabel.textContent = t("form.case");
      replace(caseSelect, ...catalog.cases.map((c) =>
        h("option", { value: c.id, text: `${c.id} · ${say(c.say.title)}`, selected: c.id === choices.case })));
      radios(variantSet, "variant", catalog.variants, choices.variant, (v) => t(`variant.${v}.about`));
      radios(durabilitySet, "durability", catalog.durabilities, choices.durability, (d) => t(`durability.${d}.about`));
      radios(storageSet, "storage", catalog.storages, choices.storage, (s) => t(`storage.${s}.about`));
      storageSet.hidden = catalog.storages.length < 2; // a graph with nothing to opt in to DeltaChannel
      for (const b of [start, step, run, resume, approve, reject, takeOver]) relabel(b, t(`action.${b.dataset.action}`));
    }
    if (catalog) {
      if (caseSelect.value !== choices.case && choices.case) caseSelect.value = choices.case;
      for (const name of ["variant", "durability", "storage"]) {
        const input = form.querySelector(`input[name="${name}"][value="${choices[name]}"]`);
        if (input && !input.checked) input.checked = true;
      }
      const c = catalog.cases.find((x) => x.id === caseSelect.value);
      caseInfo.textContent = c?.say?.info ? say(c.say.info) : "";
    }

    const busy = Boolean(model.busy) || model.process !== "ready";
    const session = model.session;
    const actions = model.actions ?? {};
    showAction(start, actions.start, busy || !catalog);
    for (const [button, name] of [[step, "step"], [run, "run"], [resume, "resume"], [approve, "approve"], [reject, "reject"]]) {
      showAction(button, actions[name], busy);
    }
    resume.classList.toggle("suggested", model.status?.action === "resume" && !resume.disabled);
    takeOver.hidden = !actions.take_over?.enabled; // only while another tab writes this thread
    showAction(takeOver, actions.take_over, busy);

    sessionFacts.textContent = session
      ? t("run.facts", {
          thread: session.thread_id,
          case: session.case_id,
          variant: t(`variant.${session.variant}`),
          durability: t(`durability.${session.durability}`),
        })
      : t("empty.noThread");
    sessionFacts.classList.toggle("empty", !session);

    review.render(model);
  }

  return { render, readChoices };
}

/**
 * The review question while the thread waits at an interrupt (`view().review`): the open
 * interrupt's question and facts, and the profile's warning or what this thread already did, in Python's words. Shown under the run controls, and beside a
 * lesson step that names it.
 * @param {HTMLElement} root where it is drawn (hidden while nothing is asked)
 */
export function mountReview(root) {
  function render(model) {
    const asked = model.review;
    root.hidden = !asked;
    if (!asked) return;
    const value = asked.request ?? {};
    const facts = asked.say?.facts ?? [];
    const bought = asked.already_done ?? [];
    replace(root,
      h("h3", { text: t("review.heading") }),
      h("p", { class: "question", text: asked.say ? say(asked.say.question) : value.question ?? "" }),
      facts.length ? h("dl", { class: "facts" },
        ...facts.flatMap((fact) => [h("dt", { text: say(fact.label) }), h("dd", { text: say(fact.value) })])) : "",
      asked.say?.warning
        ? h("p", { class: "warning", text: say(asked.say.warning) })
        : bought.length
          ? h("p", { class: "warning", text: t("review.exportBoughtBefore", { ids: bought.join(", ") }) })
          : h("p", { class: "muted", text: t("review.noExport") }),
      h("p", { class: "muted", text: t("review.hint") }));
  }

  return { root, render };
}
