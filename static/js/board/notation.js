// The tile and place notation of docs/protocol.md ("3|5", "3|5:low", "2|2:branchA"),
// read the way the board and the move words need it. Pure functions, no DOM.

/** "3|5" -> {a: 3, b: 5, double: false} */
export function parseTile(t) {
  const [a, b] = String(t).split("|").map(Number);
  return { a, b, double: a === b };
}

/** "3|5:low" -> {tile: "3|5", side: "low"} */
export function parsePlace(p) {
  const i = String(p).lastIndexOf(":");
  return { tile: p.slice(0, i), side: p.slice(i + 1) };
}

/** The value a place shows (R10): "3|4:high" -> 4, "2|2:branchA" -> 2. */
export function placeValue(place) {
  const { tile, side } = parsePlace(place);
  const t = parseTile(tile);
  if (t.double) return t.a;
  return side === "low" ? t.a : t.b;
}

/** The side of `tile` that joins a place showing `value` (R10). */
export function viaFor(tile, value) {
  const { a, b, double } = parseTile(tile);
  if (double) return "lineA";
  if (value === a) return "low";
  if (value === b) return "high";
  return null;
}
