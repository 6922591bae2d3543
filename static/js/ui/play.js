// The table in play (and spectating): seats around the felt, the board, your hand,
// scores with tallies, the log; the round/match result dialog on top when settled.
import { h, on } from "../dom.js";
import { t, sideLabel, layoutDescription, pointsText, getLang } from "../i18n.js";
import { renderBoard, fitView, tileSvg, svgEl } from "../board/render.js";
import { playableTiles, movesForTile, placeText, dragHandler, attachZoomPan } from "../board/input.js";
import { tallySvg } from "./tally.js";
import { renderSettlement, countdownEl } from "./settlement.js";
import { renderScoreSheet, renderRoundReview } from "./scoresheet.js";
import { moveWords } from "./words.js";
import { tableName } from "./names.js";
import { animateArrivals } from "./motion.js";
import * as S from "../state.js";
import { botIcon } from "./bots.js";
import { sideNamesEl } from "./sidenames.js";
import { addClocks, turnTitle } from "./clock.js";
import { addAutopilotBadges, addAutopilotLines, autopilotSuffix } from "./autopilot.js";
import { presenceMark, presenceLabel, nameWithPresence } from "./presence.js";

let boardObserver = null; // re-fits the board when its area's size changes
let observed = null; // the board area it watches
const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };

export function renderPlay(root, ctx) {
  const { st, update, play, selectTile, deselect, setZoom, getLayout, currentTargets } = ctx;
  const seatName = (seat) => S.seatName(st, seat);
  const isConnected = (seat) => S.isConnected(st, seat);

  function draw(root) {
    const v = st.view;
    const n = v.players;
    const you = st.you;
    const base = you ?? 0;
    const legal = v.legal || [];
    const myTurn = you !== null && v.turn === you && v.phase === "playing";
    const lay = getLayout();
    const targets = currentTargets();
    if (st.focusIdx >= targets.length) st.focusIdx = 0;
    const lastTile = S.lastPlaced(v.log);

    const screen = h("div", {
      class: "table-screen", "data-testid": "play", "data-phase": v.phase, "data-turn": v.turn ?? "",
      "data-you": you ?? "", "data-my-turn": myTurn ? "1" : "0", "data-busy": st.busy ? "1" : "0",
    });
    const felt = h("div", { class: "felt" });
    screen.appendChild(felt);
    felt.appendChild(phoneBar(v));
    // A click on empty felt (not a drag, not a control) deselects the tile.
    on(felt, "pointerdown", (e) => { st.feltDown = { x: e.clientX, y: e.clientY }; });
    on(felt, "click", (e) => {
      const down = st.feltDown;
      if (!st.selected) return;
      if (secondOfDouble(e)) { selectTile(st.selected); return; }
      if (window.__fiveupSuppressClick && Date.now() - window.__fiveupSuppressClick < 300) return;
      if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) > 6) return; // a pan, not a click
      if (e.target.closest && e.target.closest("button, [data-move], a, input, select, .zoom-controls")) return;
      deselect();
    });

    // seats around the table
    const positions = POSITIONS[n];
    for (let seat = 0; seat < n; seat++) {
      const rel = (seat - base + n) % n;
      const pos = positions[rel];
      if (pos === "bottom") continue; // your own hand (or, watching, seat 0's backs) is drawn below, once
      felt.appendChild(seatArea(seat, pos, v));
    }

    // board
    const svg = svgEl("svg", {
      class: "board", "data-testid": "board", role: "group", "aria-label": t("board_label"),
      "aria-describedby": "layout-description", tabindex: "0",
    });
    const px = st.boardPx || null;
    renderBoard(svg, lay, {
      last: lastTile, targets, focusKey: targets[st.focusIdx] && targets[st.focusIdx].key, zoom: st.zoom, px,
      marks: lastMoves(v, you), places: (v.layout && v.layout.places) || [], ownFloat: ownFloat(v, you),
    });
    on(svg, "click", (e) => {
      const tg = e.target.closest && e.target.closest("[data-move]");
      if (tg) play(tg.getAttribute("data-move"));
    });
    attachZoomPan(svg, () => st.zoom, (z) => setZoom(z), () => document.querySelector("[data-testid=board]"));
    const sum = v.layout ? v.layout.sum : 0;
    const info = h("div", { class: "board-info" },
      h("span", { class: "stock", "data-testid": "stock-count", "data-stock": v.stock, text: t("stock", { n: v.stock }) }),
      h("span", { class: "board-count" + (sum > 0 && sum % 5 === 0 ? " scoring" : ""), "data-testid": "board-count", "data-sum": sum, text: t("board_count", { n: sum }) }));
    const zoomCtl = h("div", { class: "zoom-controls", "data-testid": "zoom-controls" },
      h("button", { "aria-label": t("zoom_out"), title: t("zoom_out"), onclick: () => { const k = Math.max(1, st.zoom.k / 1.25); setZoom({ k, x: k === 1 ? 0 : st.zoom.x, y: k === 1 ? 0 : st.zoom.y }); }, text: "−" }),
      h("button", { "aria-label": t("zoom_reset"), title: t("zoom_reset"), onclick: () => setZoom({ k: 1, x: 0, y: 0 }), text: "⤢" }),
      h("button", { "aria-label": t("zoom_in"), title: t("zoom_in"), onclick: () => setZoom({ ...st.zoom, k: Math.min(6, st.zoom.k * 1.25) }), text: "+" }));
    const focused = targets[st.focusIdx];
    const announce = h("p", { class: "sr-only", "aria-live": "polite", "data-testid": "target-announce",
      text: focused ? focused.label : "" });
    // The bar above the board holds the counts, the spectator's mark and the zoom
    // buttons, so nothing is drawn over the tiles.
    const bar = h("div", { class: "board-bar" }, info,
      you === null ? h("div", { class: "spectating-banner", "data-testid": "spectating-banner", title: t("spectating_note") },
        h("span", { class: "badge spectating", text: t("spectating") }), h("span", { class: "meta", text: t("spectating_note") })) : null,
      zoomCtl);
    const boardArea = h("div", { class: "board-area", "data-testid": "board-area" }, svg);
    const boardWrap = h("div", { class: "board-wrap" }, bar, boardArea, announce);
    felt.appendChild(boardWrap);

    // bottom: your hand (or seat 0's backs for a spectator)
    const bottom = h("div", { class: "seat-area seat-bottom" + (v.turn === base && v.phase === "playing" ? " turn" : ""), "data-testid": "seat-area-" + base });
    if (you !== null) {
      const mySide = v.sides.findIndex((x) => x.includes(you));
      bottom.appendChild(h("div", { class: "name" }, presenceDot(you), h("span", { class: "name-text", title: seatName(you), text: seatName(you) + " (" + t("you") + ")" }),
        n === 4 ? h("span", { class: "side-mark side-" + mySide, title: t("team", { n: mySide + 1 }) }) : null));
      bottom.appendChild(renderHand(v, legal, myTurn));
      const actions = h("div", { class: "actions" });
      if (myTurn && legal.some((m) => m.kind === "draw")) actions.appendChild(h("button", { class: "primary", "data-testid": "draw-button", disabled: st.busy, onclick: () => play("draw"), text: t("draw") }));
      if (myTurn && legal.some((m) => m.kind === "pass")) actions.appendChild(h("button", { class: "primary", "data-testid": "pass-button", disabled: st.busy, onclick: () => play("pass"), text: t("pass") }));
      bottom.appendChild(actions);
    } else {
      const inner = seatArea(base, "bottom", v);
      bottom.dataset.handSize = inner.dataset.handSize;
      while (inner.firstChild) bottom.appendChild(inner.firstChild);
    }
    felt.appendChild(bottom);
    addClocks(felt, st, seatName); // the seat to move's clock (ui/clock.js)
    addAutopilotBadges(felt, st); // seats on autopilot (ui/autopilot.js)

    // status line
    let status;
    if (v.phase !== "playing") status = "";
    else if (myTurn) {
      const nSel = st.selected ? movesForTile(legal, st.selected).length : 0;
      if (st.selected && nSel === 1) status = t("confirm_single", { tile: st.selected });
      else if (st.selected) status = t("choose_place", { tile: st.selected, n: nSel });
      else if (v.must_play) status = t("must_play_note", { tile: v.must_play });
      else if (legal.some((m) => m.kind === "draw")) status = t("no_moves_draw");
      else if (legal.some((m) => m.kind === "pass")) status = t("no_moves_pass");
      else status = t("your_turn") + " — " + t("select_tile");
      if (st.busy) status = t("sending");
    } else status = v.turn !== null ? t("turn_of", { name: nameWithPresence(st, v.turn, seatName(v.turn)) }) : "";
    felt.appendChild(h("div", { class: "status-line", style: { gridArea: "status" }, "data-testid": "turn-indicator", "data-turn-seat": v.turn ?? "", "data-selected": st.selected || "", "aria-live": "polite", text: status }));

    // The tab title tells a player in another tab that it is their turn.
    if (st.review) {
      const rv = renderRoundReview(st, st.review, ctx.closeReview, tileSvg);
      rv.dataset.key = "review";
      root.appendChild(rv);
      if (st.dialogFocused !== "review:" + st.review) {
        st.dialogFocused = "review:" + st.review;
        ctx.afterRender((live) => { const btn = live.querySelector("[data-testid=close-review]"); if (btn) btn.focus(); });
      }
    }
    document.title = (myTurn ? "● " + t("your_turn") + " — " : "") + tableName(st.table) + " — " + t("app_title");
    turnTitle(st, myTurn); // the time left in the title on your turn (ui/clock.js)

    // side panel
    screen.appendChild(renderPanel(v));
    const hint = hintStrip();
    if (hint) root.appendChild(hint);
    root.appendChild(screen);
    ctx.afterRender((live) => {
      const board = live.querySelector("[data-testid=board]");
      const area = live.querySelector("[data-testid=board-area]");
      if (!board || !area) return;
      // Motion for what is new on the page: a tile node the board did not have slides
      // in from its player's side, a new tile in the hand drops in, points float up.
      animateArrivals(board, live.querySelector("[data-testid=hand]"), (tile) => {
        const e = (v.log || []).find((x) => x.tile === tile && (x.kind === "place" || x.kind === "open"));
        return e ? POSITIONS[n][(e.seat - base + n) % n] : "bottom";
      });
      // Fit the drawing to the board's real size (known only once it is on the page),
      // and again whenever that size changes.
      refit(area, board);
      if (observed !== area && window.ResizeObserver) {
        if (boardObserver) boardObserver.disconnect();
        observed = area;
        boardObserver = new ResizeObserver(() => {
          const b = area.querySelector("[data-testid=board]");
          if (b && area.isConnected) refit(area, b);
        });
        boardObserver.observe(area);
      }
    });
    const dialogKey = v.round + ":" + v.phase;
    if ((v.phase === "round_over" || v.phase === "match_over") && st.hiddenDialog === dialogKey) {
      // The results are tucked away so the final board can be studied.
      // It stays until the next round is actually dealt (the server's countdown goes on).
      // It sits in the page's flow above the table (not over it), so it covers no tile
      // and no name — your own revealed hand at the bottom least of all.
      const cd = v.phase === "round_over" ? countdownEl(st) : null;
      root.insertBefore(h("div", { class: "dialog-tab", "data-testid": "results-tab" }, h("button", {
        class: "primary", "data-testid": "show-results", onclick: () => update({ hiddenDialog: null }),
        text: (v.phase === "match_over" ? t("match_over") : t("round_over", { n: v.round })) + " — " + t("show_results"),
      }), cd), hint && hint.parentNode === root ? hint : screen);
      // The button that brings the results back takes the focus (and so comes into view).
      if (st.dialogFocused !== "tab:" + dialogKey) {
        st.dialogFocused = "tab:" + dialogKey;
        ctx.afterRender((live) => { const btn = live.querySelector("[data-testid=show-results]"); if (btn) btn.focus(); });
      }
    } else if (v.phase === "round_over" || v.phase === "match_over") {
      const overlay = renderSettlement(ctx, v);
      overlay.dataset.key = "settlement";
      root.appendChild(overlay);
      if (st.review) overlay.hidden = true; // a past round is being looked at on top
      // Keyboard users land on the dialog's main button (once per settlement).
      const key = v.round + ":" + v.phase;
      if (st.dialogFocused !== key) {
        st.dialogFocused = key;
        ctx.afterRender((live) => {
          const btn = live.querySelector("[data-key=settlement] button.primary:not([disabled])");
          if (btn) btn.focus();
        });
      }
    }
  }

  // The drawing fitted to the board area's size in CSS pixels, when that changed.
  function refit(area, board) {
    const r = area.getBoundingClientRect();
    const pxNow = { w: Math.round(r.width), h: Math.round(r.height) };
    const cur = st.boardPx;
    if (pxNow.w > 0 && (!cur || Math.abs(cur.w - pxNow.w) > 1 || Math.abs(cur.h - pxNow.h) > 1)) {
      st.boardPx = pxNow;
      fitView(board, getLayout(), currentTargets(), { zoom: st.zoom, px: pxNow });
    }
  }

  // The last placement of every other seat this round (all seats for a spectator):
  // marked on its tile with the player's initial and the points it scored.
  function lastMoves(v, you) {
    const out = new Map();
    const log = (v.log || []).filter((e) => e.type === "move");
    const newest = log.length ? log[log.length - 1] : null;
    for (const e of log) {
      if ((e.kind === "place" || e.kind === "open") && e.seat !== you) {
        out.set(e.seat, { tile: e.tile, seat: e.seat, points: e.points > 0 ? e.points / 5 : 0, fresh: e === newest,
          initial: [...seatName(e.seat)][0] || String(e.seat + 1) });
      }
    }
    return [...out.values()];
  }

  // On a phone: the scores and the last move at the top of the felt (always in view),
  // and the log and score sheet one tap away.
  function phoneBar(v) {
    const log = (v.log || []).filter((e) => e.type === "move");
    const last = log[log.length - 1];
    let lastText = last ? moveWords(last, getLayout(), seatName) + autopilotSuffix(st, last) : t("log_empty");
    if (last && last.points > 0) lastText += " · " + pointsText(last.points);
    return h("div", { class: "phone-bar", "data-testid": "phone-bar" },
      h("div", { class: "phone-scores", "data-testid": "phone-scores" },
        ...v.sides.map((_, side) => h("span", { class: "phone-score", "data-side": side },
          v.players === 4 ? h("span", { class: "side-mark side-" + side }) : null,
          sideNamesEl(st, side), " ", h("strong", { text: String(v.scores[side]) })))),
      h("div", { class: "phone-last", "data-testid": "phone-last", text: lastText }),
      h("button", { class: "small", "data-testid": "show-log", onclick: () => {
        const el = document.querySelector("[data-testid=log-card]");
        if (el) { el.scrollIntoView({ block: "start" }); el.focus(); }
      }, text: t("show_log") }));
  }

  // The second click of a double-click (the browser's own count) on the spot where the
  // first one selected a tile: it means that tile, even when selecting it moved the
  // hand (the status line's words grew) and something else now lies under the pointer.
  function secondOfDouble(e) {
    const c = st.tileClick;
    return e.detail >= 2 && !!c && c.tile === st.selected && Math.hypot(e.clientX - c.x, e.clientY - c.y) <= 6;
  }

  // The first-visit hint: spinners and the board count, until dismissed.
  function hintStrip() {
    let seen = false;
    try { seen = localStorage.getItem("fiveup.hint") === "seen"; } catch { /* private mode */ }
    if (seen) return null;
    return h("div", { class: "hint-strip", role: "note", "data-testid": "hint-strip" },
      h("p", {}, t("hint_text"), " ", h("a", { href: "/static/rules.html?lang=" + getLang(), target: "_blank", rel: "noopener", text: t("hint_rules") })),
      h("button", { class: "small", "data-testid": "hint-dismiss", onclick: () => {
        try { localStorage.setItem("fiveup.hint", "seen"); } catch { /* private mode */ }
        update({});
      }, text: t("hint_ok") }));
  }

  // Your own newest placement, when it scored: its points float up by the tile.
  function ownFloat(v, you) {
    const log = (v.log || []).filter((e) => e.type === "move");
    const e = log[log.length - 1];
    return e && you !== null && e.seat === you && e.points > 0 && (e.kind === "place" || e.kind === "open")
      ? { tile: e.tile, points: e.points / 5 } : null;
  }

  function presenceDot(seat) {
    if (st.table && st.table.seats[seat] && st.table.seats[seat].bot) return botIcon(); // a computer: no socket
    const mark = presenceMark(st, seat); // connected / away / disconnected (ui/presence.js)
    if (mark) return mark;
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
      h("div", { class: "name" }, presenceDot(seat), h("span", { class: "name-text", title: seatName(seat), text: seatName(seat) }),
        presenceLabel(st, seat), v.players === 4 ? h("span", { class: "side-mark side-" + side, title: t("team", { n: side + 1 }) }) : null),
      h("div", { class: "meta", text: t("tiles_n", { n }) + (v.players === 4 ? " · " + t("team", { n: side + 1 }) : "") }),
      backs);
  }

  function renderHand(v, legal, myTurn) {
    // One hand per deal (and seat): a new deal's tiles are a new hand, not arrivals.
    const hand = h("div", { class: "hand", role: "group", "aria-label": t("hand_label"), "data-testid": "hand",
      "data-key": ["hand", st.table && st.table.match, v.round, st.you].join(":") });
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
        "data-testid": "hand-tile", "data-key": "h:" + tile, "data-tile": tile, "data-playable": can ? "1" : "0",
        "data-places": myTurn ? movesForTile(legal, tile).length : 0,
        "aria-label": t("tile_label", { a: tile.split("|")[0], b: tile.split("|")[1] }) + (must ? " — " + t("must_play") : ""), "aria-pressed": st.selected === tile ? "true" : "false",
        disabled: myTurn && !can ? false : undefined,
      }, tileSvg(tile, { size: 34 }), must ? h("span", { class: "must-label", text: t("must_play") }) : null);
      on(btn, "click", (e) => {
        if (window.__fiveupSuppressClick && Date.now() - window.__fiveupSuppressClick < 300) return;
        if (secondOfDouble(e) && st.selected) { e.stopPropagation(); selectTile(st.selected); return; }
        if (can && !st.busy) {
          // where a first click selected a tile: the double-click's second half lands there
          if (e.detail <= 1) st.tileClick = { tile, x: e.clientX, y: e.clientY };
          selectTile(tile);
        }
      });
      if (can) on(btn, "pointerdown", (e) => { if (e.pointerType !== "mouse" || e.button === 0) startDrag(e, tile); });
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
        h("td", { class: "who" }, v.players === 4 ? h("span", { class: "side-mark side-" + side }) : null, " ", sideNamesEl(st, side)),
        h("td", {}, tallySvg(score)),
        h("td", { class: "num", text: String(score) })));
    });
    panel.appendChild(h("section", { class: "card" }, h("h2", { text: t("scores") + " (" + v.target + ")" }), scores));
    panel.appendChild(h("section", { class: "card sheet-card" }, h("h2", { text: t("score_sheet") }),
      renderScoreSheet(st, v.sides, ctx.review)));

    // Scrollable regions are focusable, so keyboard users can scroll them.
    const log = h("ul", { class: "log", "data-testid": "log", tabindex: "0", "aria-label": t("log") });
    const entries = (v.log || []).filter((e) => e.type === "move");
    entries.forEach((ev, i) => log.prepend(logItem(ev, i + 1)));
    addAutopilotLines(log, st, v, seatName); // "<name> is away: the autopilot plays…" (ui/autopilot.js)
    panel.appendChild(h("section", { class: "card", "data-testid": "log-card", tabindex: "-1" }, h("h2", { text: t("log") }),
      entries.length ? log : h("p", { text: t("log_empty") })));
    panel.appendChild(h("section", { class: "card" },
      h("details", {}, h("summary", { text: t("description") }),
        h("p", { id: "layout-description", "data-testid": "layout-description", text: layoutDescription(v) })),
      h("p", {}, h("small", { text: t("keyboard_help") }))));
    return panel;
  }

  function logItem(ev, num) {
    let text = moveWords(ev, getLayout(), seatName);
    // R19: a pass is legal only when it is the only legal move, and this server plays
    // it itself, so every pass is automatic (marked after a reload too).
    if (ev.kind === "pass") text += " " + t("log_auto");
    text += autopilotSuffix(st, ev); // "(autopilot)": the server played it for an absent player
    const li = h("li", { "data-key": "m:" + num, "data-autopilot": autopilotSuffix(st, ev) ? "1" : null, "data-kind": ev.kind, "data-notation": ev.move || "", "data-seat": ev.seat }, h("span", { class: "num", text: num + ". " }), h("span", { text }));
    if (ev.kind === "open" || ev.kind === "place") {
      const raw = ev.points || 0;
      li.appendChild(h("span", { class: raw > 0 ? "pts" : "zero", text: " · " + pointsText(raw) }));
    }
    return li;
  }

  return draw(root);
}
