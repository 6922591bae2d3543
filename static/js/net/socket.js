// The table's WebSocket: connect, reconnect with back-off, seq tracking and resync
// (docs/protocol.md). It hands every snapshot/event to the callbacks in order, never
// twice, and never with a gap: a gap or a reconnect triggers `resync` with the last seq.

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
    this.closedByUs = false;
    this.pending = new Map(); // move_id -> frame (sent, not acked yet)
    this.timer = null;
    this.pingTimer = null;
    this.awaitingSnapshot = false;
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
    this.setState(this.attempt === 0 && this.lastSeq === null ? "connecting" : "reconnecting");
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.scheduleReconnect(); return; }
    this.ws = ws;
    this.awaitingSnapshot = true;
    ws.onopen = () => {
      this.attempt = 0;
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
      if (ev.code === 4404 || ev.code === 4401) {
        this.setState("closed");
        this.cb.onFatal && this.cb.onFatal(ev.code);
        return;
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
        this.cb.onEvent && this.cb.onEvent(msg);
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
        this.cb.onPresence && this.cb.onPresence(msg.connected || []);
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
