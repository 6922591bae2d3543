// The leaderboard page (/leaderboard): the highest ratings of a pool — all rated
// matches, or those of 2, 3 or 4 players — players and computer players together, as
// GET /api/leaderboard sends them (docs/protocol.md, "Ratings"). The pool is in the
// address (?pool=2). Strings from the server become text nodes (dom.js).
import { h, clear } from "./dom.js";
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { call as api } from "./net/api.js";
import "./profile-strings.js";
import "./rating-strings.js";
import "./invitations.js"; // invitation toasts and friends online (docs/invitations.md)

const main = document.getElementById("leaderboard");
const POOLS = ["all", "2", "3", "4"];

function currentPool() {
  const p = new URLSearchParams(location.search).get("pool");
  return POOLS.includes(p) ? p : "all";
}

function who(e) {
  if (e.kind === "computer") return h("span", { text: t("lb_computer", { level: t("bot_level_" + e.level) }) });
  return h("a", { href: "/p/" + encodeURIComponent(e.handle), "data-testid": "lb-player" },
    h("strong", { text: e.display_name }), " ", h("small", { text: "@" + e.handle }));
}

function ratingCell(r) {
  const cell = h("td", { class: "lb-rating", "data-testid": "lb-rating", text: String(r.rating) });
  if (r.provisional) {
    cell.append(h("abbr", { class: "lb-provisional", title: t("lb_provisional"), "aria-label": t("lb_provisional"),
      "data-testid": "lb-provisional", text: t("lb_provisional_mark") }));
  }
  return cell;
}

function poolTabs(pool) {
  return h("nav", { class: "lb-pools", "aria-label": t("lb_pool_label") },
    ...POOLS.map((p) => h("a", {
      href: "/leaderboard" + (p === "all" ? "" : "?pool=" + p), class: "lb-pool" + (p === pool ? " current" : ""),
      "aria-current": p === pool ? "page" : null, "data-testid": "lb-pool-" + p, text: t("lb_pool_" + p),
      onclick: (ev) => { ev.preventDefault(); history.pushState(null, "", ev.currentTarget.href); render(); },
    })));
}

async function render() {
  const pool = currentPool();
  let board = null, error = "";
  try { board = await api("GET", "/api/leaderboard?pool=" + pool + "&limit=100"); } catch (err) { error = err.message; }
  const body = h("tbody");
  for (const e of board ? board.entries : []) {
    body.append(h("tr", { "data-testid": "lb-row", "data-kind": e.kind, "data-handle": e.handle || "" },
      h("td", { text: String(e.rank) }), h("td", {}, who(e)), ratingCell(e.rating),
      h("td", { text: String(e.rating.matches) })));
  }
  const table = h("table", { class: "lb-table", "data-testid": "lb-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("lb_rank") }), h("th", { scope: "col", text: t("lb_player") }),
      h("th", { scope: "col", text: t("lb_rating") }), h("th", { scope: "col", text: t("lb_matches") }))), body);
  clear(main).append(h("section", { class: "profile-card" },
    h("h2", { text: t("lb_title") }), poolTabs(pool),
    board && board.entries.length ? table : h("p", { "data-testid": "lb-empty", text: error || t("lb_empty") }),
    h("p", { class: "lb-note", text: t("lb_note") })));
  main.dataset.state = "ready";
}

function chrome() {
  document.title = t("app_title") + " — " + t("lb_title");
  document.getElementById("lang-label").textContent = t("lang_label");
  document.getElementById("profile-top").textContent = t("profile_link_top");
  const sel = document.querySelector("[data-testid=lang]");
  sel.replaceChildren(...LANGS.map(([v, label]) => h("option", { value: v, selected: v === getLang() }, label)));
}

document.querySelector("[data-testid=lang]").addEventListener("change", (e) => {
  setLang(e.target.value);
  chrome();
  render();
});
window.addEventListener("popstate", render);
setLang(getLang());
chrome();
render();
