// Home screen: create a table, join by code, the lobby of public tables.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { api, saveSeat, loadName, saveName } from "../net/api.js";
import { practiceCard } from "./bots.js";
import { errorText } from "./errors.js";

export function renderHome(root, app) {
  clear(root);
  const err = h("p", { class: "error-text", "data-testid": "home-error", role: "alert" });

  const name = h("input", { "data-testid": "create-name", required: true, maxlength: 40, value: "", placeholder: "Friday" });
  const players = h("select", { "data-testid": "create-players" },
    h("option", { value: "2", text: "2" }), h("option", { value: "3", text: "3" }), h("option", { value: "4", text: "4" }));
  const pub = h("input", { type: "checkbox", "data-testid": "create-public", checked: true });
  const host = h("input", { "data-testid": "create-host-name", required: true, maxlength: 24, value: loadName() });
  const form = h("form", { "data-testid": "create-form" },
    h("label", { class: "form-row" }, h("span", { text: t("table_name") }), name),
    h("div", { class: "form-row inline" }, h("label", {}, h("span", { text: t("players") + " " }), players),
      h("label", {}, pub, " ", t("public_table"))),
    h("label", { class: "form-row" }, h("span", { text: t("your_name") }), host),
    h("button", { class: "primary", type: "submit", "data-testid": "create-submit", text: t("create") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const hostName = host.value.trim();
    try {
      const res = await api.createTable({
        name: name.value.trim() || hostName, players: Number(players.value), public: pub.checked, host_name: hostName,
      });
      saveName(hostName);
      saveSeat(res.code, res.token, res.seat);
      app.go("/t/" + res.code);
    } catch (ex) {
      err.textContent = errorText(ex);
    }
  });

  const code = h("input", { "data-testid": "join-code-input", maxlength: 12, autocapitalize: "characters", placeholder: "K7QX2M", "aria-label": t("code") });
  const joinForm = h("form", { class: "form-row inline", "data-testid": "join-code-form" },
    code, h("button", { type: "submit", "data-testid": "join-code-submit", text: t("go") }));
  joinForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = code.value.trim().toUpperCase();
    if (c) app.go("/t/" + encodeURIComponent(c));
  });

  const lobbyBody = h("tbody");
  const lobbyTable = h("table", { class: "lobby", "data-testid": "lobby" },
    h("thead", {}, h("tr", {}, h("th", { text: t("col_table") }), h("th", { text: t("col_status") }),
      h("th", { text: t("col_seats") }), h("th", { text: t("col_scores") }), h("th"))),
    lobbyBody);
  const lobbyEmpty = h("p", { text: t("loading"), "data-testid": "lobby-empty" });

  async function loadLobby() {
    try {
      const data = await api.lobby();
      clear(lobbyBody);
      const tables = data.tables || [];
      lobbyEmpty.textContent = tables.length ? "" : t("lobby_empty");
      for (const e of tables) {
        const status = e.status === "waiting" ? t("status_waiting") : e.status === "playing" ? t("status_playing") : e.status;
        const full = e.seats_taken >= e.players;
        lobbyBody.appendChild(h("tr", { "data-testid": "lobby-row", "data-code": e.code },
          h("td", {}, h("strong", { text: e.name }), " ", h("small", { text: e.code })),
          h("td", {}, h("span", { class: "badge " + e.status, text: status }),
            e.round ? h("small", { text: " " + t("round_n", { n: e.round }) }) : null),
          h("td", { text: `${e.seats_taken}/${e.players}` + (e.bots ? " · " + t("n_computers", { n: e.bots }) : "") }),
          h("td", { text: (e.scores || []).join(" : ") }),
          h("td", { class: "actions" },
            e.status === "waiting" && !full
              ? h("button", { "data-testid": "lobby-join", onclick: () => app.go("/t/" + e.code), text: t("join") }) : null,
            " ",
            h("button", { "data-testid": "lobby-watch", onclick: () => app.go("/t/" + e.code + "?watch=1"), text: t("watch") }))));
      }
    } catch (ex) {
      lobbyEmpty.textContent = errorText(ex);
    }
  }
  loadLobby();
  const timer = setInterval(loadLobby, 5000);

  root.appendChild(h("p", { class: "tagline", text: t("tagline") }));
  root.appendChild(h("div", { class: "home" },
    h("section", { class: "card" }, h("h2", { text: t("home_create") }), form, err),
    practiceCard(app),
    h("section", { class: "card" }, h("h2", { text: t("join_by_code") }), joinForm,
      h("h2", { text: t("lobby") }), lobbyTable, lobbyEmpty,
      h("button", { onclick: loadLobby, text: t("refresh") }))));
  return () => clearInterval(timer);
}
