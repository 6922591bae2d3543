// The table screen's controller: the client state of one table, the server
// connection, the actions (all checked against the view's `legal` list) and the
// keyboard. Drawing is done by the views: ui/waiting.js (before the start),
// ui/play.js (in play, spectating) and ui/settlement.js (round and match end).
import { seatProfilesEl } from "./seat-profiles.js";
import { h } from "../dom.js";
import { reconcile } from "../reconcile.js";
import { t } from "../i18n.js";
import { api, loadSeat, saveSeat, forgetSeat, loadName, saveName } from "../net/api.js";
import { TableSocket } from "../net/socket.js";
import { errorText } from "./errors.js";
import { clockBadge } from "./clock.js";
import { autopilotPatch, loadMarks } from "./autopilot.js";
import { computeLayout, boardFor } from "../board/layout.js";
import { targetsFor, movesForTile } from "../board/input.js";
import { targetWords } from "./words.js";
import { renderWaiting } from "./waiting.js";
import { nameOk, nameError, tableName } from "./names.js";
import { playSound, soundsFor, isMuted, setMuted, soundLog } from "./sound.js";
import { renderPlay } from "./play.js";
import { createChat } from "./chat.js";
import { reportVisibility, offline } from "./presence.js";
import * as S from "../state.js";
import { claimFromFragment, deviceShortcut, onSeatClosed, renderMoved, renderSeatBits, eventNotice, tokenRefusedText, CLOSE_SEAT_MOVED, CLOSE_SEAT_LEFT } from "./device.js";

/** The socket's close code for an address over its look-up-miss quota (docs/protocol.md). */
const CLOSE_TOO_MANY_LOOKUPS = 4430;

export function openTable(root, app, code, { watch = false } = {}) {
  code = String(code).toUpperCase();
  const st = S.initialState(code, watch ? null : loadSeat(code));
  st.autopilot = loadMarks(code); // moves the autopilot played, seen by this tab (ui/autopilot.js)
  let sock = null;
  let layoutCache = { tiles: null, board: null, lay: null };
  let disposed = false;
  const chat = createChat({ code, send: (frame) => !!sock && sock.sendRaw(frame) });
  // This page hidden or shown again: the seat shows as away / connected (ui/presence.js).
  const visibility = reportVisibility((frame) => !!sock && st.token !== null && sock.sendRaw(frame));

  // The match history (score sheet, past rounds) is fetched when the match or the
  // round changes; the current round itself comes from the view.
  let historyKey = null;
  function refreshHistory() {
    const v = st.view, tb = st.table;
    if (!v || !tb) return;
    const key = tb.match + ":" + v.round + ":" + (st.you ?? "x");
    if (key === historyKey) return;
    historyKey = key;
    api.history(code, st.token).then((hist) => {
      if (!disposed && historyKey === key) arrived(() => update({ history: hist }));
    }).catch(() => { if (historyKey === key) historyKey = null; });
  }

  // The signed-in players at the table (handle and rating, GET
  // /api/tables/{code}/profiles), read again when the seats change.
  let profilesKey = null;
  function refreshProfiles() {
    const tb = st.table;
    if (!tb) return;
    const key = tb.status + ":" + tb.seats.map((s) => s.name || "").join("|");
    if (key === profilesKey) return;
    profilesKey = key;
    api.tableProfiles(code).then((r) => {
      if (!disposed && profilesKey === key) arrived(() => update({ seatProfiles: r.seats }));
    }).catch(() => { if (profilesKey === key) profilesKey = null; });
  }

  // A seated, signed-in player's friends and clubs, for "Invite friends" in the waiting room
  // (ui/invite-friends.js): read once, when this page first shows a waiting table.
  let friendsRead = false;
  function refreshFriends() {
    if (friendsRead || !st.table || st.table.status !== "waiting" || st.you === null || st.you === undefined) return;
    friendsRead = true;
    api.friends().then((r) => {
      if (!disposed) arrived(() => update({ friends: r.friends || [] }));
    }).catch(() => { /* a guest (401): no friends to invite */ });
    api.myClubs().then((r) => {
      if (!disposed) arrived(() => update({ clubs: r.clubs || [] }));
    }).catch(() => { /* a guest (401): no clubs */ });
  }

  // What arrived from the server (a frame, a fetched history) is drawn on the next
  // animation frame, so a burst of frames is drawn once; what the person does (a key,
  // a click, a pan) is drawn at once, so focus and selection never lag a frame.
  let arriving = false;
  function arrived(apply) {
    arriving = true;
    try { apply(); } finally { arriving = false; }
  }

  function update(patch = {}) {
    Object.assign(st, patch);
    if ("view" in patch || "table" in patch) { refreshHistory(); refreshProfiles(); refreshFriends(); }
    if (disposed) return;
    if (arriving) scheduleRender();
    else renderNow();
  }

  // One render per animation frame for what arrives; a timer stands in where no
  // frames are painted (a hidden tab), so the page and its title still follow.
  let pending = null;
  function scheduleRender() {
    if (pending) return;
    const run = () => { if (pending) renderNow(); };
    pending = { raf: requestAnimationFrame(run), timer: setTimeout(run, 100) };
  }
  function renderNow() {
    if (pending) { cancelAnimationFrame(pending.raf); clearTimeout(pending.timer); pending = null; }
    if (!disposed) render();
  }

  function connect() {
    if (sock) sock.close();
    const cb = {
      onState: (s) => { app.setConn(s); update({ conn: s }); if (s === "open") visibility.report(); },
      onSnapshot: (m) => update(S.snapshotPatch(st, m)),
      onEvent: (m) => {
        const patch = { ...S.eventPatch(st, m), ...autopilotPatch(st, m) };
        // Sounds for live frames only (a replayed resync is old news).
        if (!m.replay && m.view) for (const name of soundsFor(st.view, m.view, st.you)) playSound(name);
        // Removed from our seat before the start (kicked): carry on as a spectator.
        const ev = m.event || {};
        if ((ev.type === "kicked" || ev.type === "left") && st.you !== null && ev.seat === st.you && st.token) {
          forgetSeat(code);
          st.token = null; st.you = null;
          update({ error: ev.type === "kicked" ? t("you_were_removed") : null });
          setTimeout(connect, 0);
        }
        const note = m.replay ? null : eventNotice(st, ev); // seat_left, seat_moved, resigned, …
        if (note) patch.seatNotice = note;
        update(patch);
      },
      onAck: () => update({ busy: false, error: null }),
      // A late "ready" after the countdown already dealt the next round is harmless.
      onError: (e) => update({ busy: false, error: e.code === "not_round_over" ? null : errorText(e) }),
      onPresence: (connected, spectators, seats) => update({
        presence: connected,
        presenceSeats: Array.isArray(seats) ? seats : null,
        table: st.table && Number.isInteger(spectators) ? { ...st.table, spectators } : st.table,
      }),
      onFatal: (codeNum, reason) => {
        if (codeNum === CLOSE_TOO_MANY_LOOKUPS) {
          const wait = /retry in (\d+) s/.exec(reason);
          update({ fatal: t("err_too_many_tries", { s: wait ? wait[1] : "60" }) });
          return;
        }
        if (codeNum === CLOSE_SEAT_MOVED || codeNum === CLOSE_SEAT_LEFT) {
          onSeatClosed(ctx, codeNum); // the token is revoked: forget it, never retry it
          if (codeNum === CLOSE_SEAT_LEFT) connect(); // watch on as a spectator
          return;
        }
        if (codeNum === 4401 && st.token) {
          // Our seat token is no longer valid here (e.g. removed before the start):
          // forget it and carry on watching as a spectator.
          forgetSeat(code);
          st.token = null; st.you = null;
          update({ error: tokenRefusedText(st) });
          connect();
          return;
        }
        const fatal = { 4404: "err_not_found", 4412: "err_removed", 4451: "err_banned" }[codeNum];
        update({ fatal: t(fatal || "err_unauthorized") });
      },
    };
    // Frames still arriving on a socket we have replaced (e.g. the spectator socket
    // after joining a seat) are ignored: only the current socket speaks.
    const me = new TableSocket(code, st.token, Object.fromEntries(Object.entries(cb).map(
      ([k, f]) => [k, (...args) => { if (sock === me && !disposed) arrived(() => f(...args)); }])));
    sock = me;
    sock.connect();
  }

  // ---- actions ----
  function play(move) {
    if (!move || st.busy || !sock || offline(st)) return;
    const legal = (st.view && st.view.legal) || [];
    if (!legal.some((m) => m.move === move)) return; // the UI never sends an illegal move
    sock.move(move);
    update({ busy: true, selected: null, error: null });
  }

  // Two-step play: the first click (or Enter) on a tile only selects it and shows its
  // places with their points; a second click on a place plays (so does a second click
  // on the tile itself when it fits in one place only). Another tile switches the
  // selection, never plays; Esc or a click on empty felt deselects.
  function selectTile(tile) {
    const legal = (st.view && st.view.legal) || [];
    const moves = movesForTile(legal, tile);
    if (!moves.length) return;
    if (st.selected === tile) {
      if (moves.length === 1) play(moves[0].move);
      else update({ selected: null });
      return;
    }
    update({ selected: tile, focusIdx: 0 });
  }

  function deselect() { if (st.selected) update({ selected: null }); }

  async function httpAction(fn) {
    try {
      update({ error: null });
      const info = await fn();
      if (info && info.code && info.seats) update({ table: info });
      return info;
    } catch (e) {
      update({ error: errorText(e) });
      return null;
    }
  }

  async function sitAt(seat, nameInput) {
    if (st.token && st.you !== null) {
      const info = await httpAction(() => api.seat(code, seat, st.token));
      if (info) {
        // Our seat changed: remember it and reconnect, so the server projects the
        // table for the new seat from now on.
        saveSeat(code, st.token, seat);
        st.you = seat;
        update({ table: info });
        connect();
      }
      return;
    }
    const name = (nameInput ? nameInput.value : loadName()).trim();
    if (!nameOk(name)) { update({ error: nameError(name) }); return; }
    const res = await httpAction(() => api.join(code, name, seat));
    if (res && res.token) {
      saveName(name);
      saveSeat(code, res.token, res.seat);
      st.token = res.token; st.you = res.seat;
      update({ table: res.table });
      connect();
    }
  }

  async function leave() {
    const info = await httpAction(() => api.leave(code, st.token));
    if (info) {
      forgetSeat(code);
      st.token = null; st.you = null;
      update({ table: info });
      connect();
    }
  }

  // ---- keyboard ----
  function onKey(e) {
    if (disposed) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const v = st.view;
    const legal = (v && v.legal) || [];
    if (e.key === "+" || e.key === "=") { setZoom({ ...st.zoom, k: Math.min(6, st.zoom.k * 1.25) }); e.preventDefault(); return; }
    if (e.key === "-" || e.key === "_") { const k = Math.max(1, st.zoom.k / 1.25); setZoom({ k, x: k === 1 ? 0 : st.zoom.x, y: k === 1 ? 0 : st.zoom.y }); e.preventDefault(); return; }
    if (e.key === "0") { setZoom({ k: 1, x: 0, y: 0 }); return; }
    if (!v || v.phase !== "playing") return;
    if ((e.key === "d" || e.key === "D") && legal.some((m) => m.kind === "draw")) { play("draw"); e.preventDefault(); return; }
    if ((e.key === "p" || e.key === "P") && legal.some((m) => m.kind === "pass")) { play("pass"); e.preventDefault(); return; }
    if (e.key === "Escape" && st.selected) { update({ selected: null }); e.preventDefault(); return; }
    if (st.selected) {
      const n = movesForTile(legal, st.selected).length;
      if (!n) return;
      if (["ArrowRight", "ArrowDown"].includes(e.key)) { update({ focusIdx: (st.focusIdx + 1) % n }); e.preventDefault(); }
      else if (["ArrowLeft", "ArrowUp"].includes(e.key)) { update({ focusIdx: (st.focusIdx - 1 + n) % n }); e.preventDefault(); }
      else if (e.key === "Enter" || e.key === " ") {
        const tg = currentTargets()[st.focusIdx];
        if (tg) { play(tg.move); e.preventDefault(); }
      }
      return;
    }
    if (["ArrowRight", "ArrowLeft"].includes(e.key)) {
      const btns = [...root.querySelectorAll(".hand-tile")];
      if (!btns.length) return;
      const i = btns.indexOf(document.activeElement);
      const j = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : -1) + btns.length) % btns.length;
      btns[j].focus();
      e.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);

  function setZoom(z) { update({ zoom: z }); }

  function boardDims() { return boardFor(window.innerWidth, window.innerHeight); }

  // The layout is worked out again only for new tiles (the patches make a new list
  // then, and keep it otherwise) or a new board shape.
  function getLayout() {
    const tiles = (st.view && st.view.layout && st.view.layout.tiles) || [];
    const board = boardDims();
    const c = layoutCache;
    if (c.tiles !== tiles || !c.board || c.board.w !== board.w || c.board.h !== board.h) {
      layoutCache = { tiles, board, lay: computeLayout(tiles, { board }).layout };
    }
    return layoutCache.lay;
  }

  function currentTargets() {
    if (!st.selected || !st.view) return [];
    const lay = getLayout();
    return targetsFor(lay, st.view.legal, st.selected, (m) => targetWords(m, lay));
  }

  const onResize = () => { layoutCache.tiles = null; update({}); };
  window.addEventListener("resize", onResize);

  // ---- rendering ----
  // state → the views build the screen afresh (detached) → reconcile.js updates the
  // live page in place → the views' after-render steps run on the live nodes.
  let renders = 0;
  let afterSteps = [];
  function render() {
    renders++;
    afterSteps = [];
    reconcile(root, screenNodes());
    document.body.dataset.seq = st.seq ?? "";
    for (const step of afterSteps) step(root);
    afterSteps = [];
  }

  function screenNodes() {
    if (st.fatal) {
      return [h("div", { class: "card", "data-key": "fatal" }, h("p", { class: "notice error", text: st.fatal }),
        h("button", { onclick: () => app.go("/"), text: t("back_home") }))];
    }
    if (st.moved) return [renderMoved(ctx)];
    if (!st.table) return [h("p", { class: "card", "data-key": "loading", text: t("loading") })];
    const next = document.createElement("div");
    const spectator = st.you === null;
    const head = h("div", { class: "table-head card", "data-key": "head", style: { padding: ".5em 1em" } },
      h("strong", { text: tableName(st.table) }), " · ",
      h("span", { "data-testid": "table-code", text: st.table.code }),
      st.table.match ? h("span", { text: " · " + t("match_n", { n: st.table.match }) }) : null,
      st.view ? h("span", { text: " · " + t("round_n", { n: st.view.round }) }) : null,
      clockBadge(st.table), // the table's turn clock, if any (ui/clock.js)
      st.table.rated ? h("span", {}, " ", h("span", { class: "badge rated", "data-testid": "rated-badge", text: t("rated_badge") })) : null,
      spectator ? h("span", {}, " ", h("span", { class: "badge spectating", "data-testid": "spectating", text: t("spectating") })) : null,
      h("span", { "data-testid": "table-counts", text: " · " + t("players_online_n", {
        n: (st.presence ?? st.table.seats.filter((s) => s.connected).map((s) => s.seat)).length, of: st.table.players,
      }) + " · " + t("spectators_n", { n: st.table.spectators ?? 0 }) }),
      h("span", { class: "head-tools" },
        deviceShortcut(ctx), " ",
        h("button", {
          class: "small", "data-testid": "mute-toggle", "aria-pressed": isMuted() ? "true" : "false", "aria-label": t("mute"),
          onclick: () => { setMuted(!isMuted()); update({}); },
          text: isMuted() ? t("sound_off") : t("sound_on"),
        })));
    next.appendChild(head);
    const who = seatProfilesEl(st);
    if (who) next.appendChild(who);
    if (st.error) next.appendChild(h("p", { class: "notice error", role: "alert", "data-testid": "error", text: st.error }));
    // Offline (the socket is reconnecting): a clear banner, and the table under it inert
    // (nothing clickable, visibly dimmed) until the connection is back.
    const lost = offline(st);
    if (lost) next.appendChild(h("div", { class: "offline-banner", role: "alert", "data-testid": "offline-banner" },
      h("strong", { text: t("offline_title") }), " ", h("span", { text: t("offline_note") })));
    const first = next.childElementCount;
    // a closed table (everybody left, or abandoned mid-match) shows the closed card
    if (st.table.status === "waiting" || st.table.status === "closed" || !st.view) renderWaiting(next, ctx);
    else renderPlay(next, ctx);
    if (lost) for (const el of [...next.children].slice(first)) { el.inert = true; el.classList.add("offline-inert"); }
    next.append(...renderSeatBits(ctx));
    chat.render(st); // the chat panel owns its node: kept as it is
    return [...next.childNodes, chat.el];
  }

  // What the views get: the state, and the actions they may call.
  const ctx = {
    st, update, code, go: (path) => app.go(path),
    afterRender: (step) => afterSteps.push(step), // run on the live page once it is updated
    play, selectTile, deselect, sitAt, httpAction, leave, setZoom, getLayout, currentTargets,
    nextRound: () => sock && sock.nextRound(),
    review: (round) => update({ review: round }),
    closeReview: () => update({ review: null }),
    watchAgain: () => { update({ moved: false }); connect(); },
  };

  // Test hook (used by tests/browser): drop the socket as a network failure would.
  // inject(frame) feeds a server frame through the same path as the socket (used to
  // render a finished match without playing 61 points by clicking).
  window.__fiveupTest = {
    dropSocket: () => { if (sock && sock.ws) sock.ws.close(); },
    inject: (frame) => sock && sock.handle(frame),
    view: () => st.view, // what the page was sent (to compare the drawing with)
    table: () => st.table, // the table info as applied (presence frames included), drawn or not yet
    sounds: () => soundLog.slice(),
    renders: () => renders, // how many times the table was drawn
  };

  // ---- start ----
  api.table(code).then((info) => update({ table: info })).catch((e) => {
    if (e.code === "not_found") update({ fatal: t("err_not_found") });
    else if (e.code === "rate_limited") update({ fatal: errorText(e) }); // too many tries: wait N s
  });
  // A device link (`#seat=` in the fragment) is claimed before the socket connects.
  const claiming = claimFromFragment(code);
  if (claiming) {
    claiming.then((res) => {
      if (disposed) return;
      if (res.token) { st.token = res.token; st.you = res.seat; update({ table: res.table, moved: false }); }
      else update({ error: res.error || null, seatNotice: res.notice || null });
      connect();
    });
  } else connect();
  render();

  return () => {
    disposed = true;
    if (pending) { cancelAnimationFrame(pending.raf); clearTimeout(pending.timer); pending = null; }
    document.removeEventListener("keydown", onKey);
    visibility.stop();
    window.removeEventListener("resize", onResize);
    if (sock) sock.close();
  };
}

