// Display names (docs/protocol.md: 1–24 characters after stripping): a hint under the
// input that warns as soon as a name is too long, instead of cutting it silently.
import { h, on } from "../dom.js";
import { t } from "../i18n.js";

export const NAME_MAX = 24;

/** True when a (stripped) display name is acceptable to the server. */
export function nameOk(name) {
  const n = [...String(name).trim()].length;
  return n >= 1 && n <= NAME_MAX;
}

/** A live hint for a name input: the limit, or how many characters too many. */
export function nameHint(input, id) {
  const el = h("small", { id, class: "name-hint", "data-testid": "name-hint", "aria-live": "polite" });
  // The input and the hint on the page (a render may have kept earlier nodes of both).
  const paint = (field, hint) => {
    const n = [...field.value.trim()].length;
    const over = n > NAME_MAX;
    hint.textContent = over ? t("name_too_long", { n, max: NAME_MAX }) : t("name_limit", { max: NAME_MAX });
    hint.classList.toggle("error-text", over);
    field.setAttribute("aria-invalid", over ? "true" : "false");
  };
  on(input, "input", (e) => paint(e.target, (e.target.isConnected && document.getElementById(id)) || el));
  paint(input, el);
  return el;
}

/** Why a name is refused, in words: too long (with the limit) or empty. */
export function nameError(name) {
  const n = [...String(name).trim()].length;
  return n > NAME_MAX ? t("name_too_long", { n, max: NAME_MAX }) : t("err_invalid_name");
}

/**
 * A table's name as shown: a practice table (POST /api/practice names it "Practice":
 * private, one person and computer players) in the page's language.
 */
export function tableName(tb) {
  if (!tb) return "";
  const seats = tb.seats || [];
  const practice = tb.name === "Practice" && !tb.public && seats.some((s) => s.bot) && seats.filter((s) => s.name && !s.bot).length <= 1;
  return practice ? t("practice_table") : tb.name;
}
