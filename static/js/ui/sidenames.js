// A side's names as the players read them in narrow places (the Scores card, the score
// sheet's heads, the phone bar): every partner's name on its own, each cut with an
// ellipsis when it does not fit and the second wrapping under the first, never one
// "Bohdan & …" that hides the partner. The cut is drawn by CSS only, so the text (read
// by screen readers) is always the full names; each name's title shows it on hover.
import { h } from "../dom.js";
import * as S from "../state.js";

/** The names of `side`'s seats: one `.partner` (its `.name-text`) per seat, "&" between them. */
export function sideNamesEl(st, side) {
  const sides = (st.view && st.view.sides) || (st.table && st.table.sides) || [];
  const seats = sides[side] || [];
  const full = S.sideNames(st, side);
  // A partner's name keeps its "&" on its own line: "Bohdan… &" / "Olena…".
  // The space between two partners is where the line may wrap.
  const parts = seats.flatMap((seat, i) => {
    const name = S.seatName(st, seat);
    const last = i === seats.length - 1;
    return [h("span", { class: "partner" }, h("span", { class: "name-text", title: name, text: name }),
      last ? null : h("span", { class: "amp", text: " &" })), last ? null : " "];
  });
  return h("span", { class: "side-names", title: full, "data-names": full }, ...parts);
}
