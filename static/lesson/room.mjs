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
 * The room follows the presenter from lesson to lesson: when the page is another lesson's (its "Next"
 * went on to the next lesson, or the teacher opened one from the course map or by its address), the
 * room moves to that lesson at the step on the page; the tally and the published thread are that
 * lesson's from then on (the server keeps each lesson's votes and thread apart).
 *
 * Learner (`?room=<code>`, carried by every lesson link): the page joins the room, reports which step
 * of which lesson it is on (and whether the lesson is finished), sends the learner's first pick on
 * each question as their vote, and goes to the lesson and step the teacher moves the room to.
 */
import { t } from "../i18n.mjs";
import { qrSvg } from "../qr.mjs";
import { learnerId, roomApi, roomsAvailable, stepAddress } from "../room-api.mjs";
import { publishToRoom } from "./room-publish.mjs";

const POLL_MS = 1500;
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

/** The lesson on the page as a room takes it (opening or following): its id, its shape, the step on the page. */
function lessonHere(lesson) {
  return { lesson: lesson().id, shape: shapeOf(lesson()), step: Math.max(0, here(lesson).index) };
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

  const say = (message) => {
    panel.querySelector("[data-room-message]").textContent = message;
  };
  const draw = (tally) => {
    if (tally.closed) showClosed();
    if (tally.closed || tally.lesson !== page.lesson().id) return; // (or asked before the room followed the presenter here)
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
    page.showVotes(tally.votes[index] ?? []);
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
  /** The panel for the lesson on the page, its tally read and its thread published from now on. */
  const show = (openThread = true) => {
    clearInterval(timer);
    stopPublishing();
    openButton.hidden = true;
    panel.replaceChildren(...roomPanel(room, page.lesson(), teacherAction));
    panel.hidden = false;
    place();
    poll();
    timer = setInterval(poll, POLL_MS);
    stopPublishing = publishToRoom(page.session, room, panel.querySelector("[data-room-publish]"), { openThread });
  };
  /**
   * The presenter is on another lesson than the room: the room goes there, at the step on the page.
   * Publishing starts at once (into the new lesson's thread: the server keeps it apart), so the events
   * of the lesson's setup are not missed; after "Next" (`openThread` false) the lab's open thread is
   * still the lesson left's, and only the threads the new lesson's events name are published.
   */
  const followPresenter = (openThread) => {
    room = { ...room, lesson: page.lesson().id };
    sessionStorage.setItem(TEACHER_KEY, JSON.stringify(room));
    show(openThread);
    return teacherAction("lesson", lessonHere(page.lesson));
  };
  openButton.addEventListener("click", async () => {
    openButton.disabled = true;
    const answer = await roomApi("POST", "", lessonHere(page.lesson));
    openButton.disabled = false;
    if (!answer.ok) {
      openButton.title = t("room.failed", { message: answer.body.message ?? answer.status });
      return;
    }
    room = { code: answer.body.code, key: answer.body.teacher_key, lesson: page.lesson().id };
    sessionStorage.setItem(TEACHER_KEY, JSON.stringify(room));
    show();
  });
  if (room?.lesson === page.lesson().id) show();
  else if (room) followPresenter(true); // a fresh page: the lab has only this lesson's threads
  return () => {
    place();
    if (room && panel.dataset.closed !== "true" && room.lesson !== page.lesson().id) followPresenter(false);
  };
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
    const now = here(lesson);
    const question = `${now.lesson}/${now.index}`;
    if (!choice || voted.has(question)) return; // the first pick is the prediction
    voted.add(question);
    const body = { learner, lesson: now.lesson, step: now.index, choice: Number(choice.dataset.choice) };
    joining.then((joined) => joined.ok && sendVote(joined.body.code, body));
  });
  /** One vote (roomApi tries a busy room again; the server counts a learner's vote on a step once). */
  const sendVote = async (room, body) => {
    const answer = await roomApi("POST", `/${room}/vote`, body);
    if (answer.ok) banner.dataset.voted = String(Number(banner.dataset.voted ?? 0) + 1);
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
    const move = `${state.lesson}/${state.step}`;
    if (move !== sessionStorage.getItem(followed)) {
      sessionStorage.setItem(followed, move); // follow a move once (to a step or a lesson); the learner may go on
      if (state.lesson !== now.lesson || state.step !== now.index) {
        location.assign(await stepAddress(now.lang, state.lesson, state.step, state.code));
        return;
      }
    }
    const position = JSON.stringify([now.lesson, now.index, now.finished]);
    if (position !== reported && now.index >= 0 && state.lesson === now.lesson) {
      const body = { learner, lesson: now.lesson, step: now.index, finished: now.finished };
      const answer = await roomApi("POST", `/${state.code}/progress`, body);
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
