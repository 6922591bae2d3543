// Updating the page in place. A view builds what it wants shown as a fresh, detached
// tree (dom.js `h`, render.js `svgEl`); `reconcile(parent, specs)` makes the live
// children of `parent` look like `specs` while keeping every live node that has a
// counterpart: only changed attributes and text are written, new nodes are inserted,
// gone ones removed, order kept. Unchanged parts are not touched at all (same nodes,
// no writes), so focus, a press under the pointer, scroll positions and running
// animations survive every frame.
//
// Matching: a child's key is its `data-key`, else its `data-testid`; keyed children
// are matched by kind (tag) and key (a repeated key counts its occurrences: `k`,
// `k#2`, …), the others by kind in order. A spec that is itself a live child of
// `parent` (a component that owns its node, like the chat panel) is kept as it is.
import { takeHandlers } from "./dom.js";

// Attributes the person changes on a live node, which a render never takes back.
const USER_OWNED = { DETAILS: new Set(["open"]) };

function kindOf(n) {
  return n.nodeType === 1 ? n.namespaceURI + " " + n.localName : "#" + n.nodeType;
}

function baseKey(n) {
  if (n.nodeType !== 1) return null;
  return n.getAttribute("data-key") ?? n.getAttribute("data-testid");
}

/** The match keys of `nodes`, in order: "kind|key[#n]", or null (matched in order). */
function keysOf(nodes) {
  const seen = new Map();
  return nodes.map((n) => {
    const k = baseKey(n);
    if (k === null) return null;
    const id = kindOf(n) + "|" + k;
    const count = (seen.get(id) || 0) + 1;
    seen.set(id, count);
    return count === 1 ? id : id + "#" + count;
  });
}

function syncAttributes(old, spec) {
  for (const a of spec.attributes) {
    if (old.getAttribute(a.name) === a.value) continue;
    // Inline styles through the CSSOM: the page's CSP forbids writing style attributes.
    if (a.name === "style") old.style.cssText = spec.style.cssText;
    else old.setAttribute(a.name, a.value);
  }
  const kept = USER_OWNED[old.tagName];
  for (const a of [...old.attributes]) {
    if (!spec.hasAttribute(a.name) && !(kept && kept.has(a.name))) old.removeAttribute(a.name);
  }
  // Properties a render may set that are not attributes.
  if (old.tagName === "INPUT" && old.checked !== spec.checked) old.checked = spec.checked;
}

/** Make the live node `old` look like `spec` (same kind); `spec` is used up. */
export function morph(old, spec) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== spec.nodeValue) old.nodeValue = spec.nodeValue;
    return;
  }
  syncAttributes(old, spec);
  takeHandlers(old, spec);
  reconcile(old, [...spec.childNodes]);
}

/**
 * Make the children of `parent` match `specs` (detached nodes, or live children of
 * `parent` to keep as they are; null entries are skipped). Returns `parent`.
 */
export function reconcile(parent, specs) {
  const wanted = specs.filter((s) => s !== null && s !== undefined && s !== false);
  const live = [...parent.childNodes];
  const claimed = new Set(wanted.filter((s) => s.parentNode === parent));
  const byKey = new Map();
  const inOrder = new Map(); // kind -> unkeyed live nodes, in order
  keysOf(live).forEach((k, i) => {
    const n = live[i];
    if (claimed.has(n)) return;
    if (k !== null) byKey.set(k, n);
    else {
      const kind = kindOf(n);
      if (!inOrder.has(kind)) inOrder.set(kind, []);
      inOrder.get(kind).push(n);
    }
  });
  const specKeys = keysOf(wanted);
  const pairs = wanted.map((spec, i) => {
    if (spec.parentNode === parent) return [spec, spec];
    let old = null;
    const k = specKeys[i];
    if (k !== null) old = byKey.get(k) || null;
    else old = (inOrder.get(kindOf(spec)) || []).shift() || null;
    if (old && claimed.has(old)) old = null;
    if (old) claimed.add(old);
    return [old, spec];
  });
  // Gone nodes first, so the kept ones need not move past them.
  for (const n of live) if (!claimed.has(n)) parent.removeChild(n);
  let cursor = parent.firstChild;
  for (const [old, spec] of pairs) {
    const node = old || spec;
    if (old && old !== spec) morph(old, spec);
    if (node === cursor) cursor = cursor.nextSibling;
    else parent.insertBefore(node, cursor);
  }
  return parent;
}
