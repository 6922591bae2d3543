// Server/HTTP errors -> words for the player.
import { t, hasKey } from "../i18n.js";

export function errorText(e) {
  const code = e && e.code;
  const msg = (e && e.message) || "";
  if (code === "network") return t("err_network");
  // an HTTP 429 says how long to wait (Retry-After): code look-ups, joins, creations
  if (code === "rate_limited" && e.retryAfter) return t("err_too_many_tries", { s: e.retryAfter });
  if (code && hasKey("err_" + code)) return t("err_" + code, { msg });
  return t("err_generic", { msg: msg || code || "?" });
}
