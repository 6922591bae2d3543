// The clubs page (/clubs: your clubs and a new one; /clubs/{id}: a club; /c/{token}: an
// invite link). A club shows its members with their ratings, the standings over its
// matches, its leaderboard, its live tables (links /t/CODE), its finished matches
// (replays), the invite link with its QR code and a copy button, and a form for a new
// table for the club. An invite link opened signed in joins; a guest is asked to make a
// profile first. Strings from the server become text nodes (dom.js); the QR code is an
// <img> of the server's SVG, never inserted as markup.
import { h, clear } from "./dom.js";
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { call as api, saveSeat } from "./net/api.js";
import "./clubs-strings.js";
import "./invitations.js"; // invitation toasts and friends online (docs/invitations.md)

const main = document.getElementById("clubs");
const enc = encodeURIComponent;

function say(err) {
  const key = "clubs_err_" + err.code;
  const text = t(key, { s: err.retryAfter || 1 });
  return text === key ? err.message || String(err) : text;
}

function errorLine(id) { return h("p", { class: "profile-error", role: "alert", id, "data-testid": id }); }

async function run(errId, action) {
  const line = document.getElementById(errId);
  if (line) line.textContent = "";
  try { await action(); } catch (err) { if (line) line.textContent = say(err); }
}

function card(title, testid, ...children) {
  return h("section", { class: "profile-card", "data-testid": testid }, h("h2", { text: title }), ...children);
}

function clubId() {
  const m = /^\/clubs\/(\d{1,10})\/?$/.exec(location.pathname);
  return m ? Number(m[1]) : null;
}

// -- my clubs -----------------------------------------------------------------------
function listView(mine, note) {
  const input = h("input", { name: "name", required: true, maxlength: "64", autocomplete: "off", "data-testid": "club-name" });
  const form = h("form", { class: "profile-card", "data-testid": "new-club" },
    h("h2", { text: t("clubs_new") }),
    h("div", { class: "club-form" },
      h("label", {}, t("clubs_name"), input),
      h("button", { type: "submit", class: "primary", "data-testid": "create-club" }, t("clubs_create"))),
    h("p", { class: "club-done", "data-testid": "clubs-note", text: note || "" }),
    errorLine("new-error"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    run("new-error", async () => {
      const got = await api("POST", "/api/clubs", { name: input.value });
      history.pushState(null, "", `/clubs/${got.id}`);
      await render();
    });
  });
  const list = h("ul", { class: "club-list" });
  for (const c of mine.clubs) {
    list.append(h("li", { "data-testid": "club-row" },
      h("a", { class: "club-link", href: `/clubs/${c.id}`, text: t("clubs_summary", { name: c.name, n: c.members, owner: c.owner }) })));
  }
  return [
    h("h2", { class: "sr-only", text: t("clubs_title") }),
    card(t("clubs_mine"), "my-clubs", mine.clubs.length ? list : h("p", { text: t("clubs_none") })),
    form,
  ];
}

// -- a club -------------------------------------------------------------------------
function grid(testid, heads, rows) {
  return h("table", { class: "club-table", "data-testid": testid },
    h("thead", {}, h("tr", {}, ...heads.map((x) => h("th", { scope: "col", text: x })))),
    h("tbody", {}, ...rows.map((r) => h("tr", { "data-testid": testid + "-row" }, ...r.map((x) => h("td", { text: String(x) }))))));
}

function membersCard(club) {
  const errId = "members-error";
  const list = h("ul", { class: "club-list" });
  for (const m of club.members) {
    const rating = m.rating === null ? t("clubs_unrated") : t("clubs_rating", { r: m.rating });
    const row = h("li", { "data-testid": "member-row", "data-handle": m.handle },
      h("span", { class: "who" }, h("a", { class: "club-link", href: `/p/${enc(m.handle)}`, text: t("clubs_member", { name: m.display_name, handle: m.handle }) }), " · " + rating));
    if (club.owned && m.handle !== club.owner) {
      row.append(h("button", { type: "button", "data-testid": "remove-member", "aria-label": t("clubs_remove") + ": @" + m.handle,
        onclick: () => run(errId, async () => {
          if (!confirm(t("clubs_remove_confirm", { handle: m.handle }))) return;
          await api("DELETE", `/api/clubs/${club.id}/members/${enc(m.handle)}`);
          await render();
        }) }, t("clubs_remove")));
    }
    list.append(row);
  }
  return card(t("clubs_members"), "members", list, errorLine(errId));
}

function tablesCard(club) {
  const list = h("ul", { class: "club-list" });
  for (const x of club.tables) {
    const status = t(x.status === "waiting" ? "clubs_waiting" : "clubs_playing");
    list.append(h("li", { "data-testid": "table-row" }, h("a", { class: "club-link", href: `/t/${enc(x.code)}`,
      text: t("clubs_table", { name: x.name, code: x.code, status, seated: x.seated, players: x.players }) })));
  }
  const players = h("select", { name: "players", "data-testid": "table-players" },
    ...[2, 3, 4].map((n) => h("option", { value: String(n) }, String(n))));
  const rated = h("input", { type: "checkbox", name: "rated", "data-testid": "table-rated" });
  const form = h("form", { class: "club-form", "data-testid": "new-table" },
    h("label", {}, t("clubs_players"), players),
    h("label", {}, rated, " " + t("clubs_rated")),
    h("button", { type: "submit", class: "primary", "data-testid": "make-table" }, t("clubs_make_table")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    run("tables-error", async () => {
      const got = await api("POST", `/api/clubs/${club.id}/tables`, { players: Number(players.value), rated: rated.checked });
      saveSeat(got.code, got.token, got.seat);
      location.assign(`/t/${enc(got.code)}`);
    });
  });
  return card(t("clubs_tables"), "tables", club.tables.length ? list : h("p", { text: t("clubs_none") }),
    h("h3", { text: t("clubs_new_table") }), form, errorLine("tables-error"));
}

function matchesCard(club) {
  const list = h("ul", { class: "club-list" });
  for (const m of club.matches) {
    const text = m.winners.length ? t("clubs_match", { code: m.code, n: m.match, winners: m.winners.join(", ") })
      : t("clubs_match_none", { code: m.code, n: m.match });
    list.append(h("li", { "data-testid": "match-row" }, h("span", { class: "who", text }),
      h("a", { class: "club-link", href: `/t/${enc(m.code)}/replay?match=${m.match}`, "aria-label": t("clubs_replay") + ": " + text }, t("clubs_replay"))));
  }
  return card(t("clubs_matches"), "matches", club.matches.length ? list : h("p", { text: t("clubs_none") }));
}

function inviteCard(club, invite) {
  const absolute = location.origin + invite.link;
  const copied = h("span", { class: "club-done", "data-testid": "copied", "aria-live": "polite" });
  const copy = async () => { await navigator.clipboard.writeText(absolute); copied.textContent = t("clubs_copied"); };
  const rotate = async () => { await api("POST", `/api/clubs/${club.id}/invite`); await render(); };
  const buttons = [h("button", { type: "button", class: "primary", "data-testid": "copy-link", onclick: () => run("invite-error", copy) }, t("clubs_copy"))];
  if (club.owned) buttons.push(h("button", { type: "button", "data-testid": "rotate-link", onclick: () => run("invite-error", rotate) }, t("clubs_rotate")));
  return card(t("clubs_invite"), "invite",
    h("p", { text: t("clubs_invite_note") }),
    h("img", { class: "profile-qr", alt: t("clubs_qr_alt"), "data-testid": "invite-qr", src: "data:image/svg+xml;charset=utf-8," + enc(invite.qr_svg) }),
    h("p", { class: "profile-link", text: absolute, "data-testid": "invite-link" }),
    h("div", { class: "club-buttons" }, ...buttons, copied),
    errorLine("invite-error"));
}

function endCard(club) {
  const leave = async () => {
    if (!confirm(t(club.owned ? "clubs_delete_confirm" : "clubs_leave_confirm"))) return;
    await api(club.owned ? "DELETE" : "POST", club.owned ? `/api/clubs/${club.id}` : `/api/clubs/${club.id}/leave`);
    history.pushState(null, "", "/clubs");
    await render();
  };
  return h("section", { class: "profile-card" },
    h("div", { class: "club-buttons" },
      h("button", { type: "button", class: "danger", "data-testid": club.owned ? "delete-club" : "leave-club", onclick: () => run("end-error", leave) },
        t(club.owned ? "clubs_delete" : "clubs_leave"))),
    errorLine("end-error"));
}

async function clubView(id, note) {
  const [club, invite] = await Promise.all([api("GET", `/api/clubs/${id}`), api("GET", `/api/clubs/${id}/invite`)]);
  document.title = "Five Up Online — " + club.name;
  return [
    h("section", { class: "profile-card" },
      h("h2", { "data-testid": "club-title", text: club.name }),
      note ? h("p", { class: "club-done", "data-testid": "clubs-note", text: note }) : "",
      h("a", { class: "club-link", href: "/clubs", "data-testid": "all-clubs" }, t("clubs_all"))),
    membersCard(club),
    card(t("clubs_standings"), "standings", grid("standings", [t("clubs_player"), t("clubs_played"), t("clubs_won")],
      club.standings.map((s) => [t("clubs_member", { name: s.display_name, handle: s.handle }), s.played, s.won]))),
    card(t("clubs_board"), "board", club.leaderboard.length
      ? grid("board", [t("clubs_rank"), t("clubs_player"), t("clubs_rating_col")],
        club.leaderboard.map((e) => [e.rank, t("clubs_member", { name: e.display_name, handle: e.handle }), e.rating.rating]))
      : h("p", { text: t("clubs_none") })),
    tablesCard(club),
    matchesCard(club),
    inviteCard(club, invite),
    endCard(club),
  ];
}

function guestView() {
  return [card(t("clubs_title"), "clubs-guest",
    h("p", { text: t("clubs_guest"), "data-testid": "guest-note" }),
    h("p", {}, h("a", { href: "/profile", "data-testid": "make-profile", class: "friends-top" }, t("clubs_guest_link"))))];
}

async function render(note) {
  let me = null;
  try { me = await api("GET", "/api/profile"); } catch (err) { if (err.status !== 401) note = say(err); }
  if (!me) {
    clear(main).append(...guestView());
    main.dataset.state = "guest";
    return;
  }
  const id = clubId();
  let view;
  try {
    view = id === null ? listView(await api("GET", "/api/clubs"), note) : await clubView(id, note);
  } catch (err) {
    view = [h("section", { class: "profile-card" },
      h("p", { class: "profile-error", role: "alert", "data-testid": "club-error", text: say(err) }),
      h("a", { class: "club-link", href: "/clubs" }, t("clubs_all")))];
  }
  clear(main).append(...view);
  main.dataset.state = "signed-in";
}

// /c/{token}: an invite link. Signed in, it joins; the page then shows the club.
async function fromLink() {
  const m = /^\/c\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
  if (!m) return undefined;
  try { await api("GET", "/api/profile"); } catch { return undefined; } // a guest: the note
  try {
    const got = await api("POST", "/api/clubs/join", { link: m[1] });
    history.replaceState(null, "", `/clubs/${got.id}`);
    return t("clubs_joined", { name: got.name });
  } catch (err) {
    history.replaceState(null, "", "/clubs");
    return say(err);
  }
}

function chrome() {
  document.getElementById("lang-label").textContent = t("lang_label");
  document.getElementById("profile-top").textContent = t("clubs_profile");
  document.title = "Five Up Online — " + t("clubs_title");
  const sel = document.querySelector("[data-testid=lang]");
  sel.replaceChildren(...LANGS.map(([v, label]) => h("option", { value: v, selected: v === getLang() }, label)));
}

document.querySelector("[data-testid=lang]").addEventListener("change", (e) => {
  setLang(e.target.value);
  chrome();
  render();
});
window.addEventListener("popstate", () => render());
setLang(getLang());
chrome();
fromLink().then((note) => render(note));
