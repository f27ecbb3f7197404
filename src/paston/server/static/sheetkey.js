// Which number of a score sheet's cell is what: the deal's score (small, above) and the
// total after it (bold, below), said by a key over the sheet and, for screen readers, in
// each cell (the table's sheet, sheet.js, and the sheet for real cards, scoresheet.js).
import { el } from "./dom.js";
import { num, signed, t } from "./text.js";

/** A seat's cell: the deal's ``score`` and the ``total`` after it, each named for screen
 * readers ("deal score +10, total 30"); ``cls`` are the two numbers' classes. */
export function scoreAndTotal(score, total, cls = { score: "score", total: "total" }) {
  return [
    el("span", { class: "sr-only" }, `${t("sheetSrScore")} `),
    el("span", { class: cls.score }, signed(score)),
    el("span", { class: "sr-only" }, `, ${t("sheetSrTotal")} `),
    el("span", { class: cls.total }, num(total)),
  ];
}

/** The key over a sheet: a small "+10", the deal's score; a bold "30", the total after it. */
export function sheetKey(cls = { score: "score", total: "total" }) {
  return el("p", { class: "sheet-key", "data-testid": "sheet-key" },
    el("span", { class: "key-item" }, el("span", { class: cls.score, "aria-hidden": "true" }, "+10"), " ", t("sheetKeyScore")),
    el("span", { class: "key-item" }, el("span", { class: cls.total, "aria-hidden": "true" }, "30"), " ", t("sheetKeyTotal")));
}
