// The table before the start: seats around the table, partnerships, invite, start.
import { inviteFriendsEl } from "./invite-friends.js";
import { h } from "../dom.js";
import { botMark, botSeatControls } from "./bots.js";
import { t } from "../i18n.js";
import { api, loadName } from "../net/api.js";
import * as S from "../state.js";
import { nameHint } from "./names.js";
import { presenceMark, presenceLabel } from "./presence.js";

export function renderWaiting(root, ctx) {
  const { st, update, go, code, sitAt, httpAction, leave } = ctx;
  const seatName = (seat) => S.seatName(st, seat);
  const isConnected = (seat) => S.isConnected(st, seat);
  const sideNames = (side) => S.sideNames(st, side);

  const tb = st.table;
  const n = tb.players;
  const filled = tb.seats.every((s) => s.name);
  const mine = st.you;
  // The typed name lives in the state, so a re-render (any server frame) keeps it.
  const nameInput = mine === null
    ? h("input", {
      "data-testid": "join-name", value: st.joinName ?? loadName(), placeholder: t("your_name"), id: "join-name", "aria-describedby": "join-name-hint",
      oninput: (e) => { st.joinName = e.target.value; },
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
      style: { gridArea: areas[(s.seat - (mine ?? 0) + n) % n] }, "data-testid": "seat-" + s.seat, "data-taken": taken ? "1" : "0",
    },
      h("div", { class: "meta", text: t("seat_n", { n: s.seat + 1 }) + (n === 4 ? " · " + t("team", { n: side + 1 }) : "") }),
      h("div", { class: "name" },
        s.bot ? null : presenceMark(ctx.st, s.seat) || h("span", { class: "presence" + (taken && isConnected(s.seat) ? " on" : ""), "data-connected": taken && isConnected(s.seat) ? "1" : "0" }),
        " ", h("strong", { text: taken ? s.name : t("empty_seat") }),
        tb.host === s.seat ? h("small", { text: " (" + t("host") + ")" }) : null,
        mine === s.seat ? h("small", { text: " (" + t("you") + ")" }) : null,
        " ", presenceLabel(st, s.seat)),
      botMark(s),
      botSeatControls(ctx, s),
      taken && !s.bot && tb.status === "waiting" && mine !== null && tb.host === mine && s.seat !== mine
        ? h("button", {
          class: "small", "data-testid": "kick-" + s.seat,
          onclick: () => httpAction(() => api.kick(code, s.seat, st.token)), text: t("remove"),
        })
        : null,
      taken && tb.status === "waiting" && mine === s.seat
        ? h("button", {
          class: "small", "data-testid": "leave-button",
          onclick: () => leave(), text: t("leave"),
        })
        : null,
      !taken && tb.status === "waiting"
        ? h("button", {
          "data-testid": "sit-" + s.seat,
          onclick: () => sitAt(s.seat, document.getElementById("join-name")), text: mine === null ? t("sit_here") : t("move_here"),
        })
        : null);
    grid.appendChild(card);
  });
  const inviteUrl = location.origin + "/t/" + tb.code;
  const inviteInput = h("input", { readonly: true, value: inviteUrl, "data-testid": "invite-link", id: "invite-link" });
  const mid = h("div", { class: "seat-mid" },
    h("div", { text: t("waiting_title", { name: tb.name }) }),
    n === 4 ? h("div", { class: "meta", "data-testid": "partners", text: t("partners_note", {
      a: seatName(0), b: seatName(2), c: seatName(1), d: seatName(3) }) }) : null);
  grid.appendChild(mid);
  const felt = h("div", { class: "felt waiting" }, grid);
  const controls = h("div", { class: "card" },
    // A visitor: a free seat to take, or (the table is full) the table to watch.
    mine === null && !filled && tb.status === "waiting"
      ? h("div", { class: "form-row" }, h("label", { for: "join-name", text: t("join_prompt") }), nameInput, nameHint(nameInput, "join-name-hint")) : null,
    mine === null && (filled || tb.status !== "waiting")
      ? h("p", { class: "notice", "data-testid": "table-full", text: t("table_full_watch") }) : null,
    h("div", { class: "invite" }, h("label", { for: "invite-link", text: t("invite") }), inviteInput,
      h("button", {
        "data-testid": "copy-invite",
        onclick: async () => {
          try { await navigator.clipboard.writeText(inviteUrl); } catch { const el = document.getElementById("invite-link"); if (el) el.select(); document.execCommand && document.execCommand("copy"); }
          update({ notice: t("copied") });
          // "Copied!" goes back to "Copy" after a moment.
          setTimeout(() => { if (st.notice === t("copied")) update({ notice: null }); }, 2000);
        }, text: st.notice === t("copied") ? t("copied") : t("copy"),
      })),
    inviteFriendsEl(ctx),
    mine !== null && tb.host === mine
      ? h("p", {}, h("button", {
        class: "primary", "data-testid": "start-button", disabled: !filled,
        onclick: () => httpAction(() => api.start(code, st.token)), text: t("start_match"),
      }), filled ? null : h("small", { text: " " + t("need_all_seats") }))
      : h("p", { text: t("waiting_for_host") }));
  if (tb.status === "closed") {
    root.appendChild(h("div", { class: "card", "data-testid": "table-closed" }, h("p", { text: t("table_closed") }),
      h("button", { onclick: () => go("/"), text: t("back_home") }),
      // a match was played here: its finished rounds can still be replayed
      tb.match > 0 ? h("a", { href: "/t/" + code + "/replay", "data-testid": "closed-replay", text: " " + t("replay_link") }) : null));
    return;
  }
  root.appendChild(h("div", { "data-testid": "waiting-room", "data-phase": "waiting" }, felt, controls));
}
