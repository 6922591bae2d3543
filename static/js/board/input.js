// Board input: which targets a selected tile has, drag-and-drop from the hand, zoom
// and pan. Pure helpers first (testable), DOM wiring after.
import { ghostRect, parsePlace } from "./layout.js";
import { on } from "../dom.js";

/** Legal placements of `tile` from the view's legal list. */
export function movesForTile(legal, tile) {
  return (legal || []).filter((m) => (m.kind === "place" || m.kind === "open") && m.tile === tile);
}

/** Tiles of the hand that have at least one legal placement. */
export function playableTiles(legal) {
  const s = new Set();
  for (const m of legal || []) if (m.kind === "place" || m.kind === "open") s.add(m.tile);
  return s;
}

/** Ghost targets for a selected tile: [{key, move, points, rect, label}] in a stable order. */
export function targetsFor(lay, legal, tile, labelFn = null) {
  return movesForTile(legal, tile).map((m) => {
    const key = m.place || "open";
    const rect = ghostRect(lay, tile, m.place || null);
    return { key, move: m.move, points: m.points || 0, rect, label: labelFn ? labelFn(m) : m.move };
  }).sort((a, b) => (a.rect.y - b.rect.y) || (a.rect.x - b.rect.x));
}

/** "3|4:high" -> "[3|4] high"; `sideLabel` translates the side name. */
export function placeText(place, sideLabel = (s) => s) {
  if (!place) return "";
  const { tile, side } = parsePlace(place);
  return `[${tile}] ${sideLabel(side)}`;
}

/**
 * Drag a hand tile onto a target. `onStart(tile)` selects it (so targets render),
 * `onDrop(moveOrNull)` ends it. Returns a pointerdown handler for hand buttons.
 */
export function dragHandler({ onStart, onDrop, makeGhost }) {
  return (ev, tile) => {
    if (ev.button !== undefined && ev.button !== 0) return;
    const x0 = ev.clientX, y0 = ev.clientY;
    let dragging = false;
    let ghost = null;
    const move = (e) => {
      if (!dragging && Math.hypot(e.clientX - x0, e.clientY - y0) > 8) {
        dragging = true;
        onStart(tile);
        ghost = makeGhost(tile);
        ghost.style.position = "fixed";
        ghost.style.pointerEvents = "none";
        ghost.style.zIndex = "50";
        ghost.style.opacity = "0.85";
        document.body.appendChild(ghost);
      }
      if (dragging && ghost) {
        ghost.style.left = e.clientX - 14 + "px";
        ghost.style.top = e.clientY - 28 + "px";
        const el = document.elementFromPoint(e.clientX, e.clientY);
        document.querySelectorAll(".target.drop").forEach((t) => t.classList.remove("drop"));
        const tgt = el && el.closest && el.closest("[data-move]");
        if (tgt) tgt.classList.add("drop");
      }
    };
    const up = (e) => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("pointercancel", up);
      if (ghost) ghost.remove();
      if (!dragging) return;
      window.__fiveupSuppressClick = Date.now();
      const el = document.elementFromPoint(e.clientX, e.clientY);
      const tgt = el && el.closest && el.closest("[data-move]");
      onDrop(tgt ? tgt.getAttribute("data-move") : null);
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", up);
  };
}

/**
 * Pan the board by dragging empty felt; the wheel zooms. The handlers go on the
 * freshly built board (`svg`), which the renderer may drop for the live one it keeps,
 * so the drag is followed at the document level and measured against the board on
 * the page (`getSvg()`).
 */
export function attachZoomPan(svg, getZoom, setZoom, getSvg = () => svg) {
  on(svg, "pointerdown", (e) => {
    if (e.target.closest && e.target.closest("[data-move]")) return;
    if (e.button !== undefined && e.button !== 0) return;
    const start = { x: e.clientX, y: e.clientY, z: { ...getZoom() } };
    const move = (ev) => {
      const cur = getSvg();
      const vb = cur && cur.viewBox && cur.viewBox.baseVal;
      const rect = cur && cur.getBoundingClientRect();
      if (!vb || !rect || !rect.width) return;
      const scale = Math.max(vb.width / rect.width, vb.height / rect.height) / 10; // grid units per px
      const dx = (ev.clientX - start.x) * scale, dy = (ev.clientY - start.y) * scale;
      if (Math.abs(dx) + Math.abs(dy) < 0.3) return;
      setZoom({ k: start.z.k, x: start.z.x - dx, y: start.z.y - dy });
    };
    const up = () => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("pointercancel", up);
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", up);
  });
  on(svg, "wheel", (e) => {
    e.preventDefault();
    const z = getZoom();
    const k = Math.min(6, Math.max(1, z.k * (e.deltaY < 0 ? 1.15 : 1 / 1.15)));
    setZoom({ k, x: k === 1 ? 0 : z.x, y: k === 1 ? 0 : z.y });
  }); // not passive (dom.js binds "wheel" so): it keeps the page from scrolling
}
