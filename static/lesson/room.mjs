/**
 * A lesson step in a class room (docs/ROOM.md): the teacher's room panel in presenter mode, and a
 * learner's page that follows the room.
 *
 * Teacher: where the site has rooms (`GET /api/rooms` answers; a static server or a deployment
 * without the D1 binding 404s, and no button shows), presenter mode has "Open a room". The room's
 * code shows large with the join address and a QR code of `/join?code=<code>` (join.mjs fills the code
 * in from it); every 1.5 s the panel reads the tally: the class's votes on
 * this step join the digit keys' votes in the presenter's tally, and the panel says how many learners
 * are on each step and how many have finished. The teacher moves the room to a step and closes it.
 * The room (code and teacher key) is kept in sessionStorage, so it stays open from step to step.
 * While it is open, the lesson's lab publishes its thread into it (room-publish.mjs).
 *
 * Learner (`?room=<code>`, carried by every lesson link): the page joins the room, reports which step
 * it is on (and whether the lesson is finished), sends the learner's first pick on each question as
 * their vote, and goes to the step the teacher moves the room to.
 */
import { t } from "../i18n.mjs";
import { qrSvg } from "../qr.mjs";
import { learnerId, roomApi, roomsAvailable, stepAddress } from "../room-api.mjs";
import { publishToRoom } from "./room-publish.mjs";

const POLL_MS = 1500;
const VOTE_ATTEMPTS = 4;
const REPORT_AGAIN_EVERY = 4; // polls: a learner's step is said again every 6 s
const TEACHER_KEY = "checkpoint-lab.teacher-room";

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

/** The step the page shows: its lesson's id and its 0-based index. */
function here(lesson) {
  const section = document.querySelector("[data-lesson]");
  const index = lesson().steps.findIndex((step) => step.id === section.dataset.step);
  const done = section.dataset.done === "true";
  return { lesson: lesson().id, index, finished: done && index === lesson().steps.length - 1, lang: section.dataset.lang };
}

/** Each step's number of choices (0 for a step without a question): what the server checks votes against. */
function shapeOf(lesson) {
  return lesson.steps.map((step) => step.predict?.choices.length ?? 0);
}

/**
 * The teacher's room, in presenter mode.
 * @param {{lesson: () => any, showVotes: (votes: number[]) => void, session: object}} page the lesson now
 *   on the page, how this step's room votes reach the presenter's tally, and the lesson's lab session
 * @returns {Promise<(() => void) | undefined>} what puts the room back after "Next" swapped the page's
 *   content (undefined where the site has no rooms)
 */
export async function mountTeacherRoom(page) {
  if (new URLSearchParams(location.search).has("room")) return;
  const available = await roomsAvailable();
  document.body.dataset.rooms = String(available); // the tests wait on it: the button is there or never will be
  if (!available) return;
  const openButton = element("button", { type: "button", class: "room-open", "data-room-open": "" }, t("room.open"));
  const panel = element("aside", { class: "room-panel", "data-room": "", "aria-live": "polite" });
  panel.hidden = true;
  /** Put the button and panel in the page (again, after "Next" swapped the page's content). */
  const place = () => {
    document.querySelector("[data-present-toggle]")?.after(" ", openButton);
    document.querySelector("[data-present-keys]")?.after(panel);
    const select = panel.querySelector("[data-room-step]");
    if (select) select.value = String(Math.max(0, here(page.lesson).index));
  };
  place();
  let room = JSON.parse(sessionStorage.getItem(TEACHER_KEY) ?? "null");
  if (room?.lesson !== page.lesson().id) room = null;

  const say = (message) => {
    panel.querySelector("[data-room-message]").textContent = message;
  };
  const draw = (tally) => {
    const { index } = here(page.lesson);
    const learners = panel.querySelector("[data-room-learners]");
    learners.dataset.learners = String(tally.learners);
    const onStep = tally.on_step.map((n, step) => `${step + 1}: ${n}`).join(" · ");
    learners.textContent = `${t("room.learners", { n: tally.learners })} · ${t("room.onStep", { steps: onStep })}`;
    learners.dataset.onStep = tally.on_step.join(",");
    const finished = panel.querySelector("[data-room-finished]");
    finished.dataset.finished = String(tally.finished.length);
    finished.textContent = t("room.finished", { n: tally.finished.length }) + (tally.finished.length ? ` (${tally.finished.join(", ")})` : "");
    panel.dataset.roomAt = String(tally.step); // where the room is
    if (tally.closed) showClosed();
    else page.showVotes(tally.votes[index] ?? []);
  };
  let timer = null;
  let stopPublishing = () => {};
  const showClosed = () => {
    clearInterval(timer);
    stopPublishing();
    panel.dataset.closed = "true";
    for (const control of panel.querySelectorAll("button, select")) control.disabled = true;
    say(t("room.closed"));
    sessionStorage.removeItem(TEACHER_KEY);
  };
  const poll = async () => {
    const answer = await roomApi("GET", `/${room.code}/tally`, undefined, room.key);
    if (answer.ok) draw(answer.body);
    else if (answer.status === 404) showClosed(); // expired
  };
  const teacherAction = async (action, body) => {
    const answer = await roomApi("POST", `/${room.code}/${action}`, body, room.key);
    if (!answer.ok) say(t("room.failed", { message: answer.body.message ?? answer.status }));
    else await poll();
  };
  const show = () => {
    openButton.hidden = true;
    panel.replaceChildren(...roomPanel(room, page.lesson(), teacherAction));
    panel.hidden = false;
    place();
    poll();
    timer = setInterval(poll, POLL_MS);
    stopPublishing = publishToRoom(page.session, room, panel.querySelector("[data-room-publish]"));
  };
  openButton.addEventListener("click", async () => {
    openButton.disabled = true;
    const lesson = page.lesson();
    const answer = await roomApi("POST", "", { lesson: lesson.id, shape: shapeOf(lesson) });
    openButton.disabled = false;
    if (!answer.ok) {
      openButton.title = t("room.failed", { message: answer.body.message ?? answer.status });
      return;
    }
    room = { code: answer.body.code, key: answer.body.teacher_key, lesson: lesson.id };
    sessionStorage.setItem(TEACHER_KEY, JSON.stringify(room));
    show();
  });
  if (room) show();
  return place;
}

/** The room panel's parts: the code, its QR code and the join address, the counts, the move and close controls. */
function roomPanel(room, lesson, teacherAction) {
  const lang = document.querySelector("[data-lesson]").dataset.lang;
  const address = `${location.host}/join${lang === "en" ? "" : `?lang=${lang}`}`;
  const code = element("p", { class: "room-code" });
  code.append(`${t("room.code")}: `, element("b", { "data-room-code": "" }, room.code));
  const joinAt = element("p", {}, t("room.joinAt", { address }));
  const scan = `${location.origin}/join?code=${room.code}${lang === "en" ? "" : `&lang=${lang}`}`;
  const qr = element("figure", { class: "room-qr", "data-room-qr": "" });
  qr.append(qrSvg(scan, t("room.qr")));
  const select = element("select", { "data-room-step": "", "aria-label": t("room.moveTo") });
  const titles = [...document.querySelectorAll(".lesson-steps a")].map((link) => link.textContent.trim());
  for (const index of lesson.steps.keys()) {
    select.append(element("option", { value: String(index) }, `${index + 1}. ${titles[index] ?? ""}`));
  }
  const move = element("button", { type: "button", "data-room-move": "" }, t("room.move"));
  move.addEventListener("click", () => teacherAction("step", { step: Number(select.value) }));
  const close = element("button", { type: "button", "data-room-close": "" }, t("room.close"));
  close.addEventListener("click", () => teacherAction("close", {}));
  const label = element("label", {}, `${t("room.moveTo")} `);
  label.append(select);
  const controls = element("p", { class: "room-controls" });
  controls.append(label, " ", move, " ", close);
  return [
    code,
    qr,
    joinAt,
    element("p", { "data-room-learners": "" }),
    element("p", { "data-room-finished": "" }),
    controls,
    element("p", { "data-room-message": "", role: "status" }),
    element("p", { class: "room-publish", "data-room-publish": "" }),
  ];
}

/**
 * A learner's step page in room `?room=<code>`: join, report, vote, follow the teacher's moves.
 * @param {() => any} lesson the lesson now on the page
 */
export async function mountLearnerRoom(lesson) {
  const code = new URLSearchParams(location.search).get("room");
  if (!code) return;
  const learner = learnerId();
  const banner = element("p", { class: "room-banner", "data-room-learner": "", role: "status" });
  document.querySelector("[data-present-keys]")?.after(banner);
  // Listen for picks before the room answers: a learner who picks at once still votes.
  const joining = roomApi("POST", `/${encodeURIComponent(code)}/join`, { learner });
  const voted = new Set();
  document.addEventListener("click", (event) => {
    const choice = event.target instanceof Element && event.target.closest("[data-lesson] [data-choice]");
    const { index } = here(lesson);
    if (!choice || voted.has(index)) return; // the first pick is the prediction
    voted.add(index);
    joining.then((joined) => joined.ok && sendVote(joined.body.code, index, Number(choice.dataset.choice)));
  });
  /** One vote, tried again on a busy room (the server counts a learner's vote on a step once). */
  const sendVote = async (room, step, choice) => {
    for (let attempt = 0; attempt < VOTE_ATTEMPTS; attempt += 1) {
      const answer = await roomApi("POST", `/${room}/vote`, { learner, step, choice });
      if (answer.ok) {
        banner.dataset.voted = String(Number(banner.dataset.voted ?? 0) + 1);
        return;
      }
      if (answer.status >= 400 && answer.status < 500) return; // refused, not busy: trying again cannot help
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  const joined = await joining;
  if (!joined.ok) {
    banner.textContent = t("room.failed", { message: joined.body.message ?? joined.status });
    return;
  }
  banner.textContent = t("room.learnerBanner", { code: joined.body.code });
  const followed = `checkpoint-lab.room-step.${joined.body.code}`;
  let reported = "";
  let timer = null;
  const follow = async (state) => {
    if (!banner.isConnected) document.querySelector("[data-present-keys]")?.after(banner); // "Next" swapped the page
    if (state.closed) {
      clearInterval(timer);
      banner.dataset.closed = "true";
      banner.textContent = t("room.learnerClosed", { code: state.code });
      return;
    }
    const now = here(lesson);
    if (state.lesson === now.lesson && String(state.step) !== sessionStorage.getItem(followed)) {
      sessionStorage.setItem(followed, String(state.step)); // follow a move once; the learner may go on
      if (state.step !== now.index) {
        location.assign(await stepAddress(now.lang, state.lesson, state.step, state.code));
        return;
      }
    }
    const position = JSON.stringify([now.index, now.finished]);
    if (position !== reported && now.index >= 0 && state.lesson === now.lesson) {
      const answer = await roomApi("POST", `/${state.code}/progress`, { learner, step: now.index, finished: now.finished });
      if (answer.ok) reported = position;
    }
  };
  let polls = 0;
  const poll = async () => {
    // Say where this page is again now and then: a report the page before a move sent late can reach the
    // room after this page's own, and the last one counts.
    polls += 1;
    if (polls % REPORT_AGAIN_EVERY === 0) reported = "";
    const answer = await roomApi("GET", `/${joined.body.code}`);
    if (answer.ok) await follow(answer.body);
  };
  await follow(joined.body);
  timer = setInterval(poll, POLL_MS);
}
