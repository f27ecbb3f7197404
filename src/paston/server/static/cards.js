// Cards: the suits as SVG, face-up cards (buttons when they can be clicked), backs, and
// the order a hand is shown in.
import { el, svg } from "./dom.js";
import { t } from "./text.js";

const SUIT_ORDER = "SCDH"; // ♠ ♣ ♦ ♥ (R0.2)
const RANK_ORDER = "AKQJT987"; // high to low
const SUIT_SYMBOL = { S: "♠", C: "♣", D: "♦", H: "♥" };
const SUIT_PATHS = {
  S: "M12 1.5C9.2 6 3 8.6 3 13.4a4.3 4.3 0 0 0 7.6 2.8L9.4 22h5.2l-1.2-5.8A4.3 4.3 0 0 0 21 13.4C21 8.6 14.8 6 12 1.5z",
  H: "M12 21.5C5.2 16 2 12.3 2 8.3A5 5 0 0 1 12 6.2a5 5 0 0 1 10 2.1c0 4-3.2 7.7-10 13.2z",
  D: "M12 1.5l7.5 10.5L12 22.5 4.5 12z",
  C: "M12 2a4.4 4.4 0 0 1 4 6.4 4.4 4.4 0 1 1-2.6 7.4L14.6 22H9.4l1.2-6.2A4.4 4.4 0 1 1 8 8.4 4.4 4.4 0 0 1 12 2z",
};

function suitIcon(suit, cls = "") {
  return svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", class: cls, focusable: "false" },
    svg("path", { d: SUIT_PATHS[suit], fill: "currentColor" }));
}

function rankText(code) {
  return t(`rank_${code[0]}`);
}

/** A card in words, by its visible rank for the numbers ("10 of clubs", as a voice
 * command would name what is seen) and by name for the faces ("queen of hearts"). */
export function cardName(code) {
  const rank = "T987".includes(code[0]) ? t(`rank_${code[0]}`) : t(`rankName_${code[0]}`);
  return t("cardLabel", { rank, suit: t(`suitName_${code[1]}`) });
}

/** A card in a line of text: "10♥". */
export function cardText(code) {
  return `${rankText(code)}${SUIT_SYMBOL[code[1]]}`;
}

/** A face-up card: a button when it can be clicked, a plain figure otherwise. A button
 * that cannot be used now stays focusable (``aria-disabled``), so a hand can be reviewed
 * out of turn; ``label`` replaces its name in words. */
export function cardNode(code, opts = {}) {
  const red = code[1] === "H" || code[1] === "D";
  const classes = ["card", red ? "red" : "black", `suit-${code[1]}`, opts.size || "", opts.legal ? "legal" : "",
    opts.selected ? "selected" : "", opts.extra || ""].filter(Boolean).join(" ");
  const label = opts.label || cardName(code);
  const body = [
    el("span", { class: "corner" }, el("span", { class: "rank" }, rankText(code)), suitIcon(code[1], "small")),
    suitIcon(code[1], "pip"),
  ];
  if (opts.button) {
    const off = Boolean(opts.disabled);
    return el("button", {
      type: "button", class: classes, "data-card": code, "aria-label": label,
      "aria-pressed": opts.selected === undefined ? null : String(Boolean(opts.selected)),
      "aria-disabled": off ? "true" : null, tabindex: opts.tabindex ?? null,
      onclick: off || !opts.onclick ? undefined : opts.onclick, onfocus: opts.onfocus,
    }, body);
  }
  return el("span", { class: classes, "data-card": code, role: "img", "aria-label": label }, body);
}

/** A face-down card. */
export function cardBack(cls = "") {
  return el("span", { class: `card back ${cls}`, "aria-hidden": "true" });
}

/** Cards by suit (♠ ♣ ♦ ♥), high to low within a suit. */
export function sortCards(codes) {
  return [...codes].sort((a, b) =>
    SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]));
}
