// Invitations and friends' online state on every page (docs/invitations.md). Signed in
// (GET /api/profile answers 200), it opens /ws/profile (the session cookie goes with
// it) and shows each invitation as a toast — "Take the seat" opens the table (whose
// page shows the join form), "Dismiss" deletes it — and keeps the friends' online state
// for the friends page (onFriendsOnline). Invitations waiting from before are shown on
// connect, until taken or dismissed. Strings from the server become text nodes (dom.js).
import { h } from "./dom.js";
import { t, addStrings } from "./i18n.js";
import { call as api } from "./net/api.js";

addStrings({
  en: {
    inv_title: "{name} invites you", inv_table: "Table {table} ({players} players)",
    inv_seat: "seat {n}", inv_take: "Take the seat", inv_dismiss: "Dismiss",
    inv_online: "online", inv_online_at: "online · at table {table}", inv_offline: "offline",
    inv_watch: "Watch", inv_watch_label: "Watch table {table}", inv_region: "Invitations",
  },
  uk: {
    inv_title: "{name} запрошує вас", inv_table: "Стіл {table} (гравців: {players})",
    inv_seat: "місце {n}", inv_take: "Сісти за стіл", inv_dismiss: "Відхилити",
    inv_online: "у мережі", inv_online_at: "у мережі · за столом {table}", inv_offline: "не в мережі",
    inv_watch: "Дивитися", inv_watch_label: "Дивитися стіл {table}", inv_region: "Запрошення",
  },
});

const SHOWN_MAX = 3;
const listeners = new Set();
let online = null; // the last friends_online frame's list
let region = null;
const shown = new Set();

/** Call `fn(friends)` with every friends_online list (at once with the last one). */
export function onFriendsOnline(fn) {
  listeners.add(fn);
  if (online) fn(online);
  return () => listeners.delete(fn);
}

/** The words for a friend's online state ("online · at table X", "online", "offline"). */
export function onlineText(f) {
  if (!f.online) return t("inv_offline");
  return f.table ? t("inv_online_at", { table: f.table.name || f.table.code }) : t("inv_online");
}

function ensureStyle() {
  if (document.querySelector("link[data-invitations]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/invitations.css", "data-invitations": "" }));
}

function ensureRegion() {
  if (region && region.isConnected) return region;
  region = h("div", { class: "inv-region", role: "status", "aria-live": "polite",
    "aria-label": t("inv_region"), "data-testid": "invitations" });
  document.body.append(region);
  return region;
}

function toast(inv) {
  if (shown.has(inv.id)) return;
  const box = ensureRegion();
  if (box.children.length >= SHOWN_MAX) box.firstElementChild.remove();
  shown.add(inv.id);
  const where = t("inv_table", { table: inv.table.name, players: inv.table.players })
    + (inv.seat === null || inv.seat === undefined ? "" : " · " + t("inv_seat", { n: inv.seat + 1 }));
  const dismiss = h("button", { type: "button", class: "inv-dismiss", "data-testid": "invitation-dismiss" }, t("inv_dismiss"));
  const card = h("div", { class: "inv-toast", "data-testid": "invitation", "data-id": String(inv.id) },
    h("p", { class: "inv-who", text: t("inv_title", { name: inv.from.display_name }) + " (@" + inv.from.handle + ")" }),
    h("p", { class: "inv-where", text: where }),
    h("div", { class: "inv-actions" },
      h("a", { class: "inv-take", href: inv.url, "data-testid": "invitation-take" }, t("inv_take")),
      dismiss));
  dismiss.addEventListener("click", async () => {
    card.remove();
    try { await api("DELETE", `/api/profile/invitations/${inv.id}`); } catch { /* gone already */ }
  });
  card.querySelector("a").addEventListener("click", () => {
    // taken: it goes from the list (the page then opens the table)
    fetch(`/api/profile/invitations/${inv.id}`, { method: "DELETE", keepalive: true }).catch(() => {});
  });
  box.append(card);
}

function heard(frame) {
  if (frame.type === "invitation") toast(frame);
  else if (frame.type === "friends_online") {
    online = frame.friends;
    for (const fn of listeners) fn(online);
  }
}

function connect(delay) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws/profile`);
  ws.addEventListener("open", async () => {
    delay = 1000;
    try {
      const { invitations } = await api("GET", "/api/profile/invitations");
      for (const inv of invitations.slice(0, SHOWN_MAX).reverse()) toast(inv);
    } catch { /* shown when they come */ }
  });
  ws.addEventListener("message", (e) => {
    try { heard(JSON.parse(e.data)); } catch { /* not ours */ }
  });
  ws.addEventListener("close", (e) => {
    if (e.code === 4401 || e.code === 4403 || e.code === 4451) return; // signed out, refused
    setTimeout(() => connect(Math.min(delay * 2, 30000)), delay);
  });
}

async function start() {
  try { await api("GET", "/api/profile"); } catch { return; } // a guest: nothing to show
  ensureStyle();
  connect(1000);
}

start();
