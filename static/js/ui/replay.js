// The replay of a table's finished rounds, /t/<code>/replay[?match=N]: every move of every
// finished round (R22: a finished round's hands are public, so every hand is shown at every
// moment), the board drawn by the same code as live play (board/layout.js, board/render.js),
// points, draws, passes and settlements as they happened, a scrubber, step buttons and the
// ←/→ (Home/End) keys, a "Download record" button, and each round's deal checked in this
// browser (fairmark.js). The data is the table's record (JSON form, docs/record.md), which
// holds finished rounds only: a round being played is never in it.
import { h, clear } from "../dom.js";
import { t, pointsText } from "../i18n.js";
import { moveWords, recordMove, tileWords } from "./words.js";
import { computeLayout, placeValue, viaFor } from "../board/layout.js";
import { renderBoard, tileSvg, svgEl } from "../board/render.js";
import { markFor, loadCss } from "./fairmark.js";
import "./replay-strings.js";
import "./check-strings.js";
import { autopilotSuffix } from "./autopilot.js";

const byTiles = (a, b) => {
  const [x1, y1] = a.split("|").map(Number), [x2, y2] = b.split("|").map(Number);
  return x1 - x2 || y1 - y2;
};

/** Every moment of every round of a JSON-form record, in order (pure: no DOM). */
export function replaySteps(record) {
  const steps = [];
  let scores = record.sides.map(() => 0);
  record.rounds.forEach((r, ri) => {
    const hands = r.hands.map((hand) => hand.slice());
    const tiles = [];
    let drawn = 0;
    const at = (extra) => ({
      round: r.round, ri, hands: hands.map((x) => x.slice().sort(byTiles)), tiles: tiles.slice(),
      scores: scores.slice(), stock: r.stock.length - drawn, ...extra,
    });
    steps.push(at({ kind: "deal", starter: r.starter, starterBy: r.starter_by }));
    r.moves.forEach((m, mi) => {
      if (m.move === "draw") {
        drawn += 1;
        hands[m.seat].push(m.drawn);
      } else if (m.move !== "pass") {
        const [tile, place] = m.move.split("@");
        hands[m.seat].splice(hands[m.seat].indexOf(tile), 1);
        tiles.push(place ? { tile, at: place, via: viaFor(tile, placeValue(place)) } : { tile, at: null, via: null });
        scores = m.scores.slice();
      }
      steps.push(at({ kind: "move", move: m, index: mi }));
    });
    if (r.resigned != null) { // the round in play when the match was resigned: no end
      steps.push(at({ kind: "resigned", seat: r.resigned }));
      return;
    }
    scores = r.end.scores.slice();
    steps.push(at({ kind: "end", end: r.end }));
  });
  const last = steps[steps.length - 1];
  if (record.resigned != null && last && last.kind === "end") { // resigned between rounds
    steps.push({ ...last, kind: "resigned", seat: record.resigned, end: undefined });
  }
  return steps;
}

export function openReplay(root, app, code, { match = null } = {}) {
  code = String(code).toUpperCase();
  loadCss();
  app.setConn("idle");
  let alive = true;
  clear(root);
  const page = h("section", { class: "replay", "data-testid": "replay" });
  root.appendChild(page);
  const recordOf = (n) => fetch(`/api/tables/${encodeURIComponent(code)}/record.json${n ? `?match=${n}` : ""}`)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))));
  // Without ?match, the current match; when it has no finished round yet (a rematch was
  // just dealt), the match before it, saying so. `latest` is the table's current match.
  recordOf(match)
    .then(async (record) => {
      const latest = match ? null : record.match;
      if (!match && !record.rounds.length && record.match > 1) {
        return { record: await recordOf(record.match - 1), latest, fellBack: record.match };
      }
      return { record, latest, fellBack: null };
    })
    .then(async ({ record, latest, fellBack }) => {
      if (latest === null) {
        latest = await fetch(`/api/tables/${encodeURIComponent(code)}`)
          .then((r) => (r.ok ? r.json() : null)).then((info) => (info ? info.match : record.match), () => record.match);
      }
      if (alive) show(page, app, code, record, { latest: Math.max(latest, record.match), fellBack });
    })
    .catch(() => { if (alive) page.appendChild(h("p", { class: "notice error", "data-testid": "replay-error", text: t("replay_unavailable") })); });
  let onKey = null;

  /** Links to every match played at the table (1..latest), the shown one marked. */
  function matchPicker(shown, latest) {
    if (latest < 2) return null;
    const items = [];
    for (let n = latest; n >= 1; n--) {
      items.push(h("li", {}, n === shown
        ? h("strong", { "aria-current": "page", "data-match": String(n), text: t("replay_match_n", { n }) })
        : h("a", { href: `/t/${code}/replay?match=${n}`, "data-match": String(n), text: t("replay_match_n", { n }) })));
    }
    return h("nav", { class: "replay-matches", "data-testid": "replay-matches", "aria-label": t("replay_matches") },
      h("span", { text: t("replay_matches") + ": " }), h("ul", {}, ...items));
  }

  function show(page, app, code, record, { latest = record.match, fellBack = null } = {}) {
    document.title = t("replay_title", { code, match: record.match });
    const steps = replaySteps(record);
    const names = record.seats;
    const sideName = (side) => record.sides[side].map((s) => names[s]).join(" & ");
    const base = `/api/tables/${encodeURIComponent(code)}/record`;
    page.appendChild(h("div", { class: "replay-head" },
      h("h2", { text: t("replay_title", { code: record.table, match: record.match }) }),
      h("a", { class: "button", href: `${base}.txt?match=${record.match}`, download: `${record.table}-${record.match}.txt`, "data-testid": "download-record", text: t("download_record") }),
      h("a", { class: "button small", href: `${base}.json?match=${record.match}`, download: `${record.table}-${record.match}.json`, "data-testid": "download-json", text: t("download_json") }),
      h("a", { href: `/t/${code}`, onclick: (e) => { e.preventDefault(); app.go(`/t/${code}`); }, "data-testid": "replay-table-link", text: `/t/${code}` }),
      h("a", { href: "/check", onclick: (e) => { e.preventDefault(); app.go("/check"); }, "data-testid": "check-link", text: t("check_link") })));
    const picker = matchPicker(record.match, latest);
    if (picker) page.appendChild(picker);
    if (fellBack) page.appendChild(h("p", { class: "notice", "data-testid": "replay-fell-back", text: t("replay_fell_back", { n: fellBack, shown: record.match }) }));
    if (!steps.length) {
      page.appendChild(h("p", { "data-testid": "replay-empty", text: t("replay_empty") }));
      return;
    }
    const svg = svgEl("svg", { class: "board replay-board", "data-testid": "board", role: "img" });
    const event = h("p", { class: "replay-event", "data-testid": "replay-event", "aria-live": "polite" });
    const scoreEl = h("p", { class: "replay-scores", "data-testid": "replay-scores" });
    const handsEl = h("div", { class: "replay-hands" });
    const markSlot = h("div", { class: "replay-mark" });
    const label = h("span", { "data-testid": "replay-step" });
    const range = h("input", { type: "range", min: "0", max: String(steps.length - 1), value: "0", "data-testid": "replay-scrubber", "aria-label": t("replay") });
    range.addEventListener("input", () => go(Number(range.value)));
    const btn = (id, text, to) => h("button", { "data-testid": "replay-" + id, "aria-label": t("replay_" + id), title: t("replay_" + id), onclick: () => go(to()), text });
    const controls = h("div", { class: "replay-controls" },
      btn("first", "«", () => 0), btn("prev", "◀", () => cur - 1), range, btn("next", "▶", () => cur + 1), btn("last", "»", () => steps.length - 1), label);
    const roundList = h("ol", { class: "replay-rounds", "data-testid": "replay-rounds" },
      ...record.rounds.map((r, i) => h("li", { "data-round": r.round }, h("a", { href: "#", onclick: (e) => { e.preventDefault(); go(steps.findIndex((s) => s.ri === i)); }, text: t("replay_round", { n: r.round }) }), " ", markFor(record, i, "span"))));
    page.append(controls, h("div", { class: "replay-main" }, h("div", { class: "replay-felt" }, svg), h("div", { class: "replay-side" }, event, scoreEl, markSlot, handsEl, roundList)),
      h("p", {}, h("small", { text: t("replay_keys") })));

    let cur = 0;
    function describe(s, layout) {
      if (s.kind === "deal") return t("replay_dealt", { round: s.round, name: names[s.starter], why: t(s.starterBy === "lot" ? "replay_by_lot" : "replay_by_finisher") });
      if (s.kind === "resigned") return t("replay_resigned", { name: names[s.seat] });
      if (s.kind === "end") return s.end.result === "domino" ? t("replay_end_domino", { name: names[s.end.finisher] }) : t("replay_end_blocked");
      const m = s.move, name = names[m.seat];
      if (m.move === "draw") return t(m.must_play ? "replay_drew_must" : "replay_drew", { name, tile: tileWords(m.drawn) });
      if (m.move === "pass") return t("replay_passed", { name });
      // the live log's words and displayed points (ui/words.js), on the board as drawn
      return moveWords(recordMove(m), layout, (seat) => names[seat]) + (m.points ? " · " + pointsText(m.points) : "");
    }
    function go(i) {
      cur = Math.max(0, Math.min(steps.length - 1, Number.isFinite(i) ? i : 0));
      const s = steps[cur];
      range.value = String(cur);
      label.textContent = t("replay_step", { n: cur + 1, total: steps.length });
      label.dataset.step = String(cur);
      label.dataset.round = String(s.round);
      label.dataset.kind = s.kind;
      const { layout } = computeLayout(s.tiles);
      const last = s.kind === "move" && s.tiles.length ? s.tiles[s.tiles.length - 1].tile : null;
      renderBoard(svg, layout, { last, minView: { w: 36, h: 20 } });
      svg.dataset.tiles = String(s.tiles.length);
      // a record move the autopilot played carries "autopilot": true (ui/autopilot.js)
      event.textContent = `${t("replay_round", { n: s.round })}: ${describe(s, layout)}` + (s.kind === "move" ? autopilotSuffix({}, { type: "move", ...s.move }) : "");
      event.dataset.kind = s.kind;
      scoreEl.textContent = record.sides.map((_, side) => `${sideName(side)} ${s.scores[side]}`).join(" · ") + " · " + t("replay_stock_left", { n: s.stock });
      scoreEl.dataset.scores = s.scores.join(" ");
      if (markSlot.dataset.ri !== String(s.ri)) {
        markSlot.dataset.ri = String(s.ri);
        markSlot.replaceChildren(markFor(record, s.ri));
      }
      handsEl.replaceChildren(...s.hands.map((hand, seat) => {
        const row = h("div", { class: "replay-hand" + (s.kind === "move" && s.move.seat === seat ? " mover" : ""), "data-testid": "replay-hand-" + seat, "data-tiles": hand.join(" ") },
          h("span", { class: "replay-name", text: names[seat] }));
        for (const tile of hand) row.appendChild(h("span", { "data-tile": tile, title: tile }, tileSvg(tile, { size: 18 })));
        if (s.kind === "end") row.appendChild(h("span", { class: "replay-pips", text: `${s.end.pips[seat]} → −${s.end.deductions[seat]}` }));
        return row;
      }));
      for (const li of roundList.children) li.classList.toggle("current", Number(li.dataset.round) === s.round);
    }
    onKey = (e) => {
      if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) && e.target.type !== "range") return;
      const to = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: steps.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      go(to);
    };
    document.addEventListener("keydown", onKey);
    go(0);
  }

  return () => {
    alive = false;
    if (onKey) document.removeEventListener("keydown", onKey);
  };
}
