// The profile page (/profile): sign up or sign in with a passkey, a one-time link (and
// its QR code) for another device, sign out here or everywhere, delete. The session is
// an HttpOnly cookie this script never sees; every POST carries the page's Origin (the
// browser adds it). Strings from the server become text nodes (dom.js); the QR code is
// an <img> of the server's SVG, never inserted as markup.
import { h, clear } from "./dom.js";
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { call as api, saveSeat } from "./net/api.js";
import "./profile-strings.js";
import "./invitations.js"; // invitation toasts and friends online (docs/invitations.md)

const main = document.getElementById("profile");

// --- base64url <-> bytes, for the WebAuthn options and answers ---
function fromB64(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer;
}
function toB64(buf) {
  const bytes = new Uint8Array(buf);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function creationOptions(o) {
  return {
    ...o,
    challenge: fromB64(o.challenge),
    user: { ...o.user, id: fromB64(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}
function requestOptions(o) {
  return {
    ...o,
    challenge: fromB64(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}
function credentialJSON(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64(r.authenticatorData);
    response.signature = toB64(r.signature);
    if (r.userHandle) response.userHandle = toB64(r.userHandle);
  }
  return {
    id: cred.id, rawId: toB64(cred.rawId), type: cred.type, response,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
    authenticatorAttachment: cred.authenticatorAttachment || undefined,
  };
}

function errorLine(id) { return h("p", { class: "profile-error", role: "alert", id, "data-testid": id }); }

async function run(errId, action) {
  const line = document.getElementById(errId);
  if (line) line.textContent = "";
  try { await action(); } catch (err) {
    if (line) line.textContent = err.message || String(err);
  }
}

async function signUp(form) {
  const data = new FormData(form);
  const start = await api("POST", "/api/profile/signup/options", {
    handle: String(data.get("handle") || ""), display_name: String(data.get("display_name") || ""),
  });
  const cred = await navigator.credentials.create({ publicKey: creationOptions(start.options) });
  await api("POST", "/api/profile/signup/verify", { ceremony: start.ceremony, credential: credentialJSON(cred) });
  await render();
}

async function signIn() {
  const start = await api("POST", "/api/profile/signin/options");
  const cred = await navigator.credentials.get({ publicKey: requestOptions(start.options) });
  await api("POST", "/api/profile/signin/verify", { ceremony: start.ceremony, credential: credentialJSON(cred) });
  await render();
}

function guestView(note) {
  const form = h("form", { class: "profile-card", "data-testid": "sign-up" },
    h("h2", { text: t("profile_sign_up") }),
    h("label", {}, t("profile_handle"),
      h("input", { name: "handle", required: true, maxlength: "64", autocomplete: "username webauthn", "data-testid": "handle" })),
    h("label", {}, t("profile_display_name"),
      h("input", { name: "display_name", required: true, maxlength: "64", "data-testid": "display-name" })),
    h("button", { type: "submit", class: "primary", "data-testid": "create" }, t("profile_create")),
    errorLine("sign-up-error"));
  form.addEventListener("submit", (e) => { e.preventDefault(); run("sign-up-error", () => signUp(form)); });
  const signin = h("section", { class: "profile-card", "data-testid": "sign-in" },
    h("h2", { text: t("profile_sign_in") }),
    h("button", { type: "button", "data-testid": "sign-in-passkey", onclick: () => run("sign-in-error", signIn) }, t("profile_sign_in_passkey")),
    errorLine("sign-in-error"));
  const intro = h("section", { class: "profile-card" }, h("h2", { text: t("profile_title") }),
    h("p", { text: note || t("profile_guest_note"), "data-testid": "profile-note" }));
  if (!window.PublicKeyCredential) intro.append(h("p", { class: "profile-error", text: t("profile_no_passkeys") }));
  return [intro, form, signin];
}

function tablesView(tables) {
  const box = h("section", { class: "profile-card", "data-testid": "my-tables" }, h("h2", { text: t("profile_my_tables") }));
  if (!tables.length) box.append(h("p", { text: t("profile_no_tables") }));
  const list = h("ul", { class: "profile-tables" });
  for (const tb of tables) {
    const open = async () => {
      const got = await api("POST", `/api/profile/tables/${encodeURIComponent(tb.code)}/open`, { seat: tb.seat });
      saveSeat(got.code, got.token, got.seat); // the table page finds its seat here
      location.assign(`/t/${encodeURIComponent(got.code)}`);
    };
    list.append(h("li", { "data-testid": "my-table", "data-code": tb.code },
      h("span", { text: t("profile_table_line", { name: tb.name, code: tb.code, seat: tb.seat + 1 }) }), " ",
      h("button", { type: "button", "data-testid": "open-table", onclick: () => run("tables-error", open) }, t("profile_open_here"))));
  }
  box.append(list, errorLine("tables-error"));
  return box;
}

function signedInView(me, tables) {
  const linkBox = h("div", { "data-testid": "link-box" });
  const makeLink = async () => {
    const got = await api("POST", "/api/profile/links");
    const absolute = location.origin + got.link;
    const time = new Date(got.expires_at).toLocaleTimeString(getLang());
    clear(linkBox).append(
      h("p", { text: t("profile_link_note", { time }) }),
      h("img", { class: "profile-qr", alt: t("profile_qr_alt"), "data-testid": "link-qr",
        src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(got.qr_svg) }),
      h("p", { class: "profile-link", text: absolute, "data-testid": "link-text" }));
  };
  const signOut = async (path) => { await api("POST", path); await render(); };
  const remove = async () => {
    if (!confirm(t("profile_delete_confirm"))) return;
    await api("DELETE", "/api/profile");
    await render(t("profile_deleted"));
  };
  return [
    h("section", { class: "profile-card", "data-testid": "me" },
      h("h2", { text: t("profile_title") }),
      h("p", { "data-testid": "signed-in-as", text: t("profile_signed_in_as", { name: me.display_name, handle: me.handle }) }),
      h("p", { "data-testid": "sessions", text: t("profile_sessions", { n: me.sessions }) }),
      h("p", {}, h("a", { href: "/friends", class: "profile-friends", "data-testid": "friends-page" }, t("profile_friends"))),
      h("p", {}, h("a", { href: "/clubs", class: "profile-friends", "data-testid": "clubs-page" }, t("profile_clubs"))),
      h("div", { class: "profile-actions" },
        h("button", { type: "button", "data-testid": "sign-out", onclick: () => run("me-error", () => signOut("/api/profile/signout")) }, t("profile_sign_out")),
        h("button", { type: "button", "data-testid": "sign-out-all", onclick: () => run("me-error", () => signOut("/api/profile/signout-everywhere")) }, t("profile_sign_out_all")),
        h("button", { type: "button", class: "danger", "data-testid": "delete", onclick: () => run("me-error", remove) }, t("profile_delete"))),
      errorLine("me-error")),
    h("section", { class: "profile-card" },
      h("h2", { text: t("profile_link") }),
      h("button", { type: "button", "data-testid": "make-link", onclick: () => run("link-error", makeLink) }, t("profile_link_make")),
      linkBox, errorLine("link-error")),
    tablesView(tables),
  ];
}

async function render(note) {
  let me = null;
  try { me = await api("GET", "/api/profile"); } catch (err) {
    if (err.status !== 401) note = err.message;
  }
  let tables = [];
  if (me) {
    try { tables = (await api("GET", "/api/profile/tables")).tables; } catch { tables = []; }
  }
  clear(main).append(...(me ? signedInView(me, tables) : guestView(note)));
  main.dataset.state = me ? "signed-in" : "guest";
}

async function claimFromFragment() {
  const m = /^#signin=([A-Za-z0-9_-]{1,128})$/.exec(location.hash);
  if (!m) return null;
  history.replaceState(null, "", location.pathname); // the secret leaves the address bar
  clear(main).append(h("p", { text: t("profile_link_signing_in") }));
  try { await api("POST", "/api/profile/links/claim", { link: m[1] }); return null; } catch (err) { return err.message; }
}

function chrome() {
  document.getElementById("lang-label").textContent = t("lang_label");
  const sel = document.querySelector("[data-testid=lang]");
  sel.replaceChildren(...LANGS.map(([v, label]) => h("option", { value: v, selected: v === getLang() }, label)));
}

document.querySelector("[data-testid=lang]").addEventListener("change", (e) => {
  setLang(e.target.value);
  chrome();
  render();
});
setLang(getLang());
chrome();
claimFromFragment().then((note) => render(note || undefined));
