// Home screen: create a table, join by code, the lobby of public tables.
import { h, clear } from "../dom.js";
import { t, getLang } from "../i18n.js";
import { api, saveSeat, loadName, saveName } from "../net/api.js";
import { practiceCard } from "./bots.js";
import { errorText } from "./errors.js";
import { nameHint, nameOk, nameError } from "./names.js";
import { computeLayout } from "../board/layout.js";
import { renderBoard, svgEl } from "../board/render.js";
import { clockSelect } from "./clock.js";
import "./check-strings.js";
import "../rating-strings.js";

// A drawn layout for the home page: a spinner with its branches and a few scoring ends.
const HERO_TILES = [
  { tile: "5|5", at: null, via: null },
  { tile: "2|5", at: "5|5:lineA", via: "high" },
  { tile: "3|5", at: "5|5:lineB", via: "high" },
  { tile: "1|5", at: "5|5:branchA", via: "high" },
  { tile: "4|5", at: "5|5:branchB", via: "high" },
  { tile: "3|3", at: "3|5:low", via: "lineA" },
  { tile: "2|2", at: "2|5:low", via: "lineA" },
];

function heroBoard() {
  const svg = svgEl("svg", { class: "board hero-board", role: "img", "aria-label": t("hero_board_label"), "data-testid": "hero-board" });
  const lay = computeLayout(HERO_TILES).layout;
  // Ends: 2–2 (4) + 3–3 (6) + 1 + 4 = 15, so the last player scored +3 (R13–R15).
  renderBoard(svg, lay, { last: "2|2", minView: { w: 30, h: 18 }, places: [
    { place: "2|2:lineB", value: 2 }, { place: "3|3:lineB", value: 3 }, { place: "1|5:low", value: 1 }, { place: "4|5:low", value: 4 },
  ] });
  return svg;
}

export function renderHome(root, app) {
  clear(root);
  const err = h("p", { class: "error-text", "data-testid": "home-error", role: "alert" });

  // The table name is optional: without one the table is named after its host.
  const name = h("input", { "data-testid": "create-name", maxlength: 40, value: "", placeholder: loadName() || t("table_name_placeholder") });
  const players = h("select", { "data-testid": "create-players" },
    h("option", { value: "2", text: "2" }), h("option", { value: "3", text: "3" }), h("option", { value: "4", text: "4" }));
  const pub = h("input", { type: "checkbox", "data-testid": "create-public", checked: true });
  const clock = clockSelect(); // no clock / relaxed / fast (ui/clock.js)
  // A rated table (docs/ratings.md) is for signed-in players: the switch shows once the
  // server says this browser is signed in to a profile.
  const rated = h("input", { type: "checkbox", "data-testid": "create-rated" });
  const ratedRow = h("label", { class: "form-row", "data-testid": "create-rated-row", hidden: true }, rated, " ", t("rated_table"));
  api.me().then(() => { ratedRow.hidden = false; }, () => {});
  const host = h("input", { "data-testid": "create-host-name", required: true, value: loadName(), "aria-describedby": "host-name-hint" });
  const hostHint = nameHint(host, "host-name-hint");
  host.addEventListener("input", () => { name.placeholder = host.value.trim() || t("table_name_placeholder"); });
  const form = h("form", { "data-testid": "create-form" },
    h("label", { class: "form-row" }, h("span", { text: t("table_name_optional") }), name),
    h("div", { class: "form-row inline" }, h("label", {}, h("span", { text: t("players") + " " }), players),
      h("label", {}, pub, " ", t("public_table"))),
    h("label", { class: "form-row" }, h("span", { text: t("clock_choice") }), clock),
    ratedRow,
    h("label", { class: "form-row" }, h("span", { text: t("your_name") }), host, hostHint),
    h("button", { class: "primary", type: "submit", "data-testid": "create-submit", text: t("create") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const hostName = host.value.trim();
    if (!nameOk(hostName)) { err.textContent = nameError(hostName); host.focus(); return; }
    try {
      const res = await api.createTable({
        name: name.value.trim() || hostName, players: Number(players.value), public: pub.checked, host_name: hostName,
        ...(clock.value !== "none" ? { clock: clock.value } : {}), // "none" is the server's default
        ...(rated.checked && !ratedRow.hidden ? { rated: true } : {}),
      });
      saveName(hostName);
      saveSeat(res.code, res.token, res.seat);
      app.go("/t/" + res.code);
    } catch (ex) {
      err.textContent = errorText(ex);
    }
  });

  const code = h("input", { "data-testid": "join-code-input", maxlength: 12, autocapitalize: "characters", placeholder: "K7QX2M", "aria-label": t("code") });
  const joinForm = h("form", { class: "form-row inline", "data-testid": "join-code-form" },
    code, h("button", { type: "submit", "data-testid": "join-code-submit", text: t("go") }));
  joinForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = code.value.trim().toUpperCase();
    if (c) app.go("/t/" + encodeURIComponent(c));
  });

  const lobbyBody = h("tbody");
  const lobbyTable = h("table", { class: "lobby", "data-testid": "lobby" },
    h("thead", {}, h("tr", {}, h("th", { text: t("col_table") }), h("th", { text: t("col_status") }),
      h("th", { text: t("col_seats") }), h("th", { text: t("col_scores") }), h("th"))),
    lobbyBody);
  const lobbyEmpty = h("p", { text: t("loading"), "data-testid": "lobby-empty" });

  async function loadLobby() {
    try {
      const data = await api.lobby();
      clear(lobbyBody);
      // Tables looking for players first, then the ones in play.
      const open = (e) => (e.status === "waiting" && e.seats_taken < e.players ? 0 : e.status === "waiting" ? 1 : 2);
      const tables = [...(data.tables || [])].sort((a, b) => open(a) - open(b));
      live = tables.find((e) => e.status === "playing") || null;
      watchBtn.disabled = !live;
      watchBtn.title = live ? "" : t("no_live_tables");
      lobbyEmpty.textContent = tables.length ? "" : t("lobby_empty");
      for (const e of tables) {
        const status = e.status === "waiting" ? t("status_waiting") : e.status === "playing" ? t("status_playing") : e.status;
        const full = e.seats_taken >= e.players;
        lobbyBody.appendChild(h("tr", { "data-testid": "lobby-row", "data-code": e.code },
          // data-label: the column's name, shown before the cell on a phone (style.css)
          h("td", { class: "lobby-name" }, h("strong", { text: e.name }), " ", h("small", { text: e.code })),
          h("td", {}, h("span", { class: "badge " + e.status, text: status }),
            e.status === "waiting" && !full ? h("small", { class: "looking", "data-testid": "lobby-looking", text: " " + t("looking_for", { n: e.players - e.seats_taken }) }) : null,
            e.round ? h("small", { text: " " + t("round_n", { n: e.round }) }) : null),
          h("td", { "data-label": t("col_seats") }, `${e.seats_taken}/${e.players}` + (e.bots ? " · " + t("n_computers", { n: e.bots }) : ""),
            e.spectators ? h("small", { class: "watching", "data-testid": "lobby-spectators", text: " · " + t("spectators_n", { n: e.spectators }) }) : null),
          h("td", { "data-label": (e.scores || []).length ? t("col_scores") : null, text: (e.scores || []).join(" : ") }),
          h("td", { class: "actions" },
            e.status === "waiting" && !full
              ? h("button", { "data-testid": "lobby-join", onclick: () => app.go("/t/" + e.code), text: t("join") }) : null,
            " ",
            h("button", { "data-testid": "lobby-watch", onclick: () => app.go("/t/" + e.code + "?watch=1"), text: t("watch") }))));
      }
    } catch (ex) {
      lobbyEmpty.textContent = errorText(ex);
    }
  }
  // Finished public tables: their matches can be replayed (/t/<code>/replay).
  const finishedList = h("ul", { class: "finished", "data-testid": "finished-tables" });
  async function loadFinished() {
    try {
      const data = await api.finished();
      clear(finishedList);
      // One row a table; a link to each of its finished matches, the newest first (a
      // table that played on after a rematch keeps its earlier matches here).
      for (const e of (data.tables || []).slice(0, 10)) {
        const links = [];
        for (let n = e.finished_matches; n >= 1 && links.length < 5; n--) {
          const only = e.finished_matches === 1;
          links.push(h("a", { href: `/t/${e.code}/replay?match=${n}`, "data-testid": "finished-replay", "data-match": String(n),
            text: only ? t("replay_link") : t("finished_match_n", { n }) }), " ");
        }
        const scores = e.status === "finished" ? " · " + e.scores.join(" : ") : "";
        finishedList.appendChild(h("li", { "data-testid": "finished-row", "data-code": e.code },
          h("span", { text: e.name + scores + " " }), ...links));
      }
      if (!finishedList.children.length) finishedList.appendChild(h("li", { text: t("finished_empty") }));
    } catch { /* the lobby shows the error */ }
  }
  // The first screen: what the game looks like, and the ways in.
  let live = null;
  const watchBtn = h("button", { "data-testid": "hero-watch", onclick: () => {
    if (live) app.go("/t/" + live.code + "?watch=1");
  }, text: t("hero_watch") });
  const hero = h("section", { class: "hero card", "data-testid": "hero" },
    h("div", { class: "hero-text" },
      h("h2", { class: "hero-title", text: t("hero_title") }),
      h("p", { text: t("tagline") }),
      h("div", { class: "hero-actions" },
        h("button", { class: "primary", "data-testid": "hero-play", onclick: () => {
          form.scrollIntoView({ block: "center" }); host.value ? name.focus() : host.focus();
        }, text: t("hero_play") }),
        watchBtn,
        h("a", { class: "button-link", href: "/static/rules.html?lang=" + getLang(), "data-testid": "hero-rules", text: t("hero_rules") }))),
    h("figure", { class: "hero-figure" }, h("div", { class: "hero-felt" }, heroBoard()),
      h("figcaption", { text: t("hero_board_caption") })));
  root.appendChild(hero);
  root.appendChild(h("div", { class: "home" },
    h("section", { class: "card" }, h("h2", { text: t("home_create") }), form, err),
    practiceCard(app),
    h("section", { class: "card lobby-card" }, h("h2", { text: t("join_by_code") }), joinForm,
      h("h2", { text: t("lobby") }), lobbyTable, lobbyEmpty,
      h("button", { onclick: loadLobby, text: t("refresh") }),
      h("h2", { text: t("finished_tables") }), finishedList,
      h("p", {}, h("a", { href: "/check", "data-testid": "home-check-link", onclick: (e) => { e.preventDefault(); app.go("/check"); }, text: t("check_link") })),
      h("p", {}, h("a", { href: "/leaderboard", "data-testid": "home-leaderboard-link", text: t("lb_home_link") })))));
  loadLobby();
  loadFinished();
  const timer = setInterval(loadLobby, 5000);
  return () => clearInterval(timer);
}
