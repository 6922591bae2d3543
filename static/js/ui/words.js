// The log in plain words ("Bob played 5–6 on the 6–6 spinner, right branch"), from a
// move and the drawn layout. The engine notation (1|4@1|1:lineB) stays in the
// layout description, in the log items' data-move and in the export.
import { t, pointsText } from "../i18n.js";
import { parsePlace, placeValue, parseTile } from "../board/notation.js";

/** "5|6" -> "5–6" (word joiners keep a tile's name on one line) */
export function tileWords(tile) {
  return String(tile).replace("|", "\u2060–\u2060");
}

/**
 * Where a tile lies seen from the tile it joins, on the drawing: "left", "right",
 * "up" or "down" (null when either is not drawn).
 */
export function sideOnDrawing(lay, tile, parent) {
  const a = lay && lay.byTile && lay.byTile.get(parent);
  const b = lay && lay.byTile && lay.byTile.get(tile);
  if (!a || !b) return null;
  const dx = b.x + b.w / 2 - (a.x + a.w / 2), dy = b.y + b.h / 2 - (a.y + a.h / 2);
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? "right" : "left";
  return dy >= 0 ? "down" : "up";
}

/**
 * Where a move puts its tile, as the words' key and parameters ("open", "on_end",
 * "on_spinner", "on_spinner_plain"): the one place the log, the replay and the
 * keyboard's target announcements get their wording from. `m`: {kind, tile, place}.
 */
function whereParts(m, lay) {
  const tile = tileWords(m.tile);
  if (m.kind === "open" || !m.place) return ["open", { tile }];
  const { tile: parent, side } = parsePlace(m.place);
  if (parseTile(parent).double) {
    const where = sideOnDrawing(lay, m.tile, parent);
    const part = side.startsWith("branch") ? "branch" : "line";
    return [where ? "on_spinner" : "on_spinner_plain", {
      tile, parent: tileWords(parent), dir: where ? t("dir_" + where + "_" + part) : "", part: t("part_" + part),
    }];
  }
  return ["on_end", { tile, value: placeValue(m.place), parent: tileWords(parent) }];
}

/** The words of one logged move (`seatName(seat)` gives names). */
export function moveWords(ev, lay, seatName) {
  const name = seatName(ev.seat);
  if (ev.kind === "open" || ev.kind === "place") {
    const [key, params] = whereParts(ev, lay);
    return t("log_" + key, { name, ...params });
  }
  if (ev.kind === "draw") return ev.drawn ? t("log_draw_you", { name, tile: tileWords(ev.drawn) }) : t("log_draw", { name });
  if (ev.kind === "pass") return t("log_pass", { name });
  return ev.move || "";
}

/** A record's move ({seat, move: "0|3@0|2:low", drawn, points}) as a logged move. */
export function recordMove(m) {
  if (m.move === "draw") return { kind: "draw", seat: m.seat, drawn: m.drawn, move: m.move };
  if (m.move === "pass") return { kind: "pass", seat: m.seat, move: m.move };
  const [tile, place] = m.move.split("@");
  return { kind: place ? "place" : "open", seat: m.seat, tile, place: place || null, points: m.points || 0, move: m.move };
}

/** A legal move as a target's announcement: "Play 5–6 on the 6 end of 3–6: 15 → +3". */
export function targetWords(m, lay) {
  const [key, params] = whereParts(m, lay);
  return t("target_" + key, params) + ": " + pointsText(m.points || 0);
}
