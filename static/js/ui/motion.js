// Motion: tiles slide to their place from the side of the player who laid them, a
// drawn tile comes in from the stock, points float up. Every animation is at most
// 250 ms and none runs under prefers-reduced-motion. What is new is told by node
// identity: the page is updated in place (reconcile.js), so a node not seen before
// is one that just arrived.

export const MAX_MS = 250;

/** False when the user asked the system for reduced motion. */
export function motionOn() {
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// For the tests: how many animations were started.
window.__fiveupMotion = window.__fiveupMotion || { started: 0 };

/** el.animate(keyframes) within the limits; null when motion is off. */
export function animate(el, keyframes, ms = 220) {
  if (!motionOn() || !el || !el.animate) return null;
  window.__fiveupMotion.started++;
  return el.animate(keyframes, { duration: Math.min(ms, MAX_MS), easing: "ease-out" });
}

// Unit vector from the middle of the board towards a seat's place at the table.
const TOWARDS = { bottom: [0, 1], top: [0, -1], left: [-1, 0], right: [1, 0] };

/** Slide a freshly laid board tile (an SVG <g>) in from the side of `pos`. */
export function slideIn(g, pos, dist = 140) {
  const [dx, dy] = TOWARDS[pos] || [0, 1];
  return animate(g, [
    { transform: `translate(${dx * dist}px, ${dy * dist}px)`, opacity: 0.4 },
    { transform: "translate(0px, 0px)", opacity: 1 },
  ]);
}

/** A drawn tile arrives in the hand from above (the stock). */
export function dropIn(el) {
  return animate(el, [{ transform: "translateY(-40px)", opacity: 0 }, { transform: "translateY(0)", opacity: 1 }], 200);
}

/** Points float up into place. */
export function floatUp(el) {
  return animate(el, [{ transform: "translate(0px, 8px)", opacity: 0 }, { transform: "translate(0px, 0px)", opacity: 1 }], 250);
}

// A node already on the page (drawn before): set on each board tile, float and hand
// tile the first time it is seen, so motion follows node identity (reconcile.js keeps
// a node for as long as its tile lies there).
const SHOWN = "__fiveupShown";

/** The nodes of `els` not seen before, each marked seen now. */
function arrivals(els) {
  const out = [];
  for (const el of els) if (!el[SHOWN]) { el[SHOWN] = true; out.push(el); }
  return out;
}

/**
 * Motion for what is new on the page after a render: a tile node the (live) `board`
 * did not have slides in from the side `posOf(tile)` of the player who laid it, new
 * points float up, a new tile in the (live) `hand` drops in. A board or hand drawn
 * for the first time (a page load, a new deal's hand) moves nothing.
 */
export function animateArrivals(board, hand, posOf) {
  const boardKnown = !!board[SHOWN];
  board[SHOWN] = true;
  for (const g of arrivals(board.querySelectorAll("[data-board-tile]"))) {
    if (boardKnown) slideIn(g, posOf(g.getAttribute("data-board-tile")));
  }
  for (const fl of arrivals(board.querySelectorAll(".float-points"))) {
    if (boardKnown && fl.classList.contains("fresh")) floatUp(fl);
  }
  if (!hand) return;
  const handKnown = !!hand[SHOWN];
  hand[SHOWN] = true;
  for (const el of arrivals(hand.querySelectorAll(".hand-tile"))) if (handKnown) dropIn(el);
}
