// Client state of one open table, and pure selectors over it. The server's frames
// replace `table` and `view` wholesale; the rest is local UI state.
import { t } from "./i18n.js";

export function initialState(code, saved) {
  return {
    code, token: saved ? saved.token : null, you: saved ? saved.seat : null,
    table: null, view: null, seq: null, presence: null, conn: "connecting",
    selected: null, focusIdx: 0, zoom: { k: 1, x: 0, y: 0 }, error: null, notice: null,
    busy: false, fatal: null, joinName: null, hiddenDialog: null, dialogFocused: null,
    clockOffset: 0, // server clock − this clock, ms (from the snapshot's server_time)
    history: null, // GET /api/tables/{code}/history (score sheet, past rounds)
    review: null, // the round whose board and settlement are shown again (score sheet)
    boardPx: null, // the board's size in CSS pixels, measured after drawing
    chat: [], // recent chat messages {seq, type, seat, channel, text|quick} (ui/chat.js)
  };
}

/** The patch a snapshot frame makes. */
export function snapshotPatch(st, m) {
  const patch = { seq: m.seq, table: m.table, view: m.view, you: m.you ?? null };
  const serverNow = Date.parse(m.server_time);
  if (Number.isFinite(serverNow)) patch.clockOffset = serverNow - Date.now();
  if (m.you === null && st.token) patch.token = null; // token no longer a seat
  if (Array.isArray(m.chat)) patch.chat = m.chat.map((i) => ({ seq: i.seq, ...i.event }));
  return patch;
}

/** The patch an event frame makes. */
export function eventPatch(st, m) {
  const patch = { seq: m.seq };
  if (m.view !== undefined) patch.view = m.view;
  if (m.table !== undefined) patch.table = m.table;
  const type = m.event && m.event.type;
  if (type === "chat" && !(st.chat || []).some((c) => c.seq === m.seq)) {
    patch.chat = [...(st.chat || []), { seq: m.seq, ...m.event }].slice(-100);
  }
  // A new move invalidates any selection made against the old position.
  if (type === "move") { patch.selected = null; patch.busy = false; }
  if (type === "round_started" || type === "started" || type === "rematch_started") {
    patch.selected = null; patch.busy = false; patch.zoom = { k: 1, x: 0, y: 0 };
  }
  return patch;
}

export function seatName(st, seat) {
  const s = st.table && st.table.seats && st.table.seats[seat];
  if (s && s.name && s.bot) return s.name + " (" + t("computer") + ")"; // a computer player
  return (s && s.name) || t("seat_n", { n: seat + 1 });
}

export function isConnected(st, seat) {
  if (st.presence) return st.presence.includes(seat);
  const s = st.table && st.table.seats && st.table.seats[seat];
  return !!(s && s.connected);
}

export function sideNames(st, side) {
  const sides = (st.view && st.view.sides) || (st.table && st.table.sides) || [];
  return (sides[side] || []).map((seat) => seatName(st, seat)).join(" & ");
}

/** The tile placed last in a round's log (highlighted on the board). */
export function lastPlaced(log) {
  for (let i = (log || []).length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.type === "move" && (e.kind === "place" || e.kind === "open")) return e.tile;
  }
  return null;
}
