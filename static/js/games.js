// My games (/games): a signed-in player's live tables (your move first) and finished
// matches, a page at a time, with who sees their player page; a guest's tables are the
// seats this browser remembers (localStorage, net/api.js), checked against the public
// table read. Strings from the server become text nodes (dom.js).
import { h, clear } from "./dom.js";
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { call as api, saveSeat, loadSeat } from "./net/api.js";
import "./games-strings.js";
import "./invitations.js"; // invitation toasts and friends online (docs/invitations.md)

const main = document.getElementById("games");
const SEAT_PREFIX = "fiveup.seat.";

function errorLine(id) { return h("p", { class: "profile-error", role: "alert", id, "data-testid": id }); }

async function run(errId, action) {
  const line = document.getElementById(errId);
  if (line) line.textContent = "";
  try { await action(); } catch (err) { if (line) line.textContent = err.message || String(err); }
}

function personNode(p) {
  return p.handle ? h("a", { href: `/p/${encodeURIComponent(p.handle)}`, text: p.name }) : h("span", { text: p.name });
}

function people(list) {
  const out = [];
  list.forEach((p, i) => { if (i) out.push(", "); out.push(personNode(p)); });
  return out;
}

function liveItem(tb, open) {
  return h("li", { "data-testid": "live-table", "data-code": tb.code, "data-your-move": String(tb.your_move) },
    h("span", {}, h("strong", { text: tb.name }), ` (${tb.code}) · `,
      tb.your_move ? h("span", { class: "games-badge", text: t("games_your_move") })
        : t(tb.status === "waiting" ? "games_waiting" : "games_playing")),
    open ? h("button", { type: "button", "data-testid": "open-table", onclick: () => run("live-error", () => open(tb)) }, t("games_open"))
      : h("a", { class: "games-open", href: `/t/${encodeURIComponent(tb.code)}`, text: t("games_open") }));
}

function finishedItem(m) {
  return h("li", { class: "games-match", "data-testid": "finished-match", "data-code": m.code, "data-match": String(m.match) },
    h("p", {}, h("strong", { class: m.result === "won" ? "games-won" : "games-lost", text: t(m.result === "won" ? "games_won" : "games_lost") }),
      " · ", t("games_match_line", { code: m.code, n: m.match, players: m.players }), m.rated ? ` · ${t("games_rated")}` : "",
      " · ", h("time", { datetime: m.finished_at, text: new Date(m.finished_at).toLocaleString(getLang()) })),
    h("p", { text: t("games_scores", { scores: m.scores.join(" – ") }) }),
    m.partners.length ? h("p", {}, t("games_partner"), ...people(m.partners)) : null,
    h("p", {}, t("games_opponents"), ...people(m.opponents)),
    h("a", { href: m.replay, class: "games-replay", "data-testid": "replay", text: t("games_replay") }));
}

function visibilityBox(me, current) {
  const box = h("fieldset", { class: "profile-card games-visibility", "data-testid": "visibility" },
    h("legend", { text: t("games_visibility") }));
  for (const v of ["everyone", "friends", "me"]) {
    const input = h("input", { type: "radio", name: "visibility", value: v, checked: v === current, "data-testid": "vis-" + v });
    input.addEventListener("change", () => run("vis-error", async () => {
      await api("PUT", "/api/profile/visibility", { visibility: v });
      document.getElementById("vis-error").textContent = t("games_vis_saved");
    }));
    box.append(h("label", { class: "games-radio" }, input, " ", t("games_vis_" + v)));
  }
  box.append(h("a", { href: `/p/${encodeURIComponent(me.handle)}`, "data-testid": "my-page", text: t("games_my_page") }), errorLine("vis-error"));
  return box;
}

async function signedInView(me) {
  const first = await api("GET", "/api/profile/games");
  const open = async (tb) => {
    const got = await api("POST", `/api/profile/tables/${encodeURIComponent(tb.code)}/open`, { seat: tb.seat });
    saveSeat(got.code, got.token, got.seat);
    location.assign(`/t/${encodeURIComponent(got.code)}`);
  };
  const live = h("section", { class: "profile-card", "data-testid": "live" }, h("h2", { text: t("games_live") }));
  if (!first.live.length) live.append(h("p", { text: t("games_no_live") }));
  live.append(h("ul", { class: "profile-tables" }, ...first.live.map((tb) => liveItem(tb, open))), errorLine("live-error"));
  const list = h("ol", { class: "games-list", "data-testid": "finished-list" }, ...first.finished.map(finishedItem));
  const done = h("section", { class: "profile-card", "data-testid": "finished" }, h("h2", { text: t("games_finished") }));
  if (!first.finished.length) done.append(h("p", { text: t("games_no_finished") }));
  done.append(list);
  let next = first.next_before;
  const more = h("button", { type: "button", "data-testid": "more", hidden: !next }, t("games_more"));
  more.addEventListener("click", () => run("more-error", async () => {
    const page = await api("GET", `/api/profile/games?before=${encodeURIComponent(next)}`);
    list.append(...page.finished.map(finishedItem));
    next = page.next_before;
    more.hidden = !next;
  }));
  done.append(more, errorLine("more-error"));
  return [live, done, visibilityBox(me, first.visibility)];
}

async function guestView() {
  const codes = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(SEAT_PREFIX)) codes.push(key.slice(SEAT_PREFIX.length));
    }
  } catch { /* private mode: nothing remembered */ }
  const tables = [];
  for (const code of codes.sort()) {
    if (!loadSeat(code)) continue;
    try {
      const info = await api("GET", `/api/tables/${encodeURIComponent(code)}`);
      if (info.status === "waiting" || info.status === "playing") tables.push({ code: info.code, name: info.name, status: info.status, your_move: false });
    } catch { /* gone, or not answering: left out */ }
  }
  const box = h("section", { class: "profile-card", "data-testid": "remembered" }, h("h2", { text: t("games_live") }),
    h("p", { "data-testid": "guest-note" }, t("games_guest_note"), " ", h("a", { href: "/profile", text: t("games_profile_link") })));
  box.append(tables.length ? h("ul", { class: "profile-tables" }, ...tables.map((tb) => liveItem(tb, null)))
    : h("p", { text: t("games_guest_none") }));
  return [box];
}

async function render() {
  let me = null;
  let note = null;
  try { me = await api("GET", "/api/profile"); } catch (err) { if (err.status !== 401) note = err.message; }
  let parts;
  try { parts = me ? await signedInView(me) : await guestView(); } catch (err) { parts = [h("p", { class: "profile-error", role: "alert", text: err.message })]; }
  if (note) parts.unshift(h("p", { class: "profile-error", role: "alert", text: note }));
  clear(main).append(h("h1", { class: "games-title", text: t("games_title") }), ...parts);
  main.dataset.state = me ? "signed-in" : "guest";
}

function chrome() {
  document.title = t("games_title") + " — Five Up Online";
  document.documentElement.lang = getLang();
  document.getElementById("lang-label").textContent = t("lang_label");
  document.getElementById("profile-top").textContent = t("profile_link_top");
  const sel = document.querySelector("[data-testid=lang]");
  sel.replaceChildren(...LANGS.map(([v, label]) => h("option", { value: v, selected: v === getLang() }, label)));
}

document.querySelector("[data-testid=lang]").addEventListener("change", (e) => { setLang(e.target.value); chrome(); render(); });
setLang(getLang());
chrome();
render();
