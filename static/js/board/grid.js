// The integer grid the layout is worked out on (one unit is half a tile's short side:
// a tile is 4 x 2 units; y grows downwards, as in SVG): directions and vectors, a tile's
// footprint and the ports it offers, the cells a rect covers or borders. Pure; used by
// layout.js.

export const TILE_LEN = 4;
export const TILE_WID = 2;

export const E = [1, 0], W = [-1, 0], N = [0, -1], S = [0, 1];

export const add = (p, q) => [p[0] + q[0], p[1] + q[1]];
export const mul = (v, k) => [v[0] * k, v[1] * k];
export const neg = (v) => [-v[0], -v[1]];
// y grows downwards (SVG), so "left" of east is north.
export const left = (v) => [v[1], -v[0]];
export const right = (v) => [-v[1], v[0]];
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1];
export const eq = (a, b) => a[0] === b[0] && a[1] === b[1];

export function dirName(d) {
  if (eq(d, E)) return "E";
  if (eq(d, W)) return "W";
  if (eq(d, N)) return "N";
  return "S";
}

// Footprint of a tile laid at a (virtual) port p heading d.
export function footprint(p, d, isDouble) {
  const along = isDouble ? TILE_WID : TILE_LEN;
  const half = isDouble ? TILE_LEN / 2 : TILE_WID / 2;
  const l = left(d);
  const c1 = add(p, mul(l, half));
  const c2 = add(add(p, mul(d, along)), mul(l, -half));
  const x = Math.min(c1[0], c2[0]);
  const y = Math.min(c1[1], c2[1]);
  return { x, y, w: Math.abs(c1[0] - c2[0]), h: Math.abs(c1[1] - c2[1]) };
}

// A rect extended by k units in direction d.
export function grow(r, d, k) {
  return {
    x: d[0] < 0 ? r.x - k : r.x, y: d[1] < 0 ? r.y - k : r.y,
    w: r.w + Math.abs(d[0]) * k, h: r.h + Math.abs(d[1]) * k,
  };
}

export function cellsOf(r) {
  const out = [];
  for (let i = r.x; i < r.x + r.w; i++) for (let j = r.y; j < r.y + r.h; j++) out.push(i + "," + j);
  return out;
}

// True when the port point lies on the rect's edge: the tile visibly touches the end
// it joins and needs no connector line.
export function onBoundary(r, p) {
  const [x, y] = p;
  const inX = x >= r.x && x <= r.x + r.w;
  const inY = y >= r.y && y <= r.y + r.h;
  return inX && inY && (x === r.x || x === r.x + r.w || y === r.y || y === r.y + r.h);
}

// The ports (attachment points) a tile offers once laid at (p, d).
export function portsOf(tile, side, p, d, isDouble) {
  const out = {};
  if (isDouble) {
    const l = left(d);
    out[tile + ":lineB"] = { p: add(p, mul(d, 2)), d };
    out[tile + ":branchA"] = { p: add(add(p, d), mul(l, 2)), d: l };
    out[tile + ":branchB"] = { p: add(add(p, d), mul(l, -2)), d: neg(l) };
  } else {
    const other = side === "low" ? "high" : "low";
    out[tile + ":" + other] = { p: add(p, mul(d, TILE_LEN)), d };
  }
  return out;
}

// The cells just outside a rect's four edges (not its corners): a tile in any of them
// would share an edge with the rect.
export function ringOf(r) {
  const out = [];
  for (let i = r.x; i < r.x + r.w; i++) out.push(i + "," + (r.y - 1), i + "," + (r.y + r.h));
  for (let j = r.y; j < r.y + r.h; j++) out.push((r.x - 1) + "," + j, (r.x + r.w) + "," + j);
  return out;
}

// The connector a candidate needs: none when the tile visibly touches the end it joins.
export function connectorFor(cand, rect, port) {
  return cand.touch || onBoundary(rect, port.p) ? null : [port.p[0], port.p[1], cand.p[0], cand.p[1]];
}

export function reserveRect(port) {
  // The straight spot in front of a port, kept free for later tiles when possible.
  return footprint(port.p, port.d, false);
}
