// Computer players in the client (docs/protocol.md: POST /api/practice,
// POST/DELETE /api/tables/{code}/bots, TableInfo.seats[].bot): the home page's
// "Play against the computer", the host's add/change/remove controls on a waiting-room
// seat, and the "computer" marks on names. Self-contained: the other views call in.
import { h, on } from "../dom.js";
import { t } from "../i18n.js";
import { api, saveSeat, loadName, saveName } from "../net/api.js";
import { errorText } from "./errors.js";
import "../rating-strings.js";

export const LEVELS = ["easy", "medium", "hard"];

// This module's styles, in a stylesheet of their own.
if (!document.querySelector("link[data-bots-css]")) {
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/css/bots.css", "data-bots-css": "1" }));
}

// Each level's rating (GET /api/ratings/computer, docs/ratings.md), read once a page:
// a level shows its number ("Hard · 1620") once it has played a rated match.
let levelRatings = {};
const ratingsRead = api.computerRatings().then((r) => { levelRatings = r.levels || {}; }, () => {});

function levelText(l) {
  const r = levelRatings[l];
  return r ? t("bot_level_rated", { level: t("bot_level_" + l), rating: r.rating }) : t("bot_level_" + l);
}

function levelSelect(testid, value) {
  const select = h("select", { "data-testid": testid, "aria-label": t("bot_strength") },
    ...LEVELS.map((l) => h("option", { value: l, text: levelText(l), selected: l === value })));
  ratingsRead.then(() => { for (const o of select.options) o.textContent = levelText(o.value); });
  return select;
}

const SVG = "http://www.w3.org/2000/svg";

/** A small robot head (inline SVG: no icon font needed). */
export function botIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "bot-icon");
  svg.setAttribute("aria-hidden", "true");
  const parts = [["rect", { x: 2, y: 5, width: 12, height: 9, rx: 2 }], ["line", { x1: 8, y1: 5, x2: 8, y2: 2 }],
    ["circle", { cx: 8, cy: 1.8, r: 1.2 }], ["circle", { cx: 5.5, cy: 9, r: 1.2, class: "eye" }],
    ["circle", { cx: 10.5, cy: 9, r: 1.2, class: "eye" }], ["line", { x1: 5.5, y1: 12, x2: 10.5, y2: 12, class: "eye" }]];
  for (const [tag, attrs] of parts) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    svg.appendChild(el);
  }
  return svg;
}

/** A seat's computer mark: a small robot icon and "(computer · level)". */
export function botMark(seat) {
  if (!seat || !seat.bot) return null;
  return h("small", { class: "bot-mark", "data-testid": "bot-mark-" + seat.seat, "data-bot": seat.bot },
    botIcon(), " (" + t("computer") + " · " + t("bot_level_" + seat.bot) + ")");
}

/** The home page card: players, strength, name → a started table against bots. */
export function practiceCard(app) {
  const err = h("p", { class: "error-text", role: "alert", "data-testid": "practice-error" });
  const players = h("select", { "data-testid": "practice-players", "aria-label": t("players") },
    ...[2, 3, 4].map((n) => h("option", { value: String(n), text: String(n) })));
  const level = levelSelect("practice-level", "medium");
  const name = h("input", { "data-testid": "practice-name", required: true, maxlength: 24, value: loadName(),
    placeholder: t("your_name"), "aria-label": t("your_name") });
  const form = h("form", { "data-testid": "practice-form" },
    h("p", { class: "meta", text: t("practice_note") }),
    h("div", { class: "form-row inline" },
      h("label", {}, h("span", { text: t("players") + " " }), players),
      h("label", {}, h("span", { text: t("bot_strength") + " " }), level)),
    h("label", { class: "form-row" }, h("span", { text: t("your_name") }), name),
    h("button", { class: "primary", type: "submit", "data-testid": "practice-submit", text: t("play_computer") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const me = name.value.trim();
    try {
      const res = await api.practice({ players: Number(players.value), level: level.value, name: me });
      saveName(me);
      saveSeat(res.code, res.token, res.seat);
      app.go("/t/" + res.code);
    } catch (ex) {
      err.textContent = errorText(ex);
    }
  });
  return h("section", { class: "card", "data-testid": "practice-card" },
    h("h2", { text: t("play_computer") }), form, err);
}

// The strength chosen in the (live) seat controls a button sits in.
const levelOf = (e) => e.target.closest(".bot-controls").querySelector("select").value;

/** The host's controls on one waiting-room seat: on an empty seat "Add computer" with a
 * strength; on a computer's seat its strength (change) and "Remove". */
export function botSeatControls(ctx, seat) {
  const { st, code, httpAction } = ctx;
  const tb = st.table;
  if (tb.status !== "waiting" || st.you === null || tb.host !== st.you) return null;
  if (!seat.name) {
    const level = levelSelect("bot-level-" + seat.seat, "medium");
    return h("div", { class: "bot-controls" }, level, " ",
      h("button", { class: "small", "data-testid": "add-bot-" + seat.seat, text: t("add_computer"),
        onclick: (e) => httpAction(() => api.putBot(code, seat.seat, levelOf(e), st.token)) }));
  }
  if (!seat.bot) return null;
  const level = levelSelect("bot-level-" + seat.seat, seat.bot);
  on(level, "change", (e) => httpAction(() => api.putBot(code, seat.seat, e.target.value, st.token)));
  return h("div", { class: "bot-controls" }, level, " ",
    h("button", { class: "small", "data-testid": "remove-bot-" + seat.seat, text: t("remove"),
      onclick: () => httpAction(() => api.removeBot(code, seat.seat, st.token)) }));
}
