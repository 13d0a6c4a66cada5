/**
 * Presenter mode, for a teacher at a projector: large type, the question beside the lab the class
 * looks at while it votes (the graph's labels scaled up with the text), then the step's control,
 * then why (`section[data-stage]`), and the keyboard:
 *
 *   P        presenter mode on/off (also the visible toggle; `?present=1` opens a link in it)
 *   1 … 9    one more vote for that choice: the tally shows each choice's count and a bar (in a
 *            class room, room.mjs, the learners' devices' votes are added to the keys')
 *   R        reveal the answer, once the class has voted: it stays hidden until this key, and then
 *            the choices (with their tally) and the answer stay on screen
 *   Enter    press the step's highlighted control (it has the focus once the answer is out)
 *   → / ←    next / previous step
 *
 * The mode lives in the URL, and every lesson link on the page carries the page's query along, so a
 * teacher's link opens presenting and stays presenting from step to step. Nothing here is a rule
 * of the lab: the keys press what a click would press.
 */

import { mountTeacherRoom } from "./room.mjs";

/** The page's query (`?present=1`, `?delay=…`), carried by every lesson link. */
function carryQuery(root) {
  for (const link of root.querySelectorAll('a[href^="/learn/"]')) {
    const url = new URL(link.getAttribute("href"), location.href);
    link.setAttribute("href", `${url.pathname}${location.search}`);
  }
}

function presenting() {
  return new URLSearchParams(location.search).get("present") === "1";
}

/** Show the mode: the body's flag, the toggle's label, the keys' line, the links' query. */
function show(words) {
  const on = presenting();
  document.body.dataset.present = String(on);
  const keys = document.querySelector("[data-present-keys]");
  if (keys) keys.textContent = words.present_keys;
  const toggle = document.querySelector("[data-present-toggle]");
  if (toggle) {
    toggle.textContent = on ? words.present_leave : words.present;
    toggle.setAttribute("aria-pressed", String(on));
  }
  carryQuery(document);
}

function toggle(words) {
  const params = new URLSearchParams(location.search);
  if (presenting()) params.delete("present");
  else params.set("present", "1");
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}`);
  show(words);
}

function follow(rel) {
  document.querySelector(`a[rel="${rel}"]`)?.click();
}

/**
 * The class's votes on this step's question: one count per choice, drawn after each choice as its
 * count and a bar (`[data-tally]`, its width the choice's share of the votes). Votes are taken while
 * the question is open (its choices enabled), and start at zero on every step; a room's votes
 * (`fromRoom`, the server's count for this step) are added to the digit keys'.
 */
class Tally {
  constructor() {
    this.votes = [];
    this.room = [];
  }

  /** The room's count of each choice on this step, as the server tallied it. */
  fromRoom(votes) {
    const choices = [...document.querySelectorAll("[data-lesson] [data-choice]")];
    if (!choices.length || votes.join() === this.room.join()) return;
    this.room = votes;
    this.draw(choices);
  }

  /** One more vote for choice `index` (0-based), if the question is open and has that choice. */
  add(index) {
    const choices = [...document.querySelectorAll("[data-lesson] [data-choice]")];
    if (!choices[index] || choices.every((choice) => choice.disabled)) return;
    this.votes[index] = (this.votes[index] ?? 0) + 1;
    this.draw(choices);
  }

  draw(choices) {
    const counts = choices.map((_, index) => (this.votes[index] ?? 0) + (this.room[index] ?? 0));
    const total = counts.reduce((sum, count) => sum + count, 0);
    for (const [index, choice] of choices.entries()) {
      const count = counts[index];
      let tally = choice.parentElement.querySelector("[data-tally]");
      if (!tally) {
        tally = Object.assign(document.createElement("span"), { className: "tally" });
        tally.dataset.tally = "";
        tally.append(Object.assign(document.createElement("span"), { className: "bar" }), document.createElement("b"));
        choice.after(tally);
      }
      tally.dataset.votes = String(count);
      tally.querySelector("b").textContent = String(count);
      tally.querySelector(".bar").style.width = `${total ? (100 * count) / total : 0}%`; // CSSOM: allowed by the CSP
    }
  }
}

/**
 * Start presenter mode's keys and toggle on a lesson step page.
 * @param {Record<string, string>} words the page's words (present, present_leave, present_keys)
 * @param {{reveal: () => void, lesson: () => any, session: object}} step what R does, and the lesson on
 *   the page and its lab session (for a room)
 * @returns {() => void} call after the page's content is swapped for another step's
 */
export function mountPresenter(words, step) {
  let tally = new Tally();
  let placeRoom = () => {};
  mountTeacherRoom({ lesson: step.lesson, session: step.session, showVotes: (votes) => tally.fromRoom(votes) }).then((place) => {
    if (place) placeRoom = place;
  });
  document.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("[data-present-toggle]")) toggle(words);
  });
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target instanceof HTMLElement && target.matches("input, textarea, select, [contenteditable]");
    if (typing || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "p") toggle(words);
    else if (!presenting()) return;
    else if (key === "r") step.reveal();
    else if (/^[1-9]$/.test(key)) tally.add(Number(key) - 1);
    else if (key === "arrowright") follow("next");
    else if (key === "arrowleft") follow("prev");
    else return;
    event.preventDefault();
  });
  show(words);
  return () => {
    tally = new Tally();
    placeRoom();
    show(words);
  };
}
