/**
 * Tiny DOM helpers shared by the lab's views: build elements without innerHTML (the CSP-friendly way,
 * and nothing from Python is ever parsed as markup), format ids, versions and JSON for display.
 */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Create an element. `attrs`: `class`, `text`, `dataset` (object), `on` (event -> listener),
 * `hidden`/`disabled`/... (booleans become properties), anything else becomes an attribute
 * (`null`/`undefined`/`false` are skipped).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|null|undefined|false|Array<any>)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** Like {@link h}, in the SVG namespace. */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

const PROPERTIES = new Set(["hidden", "disabled", "checked", "selected", "value", "open", "readOnly"]);

function fill(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") element.textContent = String(value);
    else if (name === "class") element.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (name === "dataset") for (const [k, v] of Object.entries(value)) { if (v !== null && v !== undefined) element.dataset[k] = String(v); }
    else if (name === "on") for (const [type, fn] of Object.entries(value)) element.addEventListener(type, fn);
    else if (name === "style") Object.assign(element.style, value); // CSSOM: allowed by the CSP
    else if (PROPERTIES.has(name)) element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/**
 * A checkpoint id, short enough for a table cell: the time-ordered middle of the UUID
 * ("1f1ec361-517f-6401-8001-…" → "517f-6401"), which differs between the checkpoints of a thread.
 * @param {string | null | undefined} id
 */
export function shortId(id) {
  if (!id) return "—";
  const parts = String(id).split("-");
  return parts.length >= 3 ? `${parts[1]}-${parts[2]}` : String(id).slice(0, 9);
}

/**
 * A channel version as LangGraph writes it ("00000000000000000000000000000003.0.78…"): its counter.
 * @param {string | number} version
 */
export function shortVersion(version) {
  const head = String(version).split(".")[0];
  const n = Number.parseInt(head, 10);
  return Number.isFinite(n) ? String(n) : String(version);
}

/** Pretty JSON for a <pre>. */
export function pretty(value) {
  return JSON.stringify(value, null, 2) ?? "null";
}

/** One-line JSON, cut to `max` characters. */
export function brief(value, max = 60) {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? "null";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Money: cents → "12.00". */
export function money(cents) {
  return (Number(cents) / 100).toFixed(2);
}

/** Replace an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}
