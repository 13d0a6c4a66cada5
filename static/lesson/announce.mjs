/**
 * Announce what a lesson step reveals: the hint after a wrong prediction, "correct" after the right
 * one, and the explanation once the step is done. Each is already on the page, hidden until then;
 * this module copies the text of whatever is revealed into one polite live region
 * (`[data-announcer]`), so a screen reader says it without moving the focus.
 *
 * It watches the page instead of being called by the runner: the runner stays about steps, and a
 * "Next" that swaps in the next step's page (runner.mjs) is watched the same way.
 */

/** Which element's text to announce when `element` changes `attribute`; null when nothing was revealed. */
function revealed(element, attribute) {
  if (attribute === "hidden" && element.matches("[data-hint], [data-correct]") && !element.hidden) return element;
  if (attribute === "open" && element.matches("details[data-why]") && element.open) return element;
  return null;
}

function announce(element) {
  const region = document.querySelector("[data-announcer]");
  if (!region) return;
  const text = element.matches("details")
    ? [...element.children].map((child) => child.textContent.trim()).join(": ")
    : element.textContent.trim();
  region.textContent = text;
}

new MutationObserver((changes) => {
  for (const change of changes) {
    const shown = revealed(change.target, change.attributeName);
    if (shown) announce(shown);
  }
}).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["hidden", "open"] });
