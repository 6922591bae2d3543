// The operator's page (/admin): sign in with the operator token (a session cookie,
// HttpOnly, SameSite=Strict), then the overview every 10 s and the actions. Every string
// from the server becomes a text node (dom.js); the server sends names and chat, never
// a hand, a stock or a token.
import { h, clear } from "./dom.js";
import { call as api } from "./net/api.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 10000;
let timer = null;

function when(iso) {
  if (!iso) return "until lifted";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
}

function showSignIn(message) {
  if (timer) { clearInterval(timer); timer = null; }
  $("console").hidden = true;
  $("sign-out").hidden = true;
  $("sign-in").hidden = false;
  $("sign-in-error").textContent = message || "";
}

async function act(method, path, body) {
  $("action-error").textContent = "";
  try {
    await api(method, path, body);
  } catch (err) {
    if (err.status === 401) return showSignIn("");
    $("action-error").textContent = err.message;
  }
  await refresh();
}

function button(text, onclick, testid) {
  return h("button", { type: "button", onclick, "data-testid": testid }, text);
}

function renderReports(reports) {
  const box = clear($("reports"));
  if (!reports.length) return box.append(h("p", { class: "admin-meta", text: "No open reports." }));
  for (const r of reports) {
    const what = r.kind === "message" ? `message #${r.seq}` : `player in seat ${r.seat + 1}`;
    const chat = r.context.map((c) => h("li", { class: c.reported ? "reported" : null },
      `${c.name}${c.channel === "spectators" ? " (spectator)" : ""}: ${c.text ?? `[${c.quick}]`}`));
    const actions = [
      button(r.author_known === "address" ? "Mute everywhere" : "Mute this seat",
        () => act("POST", "/admin/api/mutes", { report: r.id }), "mute-report"),
      r.author_known === "address"
        ? button("Ban a day", () => act("POST", "/admin/api/bans",
          { report: r.id, until: new Date(Date.now() + 86400000).toISOString() }), "ban-report")
        : null,
      button("Close table", () => act("POST", `/admin/api/tables/${r.code}/close`), "close-report-table"),
      button("Resolve", () => act("POST", `/admin/api/reports/${r.id}/resolve`), "resolve"),
    ];
    box.append(h("div", { class: "admin-item", "data-testid": "report" },
      h("div", {}, h("strong", { text: r.name }), ` — ${r.reason}, ${what} at ${r.code}`),
      r.text ? h("div", { text: `“${r.text}”` }) : null,
      chat.length ? h("ul", { class: "admin-chat" }, chat) : null,
      h("div", { class: "admin-meta", text: `${when(r.created_at)} · author known by: ${r.author_known}` }),
      h("div", { class: "admin-actions" }, actions)));
  }
}

function renderTables(tables) {
  const box = clear($("tables"));
  if (!tables.length) return box.append(h("p", { class: "admin-meta", text: "No live tables." }));
  for (const t of tables) {
    const seats = t.seats.map((s) => h("span", { class: s.connected ? "admin-on" : null },
      `${s.seat + 1}. ${s.name}${s.bot ? ` (computer, ${s.bot})` : ""}${s.connected ? " ●" : ""}`));
    box.append(h("div", { class: "admin-item", "data-testid": "table" },
      h("div", {}, h("strong", { text: t.code }), ` ${t.name} — ${t.status}${t.public ? "" : ", private"}`),
      h("div", { class: "admin-seats" }, seats),
      h("div", { class: "admin-meta", text: `${t.spectators} watching` }),
      h("div", { class: "admin-actions" },
        button("Close table", () => act("POST", `/admin/api/tables/${t.code}/close`), "close-table"))));
  }
}

function renderBans(bans, mutes) {
  const b = clear($("bans"));
  b.append(h("h3", { text: "Bans" }));
  if (!bans.length) b.append(h("p", { class: "admin-meta", text: "None." }));
  for (const ban of bans) {
    b.append(h("div", { class: "admin-item", "data-testid": "ban" },
      h("div", { text: `${ban.label} — until ${when(ban.until)}` }),
      h("div", { class: "admin-actions" }, button("Lift", () => act("DELETE", `/admin/api/bans/${ban.id}`), "unban"))));
  }
  const m = clear($("mutes"));
  m.append(h("h3", { text: "Chat mutes" }));
  if (!mutes.length) m.append(h("p", { class: "admin-meta", text: "None." }));
  for (const mute of mutes) {
    m.append(h("div", { class: "admin-item", "data-testid": "mute" },
      h("div", { text: `${mute.label} — by ${mute.by}, ${when(mute.until)}` }),
      h("div", { class: "admin-actions" }, button("Lift", () => act("DELETE", `/admin/api/mutes/${mute.id}`), "unmute"))));
  }
}

function renderAudit(audit) {
  const box = clear($("audit"));
  if (!audit.length) return box.append(h("p", { class: "admin-meta", text: "No actions yet." }));
  for (const a of audit) {
    box.append(h("div", { class: "admin-item", "data-testid": "audit-entry" },
      h("div", {}, h("strong", { text: a.action }), ` ${a.target}`),
      h("div", { class: "admin-meta", text: `${when(a.at)}${a.detail ? ` · ${a.detail}` : ""}` })));
  }
}

async function refresh() {
  let o;
  try {
    o = await api("GET", "/admin/api/overview");
  } catch (err) {
    if (err.status === 401 || err.status === 403) return showSignIn(err.status === 403 ? err.message : "");
    $("action-error").textContent = err.message;
    return;
  }
  $("sign-in").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
  // the drain button exists only when the server can drain (o.drain)
  $("drain").hidden = !o.drain;
  $("drain-none").hidden = !!o.drain;
  renderReports(o.reports);
  renderTables(o.tables);
  renderBans(o.bans, o.mutes);
  renderAudit(o.audit);
  if (!timer) timer = setInterval(refresh, REFRESH_MS);
}

$("sign-in").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const token = new FormData(ev.target).get("token");
  try {
    await api("POST", "/admin/session", { token: String(token || "") });
  } catch (err) {
    $("sign-in-error").textContent = err.message;
    return;
  }
  ev.target.reset();
  await refresh();
});

$("sign-out").addEventListener("click", async () => {
  try { await api("DELETE", "/admin/session"); } catch { /* signed out anyway */ }
  showSignIn("");
});

$("ban-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = new FormData(ev.target);
  const until = new Date(String(form.get("until")));
  if (Number.isNaN(until.getTime())) {
    $("action-error").textContent = "choose when the ban ends";
    return;
  }
  act("POST", "/admin/api/bans", { address: String(form.get("address")).trim(), until: until.toISOString() });
});

$("mute-address").addEventListener("click", () => {
  const address = String(new FormData($("ban-form")).get("address") || "").trim();
  if (!address) { $("action-error").textContent = "type the address to mute"; return; }
  act("POST", "/admin/api/mutes", { address });
});

$("drain").addEventListener("click", () => {
  if (window.confirm("Drain this process? Its players reconnect to another one.")) act("POST", "/admin/api/drain");
});

refresh();
