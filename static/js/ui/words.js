// The log in plain words ("Bob played 5–6 on the 6–6 spinner, right branch"), from a
// move and the drawn layout. The engine notation (1|4@1|1:lineB) stays in the
// layout description, in the log items' data-move and in the export.
import { t } from "../i18n.js";
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

/** The words of one logged move (`seatName(seat)` gives names). */
export function moveWords(ev, lay, seatName) {
  const name = seatName(ev.seat);
  if (ev.kind === "open") return t("log_open", { name, tile: tileWords(ev.tile) });
  if (ev.kind === "place") {
    const { tile: parent, side } = parsePlace(ev.place);
    const tile = tileWords(ev.tile);
    if (parseTile(parent).double) {
      const where = sideOnDrawing(lay, ev.tile, parent);
      const part = side.startsWith("branch") ? "branch" : "line";
      return t(where ? "log_on_spinner" : "log_on_spinner_plain", {
        name, tile, parent: tileWords(parent), dir: where ? t("dir_" + where + "_" + part) : "", part: t("part_" + part),
      });
    }
    return t("log_on_end", { name, tile, value: placeValue(ev.place), parent: tileWords(parent) });
  }
  if (ev.kind === "draw") return ev.drawn ? t("log_draw_you", { name, tile: tileWords(ev.drawn) }) : t("log_draw", { name });
  if (ev.kind === "pass") return t("log_pass", { name });
  return ev.move || "";
}
