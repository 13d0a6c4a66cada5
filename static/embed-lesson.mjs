/**
 * The embeddable page's two modes: `/embed` is the lab (app.mjs, booted at once), and
 * `/embed?lesson=<id>&lang=<en|zh>` is one guided lesson that boots nothing until the learner presses
 * Start, then opens the lesson's first step in the same frame (the lesson runner boots Python there).
 *
 * In a cross-site frame the browser refuses IndexedDB: the lesson runs on the in-memory saver and its
 * page says so in one line (static/lesson/storage-line.mjs).
 */
import { LANGS, setLang, t } from "./i18n.mjs";
import { nodeDelay } from "./url-state.mjs";

const params = new URLSearchParams(location.search);
const wanted = params.get("lesson");

/** The lesson list the build wrote into the page: [{id, first, steps, titles: {lang: title}}]. */
function lessons() {
  return JSON.parse(document.getElementById("embed-lessons").textContent);
}

function showLesson(lang) {
  const all = lessons();
  const lesson = all.find((candidate) => candidate.id === wanted);
  const panel = document.getElementById("embed-lesson");
  document.getElementById("boot").hidden = true;
  panel.hidden = false;
  const title = panel.querySelector("[data-embed-title]");
  const intro = panel.querySelector("[data-embed-intro]");
  const start = panel.querySelector("[data-embed-start]");
  if (!lesson) {
    title.textContent = t("embed.noLessonTitle");
    intro.textContent = t("embed.noLesson", { lesson: wanted, lessons: all.map((l) => l.id).join(", ") });
    start.hidden = true;
    return;
  }
  title.textContent = lesson.titles[lang];
  intro.textContent = t("embed.lessonIntro", { steps: lesson.steps });
  start.textContent = t("embed.lessonStart");
  // The lab's pace goes along, as a lesson link carries it (`&delay=0.05` makes tests fast).
  const pace = nodeDelay() === null ? "" : `?delay=${nodeDelay()}`;
  start.addEventListener("click", () => location.assign(`/learn/${lang}/${lesson.id}/${lesson.first}/${pace}`));
}

if (wanted === null) {
  import("./app.mjs");
} else {
  const lang = LANGS.includes(params.get("lang")) ? params.get("lang") : "en";
  setLang(lang);
  showLesson(lang);
}
