/**
 * The lab's strings: every string the page shows, in English and 简体中文. The catalogues are data,
 * one module per language (static/i18n/en.mjs, static/i18n/zh.mjs, each joining its -panels and
 * -python parts); this module looks them up.
 *
 * `t(key, params)` looks a key up in the current language (falling back to English, then to the key
 * itself, which is also recorded in `missingKeys` so a test can insist there are none) and fills
 * `{name}` placeholders. `setLang()` switches the language, sets `<html lang>` and tells listeners;
 * `translateDom(root)` fills every `[data-i18n]` element (and `[data-i18n-attr]` attributes:
 * `"aria-label:key;title:key"`) of the static markup.
 *
 * Python's sentences (statuses, refusals, case data) come by code and are said here (`say()`); not
 * translated on purpose: node names, seam names, ids and code, which stay as they are.
 */

import { en } from "./i18n/en.mjs";
import { zh } from "./i18n/zh.mjs";

export const LANGS = ["en", "zh"];
const HTML_LANG = { en: "en", zh: "zh-CN" };

/** @type {Record<string, Record<string, string>>} the catalogues by language */
export const MESSAGES = { en, zh };

/** Keys asked for but missing from the catalogue (a test checks this stays empty). */
export const missingKeys = new Set();

let current = "en";
const listeners = new Set();

/** The current language: "en" or "zh". */
export function lang() {
  return current;
}

/**
 * The message `key` in the current language, with `{name}` placeholders filled from `params`.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @param {string} [fallback] shown (and not recorded as missing) when the key is unknown
 */
export function t(key, params = {}, fallback = undefined) {
  let text = MESSAGES[current]?.[key] ?? MESSAGES.en[key];
  if (text === undefined) {
    if (fallback !== undefined) return fallback;
    missingKeys.add(key);
    text = key;
  } else if (MESSAGES[current]?.[key] === undefined) {
    missingKeys.add(`${current}:${key}`);
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Switch the language (unknown values are ignored) and tell the listeners. */
export function setLang(next) {
  if (!LANGS.includes(next)) return;
  const changed = next !== current;
  current = next;
  document.documentElement.lang = HTML_LANG[next];
  if (changed) for (const listener of listeners) listener(next);
}

/** @param {(lang: string) => void} listener */
export function onLangChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Fill the static markup: `[data-i18n]` text and `[data-i18n-attr]` attributes. */
export function translateDom(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of element.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((x) => x.trim());
      if (attr && key) element.setAttribute(attr, t(key));
    }
  }
  const title = document.querySelector("title[data-i18n-title]");
  if (title) document.title = t(title.dataset.i18nTitle);
}

/**
 * A sentence Python wrote (`{code, params, text}`, lab/controller/messages.py) in the current
 * language: the catalogue's `py.<code>` filled with its params; Python's English text if the code is
 * unknown (and the code is recorded in `missingKeys`).
 * @param {{code: string, params?: Record<string, unknown>, text: string} | null | undefined} message
 */
export function say(message) {
  if (!message) return "";
  const key = `py.${message.code}`;
  if (MESSAGES.en[key] === undefined) {
    missingKeys.add(key);
    return message.text;
  }
  return t(key, Object.fromEntries(Object.entries(message.params ?? {}).map(([name, value]) => [name, sayParam(value)])));
}

/** A parameter of Python's sentence: a sentence itself (a case's outcome in the status line) is said too. */
const sayParam = (value) => (value && typeof value === "object" && "code" in value && "text" in value ? say(value) : value);
