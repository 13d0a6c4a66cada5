/**
 * Every action of the lab, with its keyboard shortcut: the buttons show the key, carry
 * `aria-keyshortcuts`, and the page's key handler (app.mjs) calls the same action.
 */
import { say, t } from "../i18n.mjs";
import { h } from "./dom.mjs";

/** action -> {key: what KeyboardEvent.key must be, shift, aria: the aria-keyshortcuts value, show: the label}. */
export const SHORTCUTS = {
  start: { key: "n", aria: "N", show: "N" },
  open: { key: "o", aria: "O", show: "O" },
  step: { key: "s", aria: "S", show: "S" },
  run: { key: "r", aria: "R", show: "R" },
  resume: { key: "u", aria: "U", show: "U" },
  approve: { key: "a", aria: "A", show: "A" },
  reject: { key: "x", aria: "X", show: "X" },
  arm: { key: "c", aria: "C", show: "C" },
  disarm: { key: "C", shift: true, aria: "Shift+C", show: "⇧C" },
  first: { key: "Home", aria: "Home", show: "Home" },
  prev: { key: "[", aria: "[", show: "[" },
  next: { key: "]", aria: "]", show: "]" },
  last: { key: "End", aria: "End", show: "End" },
  replay: { key: "p", aria: "P", show: "P" },
  fork: { key: "f", aria: "F", show: "F" },
  branch: { key: "b", aria: "B", show: "B" },
  reset: { key: "R", shift: true, aria: "Shift+R", show: "⇧R" },
  lang: { key: "l", aria: "L", show: "L" },
  help: { key: "?", aria: "Shift+?", show: "?" },
};

/**
 * A button for `action`: its accessible name is the label alone (the key hint is aria-hidden and
 * announced through aria-keyshortcuts instead).
 * @param {string} action
 * @param {() => void} onClick
 * @param {{label?: string, class?: string, id?: string}} [options]
 */
export function actionButton(action, onClick, options = {}) {
  const shortcut = SHORTCUTS[action];
  const label = h("span", { class: "label", text: options.label ?? t(`action.${action}`) });
  const button = h("button", {
    type: "button",
    id: options.id ?? `action-${action}`,
    class: ["action", options.class],
    dataset: { action },
    "aria-keyshortcuts": shortcut?.aria,
    title: shortcut ? t("shortcut.hint", { key: shortcut.show }) : null,
    on: { click: onClick },
  }, label, shortcut ? h("kbd", { "aria-hidden": "true", text: shortcut.show }) : "");
  return button;
}

/** Give an existing action button its label in the current language. */
export function relabel(button, text) {
  const label = button.querySelector(".label");
  if (label && label.textContent !== text) label.textContent = text;
  const shortcut = SHORTCUTS[button.dataset.action];
  if (shortcut) button.title = t("shortcut.hint", { key: shortcut.show });
}

/** Which action a key press asks for, or null. */
export function actionForKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  for (const [action, s] of Object.entries(SHORTCUTS)) {
    if (event.key === s.key && (s.shift === undefined || s.shift === event.shiftKey || s.key === "?")) return action;
  }
  return null;
}

/**
 * Enable an action's button as Python decided (`view().actions[name]`, lab/controller/actions.py),
 * with the reason it is disabled as its tooltip. `busy`: the page waits for a command or a process,
 * so no button may be pressed now whatever the rule says.
 * @param {HTMLButtonElement} button
 * @param {{enabled: boolean, reason: object | null} | undefined} action
 * @param {boolean} busy
 */
export function showAction(button, action, busy) {
  button.disabled = busy || !action?.enabled;
  if (action?.reason) button.title = say(action.reason);
  else button.removeAttribute("title");
}
