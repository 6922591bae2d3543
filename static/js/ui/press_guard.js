// Redraws wait while a pointer is pressed on the page. The table is drawn afresh on
// every frame that changes it; a redraw between a press and its release replaces the
// element under the pointer, and the browser then fires no click (the click on a tile,
// a place or bare felt would be lost). A redraw asked for during a press runs just after
// the release (after the click it makes), or `maxHoldMs` after the press at the latest
// (a long drag or pan is not left without frames).

/**
 * @param {number} maxHoldMs the longest a redraw waits for a release
 * @returns {{run: (draw: () => void) => void, stop: () => void}}
 */
export function pressGuard(maxHoldMs = 1500) {
  let pressedAt = null; // when the pointer went down, while it is down
  let waiting = null; // the redraw asked for during the press
  let timer = null;
  const release = () => {
    pressedAt = null;
    if (timer !== null) { clearTimeout(timer); timer = null; }
    const draw = waiting;
    waiting = null;
    if (draw) setTimeout(draw, 0); // after this release's click has been handled
  };
  const press = () => { pressedAt = Date.now(); };
  document.addEventListener("pointerdown", press, true);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
  return {
    run(draw) {
      if (pressedAt === null) { draw(); return; }
      waiting = draw;
      if (timer === null) timer = setTimeout(release, Math.max(0, maxHoldMs - (Date.now() - pressedAt)));
    },
    stop() {
      document.removeEventListener("pointerdown", press, true);
      document.removeEventListener("pointerup", release, true);
      document.removeEventListener("pointercancel", release, true);
      if (timer !== null) clearTimeout(timer);
      timer = null; waiting = null;
    },
  };
}
