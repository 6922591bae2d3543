// Pure geometry of the drawn layout (grid units; rects {x, y, w, h}; connectors as
// polylines [x0, y0, x1, y1, ...]) and the drawing's rules as a check: no overlap,
// touching means joined, no connector through a tile. Used by layout.js while it
// places tiles, and by the tests on whole layouts.

/**
 * True when the segment [x1, y1, x2, y2] passes through the inside of rect `r` (its
 * edges do not count).
 *
 * >>> segmentCrossesRect([0, 0, 10, 0], {x: 2, y: -1, w: 4, h: 2})  // true
 * >>> segmentCrossesRect([0, -1, 10, -1], {x: 2, y: -1, w: 4, h: 2}) // false: along an edge
 */
export function segmentCrossesRect(seg, r) {
  const [x1, y1, x2, y2] = seg;
  let t0 = 0, t1 = 1;
  const dx = x2 - x1, dy = y2 - y1;
  const clip = (p, q) => { // keep t where p * t < q (strictly inside)
    if (p === 0) return q > 0;
    const tt = q / p;
    if (p < 0) { if (tt > t0) t0 = tt; } else if (tt < t1) t1 = tt;
    return true;
  };
  if (!clip(-dx, x1 - r.x) || !clip(dx, r.x + r.w - x1) || !clip(-dy, y1 - r.y) || !clip(dy, r.y + r.h - y1)) return false;
  return t1 - t0 > 1e-9;
}

/**
 * True when a connector (a polyline [x0, y0, x1, y1, …], usually one segment, at most
 * one bend) passes through the inside of rect `r`.
 */
export function connectorCrossesRect(conn, r) {
  for (let i = 0; i + 3 < conn.length; i += 2) {
    if (segmentCrossesRect([conn[i], conn[i + 1], conn[i + 2], conn[i + 3]], r)) return true;
  }
  return false;
}

/** True when two rects share a piece of edge (a positive length), not just a corner. */
export function edgeContact(a, b) {
  const xOver = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0;
  const yOver = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0;
  const xTouch = a.x + a.w === b.x || b.x + b.w === a.x;
  const yTouch = a.y + a.h === b.y || b.y + b.h === a.y;
  return (xTouch && yOver) || (yTouch && xOver);
}

/**
 * The drawing's rule breaks: overlapping tiles; tiles that touch although neither joins
 * the other ("touching means joined"); connector lines that cross a tile. `ghosts` are
 * targets (ghostRect) checked against the placed tiles the same way. [] when sound.
 */
export function layoutProblems(rects, ghosts = []) {
  const out = [];
  const tileOfPlace = (p) => p.slice(0, p.lastIndexOf(":"));
  const parentOf = (r) => (r.at ? tileOfPlace(r.at) : r.place ? tileOfPlace(r.place) : null);
  const joined = (a, b) => parentOf(a) === b.tile || parentOf(b) === a.tile;
  for (let i = 0; i < rects.length; i++) {
    const a = rects[i];
    for (let j = i + 1; j < rects.length; j++) {
      const b = rects[j];
      if (overlaps(a, b)) out.push({ kind: "overlap", a: a.tile, b: b.tile });
      else if (edgeContact(a, b) && !joined(a, b)) out.push({ kind: "touch", a: a.tile, b: b.tile });
    }
    if (a.connector) for (const b of rects) if (connectorCrossesRect(a.connector, b)) out.push({ kind: "cross", a: a.tile, b: b.tile });
  }
  for (const g of ghosts) {
    const tag = "target " + g.tile + "@" + g.place;
    for (const b of rects) {
      if (overlaps(g, b)) out.push({ kind: "overlap", a: tag, b: b.tile });
      else if (edgeContact(g, b) && parentOf(g) !== b.tile) out.push({ kind: "touch", a: tag, b: b.tile });
      if (g.connector && connectorCrossesRect(g.connector, b)) out.push({ kind: "cross", a: tag, b: b.tile });
    }
    if (g.connector && connectorCrossesRect(g.connector, g)) out.push({ kind: "cross", a: tag, b: tag });
  }
  return out;
}

/** Overlap check used by the tests: true when two rects share area. */
export function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
