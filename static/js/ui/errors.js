// Server/HTTP errors -> words for the player.
import { t, hasKey } from "../i18n.js";

export function errorText(e) {
  const code = e && e.code;
  const msg = (e && e.message) || "";
  if (code === "network") return t("err_network");
  if (code && hasKey("err_" + code)) return t("err_" + code, { msg });
  return t("err_generic", { msg: msg || code || "?" });
}
