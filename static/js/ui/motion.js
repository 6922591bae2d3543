// Motion: tiles slide to their place from the side of the player who laid them, a
// drawn tile comes in from the stock, points float up. Every animation is at most
// 250 ms and none runs under prefers-reduced-motion.

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
