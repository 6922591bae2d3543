// Presence that tells the truth (docs/protocol.md, Presence): each person's seat is
// connected, away (its page is hidden) or disconnected, "since m:ss" ticking for the
// last two; the status line's "<name> (disconnected) to play"; and this page telling
// the server when it is hidden or shown again ({"type":"presence","state":"away"|"here"}).
import { h } from "../dom.js";
import { t, addStrings } from "../i18n.js";

addStrings({
  en: {
    presence_connected: "connected", presence_away: "away", presence_disconnected: "disconnected",
    presence_since: "{state} {time}",
    presence_title_connected: "Connected", presence_title_away: "Away: the page is hidden (another tab or app)",
    presence_title_disconnected: "Disconnected: not at the table",
    presence_name: "{name} ({state})",
  },
  uk: {
    presence_connected: "у мережі", presence_away: "вкладка прихована", presence_disconnected: "не в мережі",
    presence_since: "{state} {time}",
    presence_title_connected: "У мережі", presence_title_away: "Вкладку приховано (інша вкладка чи застосунок)",
    presence_title_disconnected: "Не в мережі: не за столом",
    presence_name: "{name} ({state})",
  },
});

/** Whether this page has lost its connection to the table (the socket is reconnecting). */
export function offline(st) {
  return st.conn === "reconnecting";
}

/**
 * A person's seat presence: {state, since} (since: ms since the epoch, server clock, or
 * null), from the latest `presence` frame, else from the table info; null for a free
 * seat or a computer player.
 */
export function seatPresence(st, seat) {
  const s = st.table && st.table.seats && st.table.seats[seat];
  if (!s || !s.name || s.bot) return null;
  // Our own seat while our socket is down is disconnected, whatever the last frame said.
  if (seat === st.you && offline(st)) return { state: "disconnected", since: null };
  const live = (st.presenceSeats || []).find((p) => p.seat === seat);
  const state = live ? live.state : s.presence || (s.connected ? "connected" : "disconnected");
  const since = live ? live.since : s.since;
  const at = since ? Date.parse(since) : NaN;
  return { state, since: Number.isFinite(at) ? at : null };
}

/** "0:42", "12:05", "1:02:03" for a duration in ms (negative: 0:00). */
export function clockText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

function sinceText(state, since, offset) {
  const word = t("presence_" + state);
  if (since === null) return word;
  return t("presence_since", { state: word, time: clockText(Date.now() + (offset || 0) - since) });
}

// One ticker for every "since" label on the page: only their text changes each second.
let ticker = null;
function tick() {
  const els = document.querySelectorAll("[data-presence-since]");
  if (!els.length) { clearInterval(ticker); ticker = null; return; }
  for (const el of els) {
    const text = sinceText(el.dataset.state, Number(el.dataset.presenceSince), Number(el.dataset.offset));
    if (el.textContent !== text) el.textContent = text;
  }
}

/**
 * The dot drawn before a seat's name: green connected, amber away, grey disconnected
 * (its title says which). null for a free seat or a computer player.
 */
export function presenceMark(st, seat) {
  const p = seatPresence(st, seat);
  if (!p) return null;
  return h("span", {
    class: "presence" + (p.state === "connected" ? " on" : p.state === "away" ? " away" : ""),
    "data-connected": p.state === "disconnected" ? "0" : "1",
    "data-presence": p.state, title: t("presence_title_" + p.state),
  });
}

/** The words after an away or disconnected seat's name: "away 0:42", ticking. */
export function presenceLabel(st, seat) {
  const p = seatPresence(st, seat);
  if (!p || p.state === "connected") return null;
  const label = h("small", {
    class: "presence-since", "data-testid": "presence-" + seat, "data-state": p.state,
    "data-presence-since": p.since, "data-offset": st.clockOffset || 0,
    text: sinceText(p.state, p.since, st.clockOffset),
  });
  if (!ticker && typeof document !== "undefined") ticker = setInterval(tick, 1000);
  return label;
}

/** A seat's name for the status line: "Bob (disconnected)", "Bob (away)", or the name. */
export function nameWithPresence(st, seat, name) {
  const p = seatPresence(st, seat);
  return p && p.state !== "connected" ? t("presence_name", { name, state: t("presence_" + p.state) }) : name;
}

/**
 * Tell the server whether this page is visible, now and on every visibilitychange:
 * `send(frame)` sends on the current socket. Returns the function that stops it.
 */
export function reportVisibility(send) {
  const report = () => send({ type: "presence", state: document.visibilityState === "hidden" ? "away" : "here" });
  document.addEventListener("visibilitychange", report);
  return { report, stop: () => document.removeEventListener("visibilitychange", report) };
}
