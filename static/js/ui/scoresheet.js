// The score sheet: every round of the match (who dominoed or that it blocked, points
// made per side, deductions, running totals) with the R26 tally beside the totals, and
// the review of a past round (its final board and settlement). Built only from what
// the server sends: GET /api/tables/{code}/history (projected per recipient) and the
// view. Pure summary first (testable), DOM after.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { tallySvg } from "./tally.js";
import { computeLayout, placeValue, viaFor } from "../board/layout.js";
import { renderBoard, svgEl } from "../board/render.js";
import * as S from "../state.js";
import { roundMark } from "./fairmark.js";
import { sideNamesEl } from "./sidenames.js";

/**
 * One row per round: {round, result, finisher, made[side], deducted[side], total[side],
 * settled}. `sides` is the view's sides ([[0, 2], [1, 3]] …); `current` the view's
 * scores, used as the running total of a round still in play.
 *   made     displayed points scored in the round (R3/R15: raw / 5 per placement)
 *   deducted displayed points lost at the settlement (R22, each hand on its own)
 *   total    the side's score after the round (the server's settlement scores)
 */
export function sheetRows(rounds, sides, current = null) {
  const sideOf = (seat) => sides.findIndex((s) => s.includes(seat));
  return (rounds || []).map((r) => {
    const made = sides.map(() => 0);
    for (const m of r.moves || []) {
      if ((m.kind === "place" || m.kind === "open") && m.points > 0) made[sideOf(m.seat)] += Math.floor(m.points / 5);
    }
    const s = r.settlement;
    const deducted = sides.map((seats) => (s ? seats.reduce((a, seat) => a + (s.deductions[seat] || 0), 0) : 0));
    const total = s ? [...s.scores] : current ? [...current] : sides.map(() => null);
    return { round: r.round, settled: !!s, result: s ? s.result : null, finisher: s ? s.finisher : null, made, deducted, total };
  });
}

/** The layout tiles of a round from its moves, as view.layout.tiles has them. */
export function layoutTilesOf(moves) {
  const out = [];
  for (const m of moves || []) {
    if (m.kind === "open") out.push({ tile: m.tile, at: null, via: null });
    else if (m.kind === "place") out.push({ tile: m.tile, at: m.place, via: viaFor(m.tile, placeValue(m.place)) });
  }
  return out;
}

/**
 * Every round of the current match: the finished ones from the history the server sent,
 * the current one from the view (its log so far, its settlement once settled). null
 * until the history of this match has arrived.
 */
export function matchRounds(st) {
  const v = st.view;
  const hist = st.history;
  if (!hist || !v || (st.table && hist.match !== st.table.match)) return null;
  const rounds = hist.rounds.filter((r) => r.round < v.round);
  rounds.push({ round: v.round, moves: (v.log || []).filter((e) => e.type === "move"),
    settlement: v.phase !== "playing" ? v.settlement || null : null });
  return rounds;
}

function resultText(st, row) {
  const resigned = st.table && st.table.resigned;
  if (!row.settled) return resigned !== null && resigned !== undefined ? t("resigned_note", { name: S.seatName(st, resigned) }) : t("sheet_in_play");
  return row.result === "blocked" ? t("sheet_blocked") : t("sheet_domino", { name: S.seatName(st, row.finisher) });
}

/**
 * The score sheet table. `onReview(round)` opens a settled round's review.
 */
export function renderScoreSheet(st, sides, onReview = null) {
  const v = st.view;
  const hist = matchRounds(st);
  const rows = sheetRows(hist || [], sides, v ? v.scores : null);
  const wrap = h("div", { class: "sheet-wrap", "data-testid": "score-sheet", "data-rounds": rows.length, tabindex: "0", role: "region", "aria-label": t("score_sheet") });
  if (!hist) { wrap.appendChild(h("p", { text: t("loading") })); return wrap; }
  // The round's column is narrow: "#" shown, its name said and in the title.
  const head = h("tr", {}, h("th", { scope: "col", title: t("sheet_round") },
    h("span", { "aria-hidden": "true", text: "#" }), h("span", { class: "sr-only", text: t("sheet_round") })), h("th", { scope: "col", text: t("sheet_result") }),
    ...sides.map((_, side) => h("th", { scope: "col", class: "num", title: S.sideNames(st, side) },
      sides.length === 2 && v && v.players === 4 ? h("span", { class: "side-mark side-" + side }) : null, " ",
      sideNamesEl(st, side))));
  const body = h("tbody");
  for (const row of rows) {
    const cells = sides.map((_, side) => {
      const made = row.made[side], ded = row.deducted[side], tot = row.total[side];
      return h("td", {
        class: "num", "data-side": side, "data-made": made, "data-deducted": ded, "data-total": tot ?? "",
        title: t("sheet_cell_title", { made, ded, total: tot ?? "—" }),
      },
      h("span", { class: "made" + (made ? " pos" : ""), text: "+" + made }),
      ded ? h("span", { class: "ded", text: " −" + ded }) : null,
      h("strong", { class: "tot", text: " " + (tot ?? "—") }));
    });
    const label = row.settled && onReview
      ? h("button", { class: "link", "data-testid": "sheet-review", "data-round": row.round,
        "aria-label": t("sheet_review", { n: row.round }), onclick: () => onReview(row.round), text: String(row.round) })
      : h("span", { text: String(row.round) });
    body.appendChild(h("tr", { "data-testid": "sheet-row", "data-key": "r:" + row.round, "data-round": row.round, "data-settled": row.settled ? "1" : "0" },
      h("td", {}, label), h("td", { class: "result", title: resultText(st, row), text: resultText(st, row) }), ...cells));
  }
  // The tally houses (R26) of the running totals, beside the sheet.
  const last = rows.length ? rows[rows.length - 1].total : sides.map(() => 0);
  const foot = h("tr", { class: "tally-row" }, h("td", { colspan: 2, text: t("sheet_tally") }),
    ...sides.map((_, side) => h("td", { class: "num" }, tallySvg(last[side] ?? 0, { perRow: 2 }))));
  wrap.appendChild(h("table", { class: "sheet", "data-sides": sides.length }, h("caption", { class: "sr-only", text: t("score_sheet") }),
    h("thead", {}, head), body, h("tfoot", {}, foot)));
  if (rows.some((r) => r.settled)) {
    wrap.appendChild(h("p", {}, h("a", { href: `/t/${st.code}/replay?match=${(st.table || {}).match}`, "data-testid": "sheet-replay-link", target: "_blank", text: t("replay") })));
  }
  return wrap;
}

/** The hands, pips, rounding and deductions of a settlement (R22). */
export function settlementTable(st, s, tileSvg) {
  const tbl = h("table", { class: "settlement-table" },
    h("thead", {}, h("tr", {}, ...["col_player", "col_hand", "col_pips", "col_rounded", "col_deduction"].map((k) => h("th", { scope: "col", text: t(k) })))));
  const body = h("tbody");
  (s.hands || []).forEach((handTiles, seat) => {
    const pips = s.pips[seat], ded = s.deductions[seat];
    const handEl = h("div", { class: "settle-hand", "data-testid": "settle-hand-" + seat });
    for (const tile of handTiles) {
      const wrap = h("span", { "data-tile": tile, title: tile });
      wrap.appendChild(tileSvg(tile, { size: 20 }));
      handEl.appendChild(wrap);
    }
    // at four players, each name carries its partnership's mark (as at the table)
    const sides = (st.view && st.view.sides) || [];
    const side = s.hands.length === 4 ? sides.findIndex((x) => x.includes(seat)) : -1;
    const team = side >= 0 ? h("span", { class: "side-mark side-" + side, "data-testid": "settle-team-" + seat, "data-side": side, title: t("team", { n: side + 1 }), "aria-label": t("team", { n: side + 1 }) }) : null;
    body.appendChild(h("tr", {}, h("td", {}, team, team ? " " : null, h("span", { class: "name-text", title: S.seatName(st, seat), text: S.seatName(st, seat) })), h("td", {}, handEl),
      h("td", { text: String(pips) }), h("td", { text: String(ded * 5) }), h("td", { text: ded ? "−" + ded : "0" })));
  });
  tbl.appendChild(body);
  return h("div", { class: "table-scroll" }, tbl);
}

/** A settled round looked at again: its final board and its settlement. */
export function renderRoundReview(st, round, close, tileSvg) {
  const rec = (matchRounds(st) || []).find((r) => r.round === round);
  const card = h("div", { class: "card", "data-testid": "round-review", "data-round": round, role: "dialog", "aria-modal": "true", "aria-label": t("sheet_review", { n: round }) });
  card.appendChild(h("button", { class: "small dialog-hide", "data-testid": "close-review", onclick: close, text: t("close") }));
  card.appendChild(h("h2", { text: t("round_over", { n: round }) }));
  if (rec && rec.settlement) {
    const s = rec.settlement;
    card.appendChild(h("p", { text: s.result === "blocked" ? t("result_blocked") : t("result_domino", { name: S.seatName(st, s.finisher) }) }));
    const tiles = layoutTilesOf(rec.moves);
    const svg = svgEl("svg", { class: "board review-board", "data-testid": "review-board", role: "img", "aria-label": t("board_label") });
    renderBoard(svg, computeLayout(tiles).layout, { minView: { w: 24, h: 14 } });
    card.appendChild(h("div", { class: "review-board-wrap" }, svg));
    card.appendChild(settlementTable(st, s, tileSvg));
    card.appendChild(roundMark(st.code, (st.table || {}).match, round));
    card.appendChild(h("p", { text: t("scores_after", { scores: s.scores.map((x, side) => S.sideNames(st, side) + " " + x).join(" · ") }) }));
  }
  return h("div", { class: "overlay" }, card);
}
