// A player's page (/p/<handle>): handle, display name, ratings, statistics per player
// count, head-to-head and partners (GET /api/players/{handle}). A page hidden by its
// player's visibility answers exactly as a handle nobody has. Text nodes only (dom.js).
import { h, clear } from "./dom.js";
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { call as api } from "./net/api.js";
import "./games-strings.js";
import "./invitations.js"; // invitation toasts and friends online (docs/invitations.md)

const main = document.getElementById("player");
const m = /^\/p\/([^/]+)\/?$/.exec(location.pathname);
const handle = m ? decodeURIComponent(m[1]) : "";

const num = (x) => Number(x).toLocaleString(getLang(), { maximumFractionDigits: 2 });

function ratingsCard(ratings) {
  const box = h("section", { class: "profile-card", "data-testid": "ratings" }, h("h2", { text: t("player_ratings") }));
  if (!ratings.length) return box.append(h("p", { text: t("player_no_ratings") })), box;
  box.append(h("ul", { class: "profile-tables" }, ...ratings.map((r) => h("li", { "data-testid": "rating", "data-pool": r.pool },
    h("span", { text: r.pool === "all" ? t("player_pool_all") : t("player_pool_n", { n: r.pool }) }),
    h("span", {}, t("player_rating_line", { rating: r.rating, mu: num(r.mu), sigma: num(r.sigma), n: r.matches }),
      r.provisional ? h("em", { class: "games-badge", "data-testid": "provisional", text: " " + t("player_provisional") }) : null)))));
  return box;
}

const FIGURES = [["played", "stat_played"], ["won", "stat_won"], ["rounds", "stat_rounds"], ["rounds_dominoed", "stat_dominoed"],
  ["points_made", "stat_points"], ["points_per_round", "stat_ppr"], ["deductions", "stat_deductions"], ["best_round", "stat_best"]];

function statsCard(stats) {
  const box = h("section", { class: "profile-card", "data-testid": "stats" }, h("h2", { text: t("player_stats") }));
  if (!stats.length) return box.append(h("p", { text: t("player_no_stats") })), box;
  for (const s of stats) {
    const dl = h("dl", { class: "games-figures" });
    for (const [key, label] of FIGURES) dl.append(h("dt", { text: t(label) }), h("dd", { "data-figure": key, text: num(s[key]) }));
    box.append(h("h3", { text: s.players === null ? t("player_total") : t("player_count", { n: s.players }) }),
      h("div", { "data-testid": "stats-" + (s.players ?? "all") }, dl));
  }
  return box;
}

function pairsCard(title, id, pairs) {
  const box = h("section", { class: "profile-card", "data-testid": id }, h("h2", { text: title }));
  if (!pairs.length) return box.append(h("p", { text: t("player_none") })), box;
  box.append(h("ul", { class: "profile-tables" }, ...pairs.map((p) => h("li", { "data-testid": "pair", "data-handle": p.handle },
    h("a", { href: `/p/${encodeURIComponent(p.handle)}`, text: t("player_pair_line", { name: p.display_name, handle: p.handle, won: p.won, played: p.played }) })))));
  return box;
}

async function render() {
  let page = null;
  let problem = null;
  try { page = await api("GET", `/api/players/${encodeURIComponent(handle)}`); } catch (err) {
    problem = err.status === 404 || err.status === 422 ? t("player_not_found") : err.message;
  }
  if (!page) {
    clear(main).append(h("h1", { class: "games-title", text: handle ? "@" + handle : "?" }),
      h("p", { class: "profile-card", "data-testid": "player-missing", text: problem }));
    main.dataset.state = "missing";
    return;
  }
  document.title = t("player_title", { name: page.display_name }) + " — Five Up Online";
  clear(main).append(
    h("h1", { class: "games-title", "data-testid": "player-name" }, page.display_name, " ", h("span", { class: "games-handle", text: "@" + page.handle })),
    ratingsCard(page.ratings), statsCard(page.stats),
    pairsCard(t("player_opponents"), "opponents", page.opponents), pairsCard(t("player_partners"), "partners", page.partners));
  main.dataset.state = "shown";
}

function chrome() {
  document.title = "@" + handle + " — Five Up Online";
  document.getElementById("lang-label").textContent = t("lang_label");
  document.getElementById("profile-top").textContent = t("profile_link_top");
  const sel = document.querySelector("[data-testid=lang]");
  sel.replaceChildren(...LANGS.map(([v, label]) => h("option", { value: v, selected: v === getLang() }, label)));
}

document.querySelector("[data-testid=lang]").addEventListener("change", (e) => { setLang(e.target.value); chrome(); render(); });
setLang(getLang());
chrome();
render();
