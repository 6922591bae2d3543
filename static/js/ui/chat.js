// The table chat panel (issue 11; docs/protocol.md, Chat): the messages of the table
// channel and the clearly marked spectators' channel, quick messages and emotes (codes
// the server relays, shown here in the page's language), a per-player mute remembered
// in this browser (localStorage), and the host's switch for spectator chat. One panel
// per table screen, kept across re-renders so a half-typed message survives them.
// Each message of someone else can be reported to the server's operator (a reason and a
// short text); the host can also remove (and block) its author (docs/protocol.md,
// Moderation).
// Names and texts are inserted as text nodes only (dom.js h()).
import { h } from "../dom.js";
import { reconcile } from "../reconcile.js";
import { t } from "../i18n.js";
import { api } from "../net/api.js";

const REASONS = ["abuse", "spam", "cheating", "name", "other"];

export const QUICK = ["good_move", "well_played", "hurry_up", "thanks", "gg", "oops", "hello"];
export const EMOTES = {
  emote_smile: "🙂", emote_laugh: "😂", emote_wow: "😮", emote_sad: "😢",
  emote_thumbs_up: "👍", emote_clap: "👏",
};
const MAX = 200;

function muteKey(code) { return "fiveup.chat.muted." + code; }
function loadMuted(code) {
  try { return new Set(JSON.parse(localStorage.getItem(muteKey(code)) || "[]")); } catch { return new Set(); }
}
function saveMuted(code, set) {
  try { localStorage.setItem(muteKey(code), JSON.stringify([...set])); } catch { /* ignore */ }
}
/** Who a message is from, as a mute key: "seat:N" or "spectators". */
function author(m) { return m.seat === null || m.seat === undefined ? "spectators" : "seat:" + m.seat; }

/** The words of a message: its text, or its quick code in the page's language. */
export function messageText(m) {
  if (m.quick && EMOTES[m.quick]) return EMOTES[m.quick];
  if (m.quick) return t("quick_" + m.quick);
  return m.text || "";
}

export function createChat({ code, send }) {
  let muted = loadMuted(code);
  let st = null;
  const list = h("ol", { class: "chat-list", "data-testid": "chat-list", "aria-live": "polite" });
  const input = h("input", {
    type: "text", maxlength: MAX, "data-testid": "chat-input", "aria-label": t("chat_say"),
    placeholder: t("chat_say"),
  });
  // How much of the limit is used, live (as the name field's hint): a longer message
  // is never cut silently.
  const counter = h("small", { class: "chat-count", "data-testid": "chat-count", "aria-live": "polite" });
  const paintCount = () => {
    const n = [...input.value].length;
    counter.textContent = n >= MAX ? t("chat_full", { max: MAX }) : t("chat_count", { n, max: MAX });
    counter.classList.toggle("error-text", n >= MAX);
    counter.hidden = n === 0;
  };
  input.addEventListener("input", paintCount);
  paintCount();
  const form = h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) { input.value = ""; paintCount(); }
  } }, input, h("button", { type: "submit", "data-testid": "chat-send", text: t("chat_send") }));
  const quick = h("div", { class: "chat-quick", role: "group", "aria-label": t("chat_quick") });
  const off = h("p", { class: "notice", "data-testid": "chat-off", hidden: true });
  const host = h("div", { class: "chat-host" });
  const mutes = h("div", { class: "chat-mutes" });
  const report = h("div", { class: "chat-report", "data-testid": "chat-report-panel" });
  let reporting = null; // the seq of the message being reported
  let reportNote = "";
  const title = h("h2", { text: t("chat") });
  const el = h("section", { class: "card chat", "data-testid": "chat-panel", "aria-label": t("chat") },
    title, list, report, off, form, counter, quick, host, mutes);
  let mutesOpen = false; // the mute list stays open across re-renders until closed

  function nameOf(m) {
    if (m.seat === null || m.seat === undefined) return t("chat_spectator");
    const seat = st && st.table && st.table.seats[m.seat];
    return (seat && seat.name) || t("seat_n", { n: m.seat + 1 });
  }

  function renderList() {
    const before = list.childElementCount;
    reconcile(list, ((st && st.chat) || []).filter((m) => !muted.has(author(m))).map((m) => {
      const spect = m.channel === "spectators";
      return h("li", {
        class: "chat-msg" + (spect ? " chat-spectators" : ""), "data-channel": m.channel,
        "data-seat": m.seat ?? "", "data-testid": "chat-msg", "data-key": "c:" + m.seq,
      },
      spect ? h("span", { class: "chat-tag", text: t("chat_spectators_tag") + " " }) : null,
      h("b", { class: "chat-name", text: nameOf(m) + ": " }),
      h("span", { class: "chat-text", text: messageText(m) }),
      mine(m) ? null : h("button", {
        type: "button", class: "chat-flag", "data-testid": "chat-report", "aria-label": t("chat_report"),
        title: t("chat_report"), text: "⚑",
        onclick: () => { reporting = m.seq; reportNote = ""; renderReport(); },
      }));
    }));
    if (list.childElementCount !== before) list.scrollTop = list.scrollHeight;
  }

  function seatedHere() { return !!st && st.you !== null && st.you !== undefined && !!st.token; }
  function mine(m) { return seatedHere() && m.seat === st.you; }

  async function ask(call, done) {
    try {
      await call();
      reportNote = done;
      reporting = null;
    } catch (err) {
      reportNote = err && err.message ? err.message : String(err);
    }
    renderReport();
  }

  function renderReport() {
    report.replaceChildren();
    if (reportNote) report.appendChild(h("p", { class: "notice", "data-testid": "chat-report-note", text: reportNote }));
    if (reporting === null) return;
    const seq = reporting;
    const reason = h("select", { "data-testid": "chat-report-reason", "aria-label": t("report_reason") },
      REASONS.map((r) => h("option", { value: r, text: t("report_reason_" + r) })));
    const text = h("input", { type: "text", maxlength: 500, "data-testid": "chat-report-text", placeholder: t("report_text"), "aria-label": t("report_text") });
    const token = st && st.token ? st.token : undefined;
    const isHost = seatedHere() && st.table && st.table.host === st.you;
    const removal = (block) => h("button", {
      type: "button", "data-testid": block ? "chat-host-block" : "chat-host-remove",
      text: t(block ? "host_block" : "host_remove"),
      onclick: () => ask(() => api.remove(code, { seq, block }, token), t("host_removed")),
    });
    report.appendChild(h("form", { class: "chat-report-form", onsubmit: (e) => {
      e.preventDefault();
      ask(() => api.report(code, { kind: "message", seq, reason: reason.value, text: text.value }, token), t("report_done"));
    } },
    h("label", {}, t("report_reason") + " ", reason), text,
    h("div", { class: "chat-report-actions" },
      h("button", { type: "submit", "data-testid": "chat-report-send", text: t("report_send") }),
      isHost ? removal(false) : null, isHost ? removal(true) : null,
      h("button", { type: "button", text: t("report_cancel"), onclick: () => { reporting = null; reportNote = ""; renderReport(); } }))));
  }

  function render(state) {
    st = state;
    title.textContent = t("chat");
    input.placeholder = t("chat_say");
    paintCount();
    const tb = st.table;
    const seated = st.you !== null && st.you !== undefined && !!st.token;
    const closedToMe = !seated && tb && tb.spectator_chat === false;
    off.hidden = !closedToMe;
    off.textContent = t("chat_off");
    input.disabled = !!closedToMe;
    renderList();
    // (the report form is drawn by its own steps only, so a frame never clears it)
    // Updated in place (reconcile.js): a button pressed while a frame arrives stays.
    reconcile(quick, [...QUICK, ...Object.keys(EMOTES)].map((q) => h("button", {
        type: "button", class: "chat-quick-btn", "data-testid": "chat-quick-" + q, disabled: !!closedToMe,
        "aria-label": EMOTES[q] ? t("quick_" + q) : null, text: messageText({ quick: q }),
        onclick: () => send({ type: "chat", quick: q }),
      })));
    reconcile(host, seated && tb && tb.host === st.you ? [h("label", {},
      h("input", { type: "checkbox", "data-testid": "chat-spectators-toggle", checked: tb.spectator_chat !== false,
        onchange: (e) => send({ type: "spectator_chat", on: e.target.checked }) }),
      " " + t("chat_spectators_allowed"))] : []);
    const people = (tb ? tb.seats : []).filter((s) => s.name && s.seat !== st.you)
      .map((s) => ({ key: "seat:" + s.seat, name: s.name }));
    people.push({ key: "spectators", name: t("chat_spectators_tag") });
    const details = h("details", { open: mutesOpen, ontoggle: (e) => { mutesOpen = e.target.open; } }, h("summary", { text: t("chat_mute") }));
    for (const p of people) {
      const box = h("input", { type: "checkbox", "data-testid": "chat-mute-" + p.key.replace(":", "-"), checked: muted.has(p.key),
        onchange: (e) => {
          if (e.target.checked) muted.add(p.key); else muted.delete(p.key);
          saveMuted(code, muted);
          renderList();
        } });
      details.appendChild(h("label", { class: "chat-mute" }, box, " " + p.name));
    }
    reconcile(mutes, [details]);
  }

  return {
    el,
    render,
    hasFocus: () => document.activeElement === input,
    focus: () => input.focus(),
    reloadMutes: () => { muted = loadMuted(code); },
  };
}
