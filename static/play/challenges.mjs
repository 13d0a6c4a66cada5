/**
 * The playground's challenges: goal levels on the learner's own code, as Learn Git Branching's levels.
 *
 * A challenge (./challenges.json, written at build time from gallery/challenges/) opens its starting
 * program in the editor, with its goal, a hint and the lesson behind it. "Check my code" sends the
 * editor's program to the worker (`play_check {challenge, source}`, lab/browser/play_rpc.py): the
 * lab's checker (lab/playground/challenges.py) runs it in a controller of its own, crashes and resumes
 * it, and answers `{passed, say, problem}`: pass or fail with the reason, in the page's language; a
 * program that does not load is marked at its line as Run marks it. The playground's own thread is
 * not touched; Stop (./instruments.mjs) kills a worker stuck in a node that never returns, and the
 * check says it could not run. "Show solution" shows a program that passes; "Start over" puts the
 * start back.
 * `?challenge=<id>` opens one (the lessons link here); solved challenges are remembered in
 * localStorage and marked in the picker.
 */

import { lang, say, t } from "../i18n.mjs";

const SOLVED_KEY = "checkpoint-lab.play.solved";
const $ = (selector) => document.querySelector(selector);

/** @typedef {{id: string, lesson: string, title: Record<string, string>, goal: Record<string, string>,
 *   hint: Record<string, string>, start: string, solution: string}} Challenge */

/** @param {Record<string, string>} words a text per language */
const inLang = (words) => words[lang()] ?? words.en;

function solvedIds() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SOLVED_KEY) ?? "[]"));
  } catch {
    return new Set();
  }
}

function rememberSolved(id) {
  const solved = solvedIds().add(id);
  try {
    localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
  } catch {
    // storage refused (a framed page): the mark lasts until the page closes
  }
}

/**
 * @param {{challenges: Challenge[], editor: {getDoc(): string, setDoc(text: string): void},
 *   check: (id: string, source: string) => Promise<{passed: boolean, say: object, problem: object | null}>,
 *   showProblem: (problem: object | null) => void, onOpen: () => void}} options
 */
export function mountChallenges({ challenges, editor, check, showProblem, onOpen }) {
  const picker = $("#play-challenge");
  const box = $("#play-challenge-box");
  const result = $("#play-check-result");
  const solutionBox = $("#play-solution-box");
  /** @type {Challenge | null} */
  let open = null;
  /** @type {{passed: boolean, say: object} | {failed: string} | null} the last check's answer */
  let verdict = null;

  function fillPicker() {
    const solved = solvedIds();
    for (const option of [...picker.options].slice(1)) option.remove();
    for (const challenge of challenges) {
      const mark = solved.has(challenge.id) ? ` (✓ ${t("challenge.solved")})` : "";
      picker.add(new Option(inLang(challenge.title) + mark, challenge.id));
    }
    picker.value = open?.id ?? "";
  }

  function render() {
    fillPicker();
    box.hidden = !open;
    if (!open) return;
    $("#play-challenge-title").textContent = inLang(open.title);
    $("#play-challenge-goal").textContent = inLang(open.goal);
    $("#play-challenge-hint").textContent = inLang(open.hint);
    const lesson = $("#play-challenge-lesson");
    lesson.href = `/learn/${lang()}/${open.lesson}/`;
    $("#play-solution-code").textContent = open.solution;
    $("#play-solution").textContent = t(solutionBox.hidden ? "challenge.solution" : "challenge.hideSolution");
    result.hidden = !verdict;
    if (!verdict) return;
    result.dataset.passed = String(Boolean(verdict.passed));
    result.textContent = "failed" in verdict ? t("challenge.failed", { message: verdict.failed }) : say(verdict.say);
  }

  /** Open challenge `id` (null: none); its starting program replaces the editor's. */
  function openChallenge(id) {
    open = challenges.find((challenge) => challenge.id === id) ?? null;
    verdict = null;
    solutionBox.hidden = true;
    const url = new URL(location.href);
    if (open) url.searchParams.set("challenge", open.id);
    else url.searchParams.delete("challenge");
    history.replaceState(null, "", url.pathname + url.search);
    if (open) {
      editor.setDoc(open.start);
      showProblem(null);
      onOpen();
    }
    render();
  }

  async function runCheck() {
    if (!open) return;
    const button = $("#play-check");
    button.disabled = true;
    verdict = null;
    render();
    result.hidden = false;
    result.dataset.passed = "";
    result.textContent = t("challenge.checking");
    try {
      const answer = await check(open.id, editor.getDoc());
      verdict = answer;
      showProblem(answer.problem ?? null);
      if (answer.passed) rememberSolved(open.id);
    } catch (error) {
      // Stop killed the worker mid-check (its node never returned): say so in the page's language
      const stopped = error?.type === "Terminated";
      verdict = { passed: false, failed: stopped ? t("challenge.stopped") : (error.message ?? String(error)) };
    } finally {
      button.disabled = false;
      render();
    }
  }

  picker.addEventListener("change", () => openChallenge(picker.value || null));
  $("#play-check").addEventListener("click", runCheck);
  $("#play-solution").addEventListener("click", () => {
    solutionBox.hidden = !solutionBox.hidden;
    render();
  });
  $("#play-use-solution").addEventListener("click", () => open && editor.setDoc(open.solution));
  $("#play-restart").addEventListener("click", () => {
    if (!open) return;
    editor.setDoc(open.start);
    showProblem(null);
  });

  render(); // the picker lists every challenge from the start

  return {
    /** The challenge `?challenge=` names, opened (false: the URL names none, or none such). */
    openFromUrl() {
      const id = new URLSearchParams(location.search).get("challenge");
      if (!challenges.some((challenge) => challenge.id === id)) return false;
      openChallenge(id);
      return true;
    },
    /** Close the open challenge (the learner opened a gallery program). */
    close: () => {
      if (open) openChallenge(null);
    },
    translate: render,
  };
}
