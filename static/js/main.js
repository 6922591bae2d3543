// Bootstrap and router: "/" -> home, "/t/{code}" -> the table, "/t/{code}/replay" -> its
// replay, "/check" -> the record check.
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { renderHome } from "./ui/home.js";
import { openTable } from "./ui/table.js";
import { openReplay } from "./ui/replay.js";
import { openCheck } from "./ui/check.js";
import "./invitations.js"; // invitation toasts and friends online (docs/invitations.md)

const root = document.getElementById("app");
const connEl = document.querySelector("[data-testid=conn]");
let dispose = null;
let connState = "idle";

const app = {
  go(path) {
    history.pushState({}, "", path);
    route();
  },
  setConn(s) {
    connState = s;
    paintConn();
  },
};

function paintConn() {
  connEl.dataset.state = connState;
  const text = connEl.querySelector(".conn-text");
  text.textContent = connState === "idle" ? "" : t("conn_" + connState);
  connEl.style.visibility = connState === "idle" ? "hidden" : "visible";
}

function chrome() {
  document.title = t("app_title");
  document.getElementById("app-title").textContent = t("app_title");
  document.getElementById("lang-label").textContent = t("lang_label");
  const rules = document.getElementById("rules-top");
  rules.textContent = t("rules_link");
  rules.href = "/static/rules.html?lang=" + getLang();
  document.getElementById("profile-top").textContent = t("profile_link_top");
  document.getElementById("games-top").textContent = t("games_link_top");
  const sel = document.querySelector("[data-testid=lang]");
  sel.replaceChildren(...LANGS.map(([v, label]) => {
    const o = document.createElement("option");
    o.value = v; o.textContent = label; o.selected = v === getLang();
    return o;
  }));
  paintConn();
}

function route() {
  if (dispose) { dispose(); dispose = null; }
  const path = location.pathname;
  const m = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  const replay = path.match(/^\/t\/([A-Za-z0-9]+)\/replay\/?$/);
  if (/^\/check\/?$/.test(path)) {
    document.body.dataset.screen = "check";
    dispose = openCheck(root, app);
  } else if (replay) {
    document.body.dataset.screen = "replay";
    const match = Number(new URLSearchParams(location.search).get("match")) || null;
    dispose = openReplay(root, app, replay[1], { match });
  } else if (m) {
    document.body.dataset.screen = "table";
    const watch = new URLSearchParams(location.search).has("watch");
    dispose = openTable(root, app, m[1], { watch });
  } else {
    document.body.dataset.screen = "home";
    document.title = t("app_title");
    app.setConn("idle");
    dispose = renderHome(root, app);
  }
}

document.querySelector("[data-testid=lang]").addEventListener("change", (e) => {
  setLang(e.target.value);
  chrome();
  route(); // re-render the current screen in the new language (state comes back from the server)
});
document.getElementById("app-title").addEventListener("click", (e) => { e.preventDefault(); app.go("/"); });
window.addEventListener("popstate", route);

setLang(getLang());
chrome();
route();
