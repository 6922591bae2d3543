// SVG rendering of the layout and of single tiles. Reads positioned rects from
// layout.js; knows nothing about the server. All text goes in as textContent.

import { viewBoxFor } from "./layout.js";

/** Displayed points (R3, R15): the raw end sum a placement earns, divided by 5. */
export function displayedPoints(raw) {
  return raw > 0 && raw % 5 === 0 ? raw / 5 : 0;
}

// Centre of the far half of a ghost (SVG units): inside the ghost, away from the end
// it joins. A double's "far half" is its middle.
function pillSpot(r) {
  const cx = (r.x + r.w / 2) * U, cy = (r.y + r.h / 2) * U;
  if (r.double || r.dir === undefined) return [cx, cy];
  const q = 1; // a quarter of a tile's length (4 units)
  const off = { E: [q, 0], W: [-q, 0], S: [0, q], N: [0, -q] }[r.dir] || [0, 0];
  return [cx + off[0] * U, cy + off[1] * U];
}

export const SVGNS = "http://www.w3.org/2000/svg";
export const U = 10; // SVG user units per grid unit (a tile is 40 x 20)

export function svgEl(name, attrs = {}, parent = null) {
  const el = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

// Pip positions in a unit square (0..1), for a half whose long side runs `horizontal`.
function pipSpots(n, horizontalTile) {
  const a = 0.25, m = 0.5, b = 0.75;
  switch (n) {
    case 0: return [];
    case 1: return [[m, m]];
    case 2: return [[a, a], [b, b]];
    case 3: return [[a, a], [m, m], [b, b]];
    case 4: return [[a, a], [b, a], [a, b], [b, b]];
    case 5: return [[a, a], [b, a], [m, m], [a, b], [b, b]];
    case 6: return horizontalTile
      ? [[a, a], [m, a], [b, a], [a, b], [m, b], [b, b]]
      : [[a, a], [a, m], [a, b], [b, a], [b, m], [b, b]];
    default: return [];
  }
}

function drawHalf(g, x, y, size, n, horizontal) {
  const r = size * 0.09;
  for (const [fx, fy] of pipSpots(n, horizontal)) {
    svgEl("circle", { cx: x + fx * size, cy: y + fy * size, r, class: "pip" }, g);
  }
}

/**
 * A tile face as an SVG <g> at (x, y) size (w, h) in SVG units. `one` is the value of
 * the top/left half, `two` of the bottom/right half.
 */
export function tileFace(x, y, w, h, one, two, extraClass = "") {
  const g = svgEl("g", { class: ("tile " + extraClass).trim() });
  const horizontal = w >= h;
  const rr = Math.min(w, h) * 0.12;
  svgEl("rect", { x: x + 0.6, y: y + 0.6, width: w - 1.2, height: h - 1.2, rx: rr, class: "tile-body" }, g);
  if (horizontal) {
    const s = w / 2;
    svgEl("line", { x1: x + s, y1: y + h * 0.15, x2: x + s, y2: y + h * 0.85, class: "tile-divider" }, g);
    drawHalf(g, x, y, s, one, true);
    drawHalf(g, x + s, y, s, two, true);
  } else {
    const s = h / 2;
    svgEl("line", { x1: x + w * 0.15, y1: y + s, x2: x + w * 0.85, y2: y + s, class: "tile-divider" }, g);
    drawHalf(g, x, y, s, one, false);
    drawHalf(g, x, y + s, s, two, false);
  }
  return g;
}

/** Values for the top/left and bottom/right halves of a positioned rect. */
export function faceValues(r) {
  if (r.double) return [r.first, r.first];
  // dir runs from the connected half (first) to the far half (second).
  if (r.dir === "E" || r.dir === "S") return [r.first, r.second];
  return [r.second, r.first];
}

/** A small standalone SVG of one tile (hand, logs, settlement). */
export function tileSvg(tile, { vertical = true, size = 28, faceDown = false } = {}) {
  const w = vertical ? size : size * 2, h = vertical ? size * 2 : size;
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: "tile-svg", "aria-hidden": "true" });
  if (faceDown) {
    const g = svgEl("g", { class: "tile back" }, svg);
    svgEl("rect", { x: 0.6, y: 0.6, width: w - 1.2, height: h - 1.2, rx: size * 0.12, class: "tile-back" }, g);
    svgEl("rect", { x: size * 0.18, y: size * 0.18, width: w - size * 0.36, height: h - size * 0.36, rx: size * 0.08, class: "tile-back-inner" }, g);
    return svg;
  }
  const [a, b] = String(tile).split("|").map(Number);
  svg.appendChild(tileFace(0, 0, w, h, a, b));
  return svg;
}

// The largest a tile is drawn, in CSS pixels per grid unit (a tile is 4 x 2 units):
// a young layout fills the felt up to this readable maximum, and no further.
export const MAX_PX_PER_UNIT = 26;

/**
 * The smallest drawing (grid units) for a board element of `px` CSS pixels: a layout
 * smaller than this is drawn at the readable maximum, centred.
 */
export function minViewFor(px, floor = { w: 12, h: 10 }) {
  if (!px || !px.w || !px.h) return { w: 36, h: 20 };
  return { w: Math.max(floor.w, px.w / MAX_PX_PER_UNIT), h: Math.max(floor.h, px.h / MAX_PX_PER_UNIT) };
}

/**
 * Set the board's viewBox: every tile and target, scaled to the space available
 * (`opts.px`, the element's size in CSS pixels) within the readable maximum and
 * centred; then the user's zoom and pan. Returns the unzoomed box in grid units.
 */
export function fitView(svg, lay, targets, opts = {}) {
  const vb = viewBoxFor(lay, (targets || []).map((t) => t.rect), 3, opts.minView || minViewFor(opts.px));
  const z = opts.zoom || { k: 1, x: 0, y: 0 };
  const w = vb[2] / z.k, h = vb[3] / z.k;
  const cx = vb[0] + vb[2] / 2 + z.x, cy = vb[1] + vb[3] / 2 + z.y;
  svg.setAttribute("viewBox", [(cx - w / 2) * U, (cy - h / 2) * U, w * U, h * U].join(" "));
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  return vb;
}

// A connector: a dashed polyline through [x0, y0, x1, y1, …] (grid units).
function connectorLine(conn, cls, parent, key = null) {
  const pts = [];
  for (let i = 0; i + 1 < conn.length; i += 2) pts.push(conn[i] * U + "," + conn[i + 1] * U);
  return svgEl("polyline", { points: pts.join(" "), class: cls, fill: "none", "data-key": key }, parent);
}

/**
 * Draw the board.
 *  svg      the <svg> element (content is replaced: build it detached and let
 *           reconcile.js bring the live board up to it)
 *  lay      a Layout (computeLayout(...).layout)
 *  opts.last       tile string of the last placed tile (highlighted)
 *  opts.targets    [{key, rect, points, label}] ghost targets for the selected tile
 *  opts.focusKey   key of the keyboard-focused target
 *  opts.zoom {k, x, y}  user zoom and pan (applied to the viewBox)
 *  opts.px {w, h}       the element's size in CSS pixels (see fitView)
 *  opts.minView {w, h}  or a fixed smallest drawing (grid units)
 */
/**
 * Where a tile's last-move mark goes: a spot inside `r` (grid units) where the mark
 * (radius 6.5) — and, with `floatLen` characters of "+N" beside it — lies clear of
 * every open end's marker in `ends` ({cx, cy} in drawing units, 9 wide). Spots are
 * tried from the top-right corner on; the clearest one wins when none is clear.
 * {mx, my}: the mark's centre; sx: the side (+1 right, -1 left) its "+N" extends to.
 */
export function markSpot(r, ends, floatLen = 0) {
  const L = r.x * U, T = r.y * U, W = r.w * U, H = r.h * U;
  const xs = [W - 3, 3, W - 9, 9, W / 2].map((d) => L + d);
  const ys = [3, H - 3, 9, H - 9, H / 2].map((d) => T + d);
  // how far a box is from the nearest end marker (positive: apart)
  const apart = (x0, y0, x1, y1) => {
    let gap = Infinity;
    for (const e of ends) {
      gap = Math.min(gap, Math.max(x0 - (e.cx + 4.5), e.cx - 4.5 - x1, y0 - (e.cy + 4.5), e.cy - 4.5 - y1));
    }
    return gap;
  };
  const fw = floatLen * 5.5 + 3;
  let best = null, bestGap = -Infinity;
  for (const my of ys) {
    for (const mx of xs) {
      for (const sx of floatLen ? [1, -1] : [1]) {
        let gap = apart(mx - 6.5, my - 6.5, mx + 6.5, my + 6.5);
        if (floatLen) {
          const fx = sx > 0 ? mx + 8 : mx - 8 - fw;
          gap = Math.min(gap, apart(fx, my - 6, fx + fw, my + 6));
        }
        if (gap >= 1) return { mx, my, sx };
        if (gap > bestGap) { bestGap = gap; best = { mx, my, sx }; }
      }
    }
  }
  return best;
}

export function renderBoard(svg, lay, opts = {}) {
  const targets = opts.targets || [];
  const vb = fitView(svg, lay, targets, opts);
  while (svg.firstChild) svg.removeChild(svg.firstChild); // a fresh drawing (reconcile.js keeps the live one)

  const gConn = svgEl("g", { class: "connectors" }, svg);
  const gTiles = svgEl("g", { class: "tiles" }, svg);
  const gEnds = svgEl("g", { class: "open-ends" }, svg);
  const gMarks = svgEl("g", { class: "marks" }, svg);
  const gTargets = svgEl("g", { class: "targets" }, svg);
  const marks = new Map((opts.marks || []).map((m) => [m.tile, m]));
  // The open ends' value markers (drawn below): a tile's marks go to the corner
  // farthest from them, so an initial or a "+N" never covers the number of an end.
  const targeted = new Set(targets.map((tg) => tg.key));
  const ends = [];
  for (const pl of opts.places || []) {
    const port = lay.ports && lay.ports.get(pl.place);
    if (!port || targeted.has(pl.place)) continue; // a target (with its points) lies there now
    const [x, y] = port.p, [dx, dy] = port.d;
    // Half a unit out: the cell in front of an open end is always free (a tile there
    // would touch without joining), so the mark never covers a tile.
    ends.push({ pl, cx: (x + dx * 0.5) * U, cy: (y + dy * 0.5) * U });
  }

  for (const r of lay.rects) {
    if (r.connector) connectorLine(r.connector, "connector", gConn, "c:" + r.tile);
    const [one, two] = faceValues(r);
    const g = tileFace(r.x * U, r.y * U, r.w * U, r.h * U, one, two, r.tile === opts.last ? "last" : "");
    g.setAttribute("data-tile", r.tile);
    g.setAttribute("data-board-tile", r.tile);
    g.setAttribute("data-key", "t:" + r.tile); // the same node for as long as the tile lies there
    const mk = marks.get(r.tile);
    if (mk) {
      // The last move of a player: a mark on the tile, their initial and what it scored.
      g.classList.add("seat-last");
      g.setAttribute("data-last-of", mk.seat);
      const { mx, my, sx } = markSpot(r, ends, mk.points > 0 ? String(mk.points).length + 1 : 0);
      const mkKey = mk.seat + ":" + r.tile;
      svgEl("circle", { cx: mx, cy: my, r: 6.5, class: "last-mark seat-c" + mk.seat, "data-key": "m:" + mkKey }, gMarks);
      const tx = svgEl("text", { x: mx, y: my, class: "last-mark-text", "data-key": "i:" + mkKey }, gMarks);
      tx.textContent = mk.initial;
      if (mk.points > 0) {
        const fl = svgEl("text", { x: mx + 9 * sx, y: my, "text-anchor": sx > 0 ? "start" : "end", class: "float-points" + (mk.fresh ? " fresh" : ""), "data-float": mk.seat, "data-tile": r.tile, "data-key": "f:" + mkKey }, gMarks);
        fl.textContent = "+" + mk.points;
      }
    }
    if (opts.ownFloat && opts.ownFloat.tile === r.tile) {
      const { mx, my, sx } = markSpot(r, ends, String(opts.ownFloat.points).length + 1);
      const fl = svgEl("text", { x: mx + 9 * sx, y: my, "text-anchor": sx > 0 ? "start" : "end", class: "float-points fresh", "data-float": "you", "data-tile": r.tile, "data-key": "f:you:" + r.tile }, gMarks);
      fl.textContent = "+" + opts.ownFloat.points;
    }
    const title = svgEl("title", {}, g);
    title.textContent = r.tile;
    gTiles.appendChild(g);
  }

  // The open ends (R12), spinner branches included, with the number each shows.
  for (const { pl, cx, cy } of ends) {
    const g = svgEl("g", { class: "open-end", "data-open": pl.place, "data-value": pl.value, "data-key": "e:" + pl.place }, gEnds);
    svgEl("circle", { cx, cy, r: 4.5, class: "open-end-dot" }, g);
    const tx = svgEl("text", { x: cx, y: cy, class: "open-end-text" }, g);
    tx.textContent = String(pl.value);
  }

  for (const t of targets) {
    const r = t.rect;
    const g = svgEl("g", {
      class: "target" + (t.key === opts.focusKey ? " focused" : ""),
      "data-key": "p:" + t.key, "data-place": t.key, "data-move": t.move, "data-points": t.points, "data-score": displayedPoints(t.points),
      role: "button", tabindex: "-1", "aria-label": t.label || t.key,
    }, gTargets);
    if (r.connector) connectorLine(r.connector, "connector ghost", g);
    if (r.first !== undefined) {
      const [one, two] = faceValues(r);
      g.appendChild(tileFace(r.x * U, r.y * U, r.w * U, r.h * U, one, two, "ghost"));
    }
    svgEl("rect", { x: r.x * U + 1, y: r.y * U + 1, width: r.w * U - 2, height: r.h * U - 2, rx: 3, class: "target-rect" }, g);
    // The points pill shows what the SCORE will change by (R3/R15: 5 raw = 1 point),
    // and sits inside the ghost's far half, so it never covers a placed tile.
    const [px, py] = pillSpot(r);
    const shown = displayedPoints(t.points);
    const text = shown > 0 ? "+" + shown : "0";
    const pw = text.length * 5.4 + 7;
    svgEl("rect", { x: px - pw / 2, y: py - 5.5, width: pw, height: 11, rx: 5.5, class: "target-pill" + (shown > 0 ? " scoring" : "") }, g);
    const label = svgEl("text", { x: px, y: py, class: "target-label" + (shown > 0 ? " scoring" : "") }, g);
    label.textContent = text;
  }
  return vb;
}
