// The friends page (/friends, and /f/{token}: a friend link). Signed in: your friend link
// (its QR code, copy, a new one), add a friend by handle, requests with accept and
// decline, friends with remove and block, blocked players with unblock; a friend link
// opened signed in sends its request. A guest is asked to make a profile first. The
// session is the HttpOnly cookie; strings from the server become text nodes (dom.js);
// the QR code is an <img> of the server's SVG, never inserted as markup.
import { h, clear } from "./dom.js";
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { call as api } from "./net/api.js";
import "./friends-strings.js";
import { onFriendsOnline, onlineText } from "./invitations.js"; // toasts, friends online (docs/invitations.md)

const main = document.getElementById("friends");
const enc = encodeURIComponent;

function say(err) {
  const key = "friends_err_" + err.code;
  const text = t(key, { s: err.retryAfter || 1 });
  return text === key ? err.message || String(err) : text;
}

function errorLine(id) { return h("p", { class: "profile-error", role: "alert", id, "data-testid": id }); }

async function run(errId, action) {
  const line = document.getElementById(errId);
  if (line) line.textContent = "";
  try { await action(); } catch (err) {
    if (line) line.textContent = say(err);
  }
}

function person(p) { return t("friends_person", { name: p.display_name, handle: p.handle }); }

function outcome(got) {
  return t(got.state === "friends" ? "friends_now" : "friends_sent",
    { name: got.friend.display_name, handle: got.friend.handle });
}

function linkCard(link) {
  const absolute = location.origin + link.link;
  const copied = h("span", { class: "friends-done", "data-testid": "copied", "aria-live": "polite" });
  const copy = async () => {
    await navigator.clipboard.writeText(absolute);
    copied.textContent = t("friends_copied");
  };
  const rotate = async () => { await api("POST", "/api/profile/friend-link"); await render(); };
  return h("section", { class: "profile-card", "data-testid": "friend-link" },
    h("h2", { text: t("friends_link") }),
    h("p", { text: t("friends_link_note") }),
    h("img", { class: "profile-qr", alt: t("friends_qr_alt"), "data-testid": "friend-qr",
      src: "data:image/svg+xml;charset=utf-8," + enc(link.qr_svg) }),
    h("p", { class: "profile-link", text: absolute, "data-testid": "friend-link-text" }),
    h("div", { class: "friends-buttons" },
      h("button", { type: "button", class: "primary", "data-testid": "copy-link", onclick: () => run("link-error", copy) }, t("friends_copy")),
      h("button", { type: "button", "data-testid": "rotate-link", onclick: () => run("link-error", rotate) }, t("friends_rotate")),
      copied),
    errorLine("link-error"));
}

function addCard(note) {
  const input = h("input", { name: "handle", required: true, maxlength: "64", autocomplete: "off", "data-testid": "friend-handle" });
  const form = h("form", { class: "profile-card", "data-testid": "add-friend" },
    h("h2", { text: t("friends_add") }),
    h("div", { class: "friends-add" },
      h("label", {}, t("friends_handle"), input),
      h("button", { type: "submit", "data-testid": "send-request" }, t("friends_send"))),
    h("p", { class: "friends-done", "data-testid": "friends-note", text: note || "" }),
    errorLine("add-error"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    run("add-error", async () => {
      const got = await api("POST", "/api/friends/requests", { handle: input.value.trim() });
      await render(outcome(got));
    });
  });
  return form;
}

// one list of people, each with its buttons: [label, testid, action(handle)]
function peopleCard(title, testid, people, buttons) {
  const errId = testid + "-error";
  const list = h("ul", { class: "friends-list" });
  for (const p of people) {
    list.append(h("li", { "data-testid": testid + "-row", "data-handle": p.handle },
      h("span", { class: "who", text: person(p) }),
      h("span", { class: "friends-buttons" }, ...buttons.map(([label, id, act]) =>
        h("button", { type: "button", "data-testid": id, "aria-label": label + ": @" + p.handle,
          onclick: () => run(errId, async () => { if (await act(p.handle) !== false) await render(); }) }, label)))));
  }
  return h("section", { class: "profile-card", "data-testid": testid },
    h("h2", { text: title }),
    people.length ? list : h("p", { text: t("friends_none") }),
    errorLine(errId));
}

const post = (path) => api("POST", path);
const del = (path) => api("DELETE", path);
async function block(handle) {
  if (!confirm(t("friends_block_confirm", { handle }))) return false;
  await api("POST", "/api/friends/blocks", { handle });
  return true;
}
async function remove(handle) {
  if (!confirm(t("friends_remove_confirm", { handle }))) return false;
  await del(`/api/friends/friendships/${enc(handle)}`);
  return true;
}

function guestView() {
  return [h("section", { class: "profile-card", "data-testid": "friends-guest" },
    h("h2", { text: t("friends_title") }),
    h("p", { text: t("friends_guest"), "data-testid": "guest-note" }),
    h("p", {}, h("a", { href: "/profile", "data-testid": "make-profile", class: "friends-top" }, t("friends_guest_link"))))];
}

async function signedInView(note) {
  const [link, all] = await Promise.all([api("GET", "/api/profile/friend-link"), api("GET", "/api/friends")]);
  return [
    h("h2", { class: "sr-only", text: t("friends_title") }),
    addCard(note),
    peopleCard(t("friends_incoming"), "incoming", all.incoming, [
      [t("friends_accept"), "accept", (who) => post(`/api/friends/requests/${enc(who)}/accept`)],
      [t("friends_decline"), "decline", (who) => post(`/api/friends/requests/${enc(who)}/decline`)],
      [t("friends_block"), "block", block]]),
    peopleCard(t("friends_list"), "friends", all.friends, [
      [t("friends_remove"), "remove", remove], [t("friends_block"), "block", block]]),
    peopleCard(t("friends_outgoing"), "outgoing", all.outgoing, []),
    linkCard(link),
    peopleCard(t("friends_blocked"), "blocked", all.blocked, [
      [t("friends_unblock"), "unblock", (who) => del(`/api/friends/blocks/${enc(who)}`)]]),
  ];
}

// each friend's row: a dot (green: online) and its words, from the profile socket
let lastOnline = [];
function markOnline(friends = lastOnline) {
  lastOnline = friends;
  const byHandle = new Map(friends.map((f) => [f.handle, f]));
  for (const row of main.querySelectorAll("[data-testid=friends-row]")) {
    const f = byHandle.get(row.dataset.handle);
    const who = row.querySelector(".who");
    if (!f || !who) continue;
    row.querySelector(".inv-dot")?.remove();
    row.querySelector(".inv-state")?.remove();
    row.querySelector(".inv-watch")?.remove();
    who.before(h("span", { class: "inv-dot" + (f.online ? " online" : ""), "aria-hidden": "true" }));
    who.after(h("span", { class: "inv-state", "data-testid": "online-state", text: onlineText(f) }));
    row.dataset.online = f.online ? "yes" : "no";
    if (f.online && f.table) { // the public table the friend sits at: watch it
      const table = f.table.name || f.table.code;
      row.querySelector(".friends-buttons")?.prepend(h("a", { class: "inv-watch",
        href: `/t/${encodeURIComponent(f.table.code)}`, "data-testid": "friend-table",
        "data-code": f.table.code, "aria-label": t("inv_watch_label", { table }), text: t("inv_watch") }));
    }
  }
}
onFriendsOnline(markOnline);

async function render(note) {
  let me = null;
  try { me = await api("GET", "/api/profile"); } catch (err) {
    if (err.status !== 401) note = say(err);
  }
  if (!me) {
    clear(main).append(...guestView());
    main.dataset.state = "guest";
    return;
  }
  let view;
  try { view = await signedInView(note); } catch (err) {
    view = [h("p", { class: "profile-error", role: "alert", text: say(err) })];
  }
  clear(main).append(...view);
  markOnline();
  main.dataset.state = "signed-in";
}

// /f/{token}: a friend link. Signed in, it sends the request; the page then shows /friends.
async function fromLink() {
  const m = /^\/f\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
  if (!m) return undefined;
  try { await api("GET", "/api/profile"); } catch { return undefined; } // a guest: the note
  history.replaceState(null, "", "/friends");
  try { return outcome(await api("POST", "/api/friends/requests", { link: m[1] })); } catch (err) { return say(err); }
}

function chrome() {
  document.getElementById("lang-label").textContent = t("lang_label");
  document.getElementById("profile-top").textContent = t("friends_profile");
  document.title = "Five Up Online — " + t("friends_title");
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
fromLink().then((note) => render(note));
