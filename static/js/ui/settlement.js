// Round end (every hand revealed, pips, rounding, deductions, new scores, ready) and
// match end (winner, final scores, rematch).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../net/api.js";
import { tileSvg } from "../board/render.js";
import { tallySvg } from "./tally.js";
import { renderScoreSheet, settlementTable } from "./scoresheet.js";
import { renderMatchEndExtras } from "./device.js";
import * as S from "../state.js";
import { roundMark } from "./fairmark.js";

// The next-round countdown: the server's deadline (TableInfo.next_round_at) turned into
// this clock's time, shown in whole seconds and updated in place (the dialog itself is
// not re-rendered) while a countdown element is on the page.
let ticker = null;

function countdownText(localDeadline) {
  return t("next_round_in", { n: Math.max(0, Math.ceil((localDeadline - Date.now()) / 1000)) });
}

function tick() {
  const els = document.querySelectorAll("[data-testid=next-round-countdown][data-deadline]");
  if (!els.length) { clearInterval(ticker); ticker = null; return; }
  for (const el of els) {
    const text = countdownText(Number(el.dataset.deadline));
    if (el.textContent !== text) el.textContent = text;
  }
}

/** "Next round in N s", counting down in place to the server's deadline (or null). */
export function countdownEl(st) {
  const deadline = Date.parse((st.table && st.table.next_round_at) ?? "");
  if (!Number.isFinite(deadline)) return null;
  const local = deadline - (st.clockOffset || 0);
  if (!ticker) ticker = setInterval(tick, 250);
  return h("p", { class: "countdown", "data-testid": "next-round-countdown", "data-deadline": String(local), text: countdownText(local) });
}

export function renderSettlement(ctx, v) {
  const { st, update, go, code, httpAction, nextRound } = ctx;
  const seatName = (seat) => S.seatName(st, seat);
  const isConnected = (seat) => S.isConnected(st, seat);
  const sideNames = (side) => S.sideNames(st, side);

  const s = v.settlement;
  const over = v.phase === "match_over";
  const card = h("div", { class: "card", "data-testid": over ? "match-end" : "round-end", role: "dialog", "aria-modal": "true", "aria-labelledby": "result-title" });
  card.appendChild(h("button", {
    class: "small dialog-hide", "data-testid": "hide-results", "aria-label": t("show_board"), title: t("show_board"),
    onclick: () => update({ hiddenDialog: v.round + ":" + v.phase }), text: t("show_board"),
  }));
  if (over) {
    card.appendChild(h("h2", { id: "result-title", text: t("match_over") }));
    if (v.winner !== null && v.winner !== undefined) card.appendChild(h("p", { "data-testid": "winner", "data-side": v.winner }, h("strong", { text: t("winner_is", { name: sideNames(v.winner) }) })));
  } else {
    card.appendChild(h("h2", { id: "result-title", text: t("round_over", { n: v.round }) }));
  }
  if (s) {
    card.appendChild(h("p", { "data-testid": "round-result", text: s.result === "blocked" ? t("result_blocked") : t("result_domino", { name: seatName(s.finisher) }) }));
    card.appendChild(settlementTable(st, s, tileSvg));
    const match = (st.table || {}).match;
    card.appendChild(roundMark(code, match, s.round ?? v.round));
    card.appendChild(h("p", {}, h("a", { href: `/t/${code}/replay?match=${match}`, "data-testid": "replay-link", target: "_blank", text: t("replay") })));
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
        class: "primary", "data-testid": "next-round-button", disabled: iAmReady,
        onclick: () => nextRound(), text: t("next_round"),
      })));
    }
    const deadline = Date.parse(tb.next_round_at ?? "");
    const names = ready.join(", ");
    const none = ready.length ? "" : "_none"; // "Nobody is ready yet."
    if (Number.isFinite(deadline)) {
      card.appendChild(h("p", { "data-testid": "ready-list", text: t("ready_list" + none, { names }) }));
      card.appendChild(countdownEl(st));
    } else {
      // no countdown known (none running, or an older server): the general words
      card.appendChild(h("p", { "data-testid": "ready-list", text: t("ready_waiting" + none, { names }) }));
    }
  } else {
    const votes = (tb.rematch_votes || []).map(seatName);
    if (st.you !== null) {
      card.appendChild(h("p", {}, h("button", {
        class: "primary", "data-testid": "rematch-button", disabled: (tb.rematch_votes || []).includes(st.you),
        onclick: () => httpAction(() => api.rematch(code, st.token)), text: t("rematch"),
      })));
    }
    card.appendChild(h("p", { text: t("rematch_votes", { names: votes.join(", ") || "—" }) }));
    const extras = renderMatchEndExtras(ctx); // "X resigned", the host's Replace (ui/device.js)
    if (extras) card.appendChild(extras);
    // The whole match, round by round, on the match-end screen too.
    card.appendChild(h("h3", { text: t("score_sheet") }));
    card.appendChild(renderScoreSheet(st, v.sides, null));
    card.appendChild(h("button", { onclick: () => go("/"), text: t("back_home") }));
  }
  return h("div", { class: "overlay" }, card);
}
