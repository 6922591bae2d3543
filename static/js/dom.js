// Tiny DOM helpers. Strings always become text nodes (never HTML).
//
// Event handlers are kept on the element (`on`), not bound to it for good: when the
// renderer (reconcile.js) keeps a live element and drops the freshly built copy, the
// copy's handlers move over to the kept element (`takeHandlers`), so a handler always
// sees the state of the latest render.

const HANDLERS = "__fiveupOn"; // element property: { type: [handler, …] }
const BOUND = "__fiveupBound"; // element property: the event types with a dispatcher

function dispatch(e) {
  const list = (this[HANDLERS] || {})[e.type];
  if (list) for (const f of list) f.call(this, e);
}

function bind(el, type) {
  const bound = el[BOUND] || (el[BOUND] = new Set());
  if (bound.has(type)) return;
  bound.add(type);
  el.addEventListener(type, dispatch, type === "wheel" ? { passive: false } : undefined);
}

/** Add a handler for `type` on `el` (moved to the kept element by `takeHandlers`). */
export function on(el, type, fn) {
  const map = el[HANDLERS] || (el[HANDLERS] = {});
  (map[type] || (map[type] = [])).push(fn);
  bind(el, type);
  return el;
}

/** `el` gets the handlers of `from` (a freshly built copy of it); its own ones go. */
export function takeHandlers(el, from) {
  const map = from[HANDLERS];
  if (!map && !el[HANDLERS]) return;
  el[HANDLERS] = map || {};
  for (const type of Object.keys(el[HANDLERS])) bind(el, type);
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") on(el, k.slice(2).toLowerCase(), v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k in el && typeof v !== "string" && k !== "list") el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}
