/**
 * The keyboard: every action's shortcut (views/actions.mjs lists them) presses the same button a
 * click would, so a disabled action stays disabled; typing in a field and open dialogs are left alone.
 */
import { actionForKey } from "./views/actions.mjs";

/**
 * @param {{special: Record<string, () => void>, target: Record<string, () => HTMLElement | null>,
 *          unavailable: (action: string, reason: object | null) => void, reasonOf: (action: string) => object | null}} hooks
 *   `special`: actions that are not a button press (language, fork, branch); `target`: buttons outside
 *   the lab's toolbars; `unavailable` says why a shortcut did nothing.
 */
export function mountKeyboard(hooks) {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
    const target = event.target;
    const typing = target instanceof HTMLElement && (target.matches("input, textarea, select, [contenteditable]") || target.isContentEditable);
    if (typing || document.body.dataset.bootState !== "ready") return;
    const action = actionForKey(event);
    if (!action) return;
    event.preventDefault();
    if (hooks.special[action]) {
      hooks.special[action]();
      return;
    }
    const button = hooks.target[action]?.() ?? document.querySelector(`button[data-action="${action}"]`);
    if (button && !button.disabled) button.click();
    else hooks.unavailable(action, hooks.reasonOf(action));
  });
}
