/**
 * The language: the picker (and its `L` shortcut) switches every string between English and 简体中文,
 * the page around the lab (title, tagline) included. Python's sentences arrive as codes with
 * parameters (`{code, params, text}`), which `say()` in i18n.mjs renders in the chosen language.
 */
import { lang, onLangChange, setLang, t, translateDom } from "./i18n.mjs";

const $ = (selector) => document.querySelector(selector);
const originalTitle = document.title;

/** The page around the lab (index.html's header, the title) in the chosen language. */
function translatePage() {
  document.title = lang() === "en" ? originalTitle : t("page.title");
  const tagline = $(".tagline");
  if (tagline) tagline.textContent = t("page.tagline");
  const title = $("body[data-layout='page'] > header h1");
  if (title) title.textContent = t("page.title");
}

/** @param {() => void} onChange redraw everything else */
export function mountLanguage(onChange) {
  const select = $("#lang-select");
  select.value = lang();
  select.addEventListener("change", () => switchLanguage(select.value));
  $("#lang-label").setAttribute("aria-keyshortcuts", "L");
  onLangChange(() => {
    translateDom(document);
    translatePage();
    onChange();
  });
  translateDom(document);
  if (lang() !== "en") translatePage();

  function switchLanguage(next) {
    setLang(next);
    select.value = next;
  }

  return { toggle: () => switchLanguage(lang() === "en" ? "zh" : "en") };
}
