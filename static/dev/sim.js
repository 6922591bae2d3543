// Dev-only: a small random layout generator (follows R9-R12 for places) used by
// static/dev/layout.html to preview the layout routine. The tests use the real engine.
import { parseTile } from "../js/board/layout.js";

export function rng(seed) { let s = seed >>> 0; return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; }; }

export function simulate(r, maxTiles = 28) {
  const all = [];
  for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) all.push(a + "|" + b);
  const pool = all.map((t) => [r(), t]).sort((x, y) => x[0] - y[0]).map((x) => x[1]);
  const tiles = [], places = new Map(), dbl = {};
  const first = pool.pop(), t = parseTile(first);
  tiles.push({ tile: first, at: null, via: null });
  if (t.double) { places.set(first + ":lineA", t.a); places.set(first + ":lineB", t.a); dbl[first] = 0; }
  else { places.set(first + ":low", t.a); places.set(first + ":high", t.b); }
  while (tiles.length < maxTiles && pool.length) {
    const opts = [];
    for (const tile of pool) { const u = parseTile(tile); for (const [k, v] of places) if (u.a === v || u.b === v) opts.push([tile, k, v]); }
    if (!opts.length) break;
    const [tile, k, v] = opts[Math.floor(r() * opts.length)];
    pool.splice(pool.indexOf(tile), 1);
    const u = parseTile(tile);
    places.delete(k);
    const ptile = k.slice(0, k.lastIndexOf(":")), side = k.slice(k.lastIndexOf(":") + 1);
    if (side.startsWith("line") && dbl[ptile] !== undefined) { dbl[ptile]++; if (dbl[ptile] === 2) { places.set(ptile + ":branchA", v); places.set(ptile + ":branchB", v); } }
    if (u.double) { tiles.push({ tile, at: k, via: "lineA" }); places.set(tile + ":lineB", u.a); dbl[tile] = 1; }
    else { const via = u.a === v ? "low" : "high"; tiles.push({ tile, at: k, via }); places.set(tile + ":" + (via === "low" ? "high" : "low"), via === "low" ? u.b : u.a); }
  }
  return { tiles, places: [...places].map(([place, value]) => ({ place, value })) };
}
