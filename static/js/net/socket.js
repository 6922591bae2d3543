// The table's WebSocket: connect, reconnect with back-off, seq tracking and resync
// (docs/protocol.md). It hands every snapshot/event to the callbacks in order, never
// twice, and never with a gap: a gap or a reconnect triggers `resync` with the last seq.
// Event frames carry patches of the view and the table info (docs/protocol.md, "Event
// frames"); this module applies them, so the rest of the client always gets whole
// `view`/`table` objects (new objects whenever they change). The layout descriptions
// come with snapshots and, later, on request (`describe`) while someone reads them.

/** `obj` with a protocol patch applied: a new object; untouched branches are shared. */
export function applyPatch(obj, patch) {
  if (!patch) return obj;
  const out = { ...obj };
  const walk = (path) => {
    const keys = path.split(".");
    let node = out;
    for (const k of keys.slice(0, -1)) {
      node[k] = Array.isArray(node[k]) ? [...node[k]] : { ...node[k] };
      node = node[k];
    }
    return [node, keys[keys.length - 1]];
  };
  for (const [path, value] of Object.entries(patch.set || {})) {
    const [node, key] = walk(path);
    node[key] = value;
  }
  for (const [path, items] of Object.entries(patch.append || {})) {
    const [node, key] = walk(path);
    node[key] = [...(node[key] || []), ...items];
  }
  return out;
}

const DESCRIPTION_ID = "layout-description";

/** Quick, quiet connection tries after the server closed the socket with 1012. */
const RESUME_TRIES = 4;

/** Whether someone is reading the layout description (open panel or focused board). */
function descriptionWanted() {
  if (typeof document === "undefined") return false;
  const el = document.getElementById(DESCRIPTION_ID);
  if (!el) return false;
  const details = el.closest("details");
  if (details && details.open) return true;
  const active = document.activeElement;
  return !!(active && active.getAttribute("aria-describedby") === DESCRIPTION_ID);
}

export class TableSocket {
  /**
   * @param {string} code
   * @param {string|null} token
   * @param {{onSnapshot, onEvent, onAck, onError, onPresence, onState}} cb
   */
  constructor(code, token, cb) {
    this.code = code;
    this.token = token;
    this.cb = cb;
    this.ws = null;
    this.lastSeq = null; // last seq applied
    this.state = "connecting";
    this.attempt = 0;
    this.resuming = 0; // quiet tries left after a 1012 (server restart)
    this.closedByUs = false;
    this.pending = new Map(); // move_id -> frame (sent, not acked yet)
    this.timer = null;
    this.pingTimer = null;
    this.awaitingSnapshot = false;
    this.view = null;
    this.table = null;
    this.describedSeq = null; // seq the view's descriptions belong to
    this.onReading = () => this.describeIfStale();
    // The network back (`online`) or the page shown again with its socket gone: connect
    // at once instead of waiting out the back-off. The network gone (`offline`): the
    // socket is given up at once, so the page shows it is offline (not a live table).
    this.onOnline = () => this.reconnectNow();
    this.onOffline = () => { if (this.ws && !this.closedByUs) this.ws.close(); };
    this.onVisible = () => { if (document.visibilityState === "visible") this.reconnectNow(); };
    if (typeof document !== "undefined") {
      document.addEventListener("toggle", this.onReading, true);
      document.addEventListener("focusin", this.onReading, true);
      document.addEventListener("visibilitychange", this.onVisible);
      window.addEventListener("online", this.onOnline);
      window.addEventListener("offline", this.onOffline);
    }
  }

  /** Connect now (back-off forgotten) when there is no socket and we did not close it. */
  reconnectNow() {
    if (this.closedByUs || this.state === "closed" || this.ws) return;
    clearTimeout(this.timer);
    this.attempt = 0;
    this.connect();
  }

  /** Ask for the layout descriptions if the view moved on since they were sent. */
  describeIfStale() {
    if (this.view && this.describedSeq !== this.lastSeq && descriptionWanted()) {
      this.describedSeq = this.lastSeq;
      this.sendRaw({ type: "describe" });
    }
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let u = `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.code)}`;
    if (this.token) u += "?token=" + encodeURIComponent(this.token);
    return u;
  }

  setState(s) {
    this.state = s;
    this.cb.onState && this.cb.onState(s);
  }

  connect() {
    this.closedByUs = false;
    // after a 1012 (the server restarts) the page reconnects quietly: "resuming"
    this.setState(this.resuming > 0 ? "resuming" : this.attempt === 0 && this.lastSeq === null ? "connecting" : "reconnecting");
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.scheduleReconnect(); return; }
    this.ws = ws;
    this.awaitingSnapshot = true;
    ws.onopen = () => {
      this.attempt = 0;
      this.resuming = 0;
      this.setState("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.sendRaw({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.handle(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closedByUs) { this.setState("closed"); return; }
      // 4410: the seat moved to another device; 4411: you left it — never retry the token;
      // 4430: too many look-ups of unknown codes from this address (reason: "retry in N s");
      // 4412: the host removed or blocked you here; 4451: this address is banned
      if ([4404, 4401, 4410, 4411, 4412, 4430, 4451].includes(ev.code)) {
        this.setState("closed");
        this.cb.onFatal && this.cb.onFatal(ev.code, ev.reason || "");
        return;
      }
      // 1012: the server process restarts (it drained); connect again at once — to
      // another process — without the lost-connection banner, for a few quick tries
      if (ev.code === 1012) {
        this.resuming = RESUME_TRIES;
        this.attempt = 0;
        this.connect();
        return;
      }
      if (this.resuming > 0) {
        this.resuming -= 1;
        if (this.resuming > 0) {
          clearTimeout(this.timer);
          this.timer = setTimeout(() => this.connect(), 200 + Math.random() * 300);
          return;
        }
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    this.setState("reconnecting");
    const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt = Math.min(this.attempt + 1, 6);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  close() {
    this.closedByUs = true;
    if (typeof document !== "undefined") {
      document.removeEventListener("toggle", this.onReading, true);
      document.removeEventListener("focusin", this.onReading, true);
      document.removeEventListener("visibilitychange", this.onVisible);
      window.removeEventListener("online", this.onOnline);
      window.removeEventListener("offline", this.onOffline);
    }
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }

  sendRaw(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  handle(msg) {
    switch (msg.type) {
      case "snapshot": {
        // On (re)connect the snapshot is the whole projected state at `seq`, so the
        // client resumes from it directly. In answer to a `resync` (sent on a gap) it
        // also carries the missed events: replay those we have not applied, then
        // take the snapshot. Anything at or below lastSeq is never applied twice.
        this.awaitingSnapshot = false;
        for (const e of msg.events || []) {
          if (this.lastSeq !== null && e.seq <= this.lastSeq) continue;
          this.cb.onEvent && this.cb.onEvent({ seq: e.seq, event: e.event, replay: true });
        }
        if (this.lastSeq === null || msg.seq >= this.lastSeq) {
          this.lastSeq = msg.seq;
          this.view = msg.view;
          this.table = msg.table;
          this.describedSeq = msg.seq;
          this.cb.onSnapshot && this.cb.onSnapshot(msg);
        }
        // Moves sent but never acknowledged (connection lost): retry with the same
        // move_id; the server applies a move_id at most once.
        for (const frame of this.pending.values()) this.sendRaw(frame);
        break;
      }
      case "event": {
        if (this.lastSeq !== null && msg.seq <= this.lastSeq) return; // duplicate
        if (this.lastSeq !== null && msg.seq !== this.lastSeq + 1) {
          this.sendRaw({ type: "resync", last_seq: this.lastSeq });
          return;
        }
        this.lastSeq = msg.seq;
        const out = { type: "event", seq: msg.seq, event: msg.event };
        if ("view" in msg) {
          this.view = msg.view;
          out.view = this.view;
        } else if (msg.view_patch && this.view) {
          // patches never carry the descriptions: they are asked for when read
          this.view = { ...applyPatch(this.view, msg.view_patch), description: null, description_uk: null };
          out.view = this.view;
        }
        if (msg.table_patch && this.table) {
          this.table = applyPatch(this.table, msg.table_patch);
          out.table = this.table;
        }
        this.cb.onEvent && this.cb.onEvent(out);
        if (out.view) this.describeIfStale();
        break;
      }
      case "description": {
        if (msg.seq !== this.lastSeq || !this.view) break; // the view moved on: ask again
        this.view = { ...this.view, description: msg.description, description_uk: msg.description_uk };
        this.cb.onEvent && this.cb.onEvent({ type: "event", seq: msg.seq, event: { type: "description" }, view: this.view });
        break;
      }
      case "ack":
        this.pending.delete(msg.move_id);
        this.cb.onAck && this.cb.onAck(msg);
        break;
      case "error":
        if (msg.move_id) this.pending.delete(msg.move_id);
        this.cb.onError && this.cb.onError(msg);
        break;
      case "presence":
        this.cb.onPresence && this.cb.onPresence(msg.connected || [], msg.spectators, msg.seats);
        break;
      default:
        break;
    }
  }

  move(notation) {
    const id = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).slice(0, 64);
    const frame = { type: "move", move: notation, move_id: id, seq: this.lastSeq };
    this.pending.set(id, frame);
    this.sendRaw(frame);
    return id;
  }

  nextRound() { return this.sendRaw({ type: "next_round" }); }
  rematch() { return this.sendRaw({ type: "rematch" }); }
}
