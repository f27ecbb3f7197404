// The score sheet of a table: one row per deal (scores, running totals, resets of R8.2),
// the running totals as an SVG chart, and a deal's outcome in words.
import { analysisButton } from "./analysis.js";
import { niceAxis, tieOffsets } from "./chartaxis.js";
import { el, svg } from "./dom.js";
import { SEAT_COLORS } from "./players.js";
import { scoreAndTotal, sheetKey } from "./sheetkey.js";
import { num, t, word } from "./text.js";

/** A sheet row's outcome in words: "Ani made gupa ♥", "all passed: redeal"… */
export function outcomeText(row, names) {
  if (row.declarer === null || row.declarer === undefined) return t(`outcome_${row.outcome}`);
  return t(`sheet_${row.outcome}`, { name: names[row.declarer], contract: row.contract ? word(row.contract) : "" });
}

/** The sheet panel of a table's state; ``names`` are the seats' names. */
export function sheetView(state, names) {
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col", title: t("dealColName"), "aria-label": t("dealColName") }, t("dealCol")),
    el("th", { scope: "col" }, t("contractCol")),
    names.map((name, i) => el("th", { scope: "col", title: name },
      el("span", { class: "dot", style: `background:${SEAT_COLORS[i]}`, "aria-hidden": "true" }),
      el("span", { class: "name" }, name)))));
  const cols = el("colgroup", {}, el("col", { class: "num" }), el("col", { class: "what" }),
    [0, 1, 2].map(() => el("col", { class: "seat" })));
  const body = el("tbody", {}, state.sheet.map((r) => el("tr", { "data-deal": r.deal, "data-outcome": r.outcome },
    el("th", { scope: "row" }, String(r.deal)),
    el("td", { class: "what" }, outcomeText(r, names),
      r.index === undefined ? null : analysisButton(state.table.id, r.index, r.deal)),
    r.totals.map((total, i) => {
      const reset = r.resets.includes(i);
      return el("td", { class: reset ? "reset" : "", "data-reset": reset ? "true" : null },
        scoreAndTotal(r.scores[i], total),
        reset ? el("span", {
          class: "badge reset-badge", title: t("resetTitle", { n: state.table.rules.target }),
        }, t("resetMark")) : null);
    }))));
  const caption = () => el("caption", { class: "sr-only" }, t("scoreSheet"));
  return el("section", { class: "panel sheet-panel" },
    el("h2", {}, t("scoreSheet")),
    state.sheet.length
      ? [sheetKey(), el("div", { class: "sheet-wrap" }, el("table", { class: "sheet", "data-testid": "sheet" },
        caption(), cols, head, body))]
      : [el("p", { class: "muted" }, t("noDealsYet")),
        el("table", { class: "sheet empty", "data-testid": "sheet" }, caption(), head, el("tbody"))],
    state.sheet.length ? chartView(state, names) : null);
}

/** How each seat's line is drawn, beside its colour (tied lines stay apart, X11): a solid,
 * a dashed and a dotted line, with a circle, a square and a triangle at each deal. */
const LINE_DASH = ["", "7 3", "2 2.5"];

/** Seat ``s``'s mark at (``cx``, ``cy``): filled, or hollow and larger at a reset (R8.2). */
function mark(s, cx, cy, hollow) {
  const r = hollow ? 5 : 3;
  const paint = { fill: hollow ? "none" : SEAT_COLORS[s], stroke: SEAT_COLORS[s], "stroke-width": hollow ? 2 : 1 };
  const at = (dx, dy) => `${(cx + dx).toFixed(1)},${(cy + dy).toFixed(1)}`;
  if (s === 1) return svg("rect", { x: (cx - r * 0.85).toFixed(1), y: (cy - r * 0.85).toFixed(1), width: (r * 1.7).toFixed(1), height: (r * 1.7).toFixed(1), ...paint });
  if (s === 2) return svg("polygon", { points: [at(0, -r * 1.1), at(r, r * 0.8), at(-r, r * 0.8)].join(" "), ...paint });
  return svg("circle", { cx: cx.toFixed(1), cy: cy.toFixed(1), r, ...paint });
}

/** Seat ``s``'s line from ``points`` ("x,y x,y …"). */
function line(s, points) {
  return svg("polyline", {
    points, fill: "none", stroke: SEAT_COLORS[s], "stroke-width": 2, "stroke-linejoin": "round",
    "stroke-dasharray": LINE_DASH[s] || null,
  });
}

/** Seat ``i``'s entry of the legend: its line and mark, then its name. */
function legendEntry(i, name) {
  return el("span", { class: "legend", "data-seat": i },
    svg("svg", { class: "swatch", viewBox: "0 0 28 12", width: 28, height: 12, "aria-hidden": "true", focusable: "false" },
      line(i, "1,6 27,6"), mark(i, 14, 6, false)),
    name);
}

/** Running totals over the game, one line per seat, as inline SVG; the value axis has
 * "nice" ticks (chartaxis.js) and tied seats' lines are drawn side by side. */
function chartView(state, names) {
  const rows = state.sheet;
  const target = state.table.rules.target;
  const series = [0, 1, 2].map((s) => [0, ...rows.map((r) => r.totals[s])]);
  const all = series.flat();
  // The goal line is drawn when the totals come near it; otherwise the lines would be flat.
  const high = Math.max(10, ...all);
  const showGoal = high >= target * 0.5;
  const axis = niceAxis(Math.min(0, ...all), showGoal ? Math.max(target, high) : high);
  const { top, bottom } = axis;
  const W = 320, H = 160, L = 34, R = 10, T = 10, B = 22;
  const x = (i) => L + (rows.length ? (i * (W - L - R)) / rows.length : 0);
  const y = (val) => T + ((top - val) * (H - T - B)) / (top - bottom || 1);
  const grid = [
    axis.ticks.map((v) => [
      svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }),
      svg("text", { x: L - 4, y: y(v) + 4, class: "tick", "text-anchor": "end" }, num(v)),
    ]),
    showGoal ? [
      svg("line", { x1: L, x2: W - R, y1: y(target), y2: y(target), class: "goal" }),
      svg("text", { x: W - R - 2, y: y(target) - 3, class: "tick goal-label", "text-anchor": "end" }, num(target)),
    ] : null,
    svg("text", { x: W - R, y: H - 6, class: "tick", "text-anchor": "end" }, String(rows.length)),
    svg("text", { x: L, y: H - 6, class: "tick", "text-anchor": "middle" }, "0"),
  ];
  const shift = tieOffsets(series);
  const lines = series.map((pts, s) => svg("g", { class: `series s${s}`, "data-seat": s },
    line(s, pts.map((val, i) => `${x(i).toFixed(1)},${(y(val) + shift[s][i]).toFixed(1)}`).join(" ")),
    pts.map((val, i) => mark(s, x(i), y(val) + shift[s][i], i > 0 && rows[i - 1].resets.includes(s)))));
  return el("figure", { class: "chart" },
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("chartLabel"), "data-testid": "chart" },
      svg("title", {}, t("chartLabel")), grid, lines),
    el("figcaption", { "data-testid": "chart-legend" }, names.map((name, i) => legendEntry(i, name))));
}
