// The signed-in players at a table, as GET /api/tables/{code}/profiles sends them: each
// bound seat's name, its profile's handle (a link to the player page) and its rating
// (docs/ratings.md). A guest's and a computer player's seats are not listed; a table
// with no signed-in player shows nothing.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import * as S from "../state.js";
import "../rating-strings.js";

export function seatProfilesEl(st) {
  const seats = st.seatProfiles || [];
  if (!seats.length || !st.table) return null;
  return h("p", { class: "card seat-profiles", "data-key": "seat-profiles", "data-testid": "seat-profiles" },
    h("span", { class: "sr-only", text: t("seat_profiles_label") }),
    ...seats.flatMap((p, i) => [
      i ? " · " : null,
      h("span", { "data-testid": "seat-profile", "data-seat": String(p.seat) },
        S.seatName(st, p.seat) + " ",
        h("a", { href: "/p/" + encodeURIComponent(p.handle), "data-testid": "seat-profile-link", text: "@" + p.handle }),
        p.rating ? h("span", { class: "seat-rating", "data-testid": "seat-rating",
          text: " " + p.rating.rating + (p.rating.provisional ? "?" : "") }) : null),
    ]));
}
