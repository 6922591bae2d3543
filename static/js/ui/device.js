// Who holds a seat once seated (docs/protocol.md, "Devices, leave, resign, replace"):
// "Play on another device" (a single-use link with a Copy button; the host makes one
// for the seat of a person gone for the presence grace), claiming a `#seat=` link on
// page load (before the socket connects) — after asking, when this browser holds
// another seat at the table or another site opened the link —, the "this seat moved to
// another device" screen (close 4410: no reconnect with the dead token), Leave and
// Resign with a confirmation, and the host's Replace between matches. The link's
// credential lives in the URL fragment only: it is read, removed from the address bar
// at once and sent in a POST body, never in a URL.
import { h } from "../dom.js";
import { t, addStrings } from "../i18n.js";
import { api, saveSeat, forgetSeat, loadSeat } from "../net/api.js";
import { errorText } from "./errors.js";
import * as S from "../state.js";

/** Close codes (docs/protocol.md): the seat moved to another device / you left it. */
export const CLOSE_SEAT_MOVED = 4410;
export const CLOSE_SEAT_LEFT = 4411;

/**
 * The `#seat=<credential>` of a device link, if the page was opened with one: it is
 * removed from the address bar at once (history.replaceState) and claimed — after a
 * confirmation naming both seats when this browser already holds another seat at this
 * table (claiming would give that seat up), or naming the linked seat when another site
 * opened the page. Resolves to `{token, seat}` (also saved like every seat token),
 * `{error}`, or `{notice}` (not claimed: the user said no); null without a link.
 */
export function claimFromFragment(code) {
  const m = /^#seat=([A-Za-z0-9_-]{1,256})$/.exec(location.hash || "");
  if (!m) return null;
  history.replaceState(history.state, "", location.pathname + location.search);
  const failed = (e) => ({ error: claimErrorText(e) });
  return askBeforeClaim(code, m[1]).then((answer) => answer !== true ? answer : api.claim(code, m[1]).then(
    (res) => { saveSeat(code, res.token, res.seat); return { token: res.token, seat: res.seat, table: res.table }; },
    failed,
  ), failed);
}

function claimErrorText(e) {
  if (e.code === "link_used") return t("err_link_used");
  if (e.code === "seat_present") return t("err_claim_seat_present");
  return errorText(e);
}

/** Whether a page of another site sent the browser here (a navigation it started). */
function openedByAnotherSite() {
  try { return !!document.referrer && new URL(document.referrer).origin !== location.origin; } catch { return false; }
}

function seatLabel(info, seat) {
  const s = info && info.seats && info.seats[seat];
  return t("seat_label", { name: (s && s.name) || t("seat_n", { n: seat + 1 }), n: seat + 1 });
}

/**
 * true: claim; else what to show instead. Asks (window.confirm) when this browser holds
 * another seat here, or when another site opened the link; asks the server which seat
 * the link moves (POST …/claim/seat: nothing is claimed) and the table's names.
 */
async function askBeforeClaim(code, link) {
  const held = loadSeat(code);
  const foreign = openedByAnotherSite();
  if (!held && !foreign) return true;
  const [linked, info] = await Promise.all([api.claimSeat(code, link), api.table(code)]);
  if (held && held.seat === linked.seat && !foreign) return true; // this seat, to this browser
  const names = { held: held ? seatLabel(info, held.seat) : "", linked: seatLabel(info, linked.seat), table: info.name };
  const question = held && held.seat !== linked.seat ? t("claim_swap_confirm", names) : t("claim_foreign_confirm", names);
  if (window.confirm(question)) return true;
  return { notice: held ? t("claim_kept", names) : t("claim_declined", names) };
}

/** The socket closed with 4410 / 4411: the old token is dead — forget it, never retry. */
export function onSeatClosed(ctx, closeCode) {
  const { st, update, code } = ctx;
  forgetSeat(code);
  st.token = null; st.you = null;
  if (closeCode === CLOSE_SEAT_MOVED) update({ moved: true, deviceLink: null });
  else update({ seatNotice: t("you_left_seat"), deviceLink: null });
}

/** The screen of a device whose seat moved to another device. */
export function renderMoved(ctx) {
  const { go, watchAgain } = ctx;
  return h("div", { class: "card", role: "alert", "data-testid": "seat-moved" },
    h("h2", { text: t("seat_moved_title") }),
    h("p", { text: t("seat_moved_text") }),
    h("p", {},
      h("button", { "data-testid": "seat-moved-watch", onclick: () => watchAgain(), text: t("watch") }), " ",
      h("button", { onclick: () => go("/"), text: t("back_home") })));
}

function confirmButton(label, question, testid, action) {
  return h("button", {
    class: "small", "data-testid": testid,
    onclick: () => { if (window.confirm(question)) action(); },
    text: label,
  });
}

function linkBox(st, update) {
  const url = location.origin + st.deviceLink.link;
  const input = h("input", { type: "text", readonly: true, value: url, "data-testid": "device-link", "aria-label": t("device_link_label", { seat: S.seatName(st, st.deviceLink.seat) }), size: 40 });
  return h("div", { class: "device-link" },
    h("p", { class: "muted", text: t("device_link_note") }),
    input, " ",
    h("button", {
      class: "small", "data-testid": "device-link-copy",
      onclick: async (e) => {
        try { await navigator.clipboard.writeText(url); } catch { const field = e.target.parentNode.querySelector("input"); if (field) field.select(); }
        e.target.textContent = t("copied");
      },
      text: t("copy"),
    }), " ",
    h("button", { class: "small", onclick: () => update({ deviceLink: null }), text: t("close") }));
}

/**
 * The seat panel under the board (a seated person, a match in play or over):
 * "Play on another device", Leave, Resign; the host's links for other seats.
 */
function hasSeatPanel(st) {
  const tb = st.table;
  return !!tb && st.you !== null && !!st.token && (tb.status === "playing" || tb.status === "finished");
}

/** Fetch a device link for `seat` into the state (the seat panel shows it, opened). */
async function getLink(ctx, seat) {
  const { st, update, code } = ctx;
  try {
    update({ deviceLink: await api.deviceLink(code, seat, st.token), error: null });
    setTimeout(() => {
      const panel = document.querySelector("[data-testid=seat-panel]");
      if (panel) panel.scrollIntoView({ block: "nearest" });
    }, 0);
  } catch (e) { update({ error: errorText(e) }); }
}

/**
 * "Play on another device" in the table's head, always in view (the seat panel under
 * the board holds it too, folded): it opens the panel with the link. Null when there
 * is no seat panel.
 */
export function deviceShortcut(ctx) {
  if (!hasSeatPanel(ctx.st)) return null;
  return h("button", { class: "small", "data-testid": "another-device-top", onclick: () => getLink(ctx, ctx.st.you), text: t("another_device") });
}

export function renderSeatPanel(ctx) {
  const { st, update, code, httpAction } = ctx;
  const tb = st.table;
  if (!hasSeatPanel(st)) return null;
  const link = (seat) => getLink(ctx, seat);
  const panel = h("details", {
    class: "card seat-panel", "data-testid": "seat-panel", open: !!(st.seatPanelOpen || st.deviceLink),
    ontoggle: (e) => { st.seatPanelOpen = e.target.open; },
  },
    h("summary", { text: t("seat_panel") }));
  const row = h("p", {},
    h("button", { class: "small", "data-testid": "another-device", onclick: () => link(st.you), text: t("another_device") }), " ",
    confirmButton(t("leave_table"), t("leave_confirm"), "leave-table", async () => {
      await ctx.leave();
      if (st.token === null) update({ seatNotice: t("you_left_seat"), deviceLink: null });
    }));
  if (tb.status === "playing" && tb.players < 4) {
    row.append(" ", confirmButton(t("resign"), t("resign_confirm"), "resign", () => httpAction(() => api.resign(code, st.token))));
  }
  panel.appendChild(row);
  if (tb.host === st.you) {
    const others = tb.seats.filter((s) => s.seat !== st.you && s.name && !s.bot);
    const grace = (tb.clock && tb.clock.grace_seconds) || 60;
    const hostLink = async (seat) => {
      try {
        update({ deviceLink: await api.deviceLink(code, seat, st.token), error: null });
      } catch (e) {
        update({ error: e.code === "seat_present" ? t("err_seat_present", { name: S.seatName(st, seat), n: grace }) : errorText(e) });
      }
    };
    if (others.length) {
      panel.appendChild(h("p", {}, t("host_links"), " ", ...others.map((s) => h("button", {
        class: "small", "data-testid": "host-link-" + s.seat, onclick: () => hostLink(s.seat),
        text: t("link_for", { name: S.seatName(st, s.seat) }),
      }))));
      panel.appendChild(h("p", { class: "muted", "data-testid": "host-links-note", text: t("host_links_note", { n: grace }) }));
    }
  }
  if (st.deviceLink) panel.appendChild(linkBox(st, update));
  return panel;
}

/**
 * The words for a seat token refused by the socket (4401) on a page that held a seat:
 * during or after a match that is a seat moved to another device with its link.
 */
export function tokenRefusedText(st) {
  const tb = st.table;
  if (tb && (tb.status === "playing" || tb.status === "finished")) {
    return t("seat_token_moved", { n: (tb.clock && tb.clock.grace_seconds) || 60 });
  }
  return t("err_unauthorized");
}

/** What this module adds under the board: the last seat notice and the seat panel. */
export function renderSeatBits(ctx) {
  const { st } = ctx;
  const out = [];
  if (st.seatNotice) out.push(h("p", { class: "notice", role: "status", "data-testid": "seat-notice", text: st.seatNotice }));
  const panel = renderSeatPanel(ctx);
  if (panel) out.push(panel);
  return out;
}

/** On the match-end card: "X resigned", and the host's Replace for each other seat. */
export function renderMatchEndExtras(ctx) {
  const { st, code, httpAction } = ctx;
  const tb = st.table;
  if (!tb) return null;
  const out = h("div", { class: "match-end-extras" });
  if (tb.resigned !== null && tb.resigned !== undefined) {
    out.appendChild(h("p", { "data-testid": "resigned-note", text: t("resigned_note", { name: S.seatName(st, tb.resigned) }) }));
  }
  if (tb.status === "finished" && tb.host === st.you && st.token) {
    for (const s of tb.seats) {
      if (s.seat === st.you || !s.name) continue;
      out.appendChild(h("p", { "data-testid": "replace-" + s.seat }, S.seatName(st, s.seat), ": ",
        h("button", { class: "small", onclick: () => httpAction(() => api.replace(code, s.seat, "bot", null, st.token)), text: t("replace_bot") }), " ",
        h("button", { class: "small", onclick: () => httpAction(() => api.replace(code, s.seat, "invite", null, st.token)), text: t("replace_invite") })));
    }
  }
  return out.childNodes.length ? out : null;
}

/** Table events of this module, in the words of the table's log line. */
export function eventNotice(st, ev) {
  const name = S.seatName(st, ev.seat);
  if (ev.type === "seat_left") return t("ev_seat_left", { name });
  if (ev.type === "seat_moved") return t("ev_seat_moved", { name });
  if (ev.type === "resigned") return t("resigned_note", { name });
  if (ev.type === "seat_replaced") return t(ev.by === "bot" ? "ev_replaced_bot" : "ev_replaced_invite", { n: ev.seat + 1 });
  return null;
}

addStrings({
  en: {
    seat_panel: "Your seat",
    another_device: "Play on another device",
    device_link_note: "Open this link on your other device: your seat moves there, and this page stops playing it. It works once; keep it private.",
    device_link_label: "Device link for {seat}",
    close: "Close",
    host_links: "A player gone for good? Make a link to their seat for:",
    host_links_note: "Only for a player who has been gone (no open page) for {n} s: while they are here, or left less than {n} s ago, the link is refused.",
    err_seat_present: "{name} is here, or left less than {n} s ago: a link to their seat can only be made once they have been gone for {n} s.",
    err_claim_seat_present: "The player of this seat came back, so the host's link cannot take it now.",
    seat_label: "{name} (seat {n})",
    claim_swap_confirm: "This browser holds {held} at table {table}. This device link is for {linked}. Take {linked} here and give up {held}?",
    claim_foreign_confirm: "Another site opened this device link. Take {linked} at table {table} on this device?",
    claim_kept: "The device link was not used: you keep {held}.",
    claim_declined: "The device link was not used.",
    seat_token_moved: "Your seat was moved to another device: its device link was used (yours, or the host's after you had been gone for {n} s). This page no longer plays it; you are watching now.",
    link_for: "{name}",
    leave_table: "Leave the table",
    leave_confirm: "Leave the table? A computer player takes your seat for the rest of the match.",
    resign: "Resign",
    resign_confirm: "Resign the match? It ends now and the other side wins.",
    you_left_seat: "You left the table; a computer player plays your seat. You are watching now.",
    seat_moved_title: "This seat moved to another device",
    seat_moved_text: "Your seat is being played on another device now: its device link was used (yours, or the host's while you were gone). This page no longer plays it.",
    resigned_note: "{name} resigned.",
    replace_bot: "Replace with a computer player",
    replace_invite: "Free the seat for an invite",
    ev_seat_left: "{name} left; a computer player plays the seat.",
    ev_seat_moved: "{name} moved to another device.",
    ev_replaced_bot: "Seat {n} is played by a computer player now.",
    ev_replaced_invite: "Seat {n} is free for a new player.",
    err_link_used: "This device link was used already or replaced by a newer one. Ask for a new link.",
    err_resign_partnership: "A partnership game cannot be resigned: leave the table instead.",
    err_not_between_matches: "Players are replaced between matches.",
  },
  uk: {
    seat_panel: "Ваше місце",
    another_device: "Грати на іншому пристрої",
    device_link_note: "Відкрийте це посилання на іншому пристрої: ваше місце перейде туди, а ця сторінка перестане за нього грати. Посилання одноразове; не показуйте його іншим.",
    device_link_label: "Посилання для пристрою: {seat}",
    close: "Закрити",
    host_links: "Гравець пішов? Посилання на його місце для:",
    host_links_note: "Лише для гравця, якого немає (жодної відкритої сторінки) {n} с: поки він тут або пішов менш ніж {n} с тому, посилання не дадуть.",
    err_seat_present: "{name} тут або пішов(ла) менш ніж {n} с тому: посилання на це місце можна зробити, лише коли гравця немає {n} с.",
    err_claim_seat_present: "Гравець цього місця повернувся, тож посилання господаря зараз його не забере.",
    seat_label: "{name} (місце {n})",
    claim_swap_confirm: "У цьому браузері ваше місце — {held} за столом {table}. Це посилання — на {linked}. Зайняти тут {linked} і віддати {held}?",
    claim_foreign_confirm: "Це посилання відкрив інший сайт. Зайняти {linked} за столом {table} на цьому пристрої?",
    claim_kept: "Посилання не використано: ваше місце — {held}.",
    claim_declined: "Посилання не використано.",
    seat_token_moved: "Ваше місце перейшло на інший пристрій: його посилання використано (ваше або господаря, коли вас не було {n} с). Ця сторінка більше за нього не грає; тепер ви глядач.",
    link_for: "{name}",
    leave_table: "Вийти з-за столу",
    leave_confirm: "Вийти з-за столу? До кінця партії за ваше місце гратиме комп'ютер.",
    resign: "Здатися",
    resign_confirm: "Здатися? Партія закінчиться зараз, і переможе суперник.",
    you_left_seat: "Ви вийшли з-за столу; за ваше місце грає комп'ютер. Тепер ви глядач.",
    seat_moved_title: "Це місце перейшло на інший пристрій",
    seat_moved_text: "За ваше місце тепер грають на іншому пристрої: його посилання використано (ваше або господаря, поки вас не було). Ця сторінка більше за нього не грає.",
    resigned_note: "{name} здався(лася).",
    replace_bot: "Замінити комп'ютером",
    replace_invite: "Звільнити місце для запрошеного",
    ev_seat_left: "{name} вийшов(ла); за місце грає комп'ютер.",
    ev_seat_moved: "{name} перейшов(ла) на інший пристрій.",
    ev_replaced_bot: "За місце {n} тепер грає комп'ютер.",
    ev_replaced_invite: "Місце {n} вільне для нового гравця.",
    err_link_used: "Це посилання вже використано або замінено новим. Попросіть нове.",
    err_resign_partnership: "У грі парами здатися не можна: вийдіть з-за столу.",
    err_not_between_matches: "Гравців замінюють між партіями.",
  },
});
