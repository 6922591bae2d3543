// R26 tally: one stroke per displayed point; ten points make a "house": a big X
// (2 strokes) with a small x (2 strokes) in each of its four gaps.
import { svgEl } from "../board/render.js";
import { t } from "../i18n.js";

const S = 28; // house size

// The ten strokes of one house, in drawing order.
export function houseStrokes(x0, y0) {
  const p = 3, m = S / 2, q = 3.2; // padding, middle, half-size of a small x
  const big = [[x0 + p, y0 + p, x0 + S - p, y0 + S - p], [x0 + S - p, y0 + p, x0 + p, y0 + S - p]];
  const gaps = [[m, 5.2], [S - 5.2, m], [m, S - 5.2], [5.2, m]]; // top, right, bottom, left
  const small = [];
  for (const [cx, cy] of gaps) {
    small.push([x0 + cx - q, y0 + cy - q, x0 + cx + q, y0 + cy + q]);
    small.push([x0 + cx + q, y0 + cy - q, x0 + cx - q, y0 + cy + q]);
  }
  return [...big, ...small];
}

/** Strokes per house for a score: 23 -> [10, 10, 3]. */
export function tallyGroups(points) {
  const n = Math.abs(points | 0);
  const out = [];
  for (let i = 0; i < Math.floor(n / 10); i++) out.push(10);
  if (n % 10) out.push(n % 10);
  return out;
}

export function tallySvg(points, { perRow = 4 } = {}) {
  const groups = tallyGroups(points);
  const rows = Math.max(1, Math.ceil(groups.length / perRow));
  const cols = Math.max(1, Math.min(perRow, groups.length));
  const gap = 4;
  const w = cols * (S + gap), h = rows * (S + gap);
  const svg = svgEl("svg", {
    viewBox: `0 0 ${w} ${h}`, width: w, height: h,
    class: "tally" + (points < 0 ? " negative" : ""), "data-strokes": groups.reduce((a, b) => a + b, 0),
    "aria-hidden": points < 0 ? null : "true",
  });
  if (points < 0) {
    // a crossed tally is a score below zero: said in its title (hover) and to readers
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("tally_negative", { n: points }));
    svgEl("title", {}, svg).textContent = t("tally_negative", { n: points });
  }
  groups.forEach((count, gi) => {
    const x0 = (gi % perRow) * (S + gap), y0 = Math.floor(gi / perRow) * (S + gap);
    const g = svgEl("g", { class: "house", "data-count": count }, svg);
    houseStrokes(x0, y0).slice(0, count).forEach(([x1, y1, x2, y2]) => svgEl("line", { x1, y1, x2, y2 }, g));
  });
  return svg;
}
