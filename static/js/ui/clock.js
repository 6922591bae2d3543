// The turn clock in the browser (issue 9; docs/protocol.md, TableInfo `clock`,
// `turn_deadline`, `banks`): for the seat to move, the time left drawn as a ring at that
// seat (and, at the fast preset, its bank), ticking in place every 250 ms; the time in
// the tab title when it is your turn; an accessible text form (each clock is a
// `role=timer` with its words, and a polite announcement at a few moments of your own
// turn, never every tick). The table's preset in the table header, and the clock
// choice of the create form. It only draws what the server sends, turned into this
// browser's time with the skew measured from the snapshot's `server_time`
// (`st.clockOffset`): the server alone decides when time is up (the autopilot).
import { tableName } from "./names.js";
import { h } from "../dom.js";
import { t, addStrings } from "../i18n.js";
import { svgEl } from "../board/render.js";

addStrings({
  en: {
    clock_choice: "Turn clock",
    clock_opt_none: "No clock (friends at leisure)",
    clock_opt_relaxed: "Relaxed ({move} s a move)",
    clock_opt_fast: "Fast ({move} s a move + {bank} s bank a round)",
    clock_badge_relaxed: "Clock: {move} s a move",
    clock_badge_fast: "Clock: {move} s a move + {bank} s bank a round",
    clock_bank_short: "bank {time}",
    clock_left: "{time} left to move",
    clock_left_bank: "move time is up; bank: {time} left",
    clock_label: "{name}: {text}",
    clock_say_start: "Your turn: {time} to move.",
    clock_say_start_bank: "Your turn: {time} to move, and a bank of {bank}.",
    clock_say_bank: "Move time is up: your bank is running, {time} left.",
    clock_say_low: "{n} seconds left.",
  },
  uk: {
    clock_choice: "Годинник ходу",
    clock_opt_none: "Без годинника (друзі, без поспіху)",
    clock_opt_relaxed: "Спокійно ({move} с на хід)",
    clock_opt_fast: "Швидко ({move} с на хід + {bank} с запасу на раунд)",
    clock_badge_relaxed: "Годинник: {move} с на хід",
    clock_badge_fast: "Годинник: {move} с на хід + {bank} с запасу на раунд",
    clock_bank_short: "запас {time}",
    clock_left: "на хід лишилося {time}",
    clock_left_bank: "час ходу вичерпано; запас: {time}",
    clock_label: "{name}: {text}",
    clock_say_start: "Ваш хід: {time} на хід.",
    clock_say_start_bank: "Ваш хід: {time} на хід і {bank} запасу.",
    clock_say_bank: "Час ходу вичерпано: іде ваш запас, лишилося {time}.",
    clock_say_low: "Лишилося {n} секунд.",
    clock_say_low_one: "Лишилася {n} секунда.",
    clock_say_low_few: "Лишилося {n} секунди.",
  },
});

// This module's styles, in a stylesheet of their own.
if (!document.querySelector("link[data-clock-css]")) {
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/css/clock.css", "data-clock-css": "1" }));
}

/** The presets' documented defaults (docs/configuration.md), shown on the create form;
 * a table's own numbers come from the server (TableInfo.clock). */
export const PRESETS = {
  none: { move: null, bank: null },
  relaxed: { move: 90, bank: null },
  fast: { move: 20, bank: 60 },
};

/** Seconds left below which a clock is drawn as running low. */
const LOW_MS = 10_000;

/**
 * The clock of the seat to move, in this browser's time (`end`: local ms when the
 * seat's move time and bank are spent), or null when no clock runs. Pure.
 */
export function turnClock(table, view, offsetMs = 0) {
  if (!table || !view || view.phase !== "playing" || view.turn === null || view.turn === undefined) return null;
  const deadline = Date.parse(table.turn_deadline ?? "");
  if (!Number.isFinite(deadline)) return null;
  const c = table.clock || {};
  const banks = Array.isArray(table.banks) ? table.banks : null;
  const bank = banks && Number.isFinite(banks[view.turn]) ? Math.max(0, banks[view.turn]) : 0;
  return {
    seat: view.turn, end: deadline - (offsetMs || 0), bankMs: bank * 1000,
    moveMs: Number.isFinite(c.move_seconds) ? c.move_seconds * 1000 : 0,
  };
}

/**
 * What is left at local time `now` (ms): the whole time, the move time, the bank, and
 * whether the bank is running (the move time is spent). Pure.
 */
export function remaining(clk, now) {
  const total = Math.max(0, clk.end - now);
  const move = Math.max(0, total - clk.bankMs);
  const bank = Math.min(clk.bankMs, total);
  return { total, move, bank, inBank: move === 0 && bank > 0 };
}

/** 14_200 ms -> "0:15", 90_000 -> "1:30" (whole seconds, rounded up). Pure. */
export function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function clockOf(el) {
  return { end: Number(el.dataset.end), bankMs: Number(el.dataset.bank), moveMs: Number(el.dataset.move) };
}

function paint(el, now) {
  const clk = clockOf(el);
  const r = remaining(clk, now);
  const shown = r.inBank ? r.bank : r.move;
  const whole = r.inBank ? clk.bankMs : clk.moveMs;
  const frac = whole > 0 ? Math.min(1, shown / whole) : 0;
  const arc = el.querySelector(".clock-arc");
  if (arc) arc.setAttribute("stroke-dashoffset", String(Math.round((1 - frac) * 1000) / 10));
  const text = mmss(shown);
  const txt = el.querySelector(".clock-text");
  if (txt && txt.textContent !== text) txt.textContent = text;
  const bankEl = el.querySelector(".clock-bank");
  if (bankEl) {
    const b = clk.bankMs > 0 && !r.inBank ? t("clock_bank_short", { time: mmss(r.bank) }) : "";
    if (bankEl.textContent !== b) bankEl.textContent = b;
  }
  const state = r.total <= 0 ? "out" : r.inBank ? "bank" : "move";
  if (el.dataset.state !== state) el.dataset.state = state;
  // running low: the last 10 s (or the last third of a shorter time)
  el.classList.toggle("low", r.total > 0 && r.total <= Math.min(LOW_MS, (clk.moveMs + clk.bankMs) / 3));
  const left = String(Math.ceil(r.total / 1000));
  if (el.dataset.left !== left) {
    el.dataset.left = left;
    const words = r.inBank ? t("clock_left_bank", { time: text }) : t("clock_left", { time: text });
    el.setAttribute("aria-label", el.dataset.name ? t("clock_label", { name: el.dataset.name, text: words }) : words);
  }
}

/**
 * The ring of the seat to move (`seat`), or null when that seat has no running clock.
 * `name`: the seat's name for the words of the timer.
 */
export function clockEl(st, seat, name = "") {
  const clk = turnClock(st.table, st.view, st.clockOffset);
  if (!clk || clk.seat !== seat) return null;
  const svg = svgEl("svg", { class: "clock-ring", viewBox: "0 0 24 24", "aria-hidden": "true" });
  svgEl("circle", { cx: 12, cy: 12, r: 9.5, class: "clock-track" }, svg);
  svgEl("circle", { cx: 12, cy: 12, r: 9.5, class: "clock-arc", pathLength: 100, "stroke-dasharray": 100, "stroke-dashoffset": 0, transform: "rotate(-90 12 12)" }, svg);
  const el = h("span", {
    class: "turn-clock", "data-testid": "turn-clock", "data-seat": String(seat), role: "timer",
    "data-end": String(clk.end), "data-bank": String(clk.bankMs), "data-move": String(clk.moveMs), "data-name": name,
  }, svg, h("span", { class: "clock-text" }), clk.bankMs > 0 ? h("span", { class: "clock-bank", "data-testid": "turn-clock-bank" }) : null);
  paint(el, Date.now());
  ensureTicker();
  return el;
}

/** The clock of the seat to move, put in its seat area (its name row) in `container`. */
export function addClocks(container, st, seatName = (seat) => "") {
  const clk = turnClock(st.table, st.view, st.clockOffset);
  if (!clk) return;
  const row = container.querySelector(`[data-testid="seat-area-${clk.seat}"] .name`);
  const el = row && clockEl(st, clk.seat, seatName(clk.seat));
  if (el) row.appendChild(el);
}

/** The table's preset for the table header ("Clock: 90 s a move"), or null. */
export function clockBadge(table) {
  const c = table && table.clock;
  if (!c || !c.preset || c.preset === "none") return null;
  const key = c.bank_seconds ? "clock_badge_fast" : "clock_badge_relaxed";
  return h("span", { class: "clock-badge", "data-testid": "clock-badge", "data-preset": c.preset,
    text: " · " + t(key, { move: c.move_seconds, bank: c.bank_seconds }) });
}

/** The create form's clock choice: a <select> whose value is the `clock` to send. */
export function clockSelect() {
  const p = PRESETS;
  return h("select", { "data-testid": "create-clock", "aria-label": t("clock_choice") },
    h("option", { value: "none", text: t("clock_opt_none"), selected: true }),
    h("option", { value: "relaxed", text: t("clock_opt_relaxed", { move: p.relaxed.move }) }),
    h("option", { value: "fast", text: t("clock_opt_fast", { move: p.fast.move, bank: p.fast.bank }) }));
}

// ---- the tab title and the announcements, while it is your turn ----
let mine = null; // {clk, base, key, said:Set} while your own clock runs
let live = null; // the polite live region (kept across re-renders)

function liveRegion() {
  if (!live || !live.isConnected) {
    live = h("p", { class: "sr-only", "aria-live": "polite", "data-testid": "clock-announce" });
    document.body.appendChild(live);
  }
  return live;
}

function say(text) {
  const el = liveRegion();
  el.textContent = text;
}

/**
 * Called by the play view after it sets the tab title: while it is your turn and a
 * clock runs, the title shows the time left ("0:14 · Your turn — …"); otherwise the
 * view's title stands.
 */
export function turnTitle(st, myTurn) {
  const clk = myTurn ? turnClock(st.table, st.view, st.clockOffset) : null;
  if (!clk || clk.seat !== st.you) { mine = null; return; }
  const key = st.code + ":" + st.table.turn_deadline;
  const said = mine && mine.key === key ? mine.said : new Set();
  mine = { clk, key, said, base: t("your_turn") + " — " + tableName(st.table) + " — " + t("app_title") };
  tickMine(Date.now());
  ensureTicker();
}

function tickMine(now) {
  if (!mine) return;
  if (document.body.dataset.screen !== "table") { mine = null; return; } // left the table
  const r = remaining(mine.clk, now);
  const title = mmss(r.inBank ? r.bank : r.move) + " · " + mine.base;
  if (document.title !== title) document.title = title;
  const once = (what, text) => { if (!mine.said.has(what)) { mine.said.add(what); say(text); } };
  if (!mine.said.size) {
    mine.said.add("start");
    if (r.inBank) say(t("clock_say_bank", { time: mmss(r.bank) }));
    else if (r.total > 0) {
      say(mine.clk.bankMs > 0
        ? t("clock_say_start_bank", { time: mmss(r.move), bank: mmss(r.bank) })
        : t("clock_say_start", { time: mmss(r.move) }));
    }
    if (r.inBank) mine.said.add("bank");
    if (r.total <= LOW_MS) mine.said.add("low");
    return;
  }
  if (r.inBank) once("bank", t("clock_say_bank", { time: mmss(r.bank) }));
  if (r.total > 0 && r.total <= LOW_MS) once("low", t("clock_say_low", { n: Math.ceil(r.total / 1000) }));
}

// ---- one ticker for everything on the page ----
let ticker = null;

function tick() {
  const now = Date.now();
  const els = document.querySelectorAll("[data-testid=turn-clock][data-end]");
  for (const el of els) paint(el, now);
  tickMine(now);
  if (!els.length && !mine) { clearInterval(ticker); ticker = null; }
}

function ensureTicker() {
  // 250 ms (a browser slows a hidden tab's timers to once a second, which the title
  // still follows); the ring's arc glides between ticks by a CSS transition.
  if (!ticker) ticker = setInterval(tick, 250);
}
