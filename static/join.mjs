/**
 * /join (docs/ROOM.md): a learner types the room code from the teacher's screen; the page joins the
 * room with this browser's random learner id and opens the room's lesson at the room's step, in the
 * page's language (`?lang=zh`). `?code=` fills the code in.
 */
import { setLang, t, translateDom } from "./i18n.mjs";
import { learnerId, roomApi, roomsAvailable, stepAddress } from "./room-api.mjs";

const params = new URLSearchParams(location.search);
const lang = params.get("lang") === "zh" ? "zh" : "en";
setLang(lang);
translateDom(document);
const form = document.querySelector("[data-join]");
const input = document.querySelector("[data-join-code]");
const status = document.querySelector("[data-join-status]");
input.value = (params.get("code") ?? "").toUpperCase();

function refused(body) {
  const known = ["unknown_room", "room_closed", "offline"];
  return known.includes(body.error) ? t(`join.error.${body.error}`) : t("join.error.other", { message: body.message });
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = input.value.trim().toUpperCase();
  status.textContent = t("join.joining");
  const answer = await roomApi("POST", `/${encodeURIComponent(code)}/join`, { learner: learnerId() });
  if (!answer.ok) {
    status.textContent = refused(answer.body);
    return;
  }
  location.assign(await stepAddress(lang, answer.body.lesson, answer.body.step, answer.body.code));
});

roomsAvailable().then((available) => {
  if (available) return;
  status.textContent = t("join.noRooms");
  form.hidden = true;
});
