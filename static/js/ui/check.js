// The record-check page, /check: a record downloaded from a replay (text or JSON form)
// is checked by the server's rules engine (POST /api/records/check: every deal, move,
// point and score replayed, the first problem with its line and rule), and each round's
// deal is checked again in this browser from its revealed seed (fairmark.js, WebCrypto).
// The verdict is the engine's; this page only shows it.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { markFor, loadCss } from "./fairmark.js";
import "./check-strings.js";

/** The server's verdict on a record's text: {valid, line, problem, record}. */
export async function checkRecord(text) {
  const r = await fetch("/api/records/check", {
    method: "POST",
    headers: { "Content-Type": text.trimStart().startsWith("{") ? "application/json" : "text/plain; charset=utf-8" },
    body: text,
  });
  if (r.status === 413) throw new Error(t("check_too_large"));
  if (r.status === 429) throw new Error(t("check_too_often", { s: r.headers.get("Retry-After") || "60" }));
  if (!r.ok) throw new Error(t("check_failed"));
  return r.json();
}

export function openCheck(root, app) {
  loadCss();
  app.setConn("idle");
  document.title = t("check_title");
  clear(root);
  const verdict = h("div", { class: "check-verdict", "data-testid": "check-verdict", "aria-live": "polite" });
  const file = h("input", { type: "file", accept: ".txt,.json,text/plain,application/json", "data-testid": "check-file", id: "check-file" });
  const pasted = h("textarea", { rows: "8", "data-testid": "check-text", id: "check-text", spellcheck: "false", placeholder: t("check_paste_placeholder") });
  const button = h("button", { type: "submit", "data-testid": "check-submit", text: t("check_button") });
  let alive = true;
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (f) { pasted.value = await f.text(); run(); }
  });
  const form = h("form", { class: "check-form", onsubmit: (e) => { e.preventDefault(); run(); } },
    h("label", { for: "check-file", text: t("check_file_label") }), file,
    h("label", { for: "check-text", text: t("check_paste_label") }), pasted, button);
  root.appendChild(h("section", { class: "replay check", "data-testid": "check-page" },
    h("h2", { text: t("check_title") }), h("p", { text: t("check_intro") }), form, verdict));

  async function run() {
    const text = pasted.value;
    clear(verdict);
    if (!text.trim()) { verdict.appendChild(h("p", { class: "notice error", text: t("check_empty") })); return; }
    button.disabled = true;
    verdict.dataset.state = "checking";
    verdict.appendChild(h("p", { text: t("check_checking") }));
    let v;
    try {
      v = await checkRecord(text);
    } catch (ex) {
      if (!alive) return;
      clear(verdict);
      verdict.dataset.state = "error";
      verdict.appendChild(h("p", { class: "notice error", text: ex.message }));
      button.disabled = false;
      return;
    }
    if (!alive) return;
    button.disabled = false;
    clear(verdict);
    verdict.dataset.state = v.valid ? "valid" : "invalid";
    verdict.appendChild(h("p", { class: v.valid ? "check-ok" : "notice error", "data-testid": "check-result",
      text: v.valid ? t("check_valid") : t("check_invalid", { line: v.line, problem: v.problem }) }));
    const rec = v.record;
    if (!rec) return;
    const names = rec.seats;
    verdict.appendChild(h("p", { text: t("check_summary", {
      table: rec.table, match: rec.match, rounds: rec.rounds.length,
      scores: rec.sides.map((side, i) => `${side.map((s) => names[s]).join(" & ")} ${rec.scores[i]}`).join(" · "),
    }) }));
    if (rec.rounds.length) {
      verdict.appendChild(h("ol", { class: "replay-rounds", "data-testid": "check-rounds" },
        ...rec.rounds.map((r, i) => h("li", { "data-round": r.round }, t("check_round", { n: r.round }), " ", markFor(rec, i, "span")))));
    }
  }
  return () => { alive = false; };
}
