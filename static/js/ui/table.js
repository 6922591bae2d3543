// The table screen: controller (server connection + client state) and its views:
// waiting room, play, round end, match end, spectating.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { api, loadSeat, saveSeat, forgetSeat, loadName, saveName } from "../net/api.js";
import { TableSocket } from "../net/socket.js";
import { errorText } from "./errors.js";
import { computeLayout } from "../board/layout.js";
import { renderBoard, tileSvg, svgEl } from "../board/render.js";
import { targetsFor, playableTiles, movesForTile, placeText, dragHandler, attachZoomPan } from "../board/input.js";
import { tallySvg } from "./tally.js";

const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };

export function openTable(root, app, code, { watch = false } = {}) {
  code = String(code).toUpperCase();
  const saved = watch ? null : loadSeat(code);
  const st = {
    code, token: saved ? saved.token : null, you: saved ? saved.seat : null,
    table: null, view: null, seq: null, presence: null, conn: "connecting",
    selected: null, focusIdx: 0, zoom: { k: 1, x: 0, y: 0 }, error: null, notice: null,
    busy: false, copied: false, fatal: null,
  };
  let sock = null;
  let layoutCache = { key: null, lay: null };
  let scheduled = false;
  let disposed = false;

  function update(patch = {}, force = false) {
    // Skip renders that would change nothing (e.g. a repeated presence frame), so
    // the DOM under the user's pointer is not replaced needlessly.
    const changed = force || Object.keys(patch).length === 0 ||
      Object.entries(patch).some(([k, v]) => JSON.stringify(st[k]) !== JSON.stringify(v));
    Object.assign(st, patch);
    if (!changed || scheduled || disposed) return;
    scheduled = true;
    queueMicrotask(() => { scheduled = false; if (!disposed) render(); });
  }

  function connect() {
    if (sock) sock.close();
    const cb = {
      onState: (s) => { app.setConn(s); update({ conn: s }); },
      onSnapshot: (m) => {
        const patch = { seq: m.seq, table: m.table, view: m.view, you: m.you ?? null };
        if (m.you === null && st.token) patch.token = null; // token no longer a seat
        update(patch);
      },
      onEvent: (m) => {
        const patch = { seq: m.seq };
        if (m.view !== undefined) patch.view = m.view;
        if (m.table !== undefined) patch.table = m.table;
        // Removed from our seat before the start (kicked): carry on as a spectator.
        const ev = m.event || {};
        if ((ev.type === "kicked" || ev.type === "left") && st.you !== null && ev.seat === st.you && st.token) {
          forgetSeat(code);
          st.token = null; st.you = null;
          update({ error: ev.type === "kicked" ? t("you_were_removed") : null }, true);
          setTimeout(connect, 0);
        }
        // A new move invalidates any selection made against the old position.
        if (m.event && m.event.type === "move") { patch.selected = null; patch.busy = false; }
        if (m.event && (m.event.type === "round_started" || m.event.type === "started" || m.event.type === "rematch_started")) {
          patch.selected = null; patch.busy = false; patch.zoom = { k: 1, x: 0, y: 0 };
        }
        update(patch);
      },
      onAck: () => update({ busy: false, error: null }),
      onError: (e) => update({ busy: false, error: errorText(e) }),
      onPresence: (connected) => update({ presence: connected }),
      onFatal: (codeNum) => {
        if (codeNum === 4401 && st.token) {
          // Our seat token is no longer valid here (e.g. removed before the start):
          // forget it and carry on watching as a spectator.
          forgetSeat(code);
          st.token = null; st.you = null;
          update({ error: t("err_unauthorized") }, true);
          connect();
          return;
        }
        update({ fatal: codeNum === 4404 ? t("err_not_found") : t("err_unauthorized") });
      },
    };
    // Frames still arriving on a socket we have replaced (e.g. the spectator socket
    // after joining a seat) are ignored: only the current socket speaks.
    const me = new TableSocket(code, st.token, Object.fromEntries(Object.entries(cb).map(
      ([k, f]) => [k, (...args) => { if (sock === me && !disposed) f(...args); }])));
    sock = me;
    sock.connect();
  }

  // ---- actions ----
  function play(move) {
    if (!move || st.busy || !sock) return;
    const legal = (st.view && st.view.legal) || [];
    if (!legal.some((m) => m.move === move)) return; // the UI never sends an illegal move
    sock.move(move);
    update({ busy: true, selected: null, error: null });
  }

  function selectTile(tile) {
    const legal = (st.view && st.view.legal) || [];
    const moves = movesForTile(legal, tile);
    if (!moves.length) return;
    if (moves.length === 1 && st.selected !== tile) { play(moves[0].move); return; }
    update({ selected: st.selected === tile ? null : tile, focusIdx: 0 });
  }

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
        update({ table: info }, true);
        connect();
      }
      return;
    }
    const name = (nameInput ? nameInput.value : loadName()).trim();
    if (!name) { update({ error: t("err_invalid_name") }); return; }
    const res = await httpAction(() => api.join(code, name, seat));
    if (res && res.token) {
      saveName(name);
      saveSeat(code, res.token, res.seat);
      st.token = res.token; st.you = res.seat;
      update({ table: res.table });
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

  function boardDims() {
    return window.innerWidth < 700 && window.innerHeight > window.innerWidth ? { w: 28, h: 44 } : { w: 56, h: 36 };
  }

  function getLayout() {
    const tiles = (st.view && st.view.layout && st.view.layout.tiles) || [];
    const board = boardDims();
    const key = JSON.stringify([board, tiles]);
    if (layoutCache.key !== key) layoutCache = { key, lay: computeLayout(tiles, { board }).layout };
    return layoutCache.lay;
  }

  function currentTargets() {
    if (!st.selected || !st.view) return [];
    return targetsFor(getLayout(), st.view.legal, st.selected, (m) =>
      t("place_label", { tile: m.tile, place: m.place ? placeText(m.place) : "—", points: m.points || 0 }));
  }

  const onResize = () => { layoutCache.key = null; update({}); };
  window.addEventListener("resize", onResize);

  // ---- rendering ----
  function seatName(seat) {
    const s = st.table && st.table.seats && st.table.seats[seat];
    return (s && s.name) || t("seat_n", { n: seat + 1 });
  }
  function isConnected(seat) {
    if (st.presence) return st.presence.includes(seat);
    const s = st.table && st.table.seats && st.table.seats[seat];
    return !!(s && s.connected);
  }
  function sideNames(side) {
    const sides = (st.view && st.view.sides) || (st.table && st.table.sides) || [];
    return (sides[side] || []).map(seatName).join(" & ");
  }

  function render() {
    const active = document.activeElement;
    const focusKey = active && active.getAttribute && (active.getAttribute("data-focus") || null);
    clear(root);
    if (st.fatal) {
      root.appendChild(h("div", { class: "card" }, h("p", { class: "notice error", text: st.fatal }),
        h("button", { onclick: () => app.go("/"), text: t("back_home") })));
      return;
    }
    if (!st.table) { root.appendChild(h("p", { class: "card", text: t("loading") })); return; }
    document.body.dataset.seq = st.seq ?? "";
    const spectator = st.you === null;
    const head = h("div", { class: "table-head card", style: { padding: ".5em 1em" } },
      h("strong", { text: st.table.name }), " · ",
      h("span", { "data-testid": "table-code", text: st.table.code }),
      st.table.match ? h("span", { text: " · " + t("match_n", { n: st.table.match }) }) : null,
      st.view ? h("span", { text: " · " + t("round_n", { n: st.view.round }) }) : null,
      spectator ? h("span", {}, " ", h("span", { class: "badge spectating", "data-testid": "spectating", text: t("spectating") })) : null);
    root.appendChild(head);
    if (st.error) root.appendChild(h("p", { class: "notice error", role: "alert", "data-testid": "error", text: st.error }));
    if (st.table.status === "waiting" || !st.view) renderWaiting(root);
    else renderPlay(root);
    if (focusKey) {
      const el = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (el) el.focus();
    }
  }

  function renderWaiting(root) {
    const tb = st.table;
    const n = tb.players;
    const mine = st.you;
    // The typed name lives in the state, so a re-render (any server frame) keeps it.
    const nameInput = mine === null
      ? h("input", {
        "data-testid": "join-name", maxlength: 24, value: st.joinName ?? loadName(), placeholder: t("your_name"),
        "data-focus": "join-name", oninput: (e) => { st.joinName = e.target.value; },
      })
      : null;
    const areas4 = ["s0", "s1", "s2", "s3"];
    const areas = n === 2 ? ["s0", "s2"] : n === 3 ? ["s0", "s1", "s3"] : areas4;
    const grid = h("div", { class: "seat-grid", "data-testid": "seat-grid" });
    tb.seats.forEach((s) => {
      const taken = !!s.name;
      const side = s.side;
      const card = h("div", {
        class: `seat-card side-${n === 4 ? side : "x"}` + (mine === s.seat ? " mine" : ""),
        style: { gridArea: areas[s.seat] }, "data-testid": "seat-" + s.seat, "data-taken": taken ? "1" : "0",
      },
        h("div", { class: "meta", text: t("seat_n", { n: s.seat + 1 }) + (n === 4 ? " · " + t("team", { n: side + 1 }) : "") }),
        h("div", { class: "name" },
          h("span", { class: "presence" + (taken && isConnected(s.seat) ? " on" : ""), "data-connected": taken && isConnected(s.seat) ? "1" : "0" }),
          " ", h("strong", { text: taken ? s.name : t("empty_seat") }),
          tb.host === s.seat ? h("small", { text: " (" + t("host") + ")" }) : null,
          mine === s.seat ? h("small", { text: " (" + t("you") + ")" }) : null),
        taken && tb.status === "waiting" && mine !== null && tb.host === mine && s.seat !== mine
          ? h("button", {
            class: "small", "data-testid": "kick-" + s.seat,
            onclick: () => httpAction(() => api.kick(code, s.seat, st.token)), text: t("remove"),
          })
          : null,
        taken && tb.status === "waiting" && mine === s.seat
          ? h("button", {
            class: "small", "data-testid": "leave-button",
            onclick: async () => {
              const info = await httpAction(() => api.leave(code, st.token));
              if (info) {
                forgetSeat(code);
                st.token = null; st.you = null;
                update({ table: info }, true);
                connect();
              }
            }, text: t("leave"),
          })
          : null,
        !taken && tb.status === "waiting"
          ? h("button", {
            "data-testid": "sit-" + s.seat, "data-focus": "sit-" + s.seat,
            onclick: () => sitAt(s.seat, nameInput), text: mine === null ? t("sit_here") : t("move_here"),
          })
          : null);
      grid.appendChild(card);
    });
    const inviteUrl = location.origin + "/t/" + tb.code;
    const inviteInput = h("input", { readonly: true, value: inviteUrl, "data-testid": "invite-link" });
    const filled = tb.seats.every((s) => s.name);
    const mid = h("div", { class: "seat-mid" },
      h("div", { text: t("waiting_title", { name: tb.name }) }),
      n === 4 ? h("div", { class: "meta", "data-testid": "partners", text: t("partners_note", {
        a: seatName(0), b: seatName(2), c: seatName(1), d: seatName(3) }) }) : null);
    grid.appendChild(mid);
    const felt = h("div", { class: "felt", style: { display: "block", minHeight: "auto" } }, grid);
    const controls = h("div", { class: "card" },
      mine === null ? h("div", { class: "form-row" }, h("label", { text: t("join_prompt") }), nameInput) : null,
      h("div", { class: "invite" }, h("label", { text: t("invite") }), inviteInput,
        h("button", {
          "data-testid": "copy-invite",
          onclick: async () => {
            try { await navigator.clipboard.writeText(inviteUrl); } catch { inviteInput.select(); document.execCommand && document.execCommand("copy"); }
            update({ notice: t("copied") });
          }, text: st.notice === t("copied") ? t("copied") : t("copy"),
        })),
      mine !== null && tb.host === mine
        ? h("p", {}, h("button", {
          class: "primary", "data-testid": "start-button", disabled: !filled,
          onclick: () => httpAction(() => api.start(code, st.token)), text: t("start_match"),
        }), filled ? null : h("small", { text: " " + t("need_all_seats") }))
        : h("p", { text: t("waiting_for_host") }));
    if (tb.status === "closed") {
      root.appendChild(h("div", { class: "card", "data-testid": "table-closed" }, h("p", { text: t("table_closed") }),
        h("button", { onclick: () => app.go("/"), text: t("back_home") })));
      return;
    }
    root.appendChild(h("div", { "data-testid": "waiting-room", "data-phase": "waiting" }, felt, controls));
  }

  function renderPlay(root) {
    const v = st.view;
    const n = v.players;
    const you = st.you;
    const base = you ?? 0;
    const legal = v.legal || [];
    const myTurn = you !== null && v.turn === you && v.phase === "playing";
    const lay = getLayout();
    const targets = currentTargets();
    if (st.focusIdx >= targets.length) st.focusIdx = 0;
    const lastTile = lastPlaced(v.log);

    const screen = h("div", {
      class: "table-screen", "data-testid": "play", "data-phase": v.phase, "data-turn": v.turn ?? "",
      "data-you": you ?? "", "data-my-turn": myTurn ? "1" : "0", "data-busy": st.busy ? "1" : "0",
    });
    const felt = h("div", { class: "felt" });
    screen.appendChild(felt);

    // seats around the table
    const positions = POSITIONS[n];
    for (let seat = 0; seat < n; seat++) {
      const rel = (seat - base + n) % n;
      const pos = positions[rel];
      if (pos === "bottom" && you !== null) continue; // your own hand is drawn below
      felt.appendChild(seatArea(seat, pos, v));
    }

    // board
    const svg = svgEl("svg", {
      class: "board", "data-testid": "board", role: "img", "aria-label": t("board_label"),
      "aria-describedby": "layout-description", tabindex: "0", "data-focus": "board",
    });
    renderBoard(svg, lay, { last: lastTile, targets, focusKey: targets[st.focusIdx] && targets[st.focusIdx].key, zoom: st.zoom });
    svg.addEventListener("click", (e) => {
      const tg = e.target.closest && e.target.closest("[data-move]");
      if (tg) play(tg.getAttribute("data-move"));
    });
    attachZoomPan(svg, () => st.zoom, (z) => setZoom(z), () => root.querySelector("svg.board"));
    const sum = v.layout ? v.layout.sum : 0;
    const info = h("div", { class: "board-info" },
      h("span", { class: "stock", "data-testid": "stock-count", "data-stock": v.stock, text: t("stock", { n: v.stock }) }),
      h("span", { class: "board-count" + (sum > 0 && sum % 5 === 0 ? " scoring" : ""), "data-testid": "board-count", "data-sum": sum, text: t("board_count", { n: sum }) }));
    const zoomCtl = h("div", { class: "zoom-controls" },
      h("button", { "aria-label": t("zoom_out"), title: t("zoom_out"), onclick: () => { const k = Math.max(1, st.zoom.k / 1.25); setZoom({ k, x: k === 1 ? 0 : st.zoom.x, y: k === 1 ? 0 : st.zoom.y }); }, text: "−" }),
      h("button", { "aria-label": t("zoom_reset"), title: t("zoom_reset"), onclick: () => setZoom({ k: 1, x: 0, y: 0 }), text: "⤢" }),
      h("button", { "aria-label": t("zoom_in"), title: t("zoom_in"), onclick: () => setZoom({ ...st.zoom, k: Math.min(6, st.zoom.k * 1.25) }), text: "+" }));
    const focused = targets[st.focusIdx];
    const announce = h("p", { class: "sr-only", "aria-live": "polite", "data-testid": "target-announce",
      text: focused ? focused.label : "" });
    const boardWrap = h("div", { class: "board-wrap" }, svg, info, zoomCtl, announce,
      you === null ? h("div", { class: "spectating-banner", "data-testid": "spectating-banner" },
        h("span", { class: "badge spectating", text: "👁 " + t("spectating") }), h("div", { class: "meta", text: t("spectating_note") })) : null);
    felt.appendChild(boardWrap);

    // bottom: your hand (or seat 0's backs for a spectator)
    const bottom = h("div", { class: "seat-area seat-bottom" + (v.turn === base && v.phase === "playing" ? " turn" : ""), "data-testid": "seat-area-" + base });
    if (you !== null) {
      const mySide = v.sides.findIndex((x) => x.includes(you));
      bottom.appendChild(h("div", { class: "name" }, presenceDot(you), h("span", { text: seatName(you) + " (" + t("you") + ")" }),
        n === 4 ? h("span", { class: "side-mark side-" + mySide, title: t("team", { n: mySide + 1 }) }) : null));
      bottom.appendChild(renderHand(v, legal, myTurn));
      const actions = h("div", { class: "actions" });
      if (myTurn && legal.some((m) => m.kind === "draw")) actions.appendChild(h("button", { class: "primary", "data-testid": "draw-button", disabled: st.busy, onclick: () => play("draw"), text: t("draw") }));
      if (myTurn && legal.some((m) => m.kind === "pass")) actions.appendChild(h("button", { class: "primary", "data-testid": "pass-button", disabled: st.busy, onclick: () => play("pass"), text: t("pass") }));
      bottom.appendChild(actions);
    } else {
      const inner = seatArea(base, "bottom", v);
      while (inner.firstChild) bottom.appendChild(inner.firstChild);
    }
    felt.appendChild(bottom);

    // status line
    let status;
    if (v.phase !== "playing") status = "";
    else if (myTurn) {
      if (v.must_play) status = t("must_play_note", { tile: v.must_play });
      else if (st.selected) status = t("choose_place", { tile: st.selected });
      else if (legal.some((m) => m.kind === "draw")) status = t("no_moves_draw");
      else if (legal.some((m) => m.kind === "pass")) status = t("no_moves_pass");
      else status = t("your_turn") + " — " + t("select_tile");
    } else status = v.turn !== null ? t("turn_of", { name: seatName(v.turn) }) : "";
    felt.appendChild(h("div", { class: "status-line", style: { gridArea: "status" }, "data-testid": "turn-indicator", "data-turn-seat": v.turn ?? "", "aria-live": "polite", text: status }));

    // The tab title tells a player in another tab that it is their turn.
    document.title = (myTurn ? "● " + t("your_turn") + " — " : "") + st.table.name + " — " + t("app_title");

    // side panel
    screen.appendChild(renderPanel(v));
    root.appendChild(screen);
    const dialogKey = v.round + ":" + v.phase;
    if ((v.phase === "round_over" || v.phase === "match_over") && st.hiddenDialog === dialogKey) {
      // The results are tucked away so the final board can be studied.
      root.appendChild(h("div", { class: "dialog-tab" }, h("button", {
        class: "primary", "data-testid": "show-results", onclick: () => update({ hiddenDialog: null }),
        text: v.phase === "match_over" ? t("match_over") : t("round_over", { n: v.round }),
      })));
    } else if (v.phase === "round_over" || v.phase === "match_over") {
      const overlay = renderSettlement(v);
      root.appendChild(overlay);
      // Keyboard users land on the dialog's main button (once per settlement).
      const key = v.round + ":" + v.phase;
      if (st.dialogFocused !== key) {
        st.dialogFocused = key;
        const btn = overlay.querySelector("button.primary:not([disabled])");
        if (btn) queueMicrotask(() => btn.focus());
      }
    }
  }

  function presenceDot(seat) {
    const on = isConnected(seat);
    return h("span", { class: "presence" + (on ? " on" : ""), "data-connected": on ? "1" : "0", title: on ? t("conn_open") : t("conn_closed") });
  }

  function seatArea(seat, pos, v) {
    const n = v.hand_sizes ? v.hand_sizes[seat] : 0;
    const backs = h("div", { class: "backs" });
    const vertical = pos === "left" || pos === "right";
    for (let i = 0; i < n; i++) backs.appendChild(tileSvg(null, { faceDown: true, size: 15, vertical: !vertical }));
    const side = v.sides.findIndex((s) => s.includes(seat));
    return h("div", {
      class: `seat-area seat-${pos}` + (v.turn === seat && v.phase === "playing" ? " turn" : ""),
      "data-testid": "seat-area-" + seat, "data-hand-size": n,
    },
      h("div", { class: "name" }, presenceDot(seat), h("span", { text: seatName(seat) }),
        v.players === 4 ? h("span", { class: "side-mark side-" + side, title: t("team", { n: side + 1 }) }) : null),
      h("div", { class: "meta", text: t("tiles_n", { n }) + (v.players === 4 ? " · " + t("team", { n: side + 1 }) : "") }),
      backs);
  }

  function renderHand(v, legal, myTurn) {
    const hand = h("div", { class: "hand", role: "group", "aria-label": t("hand_label"), "data-testid": "hand" });
    const playable = myTurn ? playableTiles(legal) : new Set();
    const startDrag = dragHandler({
      onStart: (tile) => update({ selected: tile, focusIdx: 0 }),
      onDrop: (move) => { if (move) play(move); },
      makeGhost: (tile) => tileSvg(tile, { size: 28 }),
    });
    for (const tile of v.hand || []) {
      const can = playable.has(tile);
      const must = v.must_play === tile;
      const btn = h("button", {
        class: "hand-tile" + (can ? " playable" : myTurn ? " unplayable" : "") + (st.selected === tile ? " selected" : "") + (must ? " must" : ""),
        "data-testid": "hand-tile", "data-tile": tile, "data-playable": can ? "1" : "0", "data-focus": "hand-" + tile,
        "data-places": myTurn ? movesForTile(legal, tile).length : 0,
        "aria-label": tile + (must ? " — " + t("must_play") : ""), "aria-pressed": st.selected === tile ? "true" : "false",
        disabled: myTurn && !can ? false : undefined,
      }, tileSvg(tile, { size: 34 }), must ? h("span", { class: "must-label", text: t("must_play") }) : null);
      btn.addEventListener("click", () => {
        if (window.__fiveupSuppressClick && Date.now() - window.__fiveupSuppressClick < 300) return;
        if (can && !st.busy) selectTile(tile);
      });
      if (can) btn.addEventListener("pointerdown", (e) => { if (e.pointerType !== "mouse" || e.button === 0) startDrag(e, tile); });
      hand.appendChild(btn);
    }
    return hand;
  }

  function renderPanel(v) {
    const panel = h("aside", { class: "panel" });
    const scores = h("table", { class: "scores", "data-testid": "scores" });
    v.sides.forEach((seats, side) => {
      const score = v.scores[side];
      scores.appendChild(h("tr", { "data-testid": "score-side-" + side, "data-score": score },
        h("td", {}, v.players === 4 ? h("span", { class: "side-mark side-" + side }) : null, " ", h("span", { text: sideNames(side) })),
        h("td", {}, tallySvg(score)),
        h("td", { class: "num", text: String(score) })));
    });
    panel.appendChild(h("section", { class: "card" }, h("h2", { text: t("scores") + " (" + v.target + ")" }), scores));

    const log = h("ul", { class: "log", "data-testid": "log" });
    const entries = (v.log || []).filter((e) => e.type === "move");
    entries.forEach((ev, i) => log.prepend(logItem(ev, i + 1)));
    panel.appendChild(h("section", { class: "card" }, h("h2", { text: t("log") }),
      entries.length ? log : h("p", { text: t("log_empty") })));
    panel.appendChild(h("section", { class: "card" },
      h("details", {}, h("summary", { text: t("description") }),
        h("p", { id: "layout-description", "data-testid": "layout-description", text: v.description || "" })),
      h("p", {}, h("small", { text: t("keyboard_help") }))));
    return panel;
  }

  function logItem(ev, num) {
    const name = seatName(ev.seat);
    let text;
    if (ev.kind === "open") text = t("log_open", { name, tile: ev.tile });
    else if (ev.kind === "place") text = t("log_place", { name, tile: ev.tile, place: placeText(ev.place) });
    else if (ev.kind === "draw") text = ev.drawn ? t("log_draw_you", { name, tile: ev.drawn }) : t("log_draw", { name });
    else if (ev.kind === "pass") text = t("log_pass", { name }) + (ev.auto ? " " + t("log_auto") : "");
    else text = ev.move || "";
    const li = h("li", { "data-kind": ev.kind }, h("span", { class: "num", text: num + ". " }), h("span", { text }));
    if (ev.kind === "open" || ev.kind === "place") {
      const raw = ev.points || 0;
      li.appendChild(h("span", { class: raw > 0 ? "pts" : "zero", text: " · " + (raw > 0 ? t("pts", { raw, disp: raw / 5 }) : "0") }));
    }
    return li;
  }

  function renderSettlement(v) {
    const s = v.settlement;
    const over = v.phase === "match_over";
    const card = h("div", { class: "card", "data-testid": over ? "match-end" : "round-end", role: "dialog", "aria-modal": "true" });
    card.appendChild(h("button", {
      class: "small dialog-hide", "data-testid": "hide-results", "aria-label": t("show_board"), title: t("show_board"),
      onclick: () => update({ hiddenDialog: v.round + ":" + v.phase }), text: t("show_board"),
    }));
    if (over) {
      card.appendChild(h("h2", { text: t("match_over") }));
      if (v.winner !== null && v.winner !== undefined) card.appendChild(h("p", { "data-testid": "winner", "data-side": v.winner }, h("strong", { text: t("winner_is", { name: sideNames(v.winner) }) })));
    } else {
      card.appendChild(h("h2", { text: t("round_over", { n: v.round }) }));
    }
    if (s) {
      card.appendChild(h("p", { text: s.result === "blocked" ? t("result_blocked") : t("result_domino", { name: seatName(s.finisher) }) }));
      const tbl = h("table", { class: "settlement-table" },
        h("thead", {}, h("tr", {}, ...["col_player", "col_hand", "col_pips", "col_rounded", "col_deduction"].map((k) => h("th", { text: t(k) })))));
      const body = h("tbody");
      (s.hands || []).forEach((handTiles, seat) => {
        const pips = s.pips[seat], ded = s.deductions[seat];
        const handEl = h("div", { class: "settle-hand", "data-testid": "settle-hand-" + seat });
        for (const tile of handTiles) {
          const wrap = h("span", { "data-tile": tile, title: tile });
          wrap.appendChild(tileSvg(tile, { size: 20 }));
          handEl.appendChild(wrap);
        }
        body.appendChild(h("tr", {}, h("td", { text: seatName(seat) }), h("td", {}, handEl),
          h("td", { text: String(pips) }), h("td", { text: String(ded * 5) }), h("td", { text: ded ? "−" + ded : "0" })));
      });
      tbl.appendChild(body);
      card.appendChild(tbl);
    }
    card.appendChild(h("h3", { text: over ? t("final_scores") : t("new_scores") }));
    const sc = h("table", { class: "scores" });
    v.sides.forEach((_, side) => sc.appendChild(h("tr", {},
      h("td", { text: sideNames(side) }), h("td", {}, tallySvg(v.scores[side])), h("td", { class: "num", text: String(v.scores[side]) }))));
    card.appendChild(sc);
    const tb = st.table || {};
    if (!over) {
      const ready = (tb.ready || []).map(seatName);
      if (st.you !== null) {
        const iAmReady = (tb.ready || []).includes(st.you);
        card.appendChild(h("p", {}, h("button", {
          class: "primary", "data-testid": "next-round-button", disabled: iAmReady, "data-focus": "next-round",
          onclick: () => { sock && sock.nextRound(); }, text: t("next_round"),
        })));
      }
      card.appendChild(h("p", { "data-testid": "ready-list", text: t("ready_waiting", { names: ready.join(", ") || "—" }) }));
    } else {
      const votes = (tb.rematch_votes || []).map(seatName);
      if (st.you !== null) {
        card.appendChild(h("p", {}, h("button", {
          class: "primary", "data-testid": "rematch-button", "data-focus": "rematch", disabled: (tb.rematch_votes || []).includes(st.you),
          onclick: () => httpAction(() => api.rematch(code, st.token)), text: t("rematch"),
        })));
      }
      card.appendChild(h("p", { text: t("rematch_votes", { names: votes.join(", ") || "—" }) }));
      card.appendChild(h("button", { onclick: () => app.go("/"), text: t("back_home") }));
    }
    return h("div", { class: "overlay" }, card);
  }

  // Test hook (used by tests/browser): drop the socket as a network failure would.
  // inject(frame) feeds a server frame through the same path as the socket (used to
  // render a finished match without playing 61 points by clicking).
  window.__fiveupTest = {
    dropSocket: () => { if (sock && sock.ws) sock.ws.close(); },
    inject: (frame) => sock && sock.handle(frame),
  };

  // ---- start ----
  api.table(code).then((info) => update({ table: info })).catch((e) => {
    if (e.code === "not_found") update({ fatal: t("err_not_found") });
  });
  connect();
  render();

  return () => {
    disposed = true;
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
    if (sock) sock.close();
  };
}

function lastPlaced(log) {
  for (let i = (log || []).length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.type === "move" && (e.kind === "place" || e.kind === "open")) return e.tile;
  }
  return null;
}
