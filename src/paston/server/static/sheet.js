// The score sheet of a table: one row per deal (scores, running totals, resets of R8.2),
// the running totals as an SVG chart, and a deal's outcome in words.
import { analysisButton } from "./analysis.js";
import { el, svg } from "./dom.js";
import { SEAT_COLORS } from "./players.js";
import { num, signed, t, word } from "./text.js";

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
        el("span", { class: "score" }, signed(r.scores[i])),
        el("span", { class: "total" }, num(total)),
        reset ? el("span", {
          class: "badge reset-badge", title: t("resetTitle", { n: state.table.rules.target }),
        }, t("resetMark")) : null);
    }))));
  const caption = () => el("caption", { class: "sr-only" }, t("scoreSheet"));
  return el("section", { class: "panel sheet-panel" },
    el("h2", {}, t("scoreSheet")),
    state.sheet.length
      ? el("div", { class: "sheet-wrap" }, el("table", { class: "sheet", "data-testid": "sheet" },
        caption(), cols, head, body))
      : [el("p", { class: "muted" }, t("noDealsYet")),
        el("table", { class: "sheet empty", "data-testid": "sheet" }, caption(), head, el("tbody"))],
    state.sheet.length ? chartView(state, names) : null);
}

/** Running totals over the game, one line per seat, as inline SVG. */
function chartView(state, names) {
  const rows = state.sheet;
  const target = state.table.rules.target;
  const series = [0, 1, 2].map((s) => [0, ...rows.map((r) => r.totals[s])]);
  const all = series.flat();
  // The goal line is drawn when the totals come near it; otherwise the lines would be flat.
  const high = Math.max(10, ...all);
  const showGoal = high >= target * 0.5;
  const top = showGoal ? Math.max(target, high) : Math.ceil(high * 1.15), bottom = Math.min(0, ...all);
  const W = 320, H = 160, L = 34, R = 10, T = 10, B = 22;
  const x = (i) => L + (rows.length ? (i * (W - L - R)) / rows.length : 0);
  const y = (val) => T + ((top - val) * (H - T - B)) / (top - bottom || 1);
  const grid = [
    svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: L - 4, y: y(0) + 4, class: "tick", "text-anchor": "end" }, "0"),
    showGoal ? svg("line", { x1: L, x2: W - R, y1: y(target), y2: y(target), class: "goal" }) : null,
    svg("text", { x: L - 4, y: y(top) + 4, class: "tick", "text-anchor": "end" }, String(top)),
    svg("text", { x: W - R, y: H - 6, class: "tick", "text-anchor": "end" }, String(rows.length)),
    svg("text", { x: L, y: H - 6, class: "tick", "text-anchor": "middle" }, "0"),
  ];
  if (bottom < 0) {
    grid.push(svg("text", { x: L - 4, y: y(bottom) + 4, class: "tick", "text-anchor": "end" }, num(bottom)));
  }
  const lines = series.map((pts, s) => svg("g", { class: `series s${s}` },
    svg("polyline", {
      points: pts.map((val, i) => `${x(i).toFixed(1)},${y(val).toFixed(1)}`).join(" "),
      fill: "none", stroke: SEAT_COLORS[s], "stroke-width": 2.5, "stroke-linejoin": "round",
    }),
    pts.map((val, i) => {
      const reset = i > 0 && rows[i - 1].resets.includes(s);
      return svg("circle", {
        cx: x(i).toFixed(1), cy: y(val).toFixed(1), r: reset ? 5 : 2.5,
        fill: reset ? "none" : SEAT_COLORS[s], stroke: SEAT_COLORS[s], "stroke-width": 2,
      });
    })));
  return el("figure", { class: "chart" },
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("chartLabel"), "data-testid": "chart" },
      svg("title", {}, t("chartLabel")), grid, lines),
    el("figcaption", {}, names.map((name, i) => el("span", { class: "legend" },
      el("span", { class: "dot", style: `background:${SEAT_COLORS[i]}`, "aria-hidden": "true" }), name))));
}
