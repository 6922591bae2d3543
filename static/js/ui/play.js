// The table in play (and spectating): seats around the felt, the board, your hand,
// scores with tallies, the log; the round/match result dialog on top when settled.
import { h } from "../dom.js";
import { t, sideLabel, layoutDescription } from "../i18n.js";
import { renderBoard, tileSvg, svgEl } from "../board/render.js";
import { playableTiles, movesForTile, placeText, dragHandler, attachZoomPan } from "../board/input.js";
import { tallySvg } from "./tally.js";
import { renderSettlement } from "./settlement.js";
import * as S from "../state.js";
import { botIcon } from "./bots.js";

const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };

export function renderPlay(root, ctx) {
  const { st, update, play, selectTile, setZoom, getLayout, currentTargets } = ctx;
  const seatName = (seat) => S.seatName(st, seat);
  const isConnected = (seat) => S.isConnected(st, seat);
  const sideNames = (side) => S.sideNames(st, side);

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
    const portrait = window.innerWidth < 700 && window.innerHeight > window.innerWidth;
    renderBoard(svg, lay, {
      last: lastTile, targets, focusKey: targets[st.focusIdx] && targets[st.focusIdx].key, zoom: st.zoom,
      minView: portrait ? { w: 22, h: 26 } : { w: 36, h: 20 },
    });
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
        h("span", { class: "badge spectating", text: t("spectating") }), h("div", { class: "meta", text: t("spectating_note") })) : null);
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
      const overlay = renderSettlement(ctx, v);
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
    if (st.table && st.table.seats[seat] && st.table.seats[seat].bot) return botIcon(); // a computer: no socket
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
        "aria-label": t("tile_label", { a: tile.split("|")[0], b: tile.split("|")[1] }) + (must ? " — " + t("must_play") : ""), "aria-pressed": st.selected === tile ? "true" : "false",
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
        h("p", { id: "layout-description", "data-testid": "layout-description", text: layoutDescription(v) })),
      h("p", {}, h("small", { text: t("keyboard_help") }))));
    return panel;
  }

  function logItem(ev, num) {
    const name = seatName(ev.seat);
    let text;
    if (ev.kind === "open") text = t("log_open", { name, tile: ev.tile });
    else if (ev.kind === "place") text = t("log_place", { name, tile: ev.tile, place: placeText(ev.place, sideLabel) });
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

  return draw(root);
}
