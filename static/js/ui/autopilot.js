// Autopilot marks in the browser (issue 9; docs/protocol.md): a move the server's
// autopilot played for an absent player (`"autopilot": true` on the move event) is
// marked "(autopilot)" wherever moves are listed (the log, the phone bar's last move,
// the replay when its record carries the flag); the `autopilot` event (a seat goes on
// autopilot to stay / its player is back) is a line of the log; a seat with
// `seats[].autopilot` wears an "autopilot" badge. The view's log is the engine's and
// has no flag, so the flags of the events this page has seen are kept per table in
// `sessionStorage["fiveup.autopilot.<CODE>"]` (a reload in the same tab keeps them).
import { h } from "../dom.js";
import { t, addStrings } from "../i18n.js";

addStrings({
  en: {
    log_autopilot: "(autopilot)", autopilot: "autopilot",
    autopilot_badge_title: "The player is away: the computer plays this seat until they come back.",
    autopilot_on: "{name} is away: the autopilot plays for them until they come back.",
    autopilot_off: "{name} is back and plays again.",
  },
  uk: {
    log_autopilot: "(автопілот)", autopilot: "автопілот",
    autopilot_badge_title: "Гравця немає: комп'ютер грає за це місце, доки гравець не повернеться.",
    autopilot_on: "{name} немає за столом: автопілот грає за це місце, доки гравець не повернеться.",
    autopilot_off: "{name} повернувся(лася) і знову грає.",
  },
});

const KEEP = 200; // marks kept per table (a match is far shorter)

function storageKey(code) { return "fiveup.autopilot." + code; }

/** This tab's saved marks of a table: {moves: {"match:round:index": true}, lines: [...]} */
export function loadMarks(code) {
  try {
    const raw = JSON.parse(sessionStorage.getItem(storageKey(code)) || "null");
    if (raw && typeof raw.moves === "object" && Array.isArray(raw.lines)) return raw;
  } catch { /* private mode, bad data */ }
  return { moves: {}, lines: [] };
}

function saveMarks(code, marks) {
  try { sessionStorage.setItem(storageKey(code), JSON.stringify(marks)); } catch { /* private mode */ }
}

function matchOf(st, m) {
  const table = (m && m.table) || st.table;
  return (table && table.match) || 0;
}

/**
 * The patch an event frame makes to the autopilot marks (`{}` when none): a move
 * played by the autopilot, or an `autopilot` event (kept with the number of moves of
 * its round logged by then, so the log can show it in its place).
 */
export function autopilotPatch(st, m) {
  const ev = (m && m.event) || {};
  const marks = st.autopilot || loadMarks(st.code);
  let next = null;
  if (ev.type === "move" && ev.autopilot) {
    const key = matchOf(st, m) + ":" + ev.round + ":" + ev.index;
    if (!marks.moves[key]) {
      const keys = Object.keys(marks.moves).slice(-(KEEP - 1));
      next = { ...marks, moves: Object.fromEntries([...keys.map((k) => [k, true]), [key, true]]) };
    }
  } else if (ev.type === "autopilot" && Number.isInteger(ev.seat) && !marks.lines.some((l) => l.seq === m.seq)) {
    const view = m.view || st.view;
    const after = ((view && view.log) || []).filter((e) => e.type === "move").length;
    const line = { seq: m.seq, seat: ev.seat, on: !!ev.on, match: matchOf(st, m), round: view ? view.round : null, after };
    next = { ...marks, lines: [...marks.lines, line].slice(-KEEP) };
  }
  if (!next) return {};
  saveMarks(st.code, next);
  return { autopilot: next };
}

/** Whether a logged move was played by the autopilot. */
export function isAutopilotMove(st, ev) {
  if (!ev || ev.type !== "move") return false;
  if (ev.autopilot) return true; // a log entry or a record move carrying the flag
  const marks = st.autopilot;
  const match = (st.table && st.table.match) || 0;
  return !!(marks && marks.moves[match + ":" + ev.round + ":" + ev.index]);
}

/** " (autopilot)" for a move the autopilot played, else "". */
export function autopilotSuffix(st, ev) {
  return isAutopilotMove(st, ev) ? " " + t("log_autopilot") : "";
}

/**
 * Put the current round's `autopilot` lines into the log list (`ul`, newest first,
 * one item per move as play.js draws it), each after the move it followed.
 */
export function addAutopilotLines(ul, st, v, seatName) {
  const marks = st.autopilot;
  if (!marks || !marks.lines.length || !ul) return;
  const match = (st.table && st.table.match) || 0;
  const lines = marks.lines.filter((l) => l.match === match && l.round === v.round).sort((a, b) => b.seq - a.seq);
  const items = [...ul.children];
  const n = items.length;
  for (const l of lines) {
    const k = Math.min(l.after, n);
    const ref = k > 0 ? items[n - k] : null; // the item of move k (items are newest first)
    ul.insertBefore(h("li", {
      class: "autopilot-line", "data-testid": "autopilot-line", "data-key": "a:" + l.match + ":" + l.seq, "data-seat": l.seat, "data-on": l.on ? "1" : "0",
    }, h("span", { text: t(l.on ? "autopilot_on" : "autopilot_off", { name: seatName(l.seat) }) })), ref);
  }
}

/** The "autopilot" badge on every seat area of `screen` whose seat is on autopilot. */
export function addAutopilotBadges(screen, st) {
  const seats = (st.table && st.table.seats) || [];
  for (const s of seats) {
    if (!s || !s.autopilot) continue;
    const name = screen.querySelector(`[data-testid="seat-area-${s.seat}"] .name`);
    if (name) {
      name.appendChild(h("span", {
        class: "badge autopilot", "data-testid": "autopilot-badge", "data-seat": s.seat,
        title: t("autopilot_badge_title"), text: t("autopilot"),
      }));
    }
  }
}
