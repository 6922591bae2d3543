// "Deal verified ✓" (or a loud failure) for a finished round: the table's record (JSON
// form, finished rounds only) checked in this browser by fair/verify.js with WebCrypto —
// the revealed seed against the commitment published before the round, the deal it
// gives against the record's, and every draw and revealed hand (docs/fairness.md).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { verifyRound, recordRound } from "../fair/verify.js";
import "./replay-strings.js";

/** {ok, reason} for round `index` of a JSON-form record; no seed -> {ok: null}. */
export async function checkRecordRound(record, index) {
  const r = record.rounds[index];
  if (!r || !r.seed || !r.commitment) return { ok: null, reason: t("deal_no_seed") };
  return verifyRound(recordRound(record, index));
}

const checked = new WeakMap(); // record -> [Promise<{ok, reason}> per round]

/** An element showing the verdict of round `index` of `record`, filled in when known
 * (each round is checked once per record, however many marks show it). */
export function markFor(record, index, tag = "p") {
  loadCss();
  if (!checked.has(record)) checked.set(record, []);
  const all = checked.get(record);
  if (!all[index]) all[index] = checkRecordRound(record, index);
  const el = h(tag, { class: "fair-mark", "data-testid": "deal-verified", "data-round": record.rounds[index].round, "data-state": "checking", role: "status", title: t("deal_what"), text: t("deal_checking") });
  all[index].then((v) => paint(el, v));
  return el;
}

/** The stylesheet of the marks and the replay page (kept apart from style.css). */
export function loadCss() {
  if (document.querySelector("link[data-replay-css]")) return;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/css/replay.css", "data-replay-css": "1" }));
}

function paint(el, v) {
  el.dataset.state = v.ok === true ? "ok" : v.ok === false ? "failed" : "none";
  el.dataset.reason = v.reason;
  el.textContent = v.ok === true ? t("deal_verified") : v.ok === false ? t("deal_failed", { reason: v.reason }) : v.reason;
}

const verdicts = new Map(); // "code:match:round" -> Promise<{ok, reason}>

/**
 * The mark for round `round` of match `match` at table `code` (the round-end dialog):
 * the round is in the table's record once it is settled; checked once per round.
 */
export function roundMark(code, match, round) {
  loadCss();
  const el = h("p", { class: "fair-mark", "data-testid": "deal-verified", "data-state": "checking", role: "status", title: t("deal_what"), text: t("deal_checking") });
  const key = `${code}:${match}:${round}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = fetch(`/api/tables/${encodeURIComponent(code)}/record.json?match=${match}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error("HTTP " + r.status))))
      .then((record) => {
        const index = record.rounds.findIndex((r) => r.round === round);
        if (index < 0) throw new Error("the round is not in the record");
        return checkRecordRound(record, index);
      })
      .catch((e) => {
        verdicts.delete(key); // asked again at the next render
        return { ok: false, reason: String(e && e.message ? e.message : e) };
      });
    verdicts.set(key, verdict);
  }
  verdict.then((v) => paint(el, v));
  return el;
}
