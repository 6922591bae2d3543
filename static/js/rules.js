// The rules page (/static/rules.html): the text of js/rules_text.js in the chosen
// language, with drawn examples (a spinner, scoring ends, the rounding of leftover
// pips) made by the same layout and drawing code as the table.
import { h, clear } from "./dom.js";
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { RULES_TEXT } from "./rules_text.js";
import "./invitations.js"; // invitation toasts and friends online (docs/invitations.md)
import { computeLayout } from "./board/layout.js";
import { renderBoard, svgEl, tileSvg } from "./board/render.js";

const EXAMPLES = {
  spinner: {
    tiles: [
      { tile: "6|6", at: null, via: null },
      { tile: "5|6", at: "6|6:lineA", via: "high" },
      { tile: "1|6", at: "6|6:lineB", via: "high" },
      { tile: "3|6", at: "6|6:branchA", via: "high" },
    ],
    places: [
      { place: "5|6:low", value: 5 }, { place: "1|6:low", value: 1 },
      { place: "3|6:low", value: 3 }, { place: "6|6:branchB", value: 6 },
    ],
    last: "3|6",
  },
  scoring: {
    tiles: [
      { tile: "1|4", at: null, via: null },
      { tile: "1|1", at: "1|4:low", via: "lineA" },
      { tile: "4|4", at: "1|4:high", via: "lineA" },
    ],
    places: [{ place: "1|1:lineB", value: 1 }, { place: "4|4:lineB", value: 4 }],
    last: "4|4",
  },
};

const ROUNDING = [["3|4"], ["0|2"], ["2|6"], ["1|2", "0|0"]];

function drawExample(name) {
  const ex = EXAMPLES[name];
  const svg = svgEl("svg", { class: "board rules-board", role: "img", "data-testid": "rules-example-" + name, "aria-label": RULES_TEXT[lang()].examples[name] });
  renderBoard(svg, computeLayout(ex.tiles).layout, { last: ex.last, places: ex.places, minView: { w: 18, h: 12 } });
  return svg;
}

function rounding(text) {
  const rows = ROUNDING.map((hand) => {
    const pips = hand.reduce((a, tl) => a + tl.split("|").map(Number).reduce((x, y) => x + y, 0), 0);
    const ded = Math.floor((pips + 2) / 5); // R22
    return h("li", {}, h("span", { class: "rules-hand" }, ...hand.map((tl) => tileSvg(tl, { size: 16, vertical: false }))), " ",
      text.rounding_rows[0].replace("{pips}", pips).replace("{rounded}", ded * 5).replace("{ded}", ded ? "−" + ded : "0"));
  });
  return h("div", { class: "rules-example", "data-testid": "rules-example-rounding" }, h("p", { text: text.rounding }), h("ul", { class: "rounding-list" }, rows));
}

function lang() { return RULES_TEXT[getLang()] ? getLang() : "en"; }

function render() {
  const root = document.getElementById("rules");
  const text = RULES_TEXT[lang()];
  clear(root);
  document.title = text.title + " — " + t("app_title");
  document.getElementById("app-title").textContent = t("app_title");
  document.getElementById("lang-label").textContent = t("lang_label");
  const sel = document.querySelector("[data-testid=lang]");
  sel.replaceChildren(...LANGS.map(([v, label]) => {
    const o = document.createElement("option");
    o.value = v; o.textContent = label; o.selected = v === getLang();
    return o;
  }));
  const article = h("article", { class: "card rules", "data-testid": "rules" },
    h("h1", { text: text.title }), h("p", { class: "lead", text: text.intro }));
  for (const sec of text.sections) {
    const s = h("section", {}, h("h2", { text: sec.h }),
      h("ul", { class: "rules-list" }, sec.rules.map(([num, body]) => h("li", {}, h("strong", { class: "rnum", text: num }), " ", body))));
    if (sec.example === "rounding") s.appendChild(rounding(text.examples));
    else if (sec.example) {
      s.appendChild(h("figure", { class: "rules-example" }, h("div", { class: "rules-felt" }, drawExample(sec.example)),
        h("figcaption", { text: text.examples[sec.example] })));
    }
    article.appendChild(s);
  }
  article.appendChild(h("p", {}, h("a", { href: "/", "data-testid": "rules-back", text: text.back })));
  root.appendChild(article);
}

const q = new URLSearchParams(location.search).get("lang");
setLang(q && RULES_TEXT[q] ? q : getLang());
document.querySelector("[data-testid=lang]").addEventListener("change", (e) => {
  setLang(e.target.value);
  // the address follows the choice, so a reload or a shared link keeps the language
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) { url.searchParams.set("lang", getLang()); history.replaceState(null, "", url); }
  render();
});
render();
