// Pure layout routine: view.layout.tiles -> positioned rectangles.
//
// No DOM, no globals, deterministic. Works on an integer grid where one unit is half
// a tile's short side: a tile is 4 x 2 units. Every placement is checked against the
// set of occupied cells, so two tiles can never overlap; when the straight spot is
// blocked (by a tile, by the reserved space in front of another open place, or by
// the board edge) the line bends (turns left/right, snakes back), then tries further
// options, and as a last resort the tile goes to the nearest free spot with a
// connector line. See docs/client.md for the full description.

import { segmentCrossesRect, connectorCrossesRect, edgeContact, layoutProblems, overlaps } from "./geometry.js";

import { parsePlace, parseTile, placeValue, viaFor } from "./notation.js";
import {
  TILE_LEN, TILE_WID, E, W, N, S, add, mul, neg, left, right, dot, eq, dirName, footprint, grow, cellsOf, portsOf, ringOf, connectorFor, reserveRect,
} from "./grid.js";

export { segmentCrossesRect, connectorCrossesRect, edgeContact, layoutProblems, overlaps };
export { parsePlace, parseTile, placeValue, viaFor };
export { TILE_LEN, TILE_WID, dirName } from "./grid.js";

export const DEFAULT_BOARD = { w: 56, h: 36 };
export const PORTRAIT_BOARD = { w: 28, h: 44 };

/** The soft board shape for a viewport: tall on a portrait screen (phone, tablet), wide otherwise. */
export function boardFor(width, height) {
  return height > width * 1.1 ? PORTRAIT_BOARD : DEFAULT_BOARD;
}

export class Layout {
  constructor(opts = {}) {
    this.board = opts.board || DEFAULT_BOARD;
    this.occ = new Set();
    this.owner = new Map(); // cell -> tile occupying it
    this.reserved = new Map(); // cell -> Set(placeKey)
    this.ports = new Map(); // placeKey -> {p, d, pref}
    this.rects = [];
    this.byTile = new Map();
  }

  inBoard(r) {
    const hw = this.board.w / 2, hh = this.board.h / 2;
    return r.x >= -hw && r.y >= -hh && r.x + r.w <= hw && r.y + r.h <= hh;
  }

  free(r) {
    for (const c of cellsOf(r)) if (this.occ.has(c)) return false;
    return true;
  }

  // Touching means joined: a tile may share an edge only with the tile it joins
  // (`parent`), never with any other tile.
  contactOk(r, parent) {
    for (const c of ringOf(r)) {
      const o = this.owner.get(c);
      if (o !== undefined && o !== parent) return false;
    }
    return true;
  }

  // A connector line never crosses a tile.
  connectorOk(conn, rect) {
    // ... neither the candidate's own connector, nor one already drawn across its spot.
    for (const r of this.rects) {
      if (r.connector && connectorCrossesRect(r.connector, rect)) return false;
      if (conn && connectorCrossesRect(conn, r)) return false;
    }
    return !(conn && connectorCrossesRect(conn, rect));
  }

  clearOfReserve(r, ownKey) {
    for (const c of cellsOf(r)) {
      const s = this.reserved.get(c);
      if (!s) continue;
      for (const k of s) if (k !== ownKey) return false;
    }
    return true;
  }

  reserve(key, port) {
    for (const c of cellsOf(reserveRect(port))) {
      if (!this.reserved.has(c)) this.reserved.set(c, new Set());
      this.reserved.get(c).add(key);
    }
  }

  unreserve(key, port) {
    for (const c of cellsOf(reserveRect(port))) {
      const s = this.reserved.get(c);
      if (s) {
        s.delete(key);
        if (!s.size) this.reserved.delete(c);
      }
    }
  }

  // Candidate (virtual) ports for a tile at a real port, in order of preference.
  candidates(port, isDouble) {
    const { p, d } = port;
    const l = left(d), r = right(d);
    // Turn towards the middle of the board first (snake back), unless the port
    // carries a pending turn from a previous bend.
    let turns;
    if (port.pref === "L") turns = [l, r];
    else if (port.pref === "R") turns = [r, l];
    else turns = dot(l, neg(p)) >= dot(r, neg(p)) ? [l, r] : [r, l];
    const out = [];
    const straight = { p, d, kind: "straight" };
    const hug = turns.map((t) => ({ p: add(add(p, d), neg(t)), d: t, kind: "turn", sense: eq(t, l) ? "L" : "R" }));
    if (port.pref) out.push(hug[0], straight, hug[1]);
    else out.push(straight, ...hug);
    if (isDouble) {
      // A double at a corner: laid alongside the end of the line (half under the last
      // tile's end), its own line leaving at a right angle; or just beyond the end.
      for (const t of turns) out.push({ p: add(p, t), d: t, kind: "turn", sense: eq(t, l) ? "L" : "R", touch: true });
      for (const t of turns) out.push({ p: add(add(p, mul(d, 2)), neg(t)), d: t, kind: "turn", sense: eq(t, l) ? "L" : "R" });
    }
    // Jogs: straight, shifted sideways.
    for (const j of [1, -1, 2, -2]) out.push({ p: add(p, mul(l, j)), d, kind: "jog" });
    // Turns with a small offset.
    for (const t of turns) {
      for (const k of [2, 3]) out.push({ p: add(add(p, mul(d, k)), neg(t)), d: t, kind: "turn", sense: eq(t, l) ? "L" : "R" });
      out.push({ p: add(p, mul(t, 2)), d: t, kind: "turn", sense: eq(t, l) ? "L" : "R" });
    }
    // Step out a little along the line.
    for (const k of [1, 2, 3]) out.push({ p: add(p, mul(d, k)), d, kind: "gap" });
    return out;
  }

  // Find where `tile` goes when joined at `placeKey` (null: the opening). No mutation.
  plan(tile, placeKey) {
    const isDouble = parseTile(tile).double;
    if (placeKey == null || !this.ports.has(placeKey)) {
      if (this.rects.length === 0 && placeKey == null) {
        const d = E;
        const p = isDouble ? [-1, 0] : [-2, 0];
        return { p, d, rect: footprint(p, d, isDouble), kind: "open", connector: null };
      }
      // Unknown place (should not happen): put it anywhere free.
      return this.spiral(isDouble, [0, 0], null);
    }
    const port = this.ports.get(placeKey);
    const parent = parsePlace(placeKey).tile;
    let firstHard = null, firstBoard = null, best = null;
    this.candidates(port, isDouble).forEach((c, rank) => {
      const rect = footprint(c.p, c.d, isDouble);
      if (!this.free(rect)) return;
      // Hard rules besides "no overlap": touching means joined, connectors cross no tile.
      if (!this.contactOk(rect, parent)) return;
      if (!this.connectorOk(connectorFor(c, rect, port), rect)) return;
      const cand = { ...c, rect };
      // A tile that keeps the line's direction must leave room before the edge for
      // the next tile to bend (a bend sticks out 2 units past the line's end).
      const inB = c.kind === "turn" ? this.inBoard(rect) : this.inBoard(grow(rect, c.d, 2));
      if (inB && this.clearOfReserve(rect, placeKey)) {
        // Among the good spots, prefer the earliest that leaves the line room to go on.
        const score = rank + this.lookahead(c, isDouble, rect);
        if (!best || score < best.score) best = { cand, score };
      }
      if (inB && !firstBoard) firstBoard = cand;
      if (!firstHard) firstHard = cand;
    });
    if (best) return this.finish(best.cand, port);
    if (firstBoard) return this.finish(firstBoard, port);
    if (firstHard) return this.finish(firstHard, port);
    return this.spiral(isDouble, port.p, port, parent);
  }

  // How hard it will be to continue the line from the tile's far end (0 = straight on
  // is free, 1.5 = only a bend is free, 4 = boxed in). The tile's own cells count.
  lookahead(c, isDouble, rect) {
    const along = isDouble ? TILE_WID : TILE_LEN;
    const p = add(c.p, mul(c.d, along)), d = c.d;
    const own = new Set(cellsOf(rect));
    const free = (r) => cellsOf(r).every((x) => !this.occ.has(x) && !own.has(x));
    const ok = (r) => this.inBoard(r) && free(r);
    let pen = 4;
    if (ok(grow(footprint(p, d, false), d, 2))) pen = 0;
    else for (const t of [left(d), right(d)]) if (ok(footprint(add(add(p, d), neg(t)), t, false))) { pen = 1.5; break; }
    // A double's branches open later (R11): a branch facing a tile across a gap too
    // narrow for a tile would become a pocket that no connector can leave.
    if (isDouble) {
      const l = left(d);
      for (const bp of [{ p: add(add(c.p, d), mul(l, 2)), d: l }, { p: add(add(c.p, d), mul(l, -2)), d: neg(l) }]) {
        if (!free(footprint(bp.p, bp.d, false))) pen += 6;
      }
    }
    return pen;
  }


  finish(cand, port) {
    return { ...cand, connector: connectorFor(cand, cand.rect, port) };
  }

  // Last resort: nearest free spot (prefer inside the board), joined by a connector.
  spiral(isDouble, origin, port, parent = null) {
    const dirs = port ? [port.d, left(port.d), right(port.d), neg(port.d)] : [E, S, W, N];
    let outside = null, crossing = null;
    for (let rad = 1; rad < 400; rad++) {
      for (let dx = -rad; dx <= rad; dx++) {
        for (let dy = -rad; dy <= rad; dy++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== rad) continue;
          const p = [origin[0] + dx, origin[1] + dy];
          for (const d of dirs) {
            const rect = footprint(p, d, isDouble);
            // Leave a one-cell margin around the spot so the connector end is visible.
            const halo = { x: rect.x - 1, y: rect.y - 1, w: rect.w + 2, h: rect.h + 2 };
            if (!this.free(halo)) continue;
            const cand = { p, d, rect, kind: "far", connector: port ? [port.p[0], port.p[1], p[0], p[1]] : null };
            if (!this.connectorOk(cand.connector, rect)) {
              // A straight line would cross a tile: try one bend (an L), first along
              // the port's own direction.
              const [qx, qy] = port.p;
              const bends = port.d[0] === 0 ? [[qx, p[1]], [p[0], qy]] : [[p[0], qy], [qx, p[1]]];
              const ok = bends.map(([bx, by]) => [qx, qy, bx, by, p[0], p[1]]).find((c) => this.connectorOk(c, rect));
              if (!ok) { if (!crossing) crossing = cand; continue; }
              cand.connector = ok;
            }
            if (this.inBoard(rect)) return cand;
            if (!outside) outside = cand;
          }
        }
      }
      if (outside && rad > Math.max(this.board.w, this.board.h)) return outside;
    }
    return outside || crossing;
  }

  // Lay a tile for real.
  place(entry, index = this.rects.length) {
    const { tile, at, via } = entry;
    const t = parseTile(tile);
    const plan = this.plan(tile, at);
    const side = t.double ? "lineA" : via || "low";
    const first = t.double ? t.a : side === "low" ? t.a : t.b;
    const second = t.double ? t.a : side === "low" ? t.b : t.a;
    const rect = {
      tile, index, at: at ?? null, via: via ?? null,
      x: plan.rect.x, y: plan.rect.y, w: plan.rect.w, h: plan.rect.h,
      double: t.double, first, second, dir: dirName(plan.d),
      kind: plan.kind, connector: plan.connector,
    };
    for (const c of cellsOf(plan.rect)) { this.occ.add(c); this.owner.set(c, tile); }
    const parentPref = at != null && this.ports.has(at) ? this.ports.get(at).pref : null;
    if (at != null && this.ports.has(at)) {
      this.unreserve(at, this.ports.get(at));
      this.ports.delete(at);
    }
    let newPorts;
    if (plan.kind === "open") {
      if (t.double) {
        newPorts = {
          [tile + ":lineA"]: { p: [-1, 0], d: W },
          [tile + ":lineB"]: { p: [1, 0], d: E },
          [tile + ":branchA"]: { p: [0, -2], d: N },
          [tile + ":branchB"]: { p: [0, 2], d: S },
        };
      } else {
        // The opening non-double lies low half west, high half east.
        rect.first = t.a; rect.second = t.b; rect.dir = "E";
        newPorts = { [tile + ":low"]: { p: [-2, 0], d: W }, [tile + ":high"]: { p: [2, 0], d: E } };
      }
    } else {
      newPorts = portsOf(tile, side, plan.p, plan.d, t.double);
      // A bend carries on snaking: the next tile on this line turns the same way
      // again (a U-turn), then the line runs straight.
      if (!t.double && plan.kind === "turn" && !parentPref) {
        for (const k of Object.keys(newPorts)) newPorts[k].pref = plan.sense;
      }
    }
    for (const [k, port] of Object.entries(newPorts)) {
      this.ports.set(k, port);
      this.reserve(k, port);
    }
    this.rects.push(rect);
    this.byTile.set(tile, rect);
    return rect;
  }

  bbox(extra = []) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const grow = (x, y) => { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); };
    for (const r of [...this.rects, ...extra]) {
      grow(r.x, r.y); grow(r.x + r.w, r.y + r.h);
      if (r.connector) for (let i = 0; i + 1 < r.connector.length; i += 2) grow(r.connector[i], r.connector[i + 1]);
    }
    if (x0 === Infinity) return { x: -4, y: -2, w: 8, h: 4 };
    return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  }
}

/**
 * Lay out the tiles of `view.layout.tiles` (placement order).
 * Returns {rects, ports, layout}: rects are {tile, x, y, w, h, first, second, dir,
 * double, connector, index} in grid units (tile = 4 x 2).
 */
export function computeLayout(tiles, opts = {}) {
  const lay = new Layout(opts);
  tiles.forEach((t, i) => lay.place(t, i));
  return { rects: lay.rects, layout: lay };
}

/** Where `tile` would go if played at `place` (null = opening): a rect, no mutation. */
export function ghostRect(lay, tile, place) {
  const t = parseTile(tile);
  const plan = lay.plan(tile, place);
  const via = place ? viaFor(tile, placeValue(place)) : "low";
  const first = via === "high" ? t.b : t.a;
  const second = via === "high" ? t.a : t.b;
  return {
    tile, place, x: plan.rect.x, y: plan.rect.y, w: plan.rect.w, h: plan.rect.h,
    double: t.double, dir: plan.kind === "open" ? "E" : dirName(plan.d), connector: plan.connector,
    first, second,
  };
}

/** The viewBox [x, y, w, h] that holds every rect (and ghost), with a margin. */
export function viewBoxFor(lay, extra = [], margin = 3, min = { w: 36, h: 20 }) {
  const b = lay.bbox(extra);
  let x = b.x - margin, y = b.y - margin, w = b.w + 2 * margin, h = b.h + 2 * margin;
  // A small layout is not blown up to giant tiles: keep a minimum drawing size.
  if (w < min.w) { x -= (min.w - w) / 2; w = min.w; }
  if (h < min.h) { y -= (min.h - h) / 2; h = min.h; }
  return [x, y, w, h];
}
